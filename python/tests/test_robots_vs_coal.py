"""`obbtree robot` self-collision against pinocchio + coal on example-robot-data's robots.

The harness is bench/robots/coal_compare.py (its docstring says how the two engines are made to
check the same link pairs on the same configurations). Per robot, seeded random configurations
within the joint limits; every configuration's set of colliding link pairs must be the same in
both, except pairs that coal puts within 1e-6 of touching (listed, decided by obbtree's exact
answer).

The CLI is $OBBTREE_CLI (scripts/test sets it to the ci build, target/ci/obbtree). A pair coal's
collision check misses while an exact witness point shows the boxes meet is listed apart, not a
failure (tiago's hand).

Configurations per robot: 1,000 (tiago: 300; it has no SRDF, and its 1,737 link pairs, dozens
of them overlapping in every configuration, take pinocchio 11 to 18 ms a configuration), scaled
like every seeded loop of the project by OBBTREE_PROPTEST_CASES (256 is the CI run).
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "robots"))

import coal_compare  # noqa: E402
from conftest import scaled_cases  # noqa: E402

SEED = 2026


ROBOTS = [
    pytest.param("panda", 1000),
    pytest.param("ur5", 1000),
    pytest.param("talos_reduced", 1000),
    pytest.param("tiago", 300),
    pytest.param("pr2", 1000),
    pytest.param("a1", 1000),
    pytest.param("solo12", 1000),
    pytest.param("romeo", 1000),
]


@pytest.fixture(scope="module")
def cli():
    path = os.environ.get("OBBTREE_CLI")
    if not path:
        pytest.fail(
            "OBBTREE_CLI is not set: it must name the obbtree binary (scripts/test sets it to "
            "the ci build, target/ci/obbtree; by hand: cargo build --profile ci -p obbtree-cli "
            "and OBBTREE_CLI=target/ci/obbtree)",
            pytrace=False,
        )
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"OBBTREE_CLI={path}: not an executable file", pytrace=False)
    return path


@pytest.mark.parametrize("name, count", ROBOTS)
def test_self_collision_matches_coal(cli, name, count):
    robot = coal_compare.setup_named(name, cli)
    assert robot.pairs, f"{name}: no link pair left to compare"
    outcome = coal_compare.compare(robot, scaled_cases(count), SEED)
    print(outcome.summary())
    assert not outcome.failures, outcome.summary()
    # The comparison saw both answers: some configurations collide, some pairs are clear.
    assert outcome.pair_hits > 0, outcome.summary()


def test_harness_reports_disagreements(cli, monkeypatch):
    """A pair dropped from obbtree's answer and one added to it are both failures: the dropped
    one because the exact test finds coal's triangles meeting, the added one by coal's
    distance."""
    robot = coal_compare.setup_named("solo12", cli)
    run = coal_compare.obbtree_run

    def tampered(robot, configs, **kwargs):
        report = run(robot, configs, **kwargs)
        colliding = next(r for r in report["results"] if r["self"])
        dropped.append(sorted(colliding["self"].pop(0)))
        clear = next(r for r in report["results"] if not r["self"])
        clear["self"].append(["FL_FOOT", "HR_FOOT"])
        return report

    dropped = []
    monkeypatch.setattr(coal_compare, "obbtree_run", tampered)
    outcome = coal_compare.compare(robot, 50, SEED)
    failed = {(p, says): (d, note) for _, p, says, d, note in outcome.failures}
    assert len(failed) == 2, outcome.summary()
    # Meshes that cross: coal's distance is 0, the exact test on coal's triangles decides.
    meeting = (0.0, "the exact test finds triangles meeting")
    assert failed[(tuple(dropped[0]), "collision")] == meeting
    assert failed[(("FL_FOOT", "HR_FOOT"), "separate")][0] > coal_compare.NEAR
