"""Ray answers against trimesh's pure-NumPy intersector (trimesh.ray.ray_triangle) on the
bundled meshes, every difference decided by the exact rational oracle (tests/exact.py); and
the trimesh-facing RayMeshIntersector against trimesh's conventions."""

import numpy as np
import pytest

import obbtree
from conftest import as_trimesh, rotation, translation
from exact import ray_hits_triangle, ray_parameter
from obbtree.trimesh import RayMeshIntersector

trimesh = pytest.importorskip("trimesh")


def random_rays(mesh, count, seed):
    """Rays from around the mesh's box towards points inside it, plus rays aimed exactly at
    vertices (through shared vertices and edges: where float intersectors disagree)."""
    rng = np.random.default_rng(seed)
    lo, hi = mesh.vertices.min(0), mesh.vertices.max(0)
    size = hi - lo
    origins = rng.uniform(lo - size, hi + size, size=(count, 3))
    targets = rng.uniform(lo, hi, size=(count, 3))
    vertices = mesh.vertices[rng.integers(0, len(mesh.vertices), count // 4)]
    targets[: len(vertices)] = vertices
    origins[: len(vertices)] = vertices + [0.0, 0.0, 2.0 * size[2]]
    return origins, targets - origins


def check_first_hits(mesh, origins, directions, ours, theirs):
    """Where the first triangles differ, the exact oracle decides and must side with ours: the
    triangle we report is hit, and theirs (if hit at all) is not hit strictly closer. (At a
    shared vertex several triangles are hit at the same exact t; the engine's float t can differ
    there by an ulp, so which of them it names is not checked.)"""
    tris = mesh.vertices[mesh.faces]
    differ = np.flatnonzero(ours != theirs)
    for r in differ:
        o, d = origins[r], directions[r]
        if ours[r] >= 0:
            assert ray_hits_triangle(o, d, tris[ours[r]], 1e6), r
        if theirs[r] >= 0 and ray_hits_triangle(o, d, tris[theirs[r]], 1e6):
            assert ours[r] >= 0, f"ray {r}: trimesh's hit is real and we missed it"
            t_ours, t_theirs = ray_parameter(o, d, tris[ours[r]]), ray_parameter(o, d, tris[theirs[r]])
            if t_ours is not None and t_theirs is not None:
                assert t_ours <= t_theirs, r
    return len(differ)


@pytest.mark.parametrize("name", ["bunny", "teapot"])
def test_first_hits_match_trimesh_up_to_exactly_decided_rays(name, request):
    mesh = request.getfixturevalue(name)
    tm = as_trimesh(mesh)
    origins, directions = random_rays(mesh, 1500, seed=3)
    theirs = trimesh.ray.ray_triangle.RayMeshIntersector(tm).intersects_first(origins, directions)
    ours = RayMeshIntersector(tm).intersects_first(origins, directions)
    assert ours.dtype == np.int64 and ours.shape == theirs.shape
    assert (ours >= 0).sum() > 300
    # Every difference is decided exactly; most are rays through a vertex, where several
    # triangles are hit at the same t and the two name different ones.
    check_first_hits(mesh, origins, directions, ours, theirs)


def test_oracle_confirms_a_sample_of_our_hits(bunny):
    model = obbtree.Model(bunny)
    origins, directions = random_rays(bunny, 400, seed=5)
    hit, triangle, t, points = obbtree.cast_rays(model, origins, directions)
    tris = bunny.vertices[bunny.faces]
    for r in np.flatnonzero(hit)[:60]:
        assert ray_hits_triangle(origins[r], directions[r], tris[triangle[r]], t[r] * (1 + 1e-12))
    np.testing.assert_allclose(points[hit], origins[hit] + t[hit, None] * directions[hit], atol=1e-9)
    assert np.isinf(t[~hit]).all() and np.isnan(points[~hit]).all() and (triangle[~hit] == -1).all()


def test_every_hit_and_any_hit_agree_with_first_hits(teapot):
    model = obbtree.Model(teapot)
    origins, directions = random_rays(teapot, 500, seed=11)
    hit, triangle, t, _ = obbtree.cast_rays(model, origins, directions)
    ray, tri_all, t_all, _ = obbtree.cast_rays_all(model, origins, directions)
    np.testing.assert_array_equal(obbtree.any_hits(model, origins, directions), hit)
    np.testing.assert_array_equal(np.unique(ray), np.flatnonzero(hit))
    first = np.flatnonzero(np.concatenate([[True], ray[1:] != ray[:-1]])) if len(ray) else []
    np.testing.assert_array_equal(t_all[first], t[hit])
    assert (np.diff(ray) >= 0).all()


def test_max_t_and_pose(bunny):
    model = obbtree.Model(bunny)
    origins, directions = random_rays(bunny, 300, seed=13)
    hit, _, t, _ = obbtree.cast_rays(model, origins, directions)
    limit = np.median(t[hit])
    short = obbtree.cast_rays(model, origins, directions, max_t=limit)[0]
    np.testing.assert_array_equal(short, hit & (t <= limit))
    # Origins on a grid of 2^-20 and a quarter turn: the rays moved into the world are exact,
    # so the answers must be identical.
    origins = np.round(origins * 2.0**20) / 2.0**20
    hit, _, t, _ = obbtree.cast_rays(model, origins, directions)
    pose = translation(10.0, -3.0, 2.0) @ rotation(2, 1)
    moved = (origins @ pose[:3, :3].T) + pose[:3, 3]
    hit2, tri2, t2, _ = obbtree.cast_rays(model, moved, directions @ pose[:3, :3].T, pose=pose)
    np.testing.assert_array_equal(hit2, hit)
    np.testing.assert_array_equal(t2, t)
    np.testing.assert_array_equal(tri2, obbtree.cast_rays(model, origins, directions)[1])


def test_intersector_interface_matches_trimesh(teapot):
    tm = as_trimesh(teapot)
    ours, theirs = RayMeshIntersector(tm), trimesh.ray.ray_triangle.RayMeshIntersector(tm)
    origins, directions = random_rays(teapot, 300, seed=17)
    a, b = ours.intersects_any(origins, directions), theirs.intersects_any(origins, directions)
    assert a.dtype == b.dtype == bool and (a != b).sum() <= 15
    tri, ray = ours.intersects_id(origins, directions)
    assert tri.dtype == ray.dtype == np.int64
    tri1, ray1, loc1 = ours.intersects_id(origins, directions, multiple_hits=False, return_locations=True)
    np.testing.assert_array_equal(ray1, np.flatnonzero(a))
    locations, index_ray, index_tri = ours.intersects_location(origins, directions)
    t_locations, t_index_ray, _ = theirs.intersects_location(origins, directions)
    # Crossings per ray: the same except where the float test of trimesh slips on an edge.
    ours_count = np.bincount(index_ray, minlength=len(origins))
    theirs_count = np.bincount(t_index_ray, minlength=len(origins))
    assert (ours_count != theirs_count).sum() <= 15
    assert locations.shape == (len(index_ray), 3)


def test_attached_to_a_trimesh(teapot):
    tm = as_trimesh(teapot)
    tm.ray = RayMeshIntersector(tm)
    hits = tm.ray.intersects_first([[0.0, 0.0, 100.0]], [[0.0, 0.0, -1.0]])
    assert hits[0] >= 0
    sphere = trimesh.creation.icosphere()
    sphere.ray = RayMeshIntersector(sphere)
    np.testing.assert_array_equal(sphere.contains([[0, 0, 0], [2, 0, 0]]), [True, False])
