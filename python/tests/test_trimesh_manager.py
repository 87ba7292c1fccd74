"""obbtree.trimesh.CollisionManager against trimesh's own (python-fcl), the same scenes and
transforms: same return shapes and names; pair sets equal up to pairs the exact oracle decides;
distances equal to FCL's precision, the closest pairs measured exactly."""

from fractions import Fraction

import numpy as np
import pytest

import obbtree.trimesh as ob
from conftest import as_trimesh, rotation, translation
from exact import triangle_distance_squared, triangles_intersect

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


def test_set_transform_keeps_its_own_copy(parts):
    """The manager answers for the transform as it was when set: changing the caller's array
    afterwards, or a refused transform, moves nothing; contact normals use that pose too."""
    ours, theirs = both_managers(parts, PLACES)
    far = translation(100.0, 0.0, 0.0)
    for manager in (ours, theirs):
        manager.set_transform("link3", far)
    far[0, 3] = PLACES["link3"][0, 3]  # back in contact, had the manager kept the array
    bad = np.array(PLACES["link3"])
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="transform: "):
        ours.set_transform("link3", bad)
    with pytest.raises(ValueError, match="transform: "):
        ours.set_transform("link3", np.eye(3))
    names = ours.in_collision_internal(return_names=True)
    assert names == theirs.in_collision_internal(return_names=True)
    assert ("link2", "link3") not in names[1]
    ours.set_transform("link3", PLACES["link3"].tolist())  # nested lists too (not trimesh's)
    theirs.set_transform("link3", PLACES["link3"])
    _, contacts = ours.in_collision_internal(return_data=True)
    _, theirs_contacts = theirs.in_collision_internal(return_data=True)
    assert len(contacts) > 0 and len(contacts) == len(theirs_contacts)
    rotated = ours._objs["link3"].transform[:3, :3]
    assert np.array_equal(rotated, PLACES["link3"][:3, :3])
    for contact in contacts:
        if contact.names == {"link2", "link3"}:
            normal = ours._objs["link3"].world_normals([contact.index("link3")])[0]
            assert abs(np.linalg.norm(normal) - 1.0) < 1e-12


# Objects apart, for the distance queries: two KUKA links close to each other far from the rest,
# the bunny and the teapot farther apart.
APART = {
    "bunny": translation(0.0, 0.0, 0.0),
    "teapot": translation(30.0, 2.0, 1.0) @ rotation(2, 1),
    "link2": translation(0.0, 20.0, 0.0),
    "link3": translation(0.25, 20.0, 0.0625) @ rotation(0, 1),
}


def apart_managers(parts, names):
    managers = (ob.CollisionManager(), trimesh.collision.CollisionManager())
    for manager in managers:
        for name in names:
            manager.add_object(name, as_trimesh(parts[name]), APART[name])
    return managers


def placed(parts, name, transform):
    mesh = parts[name]
    return (mesh.vertices @ transform[:3, :3].T + transform[:3, 3])[mesh.faces]


def check_distance(parts, transforms, ours, theirs):
    """The same distance to FCL's precision, and decided exactly: our closest pair is exactly
    at our distance (to the engine's promise) and no farther than FCL's pair."""
    (d, names, data), (d_fcl, names_fcl, data_fcl) = ours, theirs
    scale = max(np.abs(placed(parts, n, transforms[n])).max() for n in data.names)
    assert abs(d - d_fcl) <= 1e-9 * (d + scale)
    assert data.names == data_fcl.names and data.distance == d
    a, b = sorted(data.names)

    def exact(of):
        return triangle_distance_squared(
            placed(parts, a, transforms[a])[of.index(a)], placed(parts, b, transforms[b])[of.index(b)]
        )

    ours_exact = exact(data)
    tol = Fraction(2e-12 * (d + scale))
    assert max(Fraction(d) - tol, 0) ** 2 <= ours_exact <= (Fraction(d) + tol) ** 2
    assert ours_exact <= exact(data_fcl) + tol * (2 * Fraction(d) + tol)
    assert np.linalg.norm(data.point(a) - data.point(b)) == pytest.approx(d, abs=1e-9 * scale)
    return names, names_fcl


