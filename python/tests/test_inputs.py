"""Bad input raises the right exception with the engine's message, naming the argument; odd
but valid layouts (strides, Fortran order, lists, other exact dtypes) give the same answers."""

import numpy as np
import pytest

import obbtree

TRIANGLE = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


@pytest.fixture(scope="module")
def tri():
    return obbtree.Model(obbtree.Mesh(TRIANGLE, [[0, 1, 2]]))


@pytest.mark.parametrize(
    "vertices, faces, message",
    [
        (np.array([[np.nan, 0, 0], [1, 0, 0], [0, 1, 0]]), [[0, 1, 2]], "vertices: vertex 0 has a non-finite coordinate"),
        (np.array([[np.inf, 0, 0], [1, 0, 0], [0, 1, 0]]), [[0, 1, 2]], "vertices: vertex 0 has a non-finite"),
        (np.array([[1e300, 0, 0], [1, 0, 0], [0, 1, 0]]), [[0, 1, 2]], "vertices: vertex 0 has coordinate 1e300, outside the supported range"),
        (np.zeros((3, 2)), [[0, 1, 2]], "vertices: expected an array of shape (n, 3), got shape [3, 2]"),
        (np.zeros(9), [[0, 1, 2]], "vertices: expected an array of shape (n, 3)"),
        (TRIANGLE.astype(bool), [[0, 1, 2]], "vertices: expected an array of float64 numbers, got dtype bool"),
        (np.array([["a", "b", "c"]] * 3), [[0, 1, 2]], "vertices: expected an array of float64 numbers"),
        (TRIANGLE, [[0, 1, 3]], "faces: triangle 0 refers to vertex 3, but there are only 3 vertices"),
        (TRIANGLE, [[0, 1, -1]], "faces: face 0 has vertex index -1, not a valid index"),
        (TRIANGLE, np.array([[0.0, 1.0, 2.0]]), "faces: expected an array of integer indices, got dtype float64"),
        (TRIANGLE, np.zeros((0, 3), dtype=np.int64), "faces: the mesh has no triangles"),
        (TRIANGLE, [[0, 1]], "faces: expected an array of shape (m, 3), got shape [1, 2]"),
        (TRIANGLE, np.array([[0, 1, 2**40]], dtype=np.uint64), "faces: an index exceeds"),
        (np.array([[2**60, 0, 0], [1, 0, 0], [0, 1, 0]]), [[0, 1, 2]], "vertices: integer 1.152921504606847e18 has no exact float64 value"),
    ],
)
def test_bad_meshes_raise_value_error_naming_the_argument(vertices, faces, message):
    with pytest.raises(ValueError) as error:
        obbtree.Mesh(vertices, faces)
    assert message in str(error.value)


def test_layouts_and_dtypes_give_the_same_mesh():
    faces = np.array([[0, 1, 2]], dtype=np.int64)
    expected = obbtree.Mesh(TRIANGLE, faces)
    wide = np.zeros((3, 6))
    wide[:, ::2] = TRIANGLE  # every other column: strided, not contiguous
    variants = [
        (wide[:, ::2], faces),
        (np.asfortranarray(TRIANGLE), np.asfortranarray(faces)),
        (TRIANGLE[::-1][::-1], faces.astype(np.int32)),
        (TRIANGLE.tolist(), faces.tolist()),
        (TRIANGLE.astype(np.float32), faces.astype(np.uint32)),
        (TRIANGLE.astype(np.int64), faces.astype(np.uint8)),
    ]
    assert not wide[:, ::2].flags.c_contiguous
    for vertices, f in variants:
        mesh = obbtree.Mesh(vertices, f)
        np.testing.assert_array_equal(mesh.vertices, expected.vertices)
        np.testing.assert_array_equal(mesh.faces, expected.faces)


def test_strided_rays_and_poses_give_the_same_answers(tri):
    origins = np.array([[0.2, 0.2, 1.0], [0.3, 0.1, 2.0]])
    directions = np.array([[0.0, 0.0, -1.0], [0.0, 0.0, -2.0]])
    expected = obbtree.cast_rays(tri, origins, directions)
    padded = np.zeros((2, 3, 2))
    padded[:, :, 0], padded[:, :, 1] = origins, directions
    got = obbtree.cast_rays(tri, padded[:, :, 0], padded[:, :, 1])
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(e, g)
    pose = np.eye(4)
    pose[:3, 3] = (0.1, 0.0, 0.0)
    assert obbtree.collide(tri, np.asfortranarray(pose), tri, None)[0]
    assert obbtree.collide(tri, pose.T.T, tri, None)[0]


