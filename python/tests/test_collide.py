"""Collision answers against python-fcl (through trimesh's own CollisionManager) on the bundled
meshes, every difference decided by the exact rational oracle (tests/exact.py); and the batch,
self-collision and containment queries against independent answers."""

import inspect

import numpy as np
import pytest

import obbtree
from conftest import as_trimesh, rotation, translation
from exact import triangles_intersect

trimesh = pytest.importorskip("trimesh")
pytest.importorskip("fcl")


def triangles(mesh, pose):
    v = mesh.vertices @ pose[:3, :3].T + pose[:3, 3]
    return v[mesh.faces]


def fcl_pairs(mesh_a, mesh_b, pose_b):
    """Triangle pairs python-fcl reports, through trimesh's manager (BVH models: the meshes
    are not convex)."""
    manager = trimesh.collision.CollisionManager()
    manager.add_object("a", as_trimesh(mesh_a))
    _, contacts = manager.in_collision_single(as_trimesh(mesh_b), pose_b, return_data=True)
    return {(c.index("a"), c.index("__external")) for c in contacts}


def attribute(mesh_a, mesh_b, pose_b, ours, theirs):
    """Every pair on which the two disagree, decided exactly: ours must be right."""
    ta, tb = triangles(mesh_a, np.eye(4)), triangles(mesh_b, pose_b)
    for i, j in ours ^ theirs:
        assert triangles_intersect(ta[i], tb[j]) == ((i, j) in ours), (i, j)
    return len(ours ^ theirs)


# Poses exact in float32 (trimesh rounds manager transforms to float32): quarter turns and
# translations in multiples of 1/64.
POSES = [
    translation(0.0, 0.0, 0.0),
    translation(0.015625, 0.03125, 0.0) @ rotation(2, 1),
    translation(-0.03125, 0.046875, 0.015625) @ rotation(0, 1),
    translation(0.0625, 0.0, -0.03125) @ rotation(1, 3),
    translation(0.5, 0.0, 0.0),
]


