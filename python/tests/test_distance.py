"""Distance, margins and proximity pairs against the exact rational oracle (tests/exact.py,
brute force over every triangle pair a box test cannot rule out), the entry points of the engine
against each other, and bad arguments."""

import math
from fractions import Fraction

import numpy as np
import pytest

import obbtree
from conftest import rotation, translation
from exact import triangle_distance_squared

BOX = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
BOX_FACES = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)


def placed_triangles(mesh, pose):
    v = mesh.vertices @ pose[:3, :3].T + pose[:3, 3]
    return v[mesh.faces]


def box_gaps(ta, tb):
    """For every triangle pair, the Euclidean gap between the triangles' boxes (a lower bound
    on their distance, computed in floats): an (n, m) array."""
    lo_a, hi_a = ta.min(axis=1), ta.max(axis=1)
    lo_b, hi_b = tb.min(axis=1), tb.max(axis=1)
    gap = np.maximum(lo_b[None] - hi_a[:, None], lo_a[:, None] - hi_b[None])
    return np.sqrt((np.maximum(gap, 0.0) ** 2).sum(axis=2))


def candidates(ta, tb, reach):
    """Triangle pairs whose boxes are within ``reach`` (with room for rounding): every pair at
    most ``reach`` apart is among them."""
    scale = max(np.abs(ta).max(), np.abs(tb).max())
    return np.argwhere(box_gaps(ta, tb) <= reach * (1 + 1e-9) + 1e-12 * scale)


def exact_minimum(ta, tb, reach):
    """The exact least squared distance over the pairs within ``reach`` (None if none is)."""
    found = [triangle_distance_squared(ta[i], tb[j]) for i, j in candidates(ta, tb, reach)]
    return min(found, default=None)


def assert_within_promise(d, exact_squared, scale):
    """``|d - d*| <= 1e-12·(d* + L)``, decided in rationals."""
    tol = Fraction(1e-12) * (Fraction(math.sqrt(exact_squared)) + Fraction(scale)) * 2
    low = max(Fraction(d) - tol, Fraction(0))
    assert low * low <= exact_squared <= (Fraction(d) + tol) ** 2


@pytest.fixture(scope="module")
def box():
    return obbtree.Mesh(BOX, BOX_FACES)


@pytest.fixture(scope="module")
def ball():
    trimesh = pytest.importorskip("trimesh")
    sphere = trimesh.creation.icosphere(subdivisions=1, radius=0.5)
    return obbtree.Mesh(np.asarray(sphere.vertices), np.asarray(sphere.faces))


def turn(angle):
    """A rotation about the axis (1, 2, 2)/3 by ``angle`` (not a quarter turn: generic)."""
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    m = np.eye(4)
    m[:3, :3] = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k
    return m


POSES = [
    translation(0.0, 0.0, 1.5),  # faces parallel, 0.5 apart exactly
    translation(1.5, 1.5, 1.5),  # vertex to vertex-ish
    translation(0.3, 2.0, 0.2) @ turn(0.7),
    translation(0.5, 0.5, 1.0) @ turn(1.9),  # overlapping
    translation(0.5, 0.5, 0.5),  # the ball's centre inside the box: surfaces cross
    translation(-1.25, 0.5, 0.5) @ turn(-2.3),
]


@pytest.mark.parametrize("k", range(len(POSES)))
def test_distance_matches_the_exact_oracle(box, ball, k):
    pose_b = POSES[k]
    pose_a = translation(0.25, -0.125, 0.0) @ rotation(2, 1)
    a, b = obbtree.Model(box), obbtree.Model(ball)
    result = obbtree.distance(a, pose_a, b, pose_b)
    d, pair, point_a, point_b, lower, upper = result
    ta, tb = placed_triangles(box, pose_a), placed_triangles(ball, pose_b)
    scale = max(np.abs(ta).max(), np.abs(tb).max())
    exact = exact_minimum(ta, tb, d)
    assert exact is not None, "no triangle pair as close as the reported distance"
    assert_within_promise(d, exact, scale)
    assert_within_promise(d, triangle_distance_squared(ta[pair[0]], tb[pair[1]]), scale)
    assert Fraction(lower) ** 2 <= exact <= Fraction(upper) ** 2
    assert (d == 0.0) == (exact == 0) == result.intersects
    assert abs(np.linalg.norm(point_a - point_b) - d) <= 1e-9 * scale
    assert result.contained is None


