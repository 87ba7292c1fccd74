"""obbtree.trimesh.CollisionManager against trimesh's own (python-fcl), the same scenes and
transforms: same return shapes and names; pair sets equal up to pairs the exact oracle decides."""

import numpy as np
import pytest

import obbtree.trimesh as ob
from conftest import as_trimesh, rotation, translation
from exact import triangles_intersect

trimesh = pytest.importorskip("trimesh")
pytest.importorskip("fcl")


@pytest.fixture(scope="module")
def parts(kuka, bunny, teapot):
    return {"bunny": bunny, "teapot": teapot, "link2": kuka[2], "link3": kuka[3]}


PLACES = {
    "bunny": translation(0.0, 0.0, 0.0),
    "teapot": translation(0.015625, 0.03125, 0.0) @ rotation(2, 1),
    "link2": translation(30.0, 0.0, 0.0),
    "link3": translation(30.0, 0.0, 0.0625) @ rotation(0, 1),
}


def both_managers(parts, names):
    managers = (ob.CollisionManager(), trimesh.collision.CollisionManager())
    for manager in managers:
        for name in names:
            manager.add_object(name, as_trimesh(parts[name]), PLACES[name])
    return managers


def pair_set(contacts, a, b):
    return {(c.index(a), c.index(b)) for c in contacts if c.names == {a, b}}


def check_pairs(parts, a, b, ours, theirs, transform_b=None):
    ta = parts[a].vertices @ PLACES[a][:3, :3].T + PLACES[a][:3, 3]
    pose_b = PLACES[b] if transform_b is None else transform_b
    tb = parts[b].vertices @ pose_b[:3, :3].T + pose_b[:3, 3]
    for i, j in ours ^ theirs:
        assert triangles_intersect(ta[parts[a].faces[i]], tb[parts[b].faces[j]]) == ((i, j) in ours)


def test_in_collision_internal(parts):
    ours, theirs = both_managers(parts, PLACES)
    assert ours.in_collision_internal() == theirs.in_collision_internal() is True
    hit, names = ours.in_collision_internal(return_names=True)
    assert (hit, names) == theirs.in_collision_internal(return_names=True)
    assert names == {("bunny", "teapot"), ("link2", "link3")}
    _, names_o, data_o = ours.in_collision_internal(return_names=True, return_data=True)
    _, names_t, data_t = theirs.in_collision_internal(return_names=True, return_data=True)
    assert names_o == names_t
    for a, b in names_o:
        check_pairs(parts, a, b, pair_set(data_o, a, b), pair_set(data_t, a, b))
    contact = data_o[0]
    assert len(contact.names) == 2 and contact.point.shape == (3,) and contact.normal.shape == (3,)


def test_in_collision_single_and_other(parts):
    ours, theirs = both_managers(parts, ["bunny", "link2"])
    teapot = as_trimesh(parts["teapot"])
    transform = PLACES["teapot"]
    assert ours.in_collision_single(teapot, transform, return_names=True) == theirs.in_collision_single(
        teapot, transform, return_names=True
    )
    hit, data = ours.in_collision_single(teapot, transform, return_data=True)
    _, data_t = theirs.in_collision_single(teapot, transform, return_data=True)
    check_pairs(
        {**parts, "__external": parts["teapot"]}, "bunny", "__external",
        pair_set(data, "bunny", "__external"), pair_set(data_t, "bunny", "__external"), transform,
    )
    assert ours.in_collision_single(teapot, translation(100.0, 0, 0)) is False
    others = both_managers(parts, ["teapot", "link3"])
    got = ours.in_collision_other(others[0], return_names=True)
    assert got == theirs.in_collision_other(others[1], return_names=True)
    assert got == (True, {("bunny", "teapot"), ("link2", "link3")})


def test_add_remove_set_transform(parts):
    ours, theirs = both_managers(parts, PLACES)
    for manager in (ours, theirs):
        manager.remove_object("teapot")
        manager.set_transform("link3", translation(100.0, 0.0, 0.0))
    assert ours.in_collision_internal(return_names=True) == theirs.in_collision_internal(return_names=True) == (False, set())
    for manager in (ours, theirs):
        manager.add_object("link3", as_trimesh(parts["link3"]), PLACES["link3"])  # replaces
    assert ours.in_collision_internal(return_names=True) == theirs.in_collision_internal(return_names=True)
    with pytest.raises(ValueError, match="nope not in collision manager!"):
        ours.remove_object("nope")
    with pytest.raises(ValueError, match="nope not in collision manager!"):
        ours.set_transform("nope", np.eye(4))
    with pytest.raises(ValueError, match="transform: expected an array of shape \\(4, 4\\)"):
        ours.add_object("x", as_trimesh(parts["bunny"]), np.eye(3))


def test_distance_is_not_there_yet(parts):
    manager, _ = both_managers(parts, ["bunny"])
    for call in (
        lambda: manager.min_distance_single(as_trimesh(parts["teapot"])),
        lambda: manager.min_distance_internal(),
        lambda: manager.min_distance_other(manager),
    ):
        with pytest.raises(NotImplementedError, match="distance queries"):
            call()