def test_min_distance_internal_matches_fcl(parts):
    ours, theirs = apart_managers(parts, APART)
    assert ours.min_distance_internal() == pytest.approx(theirs.min_distance_internal(), abs=1e-9)
    for name in (None, "link3", "teapot", "bunny"):
        got = ours.min_distance_internal(name=name, return_names=True, return_data=True)
        expected = theirs.min_distance_internal(name=name, return_names=True, return_data=True)
        names, names_fcl = check_distance(parts, APART, got, expected)
        assert names == names_fcl and names == tuple(sorted(names))
        if name is not None:
            assert name in names
    assert ours.min_distance_internal(return_names=True)[1] == ("link2", "link3")
    with pytest.raises(ValueError, match="nope not in collision manager!"):
        ours.min_distance_internal(name="nope")


@pytest.mark.parametrize(
    "transform",
    [
        translation(0.5, 20.3, 0.0),
        translation(10.0, 3.0, 0.0) @ rotation(0, 3),
        translation(0.0, 10.0, 0.0),
        translation(0.25, 20.0, 0.0625) @ rotation(0, 1),  # onto link3: crossing
    ],
)
def test_min_distance_single_matches_fcl(parts, transform):
    ours, theirs = apart_managers(parts, ["bunny", "teapot", "link3"])
    link = as_trimesh(parts["link2"])
    got = ours.min_distance_single(link, transform, return_name=True, return_data=True)
    expected = theirs.min_distance_single(link, transform, return_name=True, return_data=True)
    transforms = {**APART, ob.EXTERNAL: transform}
    name, name_fcl = check_distance({**parts, ob.EXTERNAL: parts["link2"]}, transforms, got, expected)
    assert name == name_fcl
    assert got[2].names == {name, "__external"}
    assert ours.min_distance_single(link, transform) == got[0]
    assert ours.min_distance_single(link, transform, return_name=True) == got[:2]


def test_min_distance_other_matches_fcl(parts):
    here = apart_managers(parts, ["bunny", "link2"])
    there = apart_managers(parts, ["teapot", "link3"])
    got = here[0].min_distance_other(there[0], return_names=True, return_data=True)
    expected = here[1].min_distance_other(there[1], return_names=True, return_data=True)
    names, names_fcl = check_distance(parts, APART, got, expected)
    assert names == names_fcl == ("link2", "link3")
    assert here[0].min_distance_other(there[0]) == got[0]


def test_min_distance_without_pairs_is_fcls_initial_distance(parts):
    ours, theirs = apart_managers(parts, ["bunny"])
    empty = ob.CollisionManager()
    teapot = as_trimesh(parts["teapot"])
    assert empty.min_distance_single(teapot, return_name=True) == theirs.__class__().min_distance_single(
        teapot, return_name=True
    )
    assert ours.min_distance_internal() == theirs.min_distance_internal() == np.finfo(float).max
    assert ours.min_distance_internal(return_names=True) == (np.finfo(float).max, None)


def test_min_distance_of_overlapping_solids_is_zero_where_fcl_reports_penetration():
    """trimesh hands convex meshes to FCL as solids, whose signed distance is negative when they
    overlap; obbtree measures surfaces: 0 when they cross."""
    box = trimesh.creation.box()
    ours, theirs = ob.CollisionManager(), trimesh.collision.CollisionManager()
    for manager in (ours, theirs):
        manager.add_object("a", box)
        manager.add_object("b", box, translation(0.5, 0.0, 0.0))
    assert ours.min_distance_internal() == 0.0
    assert theirs.min_distance_internal() < 0.0


def test_min_distance_refuses_bad_transforms(parts):
    ours, _ = apart_managers(parts, ["bunny"])
    with pytest.raises(ValueError, match="transform: expected an array of shape \\(4, 4\\)"):
        ours.min_distance_single(as_trimesh(parts["teapot"]), np.eye(3))
    bad = np.eye(4)
    bad[0, 3] = np.nan
    with pytest.raises(ValueError, match="transform:"):
        ours.min_distance_single(as_trimesh(parts["teapot"]), bad)
