#!/usr/bin/env python3
"""Vertex–face and edge–edge continuous collision: `obbtree ccd` beside Tight Inclusion.

usage: bench/ccd/tight_inclusion.py [--cli OBBTREE] [--data DIR] [--random N] [--seed S]
                                    [--repeat R] [--limit N] [--min-separation D]

The anchor is Tight Inclusion (Wang, Ferguson, Schneider, Jiang, Attene and Panozzo, "A Large
Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision Detection", ACM TOG
40(5), 2021) through PyPI's `ipctk` (`ipctk.TightInclusionCCD()` at its defaults: tolerance
1e-6, minimum distance 0, t in [0, 1]). Both engines answer the same queries, one set after the
other in one run, one thread each:

* the benchmark's handcrafted sets (SET/KIND.csv under --data, the repository's copy; or the
  benchmark's own SET/KIND/data_0_0.csv), both kinds,
  whose ground truth is the file's seventh column: each engine's false positives and false
  negatives are counted against it;
* --random N simulation-like near misses of each kind (default 2,000): a triangle or an edge
  of about unit size, the other primitive 1e-3..1e-2 from it, every coordinate of every point
  moved by up to 2e-3 (1–3% of them collide). Their truth is obbtree's exact answer; the
  table counts where Tight Inclusion differs.

With --min-separation D > 0 both engines take contact to mean a distance of at most D (Tight
Inclusion's `min_distance`); the files' ground truth is for D = 0, so obbtree's exact answer is
the truth then, and the table counts where Tight Inclusion differs.

Timed: obbtree's `query_total_ms` (`obbtree ccd --vertex-face|--edge-edge FILE --json`);
Tight Inclusion's calls one by one, perf_counter around each call only, summed. A Python call
carries the binding's cost (numpy arrays in, a tuple out), which dominates a sub-microsecond
query: the "call overhead" column is the same call on queries whose points never move and lie
far apart (Tight Inclusion's first box test ends them), so the last column subtracts it. Each
time is the least of --repeat runs (default 3).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "crates" / "bv" / "tests" / "data" / "ccd"
KINDS = {"vertex-face": "vertex-face", "edge-edge": "edge-edge"}


def find_cli(given):
    cli = given or os.environ.get("OBBTREE_CLI") or shutil.which("obbtree")
    if not cli:
        sys.exit("no obbtree binary: pass --cli, set OBBTREE_CLI or put obbtree on PATH")
    return cli


def read_queries(path):
    """(queries as an array n × 8 × 3 of floats, ground truth n booleans) of a benchmark CSV
    (numerators and denominators of any size; each value is exactly a float64)."""
    rows = [[int(x) for x in line.split(",")] for line in Path(path).read_text().splitlines()]
    if len(rows) % 8:
        sys.exit(f"{path}: {len(rows)} rows, not a multiple of 8")
    points = np.array([[float(Fraction(r[k], r[k + 1])) for k in (0, 2, 4)] for r in rows])
    return points.reshape(-1, 8, 3), np.array([r[6] for r in rows[::8]], bool)


def write_queries(path, queries, truth):
    """The benchmark's CSV of float queries: each value an exact numerator/denominator."""
    with open(path, "w") as out:
        for query, hit in zip(queries, truth):
            for point in query:
                cells = []
                for value in point:
                    num, den = float(value).as_integer_ratio()
                    cells += [str(num), str(den)]
                out.write(",".join(cells + [str(int(hit))]) + "\n")


def near_misses(kind, n, rng):
    """n simulation-like queries of `kind`: primitives of about unit size, 1e-3..1e-2 apart,
    each coordinate moved by up to 2e-3 (a time step of a cloth simulation)."""
    queries = np.empty((n, 8, 3))
    for k in range(n):
        start = rng.uniform(-0.5, 0.5, (4, 3))
        if kind == "vertex-face":
            tri = start[1:]
            normal = np.cross(tri[1] - tri[0], tri[2] - tri[0])
            normal /= np.linalg.norm(normal)
            weights = rng.dirichlet(np.ones(3))
            gap = rng.uniform(1e-3, 1e-2) * rng.choice([-1, 1])
            start[0] = weights @ tri + gap * normal
        else:
            a, b = start[0:2], start[2:4]
            # Put the second edge's middle near the first edge's middle, off by a small gap.
            offset = np.cross(a[1] - a[0], b[1] - b[0])
            offset /= np.linalg.norm(offset)
            shift = (a[0] + a[1]) / 2 - (b[0] + b[1]) / 2
            gap = rng.uniform(1e-3, 1e-2) * rng.choice([-1, 1])
            start[2:4] += shift + gap * offset
        queries[k, :4] = start
        queries[k, 4:] = start + rng.uniform(-2e-3, 2e-3, (4, 3))
    return queries


