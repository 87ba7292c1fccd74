"""obbtree's primitive shapes against coal's on random poses, every disagreement decided by an
oracle.

The harness is bench/shapes/coal_shapes.py (its docstring says how the cases are drawn and
judged); the oracles are tests/exact_shapes.py (exact, in rationals) and tests/numeric_shapes.py
(80-digit decimals, for five cylinder pairs). Per pair of {sphere, capsule, cylinder, box,
convex, halfspace} and each against a mesh: 100 seeded cases (half random, half at the distance
where obbtree's answer changes, nudged), scaled by OBBTREE_PROPTEST_CASES like every seeded
loop, plus 24 exact contacts on a dyadic grid and their copies one float step apart.

The test fails on an undecided disagreement, on obbtree wrong by the oracle (for the
conservative capsule–cylinder and cylinder–cylinder: a "no" for shapes that touch, or a "yes"
outside the documented band), on an exact contact obbtree calls apart, and on a distance of
obbtree's off the exact one (for a cylinder, the 80-digit decimal one). The oracles are
checked first: the integer GJK against the Voronoi-region walks of tests/exact.py, the
decimal GJK against both, and the placement they assume against obbtree's own answers at the
edge of touching.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "shapes"))

import coal_shapes  # noqa: E402
import exact  # noqa: E402
import exact_shapes  # noqa: E402
import numeric_shapes  # noqa: E402
from conftest import scaled_cases  # noqa: E402

SEED = 2026
CASES = 100


def _floats(rng, n):
    return [tuple(float(x) for x in rng.normal(size=3)) for _ in range(n)]


def test_integer_gjk_matches_the_voronoi_walks():
    """The exact core distances (GJK in integers) equal, as rationals, the segment–segment,
    point–triangle and triangle–triangle distances of tests/exact.py, two independent exact
    methods."""
    rng = np.random.default_rng(SEED)
    for _ in range(60):
        pts = _floats(rng, 6)
        q = [exact_shapes._rational(p) for p in pts]
        tri_a, tri_b = exact_shapes.Triangle(tuple(q[:3])), exact_shapes.Triangle(tuple(q[3:]))
        want = exact.triangle_distance_squared(pts[:3], pts[3:])
        assert exact_shapes.core_squared(tri_a, tri_b) == want
        seg_a, seg_b = exact_shapes.Swept(q[0], q[1], 0), exact_shapes.Swept(q[2], q[3], 0)
        assert exact_shapes.core_squared(seg_a, seg_b) == exact._segment_segment_squared(*q[:4])
        point = exact_shapes.Swept(q[0], q[0], 0)
        assert exact_shapes.core_squared(point, tri_b) == exact._point_triangle_squared(q[0], q[3:])


def _random_placed(kind, rng):
    params = coal_shapes.draw_params(kind, rng)
    rotation = coal_shapes.random_rotation(rng)
    solid = coal_shapes.Solid(kind, params, rotation, rng.uniform(-0.6, 0.6, 3))
    return coal_shapes.placed(solid)


NUMERIC_CHECKS = [("sphere", "cylinder"), ("box", "convex"), ("capsule", "box")]
PLACEMENT_CHECKS = [
    ("sphere", "box"),
    ("capsule", "convex"),
    ("box", "box"),
    ("box", "halfspace"),
    ("sphere", "cylinder"),
    ("cylinder", "halfspace"),
]


@pytest.mark.parametrize("pair", NUMERIC_CHECKS)
def test_decimal_gjk_agrees_with_the_exact_tests(pair):
    """Where both oracles answer, the numeric one (decimal GJK) gives the exact one's verdict:
    on sphere–cylinder the closed form, on hulls and capsules the integer GJK."""
    rng = np.random.default_rng([SEED, len(pair[0])])
    for _ in range(40):
        a, b = (_random_placed(kind, rng) for kind in pair)
        assert numeric_shapes.touches(a, b)[0] == exact_shapes.touches(a, b), (a, b)


@pytest.mark.parametrize("pair", PLACEMENT_CHECKS)
def test_the_oracle_places_shapes_as_obbtree_does(pair):
    """At the distance where obbtree's answer changes (bisection to a float step), the exact
    oracle says touching on the last touching pose and apart on the first one apart: both are
    exact on the same placed floats, which a placement differing by one rounding would break
    (rotated boxes' corners, a rotated halfspace's plane), and so would a wrong closed form
    (sphere–cylinder, halfspace–cylinder)."""
    rng = np.random.default_rng([SEED, 7])
    for _ in range(12):
        a, b = coal_shapes.random_case(pair, rng, near=False)
        direction = (b.translation - a.translation) / np.linalg.norm(b.translation - a.translation)
        models = (coal_shapes.obbtree_model(a), coal_shapes.obbtree_model(b))
        at = lambda s: coal_shapes.along(a, b, direction, s)  # noqa: E731
        touch = lambda s: coal_shapes.obbtree_collide(a, at(s), models)  # noqa: E731
        apart = coal_shapes.extent(a) + coal_shapes.extent(b) + 0.01
        edge = coal_shapes.edge_of_touching(touch, 0.0, apart)
        beyond = np.nextafter(edge, np.inf)
        assert touch(edge) and not touch(beyond)
        assert coal_shapes.decide(a, at(edge)).touch is True
        assert coal_shapes.decide(a, at(beyond)).touch is False


@pytest.mark.parametrize("pair", coal_shapes.PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_grid_contacts_touch_by_the_oracle(pair):
    """Every exact contact of the grid touches by the oracle too (exact or numeric): the grid
    is built right, and the oracles find contacts that are exact."""
    for a, b, truth in coal_shapes.grid_cases(pair)[::4]:
        assert truth
        assert coal_shapes.decide(a, b).touch is True, coal_shapes.reproducer(b)


@pytest.mark.parametrize("pair", coal_shapes.PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_shapes_match_coal_or_the_oracle(pair):
    count = scaled_cases(CASES)
    outcome = coal_shapes.compare_pair(pair, count, SEED)
    report = coal_shapes.table([outcome]) + "".join("\n" + d.line() for d in outcome.disagreements)
    print(report)
    assert not outcome.failures, "\n".join(outcome.failures)
    # Both answers occur (the grid alone has both), and distances were compared where obbtree
    # measures them (on random cases apart: a few dozen make some certain).
    assert 0 < outcome.touching < outcome.cases, report
    measured = set(pair) <= coal_shapes.MEASURED
    assert outcome.measured > 0 or not measured or count < 40, report


def test_a_flipped_verdict_and_a_skewed_distance_fail(monkeypatch):
    """The harness reports obbtree's answer flipped on one case (decided against it by the
    oracle) and a distance of obbtree's off by 1e-6 (decided against it by the exact
    distance)."""
    flipped = []

    def collide(a, b, models):
        answer = coal_shapes.obbtree_collide(a, b, models)
        if not flipped:
            flipped.append(answer)
            return not answer
        return answer

    outcome = coal_shapes.compare_pair(("sphere", "box"), 4, SEED, collide=collide)
    wrong = [d for d in outcome.disagreements if d.verdict == "obbtree WRONG"]
    assert [d.case for d in wrong] == [0] and len(outcome.failures) == 1, outcome.failures

    measure = coal_shapes.obbtree_distance
    monkeypatch.setattr(coal_shapes, "obbtree_distance", lambda a, b, m: measure(a, b, m) + 1e-6)
    for pair in [("capsule", "mesh"), ("cylinder", "mesh")]:  # exact, then decimal oracle
        outcome = coal_shapes.compare_pair(pair, 20, SEED)
        assert outcome.distance_disagreements, f"{pair}: no distance compared"
        assert all(not d.obbtree_right for d in outcome.distance_disagreements)
        assert len(outcome.failures) == len(outcome.distance_disagreements)
