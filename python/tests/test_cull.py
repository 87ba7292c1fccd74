"""Culling against a brute-force oracle of its own: every triangle's vertices placed by the pose
in NumPy and their side of each plane evaluated there (outside one plane: outside; inside all:
inside; otherwise intersecting, the plane-by-plane rule the engine documents), for every
volume type and for frusta given as planes, as view-projection matrices and as cameras (whose
sides come from clip space, -w <= x, y, z <= w, not from planes). A vertex within rounding of
a plane may land on either side, so triangles with such a vertex are not compared."""

import numpy as np
import pytest

import obbtree
from conftest import rotation, translation

INSIDE, OUTSIDE, INTERSECTING = 0, 1, 2


def placed(mesh, pose):
    pose = np.eye(4) if pose is None else pose
    return mesh.vertices @ pose[:3, :3].T + pose[:3, 3]


def classes(values, faces, scale):
    """Each triangle's class from its vertices' plane values ``(n, 6)`` (inside: <= 0), and
    whether a vertex is within rounding of a plane."""
    per_triangle = values[faces]  # (m, 3, 6)
    lo, hi = per_triangle.min(axis=1), per_triangle.max(axis=1)
    outside = (lo > 0).any(axis=1)
    inside = ~outside & (hi <= 0).all(axis=1)
    answer = np.where(outside, OUTSIDE, np.where(inside, INSIDE, INTERSECTING))
    tie = (np.abs(per_triangle) <= 1e-9 * scale[faces][..., None]).any(axis=(1, 2))
    return answer, tie


def by_planes(mesh, planes, pose=None):
    """The oracle for six planes ``(nx, ny, nz, d)``: distances to the unit-normal planes."""
    v = placed(mesh, pose)
    unit = planes / np.linalg.norm(planes[:, :3], axis=1)[:, None]
    values = v @ unit[:, :3].T + unit[:, 3]
    scale = np.abs(v).max(axis=1) + np.abs(unit[:, 3]).max()
    return classes(values, mesh.faces, scale)


def by_clip_space(mesh, view_projection, pose=None):
    """The oracle for a view-projection matrix: the vertex in clip space against OpenGL's
    bounds -w <= x, y, z <= w (left, right, bottom, top, near, far)."""
    v = placed(mesh, pose)
    x, y, z, w = (np.c_[v, np.ones(len(v))] @ view_projection.T).T
    values = np.stack([-(w + x), x - w, -(w + y), y - w, -(w + z), z - w], axis=1)
    scale = np.abs(x) + np.abs(y) + np.abs(z) + np.abs(w)
    return classes(values, mesh.faces, scale)


def answer_of(culled, count):
    """The class of every triangle from ``cull``'s lists, checking that they partition the
    triangles and are ascending."""
    answer = np.full(count, -1)
    for cls, indices in enumerate(culled):
        assert indices.dtype == np.int64 and (np.diff(indices) > 0).all()
        assert (answer[indices] == -1).all(), "a triangle is listed twice"
        answer[indices] = cls
    assert (answer >= 0).all(), "a triangle is not listed"
    return answer


def compare(culled, expected, count):
    answer, tie = expected
    got = answer_of(culled, count)
    np.testing.assert_array_equal(got[~tie], answer[~tie])
    return np.bincount(answer[~tie], minlength=3)


def random_box_planes(rng, center, size):
    """Six planes bounding a tilted box around ``center``: a frustum-like convex region that
    cuts through the mesh."""
    turn = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    planes = []
    for axis in range(3):
        n = turn[axis] * rng.uniform(0.5, 3.0)  # any length
        half = size * rng.uniform(0.2, 0.6)
        for sign in (-1.0, 1.0):
            normal = sign * n
            planes.append([*normal, -normal @ center - half * np.linalg.norm(n)])
    return np.array(planes)


