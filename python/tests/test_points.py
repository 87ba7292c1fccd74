"""Points against a mesh from Python: closest points against trimesh's `closest_point` on the
bunny, against exact rational point–triangle distances (tests/exact.py, brute force) on a small
mesh, signed distances against trimesh's `signed_distance` (positive inside, the opposite
convention) on a closed sphere, the maximum distance, winding numbers against a direct sum of
solid angles in NumPy (l'Huilier's theorem; the engine uses another formula and a tree), open
meshes signed by them, signed distance grids against the point queries, and bad input refused
by name."""

from fractions import Fraction

import numpy as np
import pytest

import obbtree
from conftest import as_trimesh
from exact import _point_triangle_squared


def _random_points(mesh, count, seed):
    rng = np.random.default_rng(seed)
    lo, hi = mesh.vertices.min(axis=0), mesh.vertices.max(axis=0)
    grow = (hi - lo) * 0.5
    return rng.uniform(lo - grow, hi + grow, (count, 3))


def test_closest_points_agree_with_trimesh_on_the_bunny(bunny):
    import trimesh

    points = _random_points(bunny, 300, 1)
    distance, triangle, closest = obbtree.closest_points(obbtree.Model(bunny), points)
    _, want, _ = trimesh.proximity.closest_point(as_trimesh(bunny), points)
    np.testing.assert_allclose(distance, want, rtol=1e-9, atol=1e-12)
    assert ((0 <= triangle) & (triangle < len(bunny.faces))).all()
    np.testing.assert_allclose(np.linalg.norm(closest - points, axis=1), distance, rtol=1e-9)


def test_distances_are_exact_within_the_guarantee_on_a_small_mesh():
    """A tetrahedron and points on its vertices, edges and faces (distance 0), inside and
    outside: every distance within 1e-12 (d + L) of the exact one, computed in rationals."""
    v = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0], [0, 0, 2]], float)
    faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
    model = obbtree.Model(obbtree.Mesh(v, faces))
    points = np.vstack(
        [v, [[1, 0, 0], [0.5, 0.5, 0], [1, 1, 0], [0.25, 0.25, 0.25], [3, 3, 3], [-1, 0.5, 0.25]],
         _random_points(obbtree.Mesh(v, faces), 100, 2)]
    )
    distance, triangle, _ = obbtree.closest_points(model, points)
    signed = obbtree.signed_distance(model, points)
    for p, d, t, s in zip(points, distance, triangle, signed):
        exact = min(_point_triangle_squared(tuple(map(Fraction, p)),
                                            [tuple(map(Fraction, v[i])) for i in f]) for f in faces)
        d_star = float(exact) ** 0.5
        assert abs(d - d_star) <= 1e-12 * (d_star + 3), (p, d, d_star)
        assert (d == 0) == (exact == 0), p
        own = [tuple(map(Fraction, v[i])) for i in faces[t]]
        assert abs(float(_point_triangle_squared(tuple(map(Fraction, p)), own)) ** 0.5 - d_star) <= 1e-12 * (d_star + 3)
        assert abs(s) == d


def test_signed_distance_is_trimesh_with_the_sign_turned():
    import trimesh

    sphere = trimesh.creation.icosphere(subdivisions=2)
    mesh = obbtree.Mesh(sphere.vertices, sphere.faces)
    points = np.random.default_rng(3).uniform(-1.5, 1.5, (60, 3))
    points = points[np.abs(np.linalg.norm(points, axis=1) - 1) > 0.05]  # clear of the surface
    got = obbtree.signed_distance(obbtree.Model(mesh), points)
    want = trimesh.proximity.signed_distance(sphere, points)
    np.testing.assert_allclose(got, -want, rtol=1e-9, atol=1e-12)
    assert (got < 0).any() and (got > 0).any()


def test_points_beyond_the_maximum_distance_are_unanswered():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    model = obbtree.Model(obbtree.Mesh(v, [[0, 1, 2]]))
    distance, triangle, closest = obbtree.closest_points(
        model, [[0.2, 0.2, 2.0], [0.2, 0.2, 3.0]], max_distance=2.0
    )
    assert distance[0] == 2.0 and triangle[0] == 0
    np.testing.assert_allclose(closest[0], [0.2, 0.2, 0.0], atol=1e-15)
    assert np.isnan(distance[1]) and triangle[1] == -1 and np.isnan(closest[1]).all()


def test_bad_input_is_refused_by_name():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    open_mesh = obbtree.Model(obbtree.Mesh(v, [[0, 1, 2]]))
    with pytest.raises(obbtree.QueryError, match="tolerance"):
        obbtree.winding_number(open_mesh, [[0, 0, 1]], tolerance=-1.0)
    with pytest.raises(obbtree.QueryError, match=r"points\[1\]"):
        obbtree.winding_number(open_mesh, [[0, 0, 1], [np.inf, 0, 0]])
    with pytest.raises(obbtree.QueryError, match="resolution"):
        obbtree.sdf_grid(open_mesh, 0)
    with pytest.raises(obbtree.QueryError, match="padding"):
        obbtree.sdf_grid(open_mesh, 4, padding=np.nan)
    with pytest.raises(obbtree.QueryError, match="bounds"):
        obbtree.sdf_grid(open_mesh, 4, bounds=[[1, 0, 0], [0, 0, 0]])
    with pytest.raises(obbtree.QueryError, match="bounds"):
        obbtree.sdf_grid(open_mesh, 4, bounds=[[0, 0, 0]])
    with pytest.raises(obbtree.QueryError, match="model: .*needs a mesh"):
        obbtree.sdf_grid(obbtree.Model.sphere(1.0), 4)
    with pytest.raises(obbtree.QueryError, match=r"points\[1\]"):
        obbtree.closest_points(open_mesh, [[0, 0, 1], [np.nan, 0, 0]])
    with pytest.raises(obbtree.QueryError, match="max_distance"):
        obbtree.closest_points(open_mesh, [[0, 0, 1]], max_distance=-1.0)
    with pytest.raises(obbtree.QueryError, match="points"):
        obbtree.closest_points(open_mesh, [[0, 0]])
    with pytest.raises(obbtree.QueryError, match="model: .*needs a mesh"):
        obbtree.closest_points(obbtree.Model.sphere(1.0), [[0, 0, 3]])


