"""Continuous collision of two models from Python (`collide_motion`): a cube through a thin plate
at known rational times (exact under translation, within the tolerance under rotation or with a
shape), misses, contact at the start, the answer against static `collide` at poses sampled
along the motion, and bad tolerances and poses refused by name."""

import math
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np
import pytest

import obbtree
from conftest import load, translation

CORNERS = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
FACES = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)
# The plate: x in [-1/8, 1/8], y and z in [-5, 5]. The cube: [-1/2, 1/2]^3 about its origin.
HALF = 0.125
PLATE = CORNERS * [2 * HALF, 10.0, 10.0] - [HALF, 5.0, 5.0]
CUBE = CORNERS - 0.5


def mesh_model(vertices, bv="obb"):
    return obbtree.Model(obbtree.Mesh(vertices, FACES), bv=bv)


@pytest.fixture(scope="module")
def plate():
    return mesh_model(PLATE)


@pytest.fixture(scope="module")
def cube():
    return mesh_model(CUBE)


def turn_z(angle):
    """A rotation about z (4x4), exact at quarter turns."""
    m = np.eye(4)
    quarter = {0.0: (1.0, 0.0), math.pi / 2: (0.0, 1.0)}
    c, s = quarter.get(angle, (math.cos(angle), math.sin(angle)))
    m[:2, :2] = [[c, -s], [s, c]]
    return m