def obbtree_run(cli, kind, path, repeat, separation):
    """(least query_total_ms, hits as booleans) of `obbtree ccd` on a CSV."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [cli, "ccd", f"--{kind}", str(path), "--json", "--min-separation", repr(separation)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "RAYON_NUM_THREADS": "1"},
        )
        runs.append(json.loads(out.stdout))
    hits = np.array([r["hit"] for r in runs[0]["results"]])
    return min(r["query_total_ms"] for r in runs), hits


def tight_inclusion_run(kind, queries, repeat, separation=0.0):
    """(least summed ms, hits as booleans) of Tight Inclusion over the queries."""
    import ipctk

    ipctk.set_logger_level(ipctk.LoggerLevel.off)  # no line per query within the separation
    ccd = ipctk.TightInclusionCCD()
    call = ccd.point_triangle_ccd if kind == "vertex-face" else ccd.edge_edge_ccd
    columns = [[np.ascontiguousarray(q[i]) for i in range(8)] for q in queries]
    best, hits = None, None
    for _ in range(repeat):
        total, found = 0.0, []
        for args in columns:
            start = time.perf_counter()
            hit, _toi = call(*args, separation)
            total += time.perf_counter() - start
            found.append(hit)
        best = total if best is None else min(best, total)
        hits = np.array(found)
    return best * 1e3, hits


def call_overhead_ms(kind, n, repeat):
    """n Tight Inclusion calls on still primitives far apart: the binding's cost per call."""
    far = np.zeros((n, 8, 3))
    far[:, :, 0] = np.arange(8) * 10.0
    far[:, 4:] = far[:, :4]
    return tight_inclusion_run(kind, far, repeat)[0]


def compare(cli, kind, name, queries, truth, repeat, workdir, separation):
    """One table row: both engines on the queries, counted against `truth` (None: obbtree's
    answer is the truth)."""
    path = workdir / f"{name}-{kind}.csv"
    write_queries(path, queries, truth if truth is not None else np.zeros(len(queries), bool))
    obb_ms, obb_hits = obbtree_run(cli, kind, path, repeat, separation)
    ti_ms, ti_hits = tight_inclusion_run(kind, queries, repeat, separation)
    overhead = call_overhead_ms(kind, len(queries), repeat)
    reference = truth if truth is not None else obb_hits
    n = len(queries)

    def errors(hits):
        return int(np.sum(hits & ~reference)), int(np.sum(~hits & reference))

    return {
        "set": name,
        "kind": kind,
        "queries": n,
        "hits": int(reference.sum()),
        "obbtree": (obb_ms, *errors(obb_hits)),
        "tight_inclusion": (ti_ms, *errors(ti_hits)),
        "overhead_ms": overhead,
    }


def table(rows):
    out = [
        "| set | kind | queries | hits | obbtree µs/query | obbtree FP / FN "
        "| Tight Inclusion µs/query | TI FP / FN | TI call overhead µs | TI less overhead µs |",
        "|---|---|---:|---:|---:|---|---:|---|---:|---:|",
    ]
    for r in rows:
        n = r["queries"]
        o_ms, o_fp, o_fn = r["obbtree"]
        t_ms, t_fp, t_fn = r["tight_inclusion"]
        per = lambda ms: 1e3 * ms / n  # noqa: E731
        out.append(
            f"| {r['set']} | {r['kind']} | {n} | {r['hits']} | {per(o_ms):.2f} | {o_fp} / {o_fn} "
            f"| {per(t_ms):.2f} | {t_fp} / {t_fn} | {per(r['overhead_ms']):.2f} "
            f"| {per(t_ms - r['overhead_ms']):.2f} |"
        )
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", help="the obbtree binary (default $OBBTREE_CLI, then PATH)")
    parser.add_argument("--data", type=Path, default=DATA, help=f"benchmark folders ({DATA})")
    parser.add_argument("--random", type=int, default=2000, help="random near misses per kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the least kept")
    parser.add_argument("--limit", type=int, help="at most this many queries per file")
    parser.add_argument("--min-separation", type=float, default=0.0, metavar="D",
                        help="contact within this distance (default 0: touching)")
    args = parser.parse_args(argv)
    cli = find_cli(args.cli)
    rng = np.random.default_rng(args.seed)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for kind in KINDS:
            # The repository's copy (SET/KIND.csv) or the benchmark's layout
            # (SET/KIND/data_0_0.csv).
            files = sorted(args.data.glob(f"*/{kind}.csv")) + sorted(
                args.data.glob(f"*/{kind}/data_0_0.csv")
            )
            if not files:
                sys.exit(f"no {kind} sets under {args.data} (*/{kind}.csv)")
            for path in files:
                queries, truth = read_queries(path)
                if args.limit:
                    queries, truth = queries[: args.limit], truth[: args.limit]
                name = path.parent.name if path.name == f"{kind}.csv" else path.parent.parent.name
                if args.min_separation > 0:
                    truth = None  # the files' truth is for touching
                rows.append(compare(cli, kind, name, queries, truth, args.repeat, workdir,
                                    args.min_separation))
                print(f"{name} {kind}: done", file=sys.stderr, flush=True)
            if args.random:
                queries = near_misses(kind, args.random, rng)
                rows.append(compare(cli, kind, "random near misses", queries, None, args.repeat,
                                    workdir, args.min_separation))
    print(table(rows))


if __name__ == "__main__":
    main()