@pytest.mark.parametrize(
    "pose, message",
    [
        (np.eye(4) * 2, "pose_b: the last row of a homogeneous pose matrix must be [0, 0, 0, 1]"),
        (np.diag([2.0, 1.0, 1.0, 1.0]), "pose_b: the rotation is not orthonormal"),
        (np.diag([-1.0, 1.0, 1.0, 1.0]), "pose_b: the rotation is a reflection"),
        (np.where(np.eye(4) == 1, 1.0, 0.0) + np.pad([[0, 0, 0, np.nan]], ((0, 3), (0, 0))), "pose_b: the pose has a non-finite translation entry"),
        (np.eye(3), "pose_b: expected an array of shape (4, 4), got shape [3, 3]"),
        (np.eye(4)[None], "pose_b: expected an array of shape (4, 4)"),
        ("not a pose", "pose_b: expected an array of float64 numbers"),
    ],
)
def test_bad_poses_raise_value_error(tri, pose, message):
    with pytest.raises(ValueError) as error:
        obbtree.collide(tri, None, tri, pose)
    assert message in str(error.value)


def test_bad_pose_in_a_batch_is_named_by_index(tri):
    poses = np.stack([np.eye(4)] * 3)
    poses[2, 0, 0] = np.nan
    with pytest.raises(ValueError, match=r"poses\[2\]: the pose has a non-finite rotation entry"):
        obbtree.collide_many(tri, None, tri, poses)
    with pytest.raises(ValueError, match=r"poses: expected an array of shape \(k, 4, 4\)"):
        obbtree.collide_many(tri, None, tri, np.eye(4))


def test_calls_in_the_former_argument_order_fail_loudly(tri):
    """The batches took (a, b, poses, pose_a=None) before they took collide's order with the
    batch in pose_b's place: such calls raise a TypeError naming the argument, never answer."""
    poses = np.stack([np.eye(4)] * 2)
    for many in (obbtree.collide_many, obbtree.distance_many):
        with pytest.raises(TypeError, match="'poses'"):  # one positional argument short
            many(tri, tri, poses)
        with pytest.raises(TypeError, match=r"^pose_a: expected a \(4, 4\) pose matrix or None, got an obbtree\.Model"):
            many(tri, tri, poses, None)
        with pytest.raises(TypeError, match="'pose_a'"):
            many(tri, tri, poses, pose_a=np.eye(4))
        with pytest.raises(TypeError, match=r"^b: expected an obbtree\.Model, got numpy\.ndarray; the arguments are \(a, pose_a, b, poses, "):
            many(tri, None, poses, tri)
        with pytest.raises(TypeError, match=r"^poses: expected a \(k, 4, 4\) array of poses, got an obbtree\.Model"):
            many(tri, None, tri, tri)
    with pytest.raises(TypeError, match=r"^pose_a: .* got an obbtree\.Model; each model is followed by its pose"):
        obbtree.collide(tri, tri, tri, None)
    with pytest.raises(TypeError, match="'b'"):
        obbtree.distance(tri, tri, np.eye(4), np.eye(4))


def test_placement_out_of_the_exact_range_is_refused(tri):
    far = np.eye(4)
    far[0, 3] = 1e104
    with pytest.raises(ValueError, match="collide: mesh B placed at its pose"):
        obbtree.collide(tri, None, tri, far)


@pytest.mark.parametrize(
    "origins, directions, message",
    [
        ([[0, 0, 1]], [[0, 0, 0]], "origins/directions: item 0 of the batch: the ray is not valid"),
        ([[0, 0, 1], [np.nan, 0, 0]], [[0, 0, -1]] * 2, "item 1 of the batch: the ray is not valid (origin [NaN"),
        ([[0, 0, 1]], [[0, 0, np.inf]], "the ray is not valid"),
        ([[0, 0, 1]], [[0, 0, -1], [0, 0, -1]], "directions: 2 directions for 1 origins"),
        ([0, 0, 1], [0, 0, -1], "origins: expected an array of shape (n, 3), got shape [3]"),
    ],
)
def test_bad_rays_raise_value_error(tri, origins, directions, message):
    for query in (obbtree.cast_rays, obbtree.cast_rays_all, obbtree.any_hits):
        with pytest.raises(ValueError) as error:
            query(tri, origins, directions)
        assert message in str(error.value)


def test_bad_max_t_and_mode(tri):
    with pytest.raises(ValueError, match="max_t: max_t must be a non-negative number"):
        obbtree.cast_rays(tri, [[0, 0, 1]], [[0, 0, -1]], max_t=-1.0)
    with pytest.raises(ValueError, match='mode: "some" is not a mode'):
        obbtree.collide(tri, None, tri, None, mode="some")


