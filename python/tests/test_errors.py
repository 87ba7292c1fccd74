"""The exception hierarchy: every refusal of bad input is an ``obbtree.Error`` (a
``ValueError``) of the class of its area, and its message names the argument."""

import numpy as np
import pytest

import obbtree

TRIANGLE = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


@pytest.fixture(scope="module")
def tri():
    return obbtree.Model(obbtree.Mesh(TRIANGLE, [[0, 1, 2]]))


def refusals(tri, tmp_path):
    """(class, call, the message's start) for a real bad input of each area."""
    bad_obj = tmp_path / "bad.obj"
    bad_obj.write_text("v 0 0 0\nv 1 0 0\nf 1 2 7\n")
    scene = obbtree.Scene()
    scene.insert("a", tri)
    return [
        (obbtree.MeshError, lambda: obbtree.Mesh(np.full((3, 3), np.nan), [[0, 1, 2]]), "vertices: "),
        (obbtree.MeshError, lambda: obbtree.Mesh(TRIANGLE, [[0, 1, 3]]), "faces: "),
        (obbtree.MeshError, lambda: obbtree.Mesh(TRIANGLE, [[0, 1]]), "faces: expected an array of shape (m, 3)"),
        (obbtree.PoseError, lambda: obbtree.collide(tri, None, tri, np.eye(4) * 2), "pose_b: "),
        (obbtree.PoseError, lambda: obbtree.cast_rays(tri, [[0, 0, 1]], [[0, 0, -1]], pose=np.eye(3)), "pose: expected an array of shape (4, 4)"),
        (obbtree.PoseError, lambda: obbtree.Scene().insert("a", tri, np.diag([1.0, 1.0, -1.0, 1.0])), "pose: the rotation is a reflection"),
        (obbtree.LoadError, lambda: obbtree.Model.from_tree_bytes(tri.mesh, b"not a tree"), "tree: "),
        (obbtree.LoadError, lambda: obbtree.Mesh.load(bad_obj), "path: "),
        (obbtree.QueryError, lambda: obbtree.cast_rays(tri, [[0, 0, 1]], [[0, 0, -1]], max_t=-1.0), "max_t: "),
        (obbtree.QueryError, lambda: obbtree.cast_rays(tri, [[0, 0, 1]], [[0, 0, 0]]), "origins/directions: item 0 of the batch"),
        (obbtree.QueryError, lambda: obbtree.within_margin(tri, None, tri, None, -1.0), "margin: "),
        (obbtree.QueryError, lambda: obbtree.collide(tri, None, tri, None, mode="some"), "mode: "),
        (obbtree.QueryError, lambda: obbtree.distance(tri, None, tri, None, hint=(0, 9)), "hint: "),
        (obbtree.SceneError, lambda: scene.remove("b"), "scene: no object named"),
        (obbtree.SceneError, lambda: scene.insert("a", tri), "scene: an object named"),
        (obbtree.SceneError, lambda: scene.min_distance(limit=float("nan")), "limit: "),
        (obbtree.CameraError, lambda: obbtree.Camera.look_at([0, 0, 5], [0, 0, 5], [0, 1, 0], 0.8, 1, 9, 4, 4), "target: "),
        (obbtree.CameraError, lambda: obbtree.Camera.framing([[0, 0, 0], [1, 1, 1]], 4, 4).pixel_ray(4, 0), "x: pixel (4, 0) is outside"),
        (obbtree.QueryError, lambda: obbtree.cull(tri, np.zeros((6, 4))), "frustum: "),
        (obbtree.Error, lambda: obbtree.Model(tri.mesh, bv="rss"), "bv: "),
        (obbtree.Error, lambda: obbtree.collide(tri, None, obbtree.Model(tri.mesh, bv="aabb"), None), "b: "),
    ]


def test_each_area_raises_its_class_naming_the_argument(tri, tmp_path):
    for cls, call, start in refusals(tri, tmp_path):
        with pytest.raises(cls) as raised:
            call()
        error = raised.value
        assert type(error) is cls, (start, type(error))
        assert isinstance(error, obbtree.Error) and isinstance(error, ValueError), start
        assert str(error).startswith(start), (str(error), start)


def test_the_classes_form_one_hierarchy():
    assert issubclass(obbtree.Error, ValueError)
    for cls in (obbtree.MeshError, obbtree.PoseError, obbtree.LoadError, obbtree.QueryError,
                obbtree.SceneError, obbtree.CameraError):
        assert cls.__bases__[0] is obbtree.Error and cls.__module__ == "obbtree"
        assert cls.__name__ in obbtree.__all__ and cls.__doc__
    # Malformed mesh files raised OSError before LoadError existed: they still do.
    assert issubclass(obbtree.LoadError, OSError)


def test_files_that_cannot_be_read_are_os_errors_not_obbtree_errors(tmp_path, tri):
    with pytest.raises(FileNotFoundError) as raised:
        obbtree.Mesh.load(tmp_path / "nope.obj")
    assert not isinstance(raised.value, obbtree.Error)
    damaged = tmp_path / "damaged.tree"
    damaged.write_bytes(b"OBBTREE\0" + b"\x01" * 40)
    with pytest.raises(obbtree.LoadError, match="path: .*damaged.tree"):
        obbtree.Model.load(damaged, tri.mesh)


def test_the_trimesh_manager_raises_the_same_classes(tri):
    from obbtree.trimesh import CollisionManager

    manager = CollisionManager()
    manager.add_object("a", tri)
    with pytest.raises(obbtree.SceneError, match="nope not in collision manager!"):
        manager.remove_object("nope")
    with pytest.raises(obbtree.PoseError, match=r"^transform: expected an array of shape \(4, 4\)"):
        manager.set_transform("a", np.eye(3))