def rodrigues(axis, angle):
    """The rotation (3x3) by `angle` about `axis`."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    skew = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * skew + (1 - math.cos(angle)) * skew @ skew


def check_toi(result):
    lo, hi = result.toi
    assert 0.0 <= lo <= hi <= 1.0
    return lo, hi


@pytest.mark.parametrize("bv", obbtree.VOLUMES)
@pytest.mark.parametrize(
    "start, end",
    [
        # The cube's face x = 1/2 reaches the plate's x = -1/8: times that no float holds.
        ((-3.0, 0.0, 0.0), (3.0, 0.0, 0.0)),  # 19/48
        ((-1.0, 0.5, -0.25), (6.0, -1.0, 2.0)),  # 3/56, moving sideways too
        ((-0.75, 0.0, 0.0), (0.0, 0.0, 0.0)),  # 1/6
    ],
)
def test_a_translation_through_a_plate_is_bracketed_exactly(bv, start, end):
    plate, cube = mesh_model(PLATE, bv), mesh_model(CUBE, bv)
    result = obbtree.collide_motion(plate, None, cube, translation(*start), translation(*end))
    exact = (Fraction(-HALF) - Fraction(0.5) - Fraction(start[0])) / (
        Fraction(end[0]) - Fraction(start[0])
    )
    lo, hi = check_toi(result)
    assert result.hit and result.exact and result.tolerance == 0.0
    assert Fraction(lo) <= exact <= Fraction(hi) and hi - lo <= 1e-12
    ia, ib = result.pair
    assert 0 <= ia < len(FACES) and 0 <= ib < len(FACES)
    # The plate's triangle is on its side x = -1/8, the only part the cube comes near.
    assert (PLATE[FACES[ia], 0] == -HALF).all()
    # The sampled ends both miss: only the motion finds the contact.
    if end[0] > HALF + 0.5:
        assert not obbtree.collide(plate, None, cube, translation(*start))[0]
        assert not obbtree.collide(plate, None, cube, translation(*end))[0]


def test_a_placed_plate_is_met_where_its_pose_puts_it(plate, cube):
    # The plate turned a quarter about z (its face now y = -1/8) and moved by (7, 2, 0).
    pose_a = translation(7.0, 2.0, 0.0) @ turn_z(math.pi / 2)
    result = obbtree.collide_motion(
        plate, pose_a, cube, translation(7.0, -1.0, 0.0), translation(7.0, 5.0, 0.0)
    )
    lo, hi = check_toi(result)
    # Its near face y = 2 - 1/8 is reached by the cube's y = 1/2 at t = (2 - 1/8 - 1/2 + 1) / 6.
    exact = (Fraction(2) - Fraction(HALF) - Fraction(0.5) + 1) / 6
    assert result.hit and result.exact and Fraction(lo) <= exact <= Fraction(hi)


def test_misses_are_exact(plate, cube):
    # Beside the plate: nothing met, no interval, no pair.
    beside = obbtree.collide_motion(
        plate, None, cube, translation(-3.0, 6.0, 0.0), translation(3.0, 6.0, 0.0)
    )
    assert not beside.hit and beside.toi is None and beside.pair is None
    assert beside.exact and beside.tolerance == 0.0
    # Stopping one step of 2**-40 short of the plate: a miss; reaching it exactly: a hit at 1.
    stop = -HALF - 0.5
    short = obbtree.collide_motion(
        plate, None, cube, translation(-3.0, 0.0, 0.0), translation(stop - 2.0**-40, 0.0, 0.0)
    )
    assert not short.hit and short.exact
    reach = obbtree.collide_motion(
        plate, None, cube, translation(-3.0, 0.0, 0.0), translation(stop, 0.0, 0.0)
    )
    assert reach.hit and reach.toi[1] == 1.0
    # Moving away.
    away = obbtree.collide_motion(
        plate, None, cube, translation(-1.0, 0.0, 0.0), translation(-4.0, 0.0, 0.0)
    )
    assert not away.hit


def test_contact_at_the_start_is_zero(plate, cube):
    touching = translation(-HALF - 0.5, 0.0, 0.0)  # the faces touch
    result = obbtree.collide_motion(plate, None, cube, touching, translation(-5.0, 0.0, 0.0))
    assert result.hit and result.toi == (0.0, 0.0) and result.exact and result.tolerance == 0.0
    inside = obbtree.collide_motion(plate, None, cube, None, translation(0.0, 9.0, 0.0))
    assert inside.hit and inside.toi == (0.0, 0.0)
    ball = obbtree.Model.sphere(0.5)
    shape = obbtree.collide_motion(plate, None, ball, None, translation(-3.0, 0.0, 0.0))
    assert shape.hit and shape.toi == (0.0, 0.0)


def test_a_rotation_is_decided_within_the_tolerance(plate, cube):
    # The cube 0.1 from the plate, turning a quarter about z in place: its corner reaches
    # 0.5·(cos φ + sin φ) = 0.6 from its centre at φ = asin(0.6 / (0.5·√2)) − π/4.
    centre = translation(-HALF - 0.6, 0.0, 0.0)
    start, end = centre, centre @ turn_z(math.pi / 2)
    phi = math.asin(0.6 / (0.5 * math.sqrt(2))) - math.pi / 4
    t = phi / (math.pi / 2)
    result = obbtree.collide_motion(plate, None, cube, start, end)
    lo, hi = check_toi(result)
    assert result.hit and not result.exact and result.tolerance > 0.0
    assert result.tolerance <= 1e-6  # 1e-9 of the plate's size by default
    # No contact before lo; a contact within the tolerance soon after (the corner moves at
    # about 0.7 per unit of time).
    assert lo <= t + 1e-12 and t - lo <= 1e-6 and hi - lo <= 1e-9
    # A coarser time tolerance widens the interval, a larger distance tolerance is used.
    coarse = obbtree.collide_motion(plate, None, cube, start, end, time_tolerance=1e-3,
                                    tolerance=1e-4)
    lo, hi = check_toi(coarse)
    assert coarse.hit and coarse.tolerance == 1e-4 and hi - lo <= 1e-3 and lo <= t + 1e-12
    # 0.3 from the plate, the corner (at most 0.5·√2 from the centre) never reaches it.
    farther = translation(-HALF - 0.8, 0.0, 0.0)
    away = obbtree.collide_motion(plate, None, cube, farther, farther @ turn_z(math.pi / 2))
    assert not away.hit and away.toi is None and not away.exact and away.tolerance > 0.0


def test_a_shape_against_a_mesh(plate, cube):
    # A ball of radius 1/2 through the plate: touching at t = 19/48, reported as [t, t].
    ball = obbtree.Model.sphere(0.5)
    start, end = translation(-3.0, 0.0, 0.0), translation(3.0, 0.0, 0.0)
    result = obbtree.collide_motion(plate, None, ball, start, end)
    lo, hi = check_toi(result)
    exact = Fraction(19, 48)
    assert result.hit and not result.exact and result.tolerance > 0.0 and lo == hi
    assert Fraction(lo) <= exact and exact - Fraction(lo) <= Fraction(result.tolerance) / 6 + 1e-12
    assert result.pair[1] == 0
    # Passing beside it.
    beside = obbtree.collide_motion(
        plate, None, ball, translation(-3.0, 5.6, 0.0), translation(3.0, 5.6, 0.0)
    )
    assert not beside.hit and beside.toi is None and beside.pair is None
    # A mesh moving against a fixed shape: the cube onto a box 2 wide at the origin, its face
    # x = 1/2 reaching the box's x = -1 at t = 2/3.
    box = obbtree.Model.box([2.0, 2.0, 2.0])
    onto = obbtree.collide_motion(box, None, cube, translation(-4.5, 0.0, 0.0), None)
    lo, _ = check_toi(onto)
    assert onto.hit and not onto.exact and Fraction(lo) <= Fraction(2, 3)
    assert Fraction(2, 3) - Fraction(lo) <= Fraction(onto.tolerance) / 4.5 + 1e-12


def test_the_result_unpacks_and_prints(plate, cube):
    result = obbtree.collide_motion(
        plate, None, cube, translation(-3.0, 0.0, 0.0), translation(3.0, 0.0, 0.0)
    )
    assert isinstance(result, obbtree.MotionResult)
    hit, toi, pair, exact, tolerance = result
    assert (hit, toi, pair, exact, tolerance) == (
        result.hit, result.toi, result.pair, result.exact, result.tolerance
    )
    assert len(result) == 5 and result[-1] == tolerance and result[0] is True
    with pytest.raises(IndexError):
        result[5]
    assert repr(result).startswith("obbtree.MotionResult(hit=True, toi=(0.39583")
    miss = obbtree.collide_motion(
        plate, None, cube, translation(-3.0, 0.0, 0.0), translation(-1.0, 0.0, 0.0)
    )
    assert repr(miss) == (
        "obbtree.MotionResult(hit=False, toi=None, pair=None, exact=True, tolerance=0.0)"
    )


def test_poses_are_taken_in_every_form_collide_takes(plate, cube):
    # (4, 4) homogeneous matrices: float64 or another dtype, arrays or nested lists; None is
    # the identity.
    start = translation(-3.0, 0.0, 0.0)
    end = translation(3.0, 0.0, 0.0)
    expected = obbtree.collide_motion(plate, np.eye(4), cube, start, end)
    forms = [
        (None, start, end),
        (np.eye(4).tolist(), start.tolist(), end.tolist()),
        (np.eye(4, dtype=np.int64), start.astype(np.int64), end.astype(np.int64)),
        (np.eye(4, dtype=np.float32), start.astype(np.float32), end.astype(np.float32)),
        (np.eye(4), np.asfortranarray(start), end[::1, ::1]),
    ]
    for pose_a, s, e in forms:
        got = obbtree.collide_motion(plate, pose_a, cube, s, e)
        assert tuple(got) == tuple(expected)
    # None for start or end: the identity (the cube inside the plate at that end).
    assert obbtree.collide_motion(plate, None, cube, start, None).toi[0] > 0.0


@pytest.mark.parametrize("tolerance", [-1.0, -1e-300, math.nan, math.inf])
def test_a_bad_tolerance_is_refused_by_name(plate, cube, tolerance):
    with pytest.raises(obbtree.QueryError, match=r"^tolerance must be a non-negative"):
        obbtree.collide_motion(plate, None, cube, None, None, tolerance=tolerance)


@pytest.mark.parametrize("time_tolerance", [0.0, -0.5, 1.5, math.nan, math.inf])
def test_a_bad_time_tolerance_is_refused_by_name(plate, cube, time_tolerance):
    with pytest.raises(obbtree.QueryError, match=r"^time_tolerance: .*\(0, 1\]"):
        obbtree.collide_motion(plate, None, cube, None, None, time_tolerance=time_tolerance)


def test_bad_poses_and_arguments_are_refused_by_name(plate, cube):
    bad = np.eye(4)
    bad[0, 0] = 2.0
    for name, args in [
        ("pose_a", (bad, None, None)),
        ("start", (None, bad, None)),
        ("end", (None, None, np.zeros((3, 3)))),
    ]:
        with pytest.raises(obbtree.PoseError, match=f"^{name}: "):
            obbtree.collide_motion(plate, args[0], cube, args[1], args[2])
    # The tolerances are keyword-only; models of different volume types are refused.
    with pytest.raises(TypeError):
        obbtree.collide_motion(plate, None, cube, None, None, 1e-6)
    with pytest.raises(obbtree.Error, match="volume"):
        obbtree.collide_motion(plate, None, mesh_model(CUBE, "aabb"), None, None)


def sampled_motions(count, seed):
    """Random motions of a KUKA link past another: half pure translations (the same rotation at
    both ends), half turning by up to 2.5 rad about a random axis. Each is (start, end, pose_at)."""
    rng = np.random.default_rng(seed)
    motions = []
    for k in range(count):
        r0 = rodrigues(rng.normal(size=3), rng.uniform(0.0, math.pi))
        axis, angle = rng.normal(size=3), (0.0 if k % 2 == 0 else rng.uniform(0.2, 2.5))
        t0, t1 = rng.uniform(-0.35, 0.35, size=3), rng.uniform(-0.35, 0.35, size=3)
        start, end = np.eye(4), np.eye(4)
        start[:3, :3], start[:3, 3] = r0, t0
        end[:3, :3] = r0 if angle == 0.0 else r0 @ rodrigues(axis, angle)
        end[:3, 3] = t1

        def pose_at(t, r0=r0, axis=axis, angle=angle, t0=t0, t1=t1):
            m = np.eye(4)
            m[:3, :3] = r0 if angle == 0.0 else r0 @ rodrigues(axis, t * angle)
            m[:3, 3] = t0 + t * (t1 - t0)
            return m

        motions.append((start, end, pose_at))
    return motions


def test_the_answer_agrees_with_static_collide_along_the_motion():
    a, b = obbtree.Model(load("kuka_iiwa/link_1.obj")), obbtree.Model(load("kuka_iiwa/link_4.obj"))
    pose_a = translation(0.0, 0.0, -0.1)
    samples = np.linspace(0.0, 1.0, 101)
    hits = 0
    for start, end, pose_at in sampled_motions(12, seed=7):
        result = obbtree.collide_motion(a, pose_a, b, start, end)
        assert result.exact == np.array_equal(start[:3, :3], end[:3, :3]) or result.toi == (0, 0)
        touching = [t for t in samples if obbtree.collide(a, pose_a, b, pose_at(t), "first")[0]]
        if touching:
            # Never a missed contact, and none before lo.
            assert result.hit and result.toi[0] <= touching[0]
        if result.hit:
            hits += 1
            lo, hi = check_toi(result)
            # Within the tolerance (or touching) somewhere in [lo, hi]: b moves at most about
            # 2 per unit of time, so its distance at the middle is within 1e-8 of that.
            d = obbtree.distance(a, pose_a, b, pose_at((lo + hi) / 2)).distance
            assert d <= result.tolerance + 1e-8
        else:
            assert result.toi is None and result.pair is None
    assert hits >= 3


def test_threads_share_the_query(plate, cube):
    # The query runs without the GIL: answers from threads are those of one thread.
    starts = [translation(-3.0, 0.1 * k, 0.0) for k in range(8)]
    end = translation(3.0, 0.0, 0.0)
    alone = [tuple(obbtree.collide_motion(plate, None, cube, s, end)) for s in starts]
    with ThreadPoolExecutor(4) as pool:
        shared = list(
            pool.map(lambda s: tuple(obbtree.collide_motion(plate, None, cube, s, end)), starts)
        )
    assert shared == alone
