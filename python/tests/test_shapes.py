"""Primitive solids as models: collision and distance against a mesh checked by hand-made exact
cases on a dyadic grid and by the exact rational triangle distance (tests/exact.py), errors
that name the bad size, and pickling."""

import pickle
import numpy as np
import pytest

import obbtree
from conftest import translation
from exact import _point_triangle_squared, _q, _segment_meets_triangle, _segment_segment_squared

CUBE = np.array([[x, y, z] for x in (0.0, 2.0) for y in (0.0, 2.0) for z in (0.0, 2.0)])
CUBE_FACES = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)


@pytest.fixture(scope="module")
def cube():
    return obbtree.Model(obbtree.Mesh(CUBE, CUBE_FACES))


def test_a_ball_touching_a_face_collides_and_one_step_further_does_not(cube):
    ball = obbtree.Model.sphere(0.5)
    hit, pairs = obbtree.collide(cube, None, ball, translation(2.5, 1.0, 1.0))
    assert hit and len(pairs) > 0 and (pairs[:, 1] == 0).all()
    miss, _ = obbtree.collide(cube, None, ball, translation(np.nextafter(2.5, 3.0), 1.0, 1.0))
    assert not miss
    # A ball holding the whole cube touches every triangle: solids.
    big = obbtree.Model.sphere(2.0)
    hit, pairs = obbtree.collide(cube, None, big, translation(1.0, 1.0, 1.0))
    assert hit and len(pairs) == len(CUBE_FACES)


def test_points_in_shapes_are_decided_exactly_on_the_surface():
    # Radius 5 and the 3-4-5 triangle: grid points exactly on the sphere's and the cylinder's
    # surfaces are inside; one step of 2**-40 further out is not.
    step = 2.0**-40
    sphere, cylinder = obbtree.Model.sphere(5.0), obbtree.Model.cylinder(5.0, 4.0)
    moved = translation(1.0, -2.0, 0.5)
    on = np.array([[3.0, 4.0, 0.0], [3.0, 4.0 + step, 0.0]]) + [1.0, -2.0, 0.5]
    assert obbtree.contains_points(sphere, on, pose=moved).tolist() == [True, False]
    rim = np.array([[3.0, 4.0, 2.0], [3.0, 4.0, 2.0 + step]]) + [1.0, -2.0, 0.5]
    assert obbtree.contains_points(cylinder, rim, pose=moved).tolist() == [True, False]
    box = obbtree.Model.box([2.0, 4.0, 6.0])
    corner = [[1.0, 2.0, 3.0], [1.0 + step, 2.0, 3.0]]
    assert obbtree.contains_points(box, corner).tolist() == [True, False]


def segment_triangle_squared(ends, triangle):
    """The exact squared distance between a segment (maybe of length 0) and a triangle: 0 when
    the segment meets it, else the least of its ends to the triangle and of it to the edges."""
    p, q = _q(ends[0]), _q(ends[1])
    tri = [_q(v) for v in triangle]
    if _segment_meets_triangle(p, q, tri):
        return 0.0
    gaps = [_point_triangle_squared(p, tri), _point_triangle_squared(q, tri)]
    if p != q:
        edges = [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])]
        gaps += [_segment_segment_squared(p, q, a, b) for a, b in edges]
    return float(min(gaps))


def test_distance_to_a_capsule_is_the_exact_segment_distance_less_the_radius(cube):
    rng = np.random.default_rng(3)
    for _ in range(20):
        radius, length = rng.uniform(0.1, 0.5), rng.uniform(0.0, 1.0)
        capsule = obbtree.Model.capsule(radius, length)
        pose = translation(*rng.uniform(-3.0, 5.0, 3))
        got = obbtree.distance(cube, None, capsule, pose)
        ends = np.array([[0.0, 0.0, -length / 2], [0.0, 0.0, length / 2]]) + pose[:3, 3]
        closest = min(segment_triangle_squared(ends, CUBE[f]) for f in CUBE_FACES) ** 0.5
        inside = all(0.0 <= c <= 2.0 for c in pose[:3, 3])
        want = 0.0 if inside or closest <= radius else closest - radius
        assert abs(got.distance - want) <= 1e-12 * (want + 8.0), (got.distance, want)
        assert got.pair[1] == 0


