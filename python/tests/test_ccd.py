"""Continuous collision of the primitive pairs from Python: the benchmark's queries (Wang et
al. 2021, crates/bv/tests/data/ccd, exact ground truth in the seventh column) answered as their
ground truth says, the time-of-impact interval checked against the exact contact time of
hand-made motions (rational arithmetic), a minimum separation met at its exact distance, and
bad arrays and separations refused by name."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import obbtree

DATA = Path(__file__).resolve().parents[2] / "crates" / "bv" / "tests" / "data" / "ccd"
KINDS = {"vertex-face": obbtree.ccd_vertex_face, "edge-edge": obbtree.ccd_edge_edge}


def _read(path):
    """(start, end, truth) of a benchmark file: rows of numerator/denominator pairs (integers
    of any size; each value is exactly a float64) and the ground truth in column 7."""
    rows = [[int(x) for x in line.split(",")] for line in path.read_text().splitlines()]
    points = np.array([[float(Fraction(r[k], r[k + 1])) for k in (0, 2, 4)] for r in rows])
    queries = points.reshape(-1, 8, 3)
    return queries[:, :4], queries[:, 4:], np.array([r[6] for r in rows[::8]], bool)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["unit-tests", "erleben-sliding-spike", "erleben-wedges"])
def test_benchmark_queries_match_their_ground_truth(kind, name):
    start, end, truth = _read(DATA / name / f"{kind}.csv")
    hit, toi = KINDS[kind](start, end)
    assert hit.tolist() == truth.tolist()
    assert np.isnan(toi[~hit]).all()
    lo, hi = toi[hit, 0], toi[hit, 1]
    assert ((0 <= lo) & (lo <= hi) & (hi <= 1) & (hi - lo <= 1e-12)).all()


def test_the_interval_holds_the_exact_contact_time():
    """A vertex falling onto a static face at speeds that make the contact time a fraction
    that no float holds (1/3, 2/7, …): the interval holds it exactly."""
    face = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]
    starts, ends, exact = [], [], []
    for height, depth in [(1, 2), (2, 5), (3, 4), (1, 1023), (5, 0)]:
        starts.append([[1.0, 1.0, float(height)]] + face)
        ends.append([[1.0, 1.0, -float(depth)]] + face)
        exact.append(Fraction(height, height + depth))
    hit, toi = obbtree.ccd_vertex_face(np.array(starts), np.array(ends))
    assert hit.all()
    for (lo, hi), t in zip(toi, exact):
        assert Fraction(lo) <= t <= Fraction(hi) and hi - lo <= 1e-12
    # Passing beside the face, and stopping one float short of it: no contact.
    beside = [[[5.0, 5.0, 1.0]] + face]
    short = [[[1.0, 1.0, 2.0**-60]] + face]
    hit, toi = obbtree.ccd_vertex_face(np.array(beside), np.array([[[5.0, 5.0, -1.0]] + face]))
    assert not hit[0] and np.isnan(toi[0]).all()
    hit, _ = obbtree.ccd_vertex_face(np.array([[[1.0, 1.0, 1.0]] + face]), np.array(short))
    assert not hit[0]


def test_edges_that_cross_and_edges_that_pass():
    start = np.array([[[0, 0, 1], [1, 0, 1], [0.5, -1, 0], [0.5, 1, 0]]], float)
    down = np.array([1, 1, 0, 0])[:, None] * [0, 0, 2.0]
    hit, toi = obbtree.ccd_edge_edge(start, start - down)
    assert hit[0] and toi[0, 0] <= 0.5 <= toi[0, 1]
    # The second edge shortened to stop one step before the first edge's path.
    short = start.copy()
    short[0, 3, 1] = -(2.0**-40)
    hit, _ = obbtree.ccd_edge_edge(short, short - down)
    assert not hit[0]


def test_bad_arrays_are_refused_by_name():
    good = np.zeros((2, 4, 3))
    with pytest.raises(obbtree.QueryError, match="start"):
        obbtree.ccd_vertex_face(np.zeros((2, 3, 3)), good)
    with pytest.raises(obbtree.QueryError, match="end"):
        obbtree.ccd_edge_edge(good, np.zeros((3, 4, 3)))
    bad = good.copy()
    bad[1, 2, 0] = np.nan
    with pytest.raises(obbtree.QueryError, match="end: entries must be finite"):
        obbtree.ccd_vertex_face(good, bad)


def test_a_minimum_separation_meets_at_the_exact_distance():
    """A vertex falling onto a face is within d = 1/4 at t = 3/8; passing a corner at exactly
    1/2 touches d = 1/2 but not the float below it; edges crossing over at height 1/2 likewise."""
    face = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    falling = (np.array([[[0.25, 0.25, 1.0]] + face]), np.array([[[0.25, 0.25, -1.0]] + face]))
    hit, toi = obbtree.ccd_vertex_face(*falling, min_separation=0.25)
    assert hit[0] and toi[0, 0] <= 0.375 <= toi[0, 1]
    hit, toi = obbtree.ccd_vertex_face(*falling)
    assert hit[0] and toi[0, 0] <= 0.5 <= toi[0, 1]
    passing = (np.array([[[-1.0, -0.5, 0.0]] + face]), np.array([[[1.0, -0.5, 0.0]] + face]))
    hit, toi = obbtree.ccd_vertex_face(*passing, min_separation=0.5)
    assert hit[0] and toi[0, 0] <= 0.5 <= toi[0, 1]
    hit, _ = obbtree.ccd_vertex_face(*passing, min_separation=np.nextafter(0.5, 0))
    assert not hit[0]
    b = [[0.0, -1.0, 0.0], [0.0, 1.0, 0.0]]
    start = np.array([[[-3.0, 0.0, 0.5], [-1.0, 0.0, 0.5]] + b])
    end = np.array([[[1.0, 0.0, 0.5], [3.0, 0.0, 0.5]] + b])
    hit, toi = obbtree.ccd_edge_edge(start, end, min_separation=0.5)
    assert hit[0] and toi[0, 0] <= 0.25 <= toi[0, 1]
    assert not obbtree.ccd_edge_edge(start, end, min_separation=0.4375)[0][0]


@pytest.mark.parametrize("bad", [-1e-3, float("inf"), float("nan")])
def test_bad_separations_are_refused_by_name(bad):
    good = np.zeros((1, 4, 3))
    with pytest.raises(obbtree.QueryError, match="min_separation"):
        obbtree.ccd_vertex_face(good, good, min_separation=bad)
    with pytest.raises(obbtree.QueryError, match="min_separation"):
        obbtree.ccd_edge_edge(good, good, min_separation=bad)
