"""Pickling round trips give the same answers; a model travels with its tree, which is read
back (and checked), not rebuilt."""

import pickle

import numpy as np
import pytest

import obbtree
from conftest import as_trimesh, rotation, translation
from obbtree.trimesh import CollisionManager, RayMeshIntersector


def test_mesh_round_trip(bunny):
    back = pickle.loads(pickle.dumps(bunny))
    np.testing.assert_array_equal(back.vertices, bunny.vertices)
    np.testing.assert_array_equal(back.faces, bunny.faces)


@pytest.mark.parametrize("bv", obbtree.VOLUMES)
def test_model_travels_with_its_tree(bunny, teapot, bv):
    model = obbtree.Model(bunny, bv)
    restore, args = model.__reduce__()
    assert restore == obbtree.Model.from_tree_bytes  # not the building constructor
    data = pickle.dumps(model)
    assert model.tree_bytes() in data
    back = pickle.loads(data)
    assert back.bv == bv and back.tree_bytes() == model.tree_bytes()
    other = obbtree.Model(teapot, bv)
    pose = translation(0.015625, 0.03125, 0) @ rotation(2, 1)
    np.testing.assert_array_equal(
        obbtree.collide(back, None, other, pose, mode="all")[1],
        obbtree.collide(model, None, other, pose, mode="all")[1],
    )


def test_a_damaged_tree_in_a_pickle_is_refused(bunny):
    model = obbtree.Model(bunny)
    tree = model.tree_bytes()
    damaged = pickle.dumps(model).replace(tree, tree[:-1] + bytes([tree[-1] ^ 1]))
    with pytest.raises(ValueError, match="tree: the tree file is corrupted: checksum mismatch"):
        pickle.loads(damaged)


def test_scene_round_trip(kuka):
    scene = obbtree.Scene()
    for i, m in enumerate(kuka[:4]):
        scene.insert(f"link{i}", obbtree.Model(m), translation(0, 0, 0.0625 * i))
    scene.allow("link0", "link1")
    back = pickle.loads(pickle.dumps(scene))
    assert back.names() == scene.names()
    np.testing.assert_array_equal(back.pose("link2"), scene.pose("link2"))
    expected = [(a, b, p.tolist()) for a, b, p in scene.collide_all(mode="all")]
    assert [(a, b, p.tolist()) for a, b, p in back.collide_all(mode="all")] == expected
    assert ("link0", "link1") not in [(a, b) for a, b, _ in back.collide_all(mode="first")]


def test_trimesh_drop_ins_round_trip(teapot, bunny):
    tm = as_trimesh(teapot)
    ray = RayMeshIntersector(tm)
    origins = np.random.default_rng(0).uniform(-20, 20, (200, 3))
    expected = ray.intersects_first(origins, -origins)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(ray)).intersects_first(origins, -origins), expected)
    manager = CollisionManager()
    manager.add_object("teapot", tm)
    back = pickle.loads(pickle.dumps(manager))
    probe = as_trimesh(bunny)
    assert back.in_collision_single(probe, return_names=True) == manager.in_collision_single(probe, return_names=True)