def test_margins_and_boxes(cube):
    block = obbtree.Model.box([1.0, 1.0, 1.0])
    at = translation(3.0, 1.0, 1.0)
    assert obbtree.within_margin(cube, None, block, at, 0.5)[0]
    assert not obbtree.within_margin(cube, None, block, at, 0.4999)[0]
    assert obbtree.distance(cube, None, block, at).distance == 0.5


def test_cylinders_have_distances_and_margins(cube):
    # Its side x = 2.5 faces the cube's face x = 2: 0.5 apart (the margin decided from the
    # certified interval, so only a gap clearly below the margin is refused).
    drum = obbtree.Model.cylinder(0.5, 1.0)
    at = translation(3.0, 1.0, 1.0)
    got = obbtree.distance(cube, None, drum, at)
    assert abs(got.distance - 0.5) <= 1e-12 * 4.0
    assert got.lower <= 0.5 <= got.upper
    assert obbtree.within_margin(cube, None, drum, at, 0.5)[0]
    assert not obbtree.within_margin(cube, None, drum, at, 0.4999)[0]
    floor = obbtree.Model.halfspace([0.0, 0.0, 1.0], 0.0)
    assert obbtree.within_margin(drum, at, floor, None, 0.5)[0]
    assert not obbtree.within_margin(drum, at, floor, None, 0.4999)[0]


def test_bad_sizes_are_value_errors_naming_the_size():
    with pytest.raises(ValueError, match="radius"):
        obbtree.Model.sphere(-1.0)
    with pytest.raises(ValueError, match="size y"):
        obbtree.Model.box([1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="span three dimensions"):
        obbtree.Model.convex(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="bv"):
        obbtree.Model.sphere(1.0, bv="nope")


def test_queries_that_need_a_mesh_say_so(cube):
    ball = obbtree.Model.sphere(1.0)
    with pytest.raises(obbtree.QueryError, match="primitive shape"):
        obbtree.self_collide(ball)
    with pytest.raises(ValueError, match="no mesh"):
        ball.mesh


def test_shapes_pickle_as_their_sizes(cube):
    for model in [
        obbtree.Model.sphere(0.5),
        obbtree.Model.capsule(0.25, 1.0),
        obbtree.Model.cylinder(0.25, 1.0),
        obbtree.Model.box([1.0, 2.0, 3.0]),
        obbtree.Model.convex(CUBE),
        obbtree.Model.halfspace([0.0, 0.0, 1.0], 0.5),
    ]:
        back = pickle.loads(pickle.dumps(model))
        at = translation(2.2, 1.0, 1.0)
        assert obbtree.collide(cube, None, model, at)[0] == obbtree.collide(cube, None, back, at)[0]



def test_rays_hit_shapes_on_their_surface_with_tangents_counting():
    ball = obbtree.Model.sphere(1.0)
    pose = translation(0.0, 0.0, 5.0)
    origins = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [np.nextafter(1.0, 2.0), 0.0, 0.0]]
    hit, feature, t, points = obbtree.cast_rays(ball, origins, [[0.0, 0.0, 1.0]] * 3, pose)
    assert hit.tolist() == [True, True, False]
    assert feature.tolist() == [0, 0, -1]
    assert t[0] == pytest.approx(4.0, abs=1e-12) and t[1] == pytest.approx(5.0, abs=1e-12)
    assert np.allclose(points[0], [0.0, 0.0, 4.0], atol=1e-12) and np.isnan(points[2]).all()
    # A box is a closed solid: from outside a ray enters and leaves; from inside it only leaves.
    box = obbtree.Model.box([2.0, 2.0, 2.0])
    ray, feature, t, _ = obbtree.cast_rays_all(box, [[0, 0, -3.0], [0, 0, 0.0]], [[0, 0, 1.0]] * 2)
    assert ray.tolist() == [0, 0, 1] and feature.tolist() == [0, 0, 0]
    assert np.allclose(t, [2.0, 4.0, 1.0], atol=1e-12)
    hit, _, t, _ = obbtree.cast_rays(box, [[0, 0, -3.0]], [[0, 0, 1.0]], None, 1.999)
    assert not hit[0] and t[0] == np.inf