@pytest.mark.parametrize("bv", obbtree.VOLUMES)
def test_planes_against_the_oracle(bunny, bv):
    model = obbtree.Model(bunny, bv)
    rng = np.random.default_rng(21)
    lo, hi = bunny.vertices.min(0), bunny.vertices.max(0)
    seen = np.zeros(3, int)
    for k in range(6):
        planes = random_box_planes(rng, rng.uniform(lo, hi), np.linalg.norm(hi - lo))
        pose = None if k % 2 else translation(*rng.uniform(-5, 5, 3)) @ rotation(k % 3, k)
        culled = obbtree.cull(model, planes, pose=pose)
        seen += compare(culled, by_planes(bunny, planes, pose), bunny.triangle_count)
        assert 0 < culled.nodes_tested
    assert (seen > 100).all(), seen  # every class, many times


def test_a_camera_and_its_matrix_against_clip_space(bunny):
    model = obbtree.Model(bunny)
    camera = obbtree.Camera.look_at([2.0, 6.0, 12.0], [0.5, 4.0, 0.0], [0, 1, 0], 0.35, 8.0, 14.0, 320, 240)
    pose = translation(0.25, -0.5, 0.125) @ rotation(1, 1)
    vp = camera.projection @ camera.view
    np.testing.assert_allclose(camera.view_projection, vp, rtol=1e-15, atol=1e-15)
    for p in (None, pose):
        by_camera = obbtree.cull(model, camera, pose=p)
        by_matrix = obbtree.cull(model, camera.view_projection, pose=p)
        for a, b in zip(by_camera, by_matrix):
            np.testing.assert_array_equal(a, b)
        seen = compare(by_camera, by_clip_space(bunny, vp, p), bunny.triangle_count)
        assert (seen > 20).all(), seen


def test_the_tree_saves_work_on_a_small_frustum(bunny):
    model = obbtree.Model(bunny)
    v = bunny.vertices
    corner = v[np.argmin(v[:, 1])]
    planes = np.array([[-1, 0, 0, corner[0] - 0.3], [1, 0, 0, -corner[0] - 0.3],
                       [0, -1, 0, corner[1] - 0.3], [0, 1, 0, -corner[1] - 0.3],
                       [0, 0, -1, corner[2] - 0.3], [0, 0, 1, -corner[2] - 0.3]], float)
    culled = obbtree.cull(model, planes)
    compare(culled, by_planes(bunny, planes), bunny.triangle_count)
    assert len(culled.outside) > 0.9 * bunny.triangle_count
    assert culled.nodes_tested < bunny.triangle_count / 4


def test_culled_unpacks_indexes_and_prints(bunny):
    model = obbtree.Model(bunny)
    culled = obbtree.cull(model, obbtree.Camera.framing([bunny.vertices.min(0), bunny.vertices.max(0)], 64, 64))
    inside, outside, intersecting = culled
    assert len(culled) == 3 and culled[0] is culled.inside and culled[-1] is culled.intersecting
    assert len(inside) == bunny.triangle_count and len(outside) == len(intersecting) == 0
    assert repr(culled) == (
        f"obbtree.Culled(inside={bunny.triangle_count}, outside=0, intersecting=0, nodes_tested={culled.nodes_tested})"
    )
    with pytest.raises(IndexError):
        culled[3]


@pytest.mark.parametrize(
    "frustum, pose, error, message",
    [
        (np.zeros((3, 4)), None, obbtree.QueryError, "frustum: expected a Camera, a (4, 4) view-projection matrix or a (6, 4) array of planes (nx, ny, nz, d), got shape [3, 4]"),
        (np.full((6, 4), np.nan), None, obbtree.QueryError, "frustum: entries must be finite, not NaN"),
        (np.eye(6, 4) * [0, 1, 1, 1], None, obbtree.QueryError, "frustum: frustum plane 0 is degenerate"),
        (np.zeros((4, 4)), None, obbtree.QueryError, "frustum: frustum plane 0 is degenerate"),
        ("planes", None, obbtree.QueryError, "frustum: expected an array of float64 numbers"),
        (np.eye(4), translation(1e300, 0, 0), obbtree.QueryError, "pose: the mesh's pose translates by"),
        (np.eye(4), np.eye(3), obbtree.PoseError, "pose: expected an array of shape (4, 4)"),
    ],
)
def test_bad_frusta_and_poses(bunny, frustum, pose, error, message):
    with pytest.raises(error) as raised:
        obbtree.cull(obbtree.Model(bunny), frustum, pose=pose)
    assert str(raised.value).startswith(message)