def test_margins_and_proximity_pairs_are_exact_at_the_margin(box, ball):
    a, b = obbtree.Model(box), obbtree.Model(box)
    above = translation(0.0, 0.0, 1.5)  # parallel faces exactly 0.5 apart
    assert obbtree.within_margin(a, None, b, above, 0.5)[0]
    below = np.nextafter(0.5, 0.0)
    within, witness = obbtree.within_margin(a, None, b, above, below)
    assert not within and witness.shape == (0, 2)
    assert obbtree.proximity_pairs(a, None, b, above, below).shape == (0, 2)
    ta, tb = placed_triangles(box, np.eye(4)), placed_triangles(box, above)
    for margin in (0.5, 0.75):
        pairs = obbtree.proximity_pairs(a, None, b, above, margin)
        m2 = Fraction(margin) ** 2
        expected = {
            (int(i), int(j))
            for i, j in candidates(ta, tb, margin)
            if triangle_distance_squared(ta[i], tb[j]) <= m2
        }
        assert set(map(tuple, pairs.tolist())) == expected
        assert pairs.tolist() == sorted(pairs.tolist())
        within, witness = obbtree.within_margin(a, None, b, above, margin)
        assert within and tuple(witness[0]) in expected


@pytest.mark.parametrize("k", [2, 5])
def test_proximity_pairs_of_generic_poses_match_the_oracle(box, ball, k):
    a, b = obbtree.Model(box), obbtree.Model(ball)
    d = obbtree.distance(a, None, b, POSES[k]).distance
    ta, tb = placed_triangles(box, np.eye(4)), placed_triangles(ball, POSES[k])
    margin = d + 0.1
    expected = {
        (int(i), int(j))
        for i, j in candidates(ta, tb, margin)
        if triangle_distance_squared(ta[i], tb[j]) <= Fraction(margin) ** 2
    }
    got = obbtree.proximity_pairs(a, None, b, POSES[k], margin)
    assert set(map(tuple, got.tolist())) == expected and len(expected) > 1


def test_the_entry_points_agree_on_the_bundled_meshes(kuka):
    """distance_many, distance (cold, hinted, tolerant), within_margin and proximity_pairs on
    neighbouring KUKA links: one engine, several roads, the same answers."""
    a, b = obbtree.Model(kuka[2]), obbtree.Model(kuka[3])
    poses = np.stack(
        [translation(0.0, 0.0, z) @ turn(0.3 * z) for z in (0.05, 0.2, 0.4, 0.8)]
        + [translation(0.0, 0.3, 0.0)]
    )
    many = obbtree.distance_many(a, None, b, poses)
    assert [x.shape for x in many] == [(5,), (5, 2), (5, 3), (5, 3), (5,), (5,)]
    for k, pose in enumerate(poses):
        one = obbtree.distance(a, None, b, pose)
        assert one.distance == many[0][k] and one.pair == tuple(many[1][k])
        np.testing.assert_array_equal(one.point_a, many[2][k])
        assert (one.lower, one.upper) == (many[4][k], many[5][k])
        hinted = obbtree.distance(a, None, b, pose, hint=one.pair)
        assert abs(hinted.distance - one.distance) <= 1e-12 * (1 + one.distance)
        loose = obbtree.distance(a, None, b, pose, rel_err=0.1, abs_err=1e-3)
        assert one.lower <= loose.distance <= one.distance * 1.1 + 1e-3 + 1e-12
        d = one.upper
        assert obbtree.within_margin(a, None, b, pose, d)[0]
        assert not obbtree.within_margin(a, None, b, pose, one.lower * 0.999)[0] or one.lower == 0
        pairs = obbtree.proximity_pairs(a, None, b, pose, d)
        assert one.pair in set(map(tuple, pairs.tolist())) or one.distance == 0