def test_mixed_volume_types_are_refused(tri):
    aabb = obbtree.Model(tri.mesh, bv="aabb")
    with pytest.raises(ValueError, match="different bounding volumes \\(obb and aabb\\)"):
        obbtree.collide(tri, None, aabb, None)
    with pytest.raises(ValueError, match='bv: unknown bounding volume "rss"'):
        obbtree.Model(tri.mesh, bv="rss")
    scene = obbtree.Scene("aabb")
    with pytest.raises(ValueError, match="the scene holds aabb models, not obb"):
        scene.insert("t", tri)


def test_missing_and_bad_files(tmp_path, tri):
    with pytest.raises(FileNotFoundError, match="nope.obj: cannot read the file"):
        obbtree.Mesh.load(tmp_path / "nope.obj")
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nf 1 2 7\n")
    with pytest.raises(OSError, match="bad.obj"):
        obbtree.Mesh.load(bad)
    with pytest.raises(OSError, match="unknown mesh format"):
        obbtree.Mesh.load(tmp_path / "mesh.xyz")
    with pytest.raises(FileNotFoundError, match="nope.tree"):
        obbtree.Model.load(tmp_path / "nope.tree", tri.mesh)
    with pytest.raises(OSError):
        tri.save(tmp_path / "missing-dir" / "t.tree")
    damaged = tmp_path / "damaged.tree"
    damaged.write_bytes(b"OBBTREE\0" + b"\x01" * 40)
    with pytest.raises(ValueError, match="damaged.tree"):
        obbtree.Model.load(damaged, tri.mesh)


def test_tree_files_round_trip_and_check_the_mesh(tmp_path, bunny, teapot):
    path = tmp_path / "bunny.tree"
    for bv in obbtree.VOLUMES:
        model = obbtree.Model(bunny, bv=bv)
        model.save(path)
        loaded = obbtree.Model.load(path, bunny)
        assert loaded.bv == bv
        assert loaded.tree_bytes() == model.tree_bytes()
    with pytest.raises(ValueError, match="path: .*bunny.tree"):
        obbtree.Model.load(path, teapot)


def test_open_mesh_has_no_inside(tri):
    with pytest.raises(ValueError, match="model: the mesh is not closed"):
        obbtree.contains_points(tri, [[0, 0, 0]])


def test_scene_names_are_checked(tri):
    scene = obbtree.Scene()
    scene.insert("a", tri)
    with pytest.raises(ValueError, match='an object named "a" is already in the scene'):
        scene.insert("a", tri)
    with pytest.raises(ValueError, match='no object named "b" in the scene'):
        scene.remove("b")
    with pytest.raises(ValueError, match='no object named "b"'):
        scene.set_pose("b", np.eye(4))
    with pytest.raises(ValueError, match="pose: the rotation is a reflection"):
        scene.set_pose("a", np.diag([1.0, 1.0, -1.0, 1.0]))


def test_former_names_warn_and_answer_as_the_new_ones(tri):
    """contains, any_hit and Scene.collide_scene are the former names of contains_points,
    any_hits and Scene.collide_scenes: a DeprecationWarning at the caller's line, then the same
    answer."""
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
    points = [[0.1, 0.1, 0.1], [1, 1, 1]]
    origins, directions = [[0.2, 0.2, 1], [2, 2, 1]], [[0, 0, -1], [0, 0, -1]]
    scene, other = obbtree.Scene(), obbtree.Scene()
    scene.insert("a", tri)
    other.insert("b", tri)
    cases = [
        (lambda: obbtree.contains(tet, points), lambda: obbtree.contains_points(tet, points),
         "obbtree.contains is deprecated: it is the former name of obbtree.contains_points"),
        (lambda: obbtree.any_hit(tri, origins, directions, max_t=5.0),
         lambda: obbtree.any_hits(tri, origins, directions, max_t=5.0),
         "obbtree.any_hit is deprecated: it is the former name of obbtree.any_hits"),
        (lambda: scene.collide_scene(other, mode="first"), lambda: scene.collide_scenes(other, mode="first"),
         "Scene.collide_scene is deprecated: it is the former name of Scene.collide_scenes"),
    ]
    for old, new, message in cases:
        with pytest.warns(DeprecationWarning, match=message) as warned:
            answer = old()
        assert len(warned) == 1 and warned[0].filename == __file__
        expected = new()
        if isinstance(expected, list):
            assert [(a, b, p.tolist()) for a, b, p in answer] == [(a, b, p.tolist()) for a, b, p in expected]
        else:
            np.testing.assert_array_equal(answer, expected)
