#!/usr/bin/env python3
"""Self-collision speed: pinocchio + coal against `obbtree robot`, one thread each.

usage: bench/robots/coal_speed.py [ROBOT ...] [-n N] [--seed S] [--repeat R] [--cli OBBTREE]

ROBOT is a name of coal_compare.ROBOTS (default: panda, talos_reduced, tiago). Each robot is set
up as coal_compare sets it up (the same link pairs checked in both). Two runs of N
configurations (default 1,000):

* random: N configurations drawn uniformly within the joint limits (the cross-check's);
* path: N consecutive configurations close together (a random walk, each joint moving at most
  0.2% of its range per step). Link pairs that collide anywhere along it (per pinocchio) are
  left out of both engines for this run, so that the path is clear and both check all of it.
  obbtree runs it with `--path --resolution R`, R the largest step of the walk, so it checks
  exactly the N configurations (with the scene's temporal coherence); pinocchio calls
  computeCollisions on each in turn (stopping at a first collision, as a path check would).
  A third row times obbtree on the same path without --path (each configuration on its own).

Timed: pinocchio's `pin.computeCollisions(model, data, geom_model, geom_data, q, stop)` alone
(forward kinematics, geometry placement and the pair tests), perf_counter around that call only,
summed; the "call overhead" column is N times the same call on a geometry model with no pairs and
no geometry (the Python binding's cost, which the first column includes). obbtree: its
`query_total_ms` (configurations set and checked, after the build), RAYON_NUM_THREADS=1. Each
figure is the least of --repeat runs (default 3). The table is markdown; ratio is pinocchio's
time over obbtree's.

A robot that obbtree cannot load yet gets pinocchio's figures and obbtree's refusal.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import coal_compare as cc  # noqa: E402

DEFAULT = ["panda", "talos_reduced", "tiago"]


def pin_ms(robot, configs, stop):
    """pinocchio's computeCollisions over the configurations: (summed ms, collisions)."""
    import pinocchio as pin

    qs = [cc.pin_q(robot, c) for c in configs]
    model, data, gm, gd = robot.model, robot.data, robot.geom_model, robot.geom_data
    total, hits = 0.0, 0
    for q in qs:
        start = time.perf_counter()
        hit = pin.computeCollisions(model, data, gm, gd, q, stop)
        total += time.perf_counter() - start
        hits += bool(hit)
        if hit and stop:
            break
    return total * 1e3, hits


def overhead_ms(robot, n):
    """n calls of computeCollisions on an empty geometry model (no forward kinematics)."""
    import pinocchio as pin

    gm = pin.GeometryModel()
    gd = pin.GeometryData(gm)
    total = 0.0
    for _ in range(n):
        start = time.perf_counter()
        pin.computeCollisions(gm, gd, False)
        total += time.perf_counter() - start
    return total * 1e3


def walk(robot, n, seed):
    """n configurations, each joint moving by at most 0.2% of its range per step."""
    rng = np.random.default_rng(seed)
    lo = np.array([l for l, _ in robot.limits])
    hi = np.array([h for _, h in robot.limits])
    step = 0.002 * (hi - lo)
    q = lo + (hi - lo) * (0.25 + 0.5 * rng.random(len(lo)))
    path = [q]
    for _ in range(n - 1):
        q = np.clip(q + step * rng.uniform(-1, 1, len(lo)), lo, hi)
        path.append(q)
    return np.array(path)


def best(runs):
    return min(runs)


def measure(robot, n, seed, repeat):
    """The rows of one robot."""
    rows = []
    configs = cc.random_configs(robot, n, seed)
    overhead = best(overhead_ms(robot, n) for _ in range(repeat))
    pin_random = best(pin_ms(robot, configs, False)[0] for _ in range(repeat))
    obb_random = None
    if robot.refusal is None:
        obb_random = best(
            cc.obbtree_run(robot, configs, threads=1)["query_total_ms"] for _ in range(repeat)
        )
    rows.append((robot.name, "random", n, len(robot.pairs), pin_random, overhead, obb_random, ""))

    path = walk(robot, n, seed)
    colliding = set().union(*cc.pin_collisions(robot, path))
    cc.restrict(robot, robot.pairs - colliding)
    note = f"{len(colliding)} pairs colliding on the path left out"
    pin_path = best(pin_ms(robot, path, True)[0] for _ in range(repeat))
    obb_path = None
    if robot.refusal is None:
        resolution = float(np.abs(np.diff(path, axis=0)).max()) * (1 + 1e-9)
        runs = [cc.obbtree_run(robot, path, True, resolution, threads=1) for _ in range(repeat)]
        obb_path = best(r["query_total_ms"] for r in runs)
        r = runs[0]
        if r["first_collision"] is not None or r["checked"] != n:
            note += f"; obbtree checked {r['checked']}, first collision {r['first_collision']}"
    rows.append((robot.name, "path", n, len(robot.pairs), pin_path, overhead, obb_path, note))
    if robot.refusal is None:
        # The same path as separate configurations: what the temporal coherence is worth.
        obb_each = best(
            cc.obbtree_run(robot, path, threads=1)["query_total_ms"] for _ in range(repeat)
        )
        note = "obbtree without --path"
        rows.append((robot.name, "path", n, len(robot.pairs), pin_path, overhead, obb_each, note))
    return rows


def table(rows, refusals):
    out = [
        "| robot | configurations | link pairs | pinocchio ms | of which call overhead ms "
        "| obbtree ms | pinocchio / obbtree | note |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, kind, n, pairs, pin_t, over, obb_t, note in rows:
        obb = f"{obb_t:.1f}" if obb_t is not None else "cannot load"
        ratio = f"{pin_t / obb_t:.2f}" if obb_t else "—"
        out.append(
            f"| {name} | {n} {kind} | {pairs} | {pin_t:.1f} | {over:.1f} | {obb} | {ratio} "
            f"| {note} |"
        )
    for name, refusal in refusals:
        out.append(f"\n{name}: obbtree cannot load it yet: {refusal.splitlines()[0]}")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("robots", nargs="*", default=DEFAULT)
    parser.add_argument("-n", type=int, default=1000, help="configurations per run (1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the least kept")
    parser.add_argument("--cli", help="the obbtree binary (default $OBBTREE_CLI, then PATH)")
    args = parser.parse_args(argv)
    cli = cc.find_cli(args.cli)
    rows, refusals = [], []
    for name in args.robots:
        robot = cc.setup_named(name, cli, pinocchio_only=True)
        if robot.refusal:
            refusals.append((name, robot.refusal))
        rows += measure(robot, args.n, args.seed, args.repeat)
        print(f"{name}: done", file=sys.stderr, flush=True)
    print(table(rows, refusals))


if __name__ == "__main__":
    main()