def test_a_tracker_along_a_motion_meets_the_exact_oracle(box, ball):
    """A DistanceTracker along small steps (the ball approaching, touching and leaving the box)
    and a jump: every answer checked against the exact oracle, as cold queries are."""
    tracker = obbtree.DistanceTracker()
    a, b = obbtree.Model(box), obbtree.Model(ball)
    ta = placed_triangles(box, np.eye(4))
    steps = [translation(0.3, 0.4, 1.8 - 0.1 * k) @ turn(0.05 * k) for k in range(12)]
    for k, pose in enumerate(steps + [POSES[5], POSES[0]]):
        result = tracker.distance(a, None, b, pose)
        tb = placed_triangles(ball, pose)
        exact = exact_minimum(ta, tb, result.distance)
        assert exact is not None, f"step {k}: no pair as close as {result.distance}"
        assert_within_promise(result.distance, exact, max(np.abs(ta).max(), np.abs(tb).max()))
        assert (result.distance == 0.0) == (exact == 0) == result.intersects
        cold = obbtree.distance(a, None, b, pose)
        assert abs(result.distance - cold.distance) <= 1e-12 * (1 + cold.distance)
    tracker.forget()
    assert tracker.distance(a, None, b, POSES[0]).distance == obbtree.distance(a, None, b, POSES[0]).distance
    assert repr(tracker) == "obbtree.DistanceTracker()"


def test_solids_report_containment(box):
    big = obbtree.Model(box)
    small = obbtree.Model(obbtree.Mesh(BOX * 0.25, BOX_FACES))
    inside = translation(0.25, 0.25, 0.25)
    surface = obbtree.distance(big, None, small, inside)
    solid = obbtree.distance(big, None, small, inside, solids=True)
    assert surface.distance == 0.25 and not surface.intersects
    assert solid.distance == 0.0 and solid.contained == "b_in_a"
    apart = obbtree.distance(big, None, small, translation(3.0, 0, 0), solids=True)
    assert apart.contained == "disjoint" and apart.distance == 2.0


def test_result_unpacks_and_indexes(box):
    m = obbtree.Model(box)
    r = obbtree.distance(m, None, m, translation(2.0, 0.0, 0.0))
    assert len(r) == 6 and r[0] == r[-6] == r.distance == 1.0
    assert r[1] == r.pair and r[4] == r.lower and r[5] == r.upper
    assert list(r)[0] == 1.0 and "distance=1.0" in repr(r)
    with pytest.raises(IndexError):
        r[6]


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda m: obbtree.within_margin(m, None, m, None, -1.0), ValueError, "margin: the margin must be a non-negative finite number, not -1"),
        (lambda m: obbtree.within_margin(m, None, m, None, math.nan), ValueError, "margin: the margin must be a non-negative finite number, not NaN"),
        (lambda m: obbtree.proximity_pairs(m, None, m, None, math.inf), ValueError, "margin: the margin must be"),
        (lambda m: obbtree.distance(m, None, m, None, rel_err=-0.1), ValueError, "rel_err must be a non-negative finite number"),
        (lambda m: obbtree.distance(m, None, m, None, abs_err=math.nan), ValueError, "abs_err must be a non-negative finite number"),
        (lambda m: obbtree.distance(m, None, m, None, hint=(0, 12)), ValueError, "hint: the hint [0, 12] names no triangle pair"),
        (lambda m: obbtree.distance(m, None, m, None, hint=(-1, 0)), ValueError, "hint: -1 is not a triangle index"),
        (lambda m: obbtree.distance(m, None, m, None, hint=(0, 1, 2)), ValueError, "hint: expected an array of shape (2,)"),
        (lambda m: obbtree.distance(m, None, m, None, hint=(0.0, 1.0)), ValueError, "hint: expected an array of integer indices"),
        (lambda m: obbtree.distance(m, np.full((4, 4), np.nan), m, None), ValueError, "pose_a:"),
        (lambda m: obbtree.distance(m, None, m, translation(1e300, 0, 0)), ValueError, "pose_b:"),
        (lambda m: obbtree.distance_many(m, None, m, np.stack([np.eye(4), np.eye(4) * 2])), ValueError, "poses[1]:"),
        (lambda m: obbtree.distance_many(m, None, m, np.eye(4)), ValueError, "poses: expected an array of shape (k, 4, 4)"),
        (lambda m: obbtree.distance_many(m, None, m, np.stack([np.eye(4)]), hint=(99, 0)), ValueError, "hint: the hint [99, 0]"),
        (lambda m: obbtree.distance(m, None, obbtree.Model(m.mesh, bv="aabb"), None), ValueError, "different bounding volumes"),
        (lambda m: obbtree.DistanceTracker().distance(m, None, m, translation(1e300, 0, 0)), ValueError, "pose_b:"),
        (lambda m: obbtree.DistanceTracker().distance(m, None, m, None, rel_err=math.inf), ValueError, "rel_err must be a non-negative finite number"),
        (lambda m: obbtree.DistanceTracker().distance(m, np.eye(3), m, None), ValueError, "pose_a:"),
    ],
)
def test_bad_arguments_raise_value_error(box, call, error, message):
    with pytest.raises(error) as raised:
        call(obbtree.Model(box))
    assert message in str(raised.value)


