#!/usr/bin/env python3
"""Two builds of the `obbtree` program on the same inputs, interleaved: did a change cost speed?

usage: bench/compare_builds.py BASE_BIN NEW_BIN [--rounds N] [--out DIR]

BASE_BIN and NEW_BIN are two `obbtree` programs (e.g. the release build of the commit before a
change, from a worktree, and of the change). Every row runs both, one thread, alternating which
goes first from round to round, under `chrt -f 10` where allowed; the table gives the median
`query_total_ms` of each and NEW / BASE. The rows: collide All and First on dragon_res3 (500
poses), distance on 100 near misses and 100 far poses and the margin query at the near misses'
median distance (dragon_res3), 100,000 incoherent rays on dragon_res2, and a scene of 1,000
objects over 100 frames with a tenth moving (`bench/anchors/scene.py OUT 1000 100 0.1 1`).
Inputs are made in OUT (default target/compare_builds) by the anchor scripts.
"""
import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANCHORS = ROOT / "bench" / "anchors"
sys.path.insert(0, str(ANCHORS))

import tables  # noqa: E402  (the anchors' inputs and timed runner)


def scene_inputs(out):
    """A scene of 1,000 bundled meshes and 100 frames in which a tenth move."""
    folder = out / "scene1000"
    if not (folder / "frames.json").exists():
        subprocess.run([sys.executable, ANCHORS / "scene.py", folder, "1000", "100", "0.1", "1"], check=True)
    return folder / "scene.json", folder / "frames.json"


def rows(meshes, rays, scene, far, margin):
    d3, d2 = str(meshes["dragon_res3"]), str(meshes["dragon_res2"])
    poses = str(tables.DATA / "poses_dragon_res3_500.json")
    near = str(tables.DATA / "poses_dragon_res3_near_100.json")
    return [
        ("collide All, dragon_res3, 500 poses", ["collide", d3, d3, "--poses", poses, "--mode", "all", "--json"]),
        ("collide First, dragon_res3, 500 poses", ["collide", d3, d3, "--poses", poses, "--mode", "first", "--json"]),
        ("distance, dragon_res3, 100 near misses", ["distance", d3, d3, "--poses", near, "--json"]),
        ("distance, dragon_res3, 100 far poses", ["distance", d3, d3, "--poses", str(far), "--json"]),
        (f"within {margin:.3g}?, dragon_res3, 100 near misses",
         ["distance", d3, d3, "--poses", near, "--margin", repr(margin), "--json"]),
        ("pick, dragon_res2, 100,000 rays", ["pick", d2, "--rays", str(rays), "--json"]),
        ("scene, 1,000 objects, 100 frames", ["scene", str(scene[0]), "--frames", str(scene[1]), "--json"]),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "compare_builds")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    meshes, rays = tables.inputs(args.out)
    far = tables.far_poses(meshes["dragon_res3"], args.out)
    near = str(tables.DATA / "poses_dragon_res3_near_100.json")
    d3 = str(meshes["dragon_res3"])
    first = tables.run([str(args.base), "distance", d3, d3, "--poses", near, "--json"], full=True)
    margin = statistics.median(r["distance"] for r in first["results"])
    table = ["| row | before (ms) | after (ms) | after / before |", "| --- | ---: | ---: | ---: |"]
    for label, command in rows(meshes, rays, scene_inputs(args.out), far, margin):
        times = {"base": [], "new": []}
        for k in range(args.rounds):
            order = ["base", "new"] if k % 2 == 0 else ["new", "base"]
            for which in order:
                program = args.base if which == "base" else args.new
                report = tables.run([str(program)] + command)
                times[which].append(report["query_total_ms"])
        base, new = statistics.median(times["base"]), statistics.median(times["new"])
        line = f"| {label} | {base:.2f} | {new:.2f} | {new / base:.3f} |"
        print(line, flush=True)
        table.append(line)
        with open(args.out / "runs.jsonl", "a") as log:
            log.write(json.dumps({"row": label, "base": times["base"], "new": times["new"]}) + "\n")
    print("\n".join(table))


if __name__ == "__main__":
    main()