def test_the_proximity_query_drop_in_answers_as_trimesh():
    import trimesh

    from obbtree.trimesh import ProximityQuery

    sphere = trimesh.creation.icosphere(subdivisions=2)
    points = np.random.default_rng(4).uniform(-1.5, 1.5, (80, 3))
    points = points[np.abs(np.linalg.norm(points, axis=1) - 1) > 0.05]
    ours, theirs = ProximityQuery(sphere), trimesh.proximity.ProximityQuery(sphere)
    closest, distance, triangle = ours.on_surface(points)
    want_closest, want_distance, _ = theirs.on_surface(points)
    np.testing.assert_allclose(distance, want_distance, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(closest, want_closest, atol=1e-9)
    assert ((0 <= triangle) & (triangle < len(sphere.faces))).all()
    distance, vertex = ours.vertex(points)
    want_distance, want_vertex = theirs.vertex(points)
    np.testing.assert_allclose(distance, want_distance, rtol=1e-12)
    assert (vertex == want_vertex).all()
    np.testing.assert_allclose(ours.signed_distance(points), theirs.signed_distance(points), rtol=1e-9, atol=1e-12)


def _solid_angle_sum(points, vertices, faces):
    """The winding numbers of the triangles about each point: l'Huilier's theorem for each
    triangle's spherical excess (the arcs from atan2 of cross and dot products), signed by the
    triple product, summed over 4π."""
    total = np.zeros(len(points))
    for f in faces:
        u, v, w = (vertices[i] - points for i in f)
        u, v, w = (x / np.linalg.norm(x, axis=1)[:, None] for x in (u, v, w))

        def arc(x, y):
            return np.arctan2(np.linalg.norm(np.cross(x, y), axis=1), (x * y).sum(axis=1))

        a, b, c = arc(v, w), arc(w, u), arc(u, v)
        s = (a + b + c) / 2
        t = np.tan(s / 2) * np.tan((s - a) / 2) * np.tan((s - b) / 2) * np.tan((s - c) / 2)
        excess = 4 * np.arctan(np.sqrt(np.maximum(t, 0)))
        total += np.sign((u * np.cross(v, w)).sum(axis=1)) * excess
    return total / (4 * np.pi)


def test_winding_numbers_hold_the_direct_sum_within_their_bounds():
    import trimesh

    sphere = trimesh.creation.icosphere(subdivisions=3)
    keep = sphere.triangles_center[:, 2] < 0.7  # a cap cut off: an open bowl
    faces = sphere.faces[keep]
    model = obbtree.Model(obbtree.Mesh(sphere.vertices, faces))
    points = np.random.default_rng(5).uniform(-1.6, 1.6, (200, 3))
    points = points[np.abs(np.linalg.norm(points, axis=1) - 1) > 0.02]
    want = _solid_angle_sum(points, sphere.vertices, faces)
    for tolerance in (0.1, 1e-3, 1e-6):
        w, bound = obbtree.winding_number(model, points, tolerance=tolerance)
        assert (np.abs(w - want) <= bound + 1e-9).all()
        assert (bound <= tolerance).all()
    closed = obbtree.Model(obbtree.Mesh(sphere.vertices, sphere.faces))
    w, bound = obbtree.winding_number(closed, points)
    assert (bound == 0).all()
    np.testing.assert_array_equal(w, np.round(_solid_angle_sum(points, sphere.vertices, sphere.faces)))
    np.testing.assert_array_equal(w == 1, obbtree.contains_points(closed, points))
    signed = obbtree.signed_distance(model, points)
    decided = ~np.isnan(signed)
    assert decided.sum() >= len(points) - 2
    np.testing.assert_array_equal((signed < 0)[decided], (want > 0.5)[decided])


def test_an_sdf_grid_is_the_signed_distance_of_its_points():
    import trimesh

    sphere = trimesh.creation.icosphere(subdivisions=2)
    model = obbtree.Model(obbtree.Mesh(sphere.vertices, sphere.faces))
    sdf, lo, hi = obbtree.sdf_grid(model, 9, padding=0.25)
    assert sdf.shape == (9, 9, 9) and sdf.dtype == np.float64
    side = (hi - lo)[0]
    np.testing.assert_allclose(hi - lo, side)
    center, extent = sphere.bounds.mean(axis=0), (sphere.bounds[1] - sphere.bounds[0]).max()
    np.testing.assert_allclose(lo, center - 0.75 * extent)
    axes = [np.linspace(lo[k], hi[k], 9) for k in range(3)]
    grid_points = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    want = obbtree.signed_distance(model, grid_points)
    np.testing.assert_allclose(sdf.reshape(-1), want, rtol=1e-12, atol=1e-14)
    assert sdf[4, 4, 4] < 0 < sdf[0, 0, 0]