def test_distance_many_of_no_poses_is_empty(box):
    m = obbtree.Model(box)
    out = obbtree.distance_many(m, None, m, np.zeros((0, 4, 4)))
    assert [x.shape for x in out] == [(0,), (0, 2), (0, 3), (0, 3), (0,), (0,)]


def scene_of(meshes, poses):
    """A scene of the named meshes at their poses, and the same as plain (name, triangles)."""
    scene = obbtree.Scene()
    placed = {}
    for (name, mesh), pose in zip(meshes, poses):
        scene.insert(name, obbtree.Model(mesh), pose)
        placed[name] = placed_triangles(mesh, pose)
    return scene, placed


def exact_pairs(placed, reach):
    """Every object pair (a < b by name) with its exact least squared distance, among the
    pairs whose triangles come within ``reach``."""
    names = sorted(placed)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            exact = exact_minimum(placed[a], placed[b], reach)
            if exact is not None:
                out[(a, b)] = exact
    return out


def test_scene_distances_match_the_exact_oracle_over_moves(box, ball):
    meshes = [("box", box), ("ball", ball), ("box2", box), ("ball2", ball)]
    poses = [np.eye(4), translation(0.5, 0.5, 1.8), translation(3.0, 0.0, 0.0) @ turn(0.4),
             translation(0.3, 2.0, 0.2) @ turn(0.7)]
    scene, placed = scene_of(meshes, poses)
    margin = 1.0
    warm = 0
    for step in range(4):
        scale = max(np.abs(t).max() for t in placed.values())
        exact = exact_pairs(placed, margin * 1.01)
        m2 = Fraction(margin) ** 2
        within = scene.within_margin_all(margin)
        warm += scene.last_stats()["hinted"] + scene.last_stats()["reused"]
        assert [(a, b) for a, b, *_ in within] == sorted(p for p, e in exact.items() if e <= m2)
        for a, b, d, pair, point_a, point_b in within:
            assert_within_promise(d, exact[(a, b)], scale)
            assert abs(np.linalg.norm(point_a - point_b) - d) <= 1e-9 * scale
        a, b, d, pair, point_a, point_b = scene.min_distance()
        least = min(exact.values())
        assert_within_promise(d, least, scale)
        assert_within_promise(d, exact[(a, b)], scale)
        assert_within_promise(d, triangle_distance_squared(placed[a][pair[0]], placed[b][pair[1]]), scale)
        if least > 0:
            assert scene.min_distance(limit=math.sqrt(float(least)) * 0.99) is None
        assert scene.min_distance(limit=math.sqrt(float(least)) * 1.01)[:2] == (a, b)
        # Move the ball down towards the box, a step at a time: the records carry over.
        pose = translation(0.5, 0.5, 1.8 - 0.35 * (step + 1))
        scene.set_pose("ball", pose)
        placed["ball"] = placed_triangles(ball, pose)
    assert warm > 0, "the records of unmoved pairs and the hints were used"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s: s.within_margin_all(-1.0), "margin: the margin must be a non-negative finite number, not -1"),
        (lambda s: s.within_margin_all(math.inf), "margin: the margin must be"),
        (lambda s: s.min_distance(limit=math.nan), "limit: must be a non-negative number (or inf), not NaN"),
        (lambda s: s.min_distance(limit=-0.5), "limit: must be a non-negative number (or inf), not -0.5"),
    ],
)
def test_scene_distance_arguments_raise_value_error(box, call, message):
    scene, _ = scene_of([("a", box), ("b", box)], [np.eye(4), translation(2.0, 0.0, 0.0)])
    with pytest.raises(ValueError) as raised:
        call(scene)
    assert message in str(raised.value)
    assert obbtree.Scene().min_distance() is None