@pytest.mark.parametrize("k", range(len(POSES)))
def test_bunny_against_teapot_matches_fcl_up_to_exactly_decided_pairs(bunny, teapot, k):
    scale = np.eye(4)
    pose = POSES[k]
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    intersects, pairs = obbtree.collide(a, None, b, pose, mode="all")
    ours = set(map(tuple, pairs.tolist()))
    theirs = fcl_pairs(bunny, teapot, pose @ scale)
    differences = attribute(bunny, teapot, pose, ours, theirs)
    assert intersects == bool(ours)
    # Disagreements are rare: FCL's float test errs only near touching.
    assert differences <= max(3, len(ours) // 100)


def test_kuka_links_against_each_other_match_fcl(kuka):
    models = [obbtree.Model(m) for m in kuka]
    checked = 0
    for i in range(len(kuka) - 1):
        for pose in POSES[:3]:
            ours = set(map(tuple, obbtree.collide(models[i], None, models[i + 1], pose, mode="all")[1].tolist()))
            theirs = fcl_pairs(kuka[i], kuka[i + 1], pose)
            attribute(kuka[i], kuka[i + 1], pose, ours, theirs)
            checked += len(ours)
    assert checked > 0


def test_first_mode_gives_a_pair_of_all_mode(bunny, teapot):
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    for pose in POSES:
        hit, first = obbtree.collide(a, None, b, pose, mode="first")
        all_hit, pairs = obbtree.collide(a, None, b, pose, mode="all")
        assert hit == all_hit
        assert len(first) == (1 if hit else 0)
        if hit:
            assert tuple(first[0]) in set(map(tuple, pairs.tolist()))


def test_no_pairs_is_one_shared_read_only_empty_array(bunny, teapot):
    """A query that finds nothing answers a (0, 2) int64 array that cannot be changed in place
    (it is shared between answers); a copy can."""
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    far = np.eye(4)
    far[0, 3] = 1e3
    answers = [obbtree.collide(a, None, b, far, mode=mode)[1] for mode in ("first", "all")]
    for pairs in answers:
        assert pairs.shape == (0, 2) and pairs.dtype == np.int64
        assert not pairs.flags.writeable
        with pytest.raises(ValueError):
            pairs.resize((1, 2))
        copy = pairs.copy()
        copy.resize((1, 2), refcheck=False)
    assert answers[0] is answers[1]


def test_every_volume_type_gives_the_same_pairs(bunny, teapot):
    expected = obbtree.collide(obbtree.Model(bunny), None, obbtree.Model(teapot), POSES[1], mode="all")[1]
    for bv in obbtree.VOLUMES:
        got = obbtree.collide(obbtree.Model(bunny, bv), None, obbtree.Model(teapot, bv), POSES[1], mode="all")[1]
        np.testing.assert_array_equal(got, expected, err_msg=bv)


def test_pose_a_moves_a(bunny, teapot):
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    pose_a = translation(0.25, -0.125, 0.5) @ rotation(1, 1)
    pose_b = pose_a @ POSES[2]
    np.testing.assert_array_equal(
        obbtree.collide(a, pose_a, b, pose_b, mode="all")[1],
        obbtree.collide(a, None, b, POSES[2], mode="all")[1],
    )


def test_contacts_lie_on_both_triangles(bunny, teapot):
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    pose_a = translation(1.0, 2.0, 3.0)
    pose_b = pose_a @ POSES[1]
    hit, pairs, points = obbtree.collide(a, pose_a, b, pose_b, mode="all", contacts=True)
    assert hit and points.shape == (len(pairs), 3)
    ta, tb = triangles(bunny, pose_a), triangles(teapot, pose_b)
    for (i, j), p in zip(pairs, points):
        if np.isnan(p).any():
            continue
        for tri in (ta[i], tb[j]):
            n = np.cross(tri[1] - tri[0], tri[2] - tri[0])
            assert abs(np.dot(n / np.linalg.norm(n), p - tri[0])) < 1e-9


def test_collide_many_equals_one_by_one(bunny, teapot):
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    poses = np.stack(POSES * 3)
    for mode in ("first", "all"):
        intersects, rows = obbtree.collide_many(a, None, b, poses, mode=mode)
        assert intersects.shape == (len(poses),)
        for k, pose in enumerate(poses):
            hit, pairs = obbtree.collide(a, None, b, pose, mode=mode)
            assert intersects[k] == hit
            if mode == "all":
                np.testing.assert_array_equal(rows[rows[:, 0] == k, 1:], pairs)
            else:
                assert (rows[:, 0] == k).sum() == (1 if hit else 0)


def test_self_collide_against_the_exact_oracle():
    box = trimesh.creation.box()
    turned = box.copy()
    turned.apply_transform(translation(0.25, 0.125, 0.0625) @ rotation(2, 1) @ rotation(0, 1))
    turned.apply_transform(trimesh.transformations.rotation_matrix(0.3, [1, 1, 0]))
    both = trimesh.util.concatenate([box, turned])
    mesh = obbtree.Mesh(both.vertices, both.faces)
    hit, pairs = obbtree.self_collide(obbtree.Model(mesh))
    tris = mesh.vertices[mesh.faces]
    faces = mesh.faces
    expected = {
        (i, j)
        for i in range(len(faces))
        for j in range(i + 1, len(faces))
        if not set(faces[i]) & set(faces[j]) and triangles_intersect(tris[i], tris[j])
    }
    assert expected, "the two boxes cross"
    assert hit and set(map(tuple, pairs.tolist())) == expected


def test_contains_points_on_a_sphere():
    sphere = trimesh.creation.icosphere(subdivisions=3)
    model = obbtree.Model(obbtree.Mesh(sphere.vertices, sphere.faces))
    rng = np.random.default_rng(7)
    points = rng.uniform(-1.2, 1.2, size=(2000, 3))
    radius = np.linalg.norm(points, axis=1)
    clear = (radius < 0.98) | (radius > 1.0001)
    inside = obbtree.contains_points(model, points)
    np.testing.assert_array_equal(inside[clear], radius[clear] < 0.98)
    moved = translation(5.0, 0.0, 0.0)
    np.testing.assert_array_equal(obbtree.contains_points(model, points + [5.0, 0, 0], pose=moved), inside)


def test_scene_stats_say_how_pairs_were_answered(kuka):
    """A second query with nothing moved answers every candidate pair from the first; a moved
    object's pairs are answered afresh (by the full query or a coherence shortcut)."""
    scene = obbtree.Scene()
    for i in (2, 3):
        scene.insert(f"link{i}", obbtree.Model(kuka[i]))
    first = [(a, b, pairs.tolist()) for a, b, pairs in scene.collide_all(mode="first")]
    assert scene.last_stats()["candidates"] == 1
    assert [(a, b, pairs.tolist()) for a, b, pairs in scene.collide_all(mode="first")] == first
    assert scene.last_stats() == {"candidates": 1, "reused": 1, "witnessed": 0, "separated": 0, "hinted": 0, "queried": 0}
    scene.set_pose("link3", translation(0.0, 0.0, 0.015625))
    scene.collide_all(mode="first")
    stats = scene.last_stats()
    assert stats["reused"] == 0 and stats["queried"] + stats["witnessed"] + stats["separated"] == 1


def test_mode_defaults_to_all_as_in_the_engine(bunny, teapot):
    """Every query taking a mode defaults to "all" (the engine's CollisionRequest::default())."""
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    pose = POSES[1]
    pairs = obbtree.collide(a, None, b, pose)[1]
    assert len(pairs) > 1
    np.testing.assert_array_equal(pairs, obbtree.collide(a, None, b, pose, mode="all")[1])
    poses = np.stack(POSES)
    np.testing.assert_array_equal(
        obbtree.collide_many(a, None, b, poses)[1], obbtree.collide_many(a, None, b, poses, mode="all")[1]
    )
    scene, other = obbtree.Scene(), obbtree.Scene()
    scene.insert("bunny", a)
    scene.insert("teapot", b, pose)
    other.insert("teapot", b, pose)
    for query in (
        lambda **mode: scene.collide_all(**mode),
        lambda **mode: scene.collide_with(b, pose, **mode),
        lambda **mode: scene.collide_scenes(other, **mode),
    ):
        default = [p.tolist() for *_, p in query()]
        assert default == [p.tolist() for *_, p in query(mode="all")]
        assert max(len(p) for p in default) > 1
    with_mode = []
    for name in dir(obbtree._obbtree) + [f"Scene.{m}" for m in dir(obbtree.Scene)]:
        function = obbtree._obbtree
        for part in name.split("."):
            function = getattr(function, part)
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):
            continue
        if "mode" in parameters:
            assert parameters["mode"].default == "all", name
            with_mode.append(name)
    assert {"collide", "collide_many", "self_collide", "Scene.collide_all"} <= set(with_mode)