def test_scene_distances_to_a_model_to_an_object_and_between_scenes(box, ball):
    """min_distance_to / within_margin_of (an external model), min_distance_from (one object),
    min_distance_scenes / within_margin_scenes (two scenes), against the exact oracle."""
    meshes = [("box", box), ("ball", ball), ("box2", box)]
    poses = [np.eye(4), translation(0.5, 0.5, 1.8), translation(3.0, 0.0, 0.0) @ turn(0.4)]
    scene, placed = scene_of(meshes, poses)
    other, other_placed = scene_of([("far_ball", ball), ("near_box", box)],
                                   [translation(0.0, 4.0, 0.0), translation(0.2, -1.7, 0.3) @ turn(0.3)])
    scale = 5.0
    external = obbtree.Model(ball)
    pose = translation(1.2, -1.5, 0.4)
    placed_external = placed_triangles(ball, pose)
    exact = {name: exact_minimum(placed_external, t, 2.0) for name, t in placed.items()}
    exact = {n: e for n, e in exact.items() if e is not None}
    name, d, (face_model, face_object), point_model, point_object = scene.min_distance_to(external, pose)
    assert name == min(exact, key=lambda n: exact[n])
    assert_within_promise(d, exact[name], scale)
    assert_within_promise(d, triangle_distance_squared(placed_external[face_model],
                                                       placed[name][face_object]), scale)
    assert abs(np.linalg.norm(point_model - point_object) - d) <= 1e-9 * scale
    assert scene.min_distance_to(external, pose, limit=d * 0.99) is None
    margin = 1.3
    within = scene.within_margin_of(external, margin, pose)
    assert [n for n, *_ in within] == sorted(n for n, e in exact.items() if e <= Fraction(margin) ** 2)
    # One object against the others.
    a, b, d, *_ = scene.min_distance_from("ball")
    pairs = exact_pairs(placed, 2.0)
    nearest = min((p for p in pairs if "ball" in p), key=lambda p: pairs[p])
    assert (a, b) == nearest
    assert_within_promise(d, pairs[nearest], scale)
    # Between the scenes.
    cross = {(x, y): exact_minimum(tx, ty, 2.0)
             for x, tx in placed.items() for y, ty in other_placed.items()}
    cross = {p: e for p, e in cross.items() if e is not None}
    a, b, d, *_ = scene.min_distance_scenes(other)
    assert (a, b) == min(cross, key=lambda p: cross[p])
    assert_within_promise(d, cross[(a, b)], scale)
    within = scene.within_margin_scenes(other, margin)
    assert [(x, y) for x, y, *_ in within] == sorted(p for p, e in cross.items() if e <= Fraction(margin) ** 2)
    assert within, "some pair across the scenes is within the margin"
    with pytest.raises(obbtree.SceneError):
        scene.min_distance_from("nope")
    with pytest.raises(obbtree.SceneError, match="limit"):
        scene.min_distance_to(external, pose, limit=-1.0)
