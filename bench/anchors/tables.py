#!/usr/bin/env python3
"""The README's speed tables in one run: the `obbtree` program a user builds, parry3d-f64
(through `crates/cli/examples/parry_bench.rs`), FCL, coal and Embree on the same files, one
thread each, several rounds interleaved, medians and ratios; robot self-collision beside
pinocchio + coal (`bench/robots/coal_speed.py`, when this Python can import pinocchio); and
points against meshes beside Open3D, libigl and trimesh (`points_anchors.py`, when this Python
can import them). Ray picking runs on dragon_res2 (incoherent rays; the same mesh written to 7
digits; the rays of one picture) and on held-out meshes of example-robot-data (its COLLADA
files, read by trimesh with pycollada 0.9.2 when this Python has them). Last, the program's
batches (rays, distances, collisions) on one and two threads.

usage: bench/anchors/tables.py [--rounds N] [--out DIR] [--only collide|distance|pick|build|robots|points|cores]

Needs `cargo build --release -p obbtree-cli --bin obbtree --example parry_bench` (or set
OBBTREE_BIN_DIR to the folder holding `obbtree` and `examples/parry_bench`) and the harnesses of
`bench/anchors/build.sh` in target/anchors (or BENCH_OUT). Every run's one-line report is kept
in OUT/runs.jsonl; the tables are printed as Markdown. Runs under `chrt -f 10` when it is
allowed, so that other work on the machine does not take the core away.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import mesh_files

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benches" / "data"


def programs():
    bins = Path(os.environ.get("OBBTREE_BIN_DIR", ROOT / "target" / "release"))
    anchors = ROOT / os.environ.get("BENCH_OUT", "target/anchors")
    return {
        "obbtree": [str(bins / "obbtree")],
        "parry": [str(bins / "examples" / "parry_bench")],
        "fcl": [str(anchors / "fcl_bench")],
        "coal": [str(anchors / "coal_bench")],
        "embree": [str(anchors / "embree_bench")],
    }


def realtime_prefix():
    if shutil.which("chrt") and subprocess.run(["chrt", "-f", "10", "true"]).returncode == 0:
        return ["chrt", "-f", "10"]
    return []


def run(command, env_extra=None, full=False):
    """Runs one timed command (one thread) and returns its one-line JSON report (without the
    per-query answers unless `full`)."""
    env = {**os.environ, "RAYON_NUM_THREADS": "1", **(env_extra or {})}
    out = subprocess.run(realtime_prefix() + command, env=env, check=True, capture_output=True, text=True)
    report = json.loads(out.stdout)
    return report if full else {k: v for k, v in report.items() if k not in ("results", "hits")}


def inputs(out):
    """OBJ copies of the dragons (exactly the values the PLY loader reads) and 100,000 rays."""
    meshes = {}
    for name in ("dragon_res3", "dragon_res2"):
        obj = out / f"{name}.obj"
        if not obj.exists():
            subprocess.run([sys.executable, DATA / "ply2obj.py", ROOT / "assets" / f"{name}.ply.gz", obj], check=True)
        meshes[name] = obj
    return meshes, ray_file(meshes["dragon_res2"], out, "rays_dragon_res2_100k.json")


def collide_cases(meshes, out):
    """(case, query, {engine: command}) for every collision row: the tuned-on dragons, then the
    held-out pair (`held_out_pair`) when it can be made."""
    p = programs()
    cases = [
        ("dragon_res3, 500 poses", meshes["dragon_res3"], meshes["dragon_res3"], DATA / "poses_dragon_res3_500.json", ["all", "first"]),
        ("dragon_res3, 100 near misses", meshes["dragon_res3"], meshes["dragon_res3"], DATA / "poses_dragon_res3_near_100.json", ["first"]),
        ("dragon_res2, 200 poses", meshes["dragon_res2"], meshes["dragon_res2"], DATA / "poses_dragon_res2_200.json", ["all", "first"]),
        ("dragon_res2, 100 near misses", meshes["dragon_res2"], meshes["dragon_res2"], DATA / "poses_dragon_res2_near_100.json", ["first"]),
    ]
    pair = held_out_pair(out)
    if pair:
        cases += [
            (f"{pair['label']} (held out), {HELD_OUT_POSES} poses", pair["a"], pair["b"], pair["poses"], ["all", "first"]),
            (f"{pair['label']} (held out), {pair['near_count']} near misses", pair["a"], pair["b"], pair["near"], ["first"]),
        ]
    for case, a, b, poses, modes in cases:
        a, b, q = str(a), str(b), str(poses)
        for mode in modes:
            anchor_mode = "all" if mode == "all" else "bool"
            yield case, mode, {
                "obbtree": p["obbtree"] + ["collide", a, b, "--poses", q, "--mode", mode, "--json"],
                "obbtree min-volume": p["obbtree"] + ["collide", a, b, "--poses", q, "--mode", mode, "--json", "--fit", "min-volume"],
                "parry3d-f64": p["parry"] + ["collide", a, b, q, "--mode", mode],
                "FCL OBB": p["fcl"] + ["collide", a, b, q, "--bv", "obb", "--mode", anchor_mode],
                "FCL OBBRSS": p["fcl"] + ["collide", a, b, q, "--bv", "obbrss", "--mode", anchor_mode],
                "coal kIOS": p["coal"] + ["collide", a, b, q, "--bv", "kios", "--mode", anchor_mode],
            }


def pick_case(mesh, rays):
    p = programs()
    m, r = str(mesh), str(rays)
    return {
        "obbtree": (p["obbtree"] + ["pick", m, "--rays", r, "--json"], None),
        "Embree robust": (p["embree"] + ["ray", m, r], {"EMBREE_ROBUST": "1"}),
        "Embree": (p["embree"] + ["ray", m, r], None),
        "parry3d-f64": (p["parry"] + ["pick", m, r], None),
    }


def rounds_of(commands, rounds, log, label):
    """Every engine's reports over `rounds` interleaved rounds."""
    reports = {engine: [] for engine in commands}
    for k in range(rounds):
        for engine, spec in commands.items():
            command, env = spec if isinstance(spec, tuple) else (spec, None)
            report = run(command, env)
            reports[engine].append(report)
            log.write(json.dumps({"case": label, "engine": engine, "round": k, **report}) + "\n")
            log.flush()
            print(f"  {label} {engine} round {k + 1}/{rounds}: {report['query_total_ms']:.3f} ms", file=sys.stderr)
    return reports


def median(reports, key="query_total_ms"):
    return statistics.median(r[key] for r in reports)


def ms(x):
    return f"{x / 1000:.3f} s" if x >= 1000 else f"{x:.3g} ms" if x >= 10 else f"{x:.3f} ms"


def collide_table(meshes, out, rounds, log):
    engines = ["obbtree", "obbtree min-volume", "parry3d-f64", "FCL OBB", "FCL OBBRSS", "coal kIOS"]
    others = engines[2:]
    lines = ["| case | query | " + " | ".join(engines) + " | fastest other / obbtree (default / min-volume) |",
             "| --- | --- |" + " ---: |" * (len(engines) + 1)]
    for case, mode, commands in collide_cases(meshes, out):
        reports = rounds_of(commands, rounds, log, f"{case} {mode}")
        times = {e: median(reports[e]) for e in engines}
        fastest = min(times[e] for e in others)
        cells = [f"**{ms(times[e])}**" for e in engines[:2]] + [ms(times[e]) for e in others]
        ratios = " / ".join(f"{fastest / times[e]:.1f}×" for e in engines[:2])
        lines.append(f"| {case} | `{mode.capitalize()}` | " + " | ".join(cells) + f" | **{ratios}** |")
    return lines


def pushed_apart(near, far, c_a, c_b, reach):
    """FAR: the poses of NEAR with B pushed 1.2 `reach` (r_A + r_B) further from A along the
    line between the centroids (separated_poses.py's rule)."""
    from separated_poses import pushed
    poses = mesh_files.read_json(str(near))["poses"]
    mesh_files.write_json(str(far), {"poses": [pushed(p, c_a, c_b, 1.2 * reach) for p in poses]})


def far_poses(mesh, out):
    """The dragon_res3 near misses pushed apart (`pushed_apart`)."""
    far = out / "poses_dragon_res3_far_100.json"
    if not far.exists():
        vertices, triangles = mesh_files.read_mesh(str(mesh))
        c, r = mesh_files.centroid_radius(mesh_files.used_vertices(vertices, triangles))
        pushed_apart(DATA / "poses_dragon_res3_near_100.json", far, c, c, 2 * r)
    return far


def distance_table(meshes, out, rounds, log):
    """`distance` at near and far poses of dragon_res3, at near poses of dragon_res2 and along
    the KUKA arm's fold (link 5 in link 0's frame, `examples/kuka_sweep_poses.rs`), and the
    margin question at the median near distance of dragon_res3, beside FCL and coal."""
    p = programs()
    d3, d2 = str(meshes["dragon_res3"]), str(meshes["dragon_res2"])
    link0, link5 = (str(ROOT / "assets" / "kuka_iiwa" / f"link_{k}.obj") for k in (0, 5))
    near, far = str(DATA / "poses_dragon_res3_near_100.json"), str(far_poses(meshes["dragon_res3"], out))
    first = run(p["obbtree"] + ["distance", d3, d3, "--poses", near, "--json"], full=True)
    margin = statistics.median(r["distance"] for r in first["results"])
    engines = ["obbtree", "FCL RSS", "FCL OBBRSS", "coal RSS", "coal OBBRSS", "coal kIOS"]
    rows = []
    for label, a, b, poses, extra in [
        ("dragon_res3 × dragon_res3, `distance`, 100 near misses", d3, d3, near, []),
        ("dragon_res3 × dragon_res3, `distance`, 100 far poses", d3, d3, far, []),
        (f"dragon_res3 × dragon_res3, within {margin:.3g}? (the median near distance), 100 near misses",
         d3, d3, near, ["--margin", repr(margin)]),
        ("dragon_res2 × dragon_res2, `distance`, 100 near misses", d2, d2, str(DATA / "poses_dragon_res2_near_100.json"), []),
        ("KUKA link 0 × link 5, `distance`, 100 poses of the arm folding", link0, link5,
         str(DATA / "poses_kuka_link0_link5_fold_100.json"), []),
    ] + held_out_distance_rows(out):
        commands = {
            "obbtree": p["obbtree"] + ["distance", a, b, "--poses", poses, "--json"] + extra,
            "FCL RSS": p["fcl"] + ["distance", a, b, poses, "--bv", "rss"] + extra,
            "FCL OBBRSS": p["fcl"] + ["distance", a, b, poses, "--bv", "obbrss"] + extra,
            "coal RSS": p["coal"] + ["distance", a, b, poses, "--bv", "rss"] + extra,
            "coal OBBRSS": p["coal"] + ["distance", a, b, poses, "--bv", "obbrss"] + extra,
            "coal kIOS": p["coal"] + ["distance", a, b, poses, "--bv", "kios"] + extra,
        }
        reports = rounds_of(commands, rounds, log, label)
        times = {e: median(reports[e]) for e in engines}
        fastest = min(times[e] for e in engines[1:])
        cells = [f"**{ms(times['obbtree'])}**"] + [ms(times[e]) for e in engines[1:]]
        rows.append(f"| {label} | " + " | ".join(cells) + f" | **{fastest / times['obbtree']:.1f}×** |")
    header = ["| case | " + " | ".join(engines) + " | fastest other / obbtree |",
              "| --- |" + " ---: |" * (len(engines) + 1)]
    return header + rows


# The held-out pair of the collision and distance rows (labels of HELD_OUT_BUILDS), its random
# poses (poses.py) and seed.
HELD_OUT_PAIR = ("go1 trunk", "ANYmal B base")
HELD_OUT_POSES, HELD_OUT_SEED = 200, 11


def held_out_pair(out):
    """Two meshes no step was tuned on (HELD_OUT_PAIR, OBJ copies of their COLLADA files), with
    pose sets made the way the dragons' were: HELD_OUT_POSES random poses (`poses.py`), the
    near misses made from those in contact (`near_poses.py`, judged by the program itself), and
    far poses (the near misses pushed out, `far_poses`' rule). Each file is made once into
    OUT; None, with the reason on stderr, when the meshes cannot be read."""
    meshes = held_out_pick_meshes(out)
    if not all(label in meshes for label in HELD_OUT_PAIR):
        print("collide, distance: the held-out pair is left out", file=sys.stderr)
        return None
    a, b = (meshes[label] for label in HELD_OUT_PAIR)
    stem = out / "poses_held_out"
    poses, near, far = (Path(f"{stem}_{kind}.json") for kind in ("random", "near", "far"))
    tools = ROOT / "bench" / "anchors"
    if not poses.exists():
        subprocess.run([sys.executable, tools / "poses.py", a, b, str(HELD_OUT_POSES), str(HELD_OUT_SEED), poses], check=True)
    if not near.exists():
        subprocess.run([sys.executable, tools / "near_poses.py", a, b, poses, near, programs()["obbtree"][0]],
                       check=True, stdout=subprocess.DEVNULL)
    if not far.exists():
        meta = mesh_files.read_json(str(poses))["meta"]
        pushed_apart(near, far, meta["centroid_a"], meta["centroid_b"], meta["radius_a"] + meta["radius_b"])
    count = len(mesh_files.read_json(str(near))["poses"])
    return {"label": " × ".join(HELD_OUT_PAIR), "a": a, "b": b, "poses": poses, "near": near, "far": far,
            "near_count": count}


def held_out_distance_rows(out):
    """The distance table's rows on the held-out pair: near misses and far poses."""
    pair = held_out_pair(out)
    if not pair:
        return []
    a, b = str(pair["a"]), str(pair["b"])
    n = pair["near_count"]
    return [(f"{pair['label']} (held out), `distance`, {n} near misses", a, b, str(pair["near"]), []),
            (f"{pair['label']} (held out), `distance`, {n} far poses", a, b, str(pair["far"]), [])]


# Meshes the build was not tuned on, from example-robot-data (when this Python has it):
# label -> path under its robots/ folder.
HELD_OUT_BUILDS = {
    "go1 trunk": "go1_description/meshes/trunk.dae",
    "ANYmal B base": "anymal_b_simple_description/meshes/base/anymal_base.dae",
}


def held_out_build_meshes():
    """The meshes of HELD_OUT_BUILDS, or none (with the reason on stderr) when
    example-robot-data is not installed for this Python."""
    import importlib.metadata
    try:
        share = Path(importlib.metadata.distribution("example-robot-data").locate_file("cmeel.prefix/share"))
    except importlib.metadata.PackageNotFoundError:
        print("build: example-robot-data is not installed for this Python; held-out meshes left out", file=sys.stderr)
        return {}
    robots = share / "example-robot-data" / "robots"
    found = {label: robots / path for label, path in HELD_OUT_BUILDS.items()}
    for label, path in found.items():
        if not path.is_file():
            print(f"build: {label} left out: no {path}", file=sys.stderr)
    return {label: str(path) for label, path in found.items() if path.is_file()}


def build_table(meshes, rounds, log):
    """Both trees of a collide run (A and B: the same mesh twice), serial, from the collide
    reports plus parry's two builds; obbtree also on two threads. dragon_res2 beside FCL and
    coal too; the held-out meshes beside parry alone (their harnesses read OBJ)."""
    p = programs()
    far = ["--pose", "1000 0 0 0 0 0", "--mode", "first", "--json"]
    columns = {"dragon_res2": str(meshes["dragon_res2"]), **held_out_build_meshes()}
    times, triangles = {}, {}
    for label, m in columns.items():
        collide = p["obbtree"] + ["collide", m, m] + far
        commands = {
            "obbtree": collide,
            "obbtree, 2 threads": (collide, {"RAYON_NUM_THREADS": "2"}),
            "parry3d": p["parry"] + ["build", m],
        }
        if label == "dragon_res2":
            q = str(DATA / "poses_dragon_res2_near_100.json")
            commands["FCL OBB"] = p["fcl"] + ["collide", m, m, q, "--bv", "obb", "--mode", "bool"]
            commands["coal kIOS"] = p["coal"] + ["collide", m, m, q, "--bv", "kios", "--mode", "bool"]
        reports = rounds_of(commands, rounds, log, f"build {label}")
        column = {e: median(r, "build_ms") for e, r in reports.items()}
        column["parry3d-f64"] = column.pop("parry3d")
        column["parry3d (f32)"] = median(reports["parry3d"], "build_f32_ms")
        times[label] = column
        triangles[label] = reports["obbtree"][0]["tris_a"]
    lines = ["| engine | " + " | ".join(f"{label} ({triangles[label]:,})" for label in columns) + " |",
             "| --- |" + " ---: |" * len(columns)]
    for engine in ["obbtree", "obbtree, 2 threads", "parry3d-f64", "parry3d (f32)", "FCL OBB", "coal kIOS"]:
        cells = []
        for label in columns:
            t = times[label].get(engine)
            ob = times[label]["obbtree"]
            cells.append("–" if t is None else f"**{ms(t)}**" if engine == "obbtree" else f"{ms(t)} ({t / ob:.2f})")
        lines.append(f"| {engine} | " + " | ".join(cells) + " |")
    return lines


def cores_table(meshes, rays, rounds, log):
    """The program's batches on one and two threads of rayon's pool (`RAYON_NUM_THREADS`),
    interleaved: the time two threads take against one's. Each report is read from the captured
    output after the program has exited, so no other process competes for the second core."""
    p = programs()
    d2, d3 = str(meshes["dragon_res2"]), str(meshes["dragon_res3"])
    cases = {
        "`pick`, 100,000 incoherent rays, dragon_res2": p["obbtree"] + ["pick", d2, "--rays", str(rays), "--json"],
        "`distance`, dragon_res3's 100 near misses":
            p["obbtree"] + ["distance", d3, d3, "--poses", str(DATA / "poses_dragon_res3_near_100.json"), "--json"],
        "`collide --mode all`, 200 poses, dragon_res2":
            p["obbtree"] + ["collide", d2, d2, "--poses", str(DATA / "poses_dragon_res2_200.json"), "--mode", "all", "--json"],
    }
    lines = ["| batch | one thread | two threads | one / two |", "| --- | ---: | ---: | ---: |"]
    for case, command in cases.items():
        commands = {threads: (command, {"RAYON_NUM_THREADS": threads}) for threads in ("1", "2")}
        reports = rounds_of(commands, rounds, log, f"cores {case}")
        one, two = median(reports["1"]), median(reports["2"])
        lines.append(f"| {case} | {ms(one)} | {ms(two)} | **{one / two:.2f}×** |")
    return lines


def seven_digits(obj, out):
    """`obj` with every coordinate written to 7 significant digits, as many exporters write
    them (so that most are no longer float32 values)."""
    if not out.exists():
        mesh_files.write_obj(out, *mesh_files.read_obj(obj), number=lambda x: "%.7g" % x)
    return out


def held_out_pick_meshes(out):
    """OBJ copies of the held-out meshes (the COLLADA files of HELD_OUT_BUILDS, read by
    trimesh with pycollada, exact doubles), for the Embree harness, which reads OBJ; none, with
    the reason on stderr, when those packages are missing."""
    try:
        import trimesh
        import collada  # noqa: F401  (trimesh reads .dae through it)
    except ImportError:
        print("pick: trimesh or pycollada is not installed for this Python; held-out meshes left out", file=sys.stderr)
        return {}
    found = {}
    for label, dae in held_out_build_meshes().items():
        obj = out / (label.replace(" ", "_") + ".obj")
        if not obj.exists():
            mesh = trimesh.load(dae, force="mesh", process=False)
            mesh_files.write_obj(obj, mesh.vertices.tolist(), mesh.faces.tolist())
        found[label] = obj
    return found


def ray_file(mesh, out, name, camera=False):
    """OUT/NAME: `rays.py`'s 100,000 rays (seed 7) aimed at `mesh`, or one picture's with
    `camera`; made unless there already."""
    rays = out / name
    if not rays.exists():
        extra = ["--camera"] if camera else []
        subprocess.run([sys.executable, ROOT / "bench" / "anchors" / "rays.py", mesh, "100000", "7", rays] + extra, check=True)
    return rays


def pick_inputs(meshes, rays, out):
    """(label, mesh, rays): the tuned-on dragon_res2 with incoherent rays, the same mesh with
    7-digit coordinates, the rays of one 316 x 316 picture of it, and held-out meshes."""
    d2 = meshes["dragon_res2"]
    cases = [("dragon_res2, incoherent", d2, rays),
             ("dragon_res2 to 7 digits, incoherent", seven_digits(d2, out / "dragon_res2_7digits.obj"), rays),
             ("dragon_res2, a 316×316 picture", d2, ray_file(d2, out, "rays_dragon_res2_camera.json", camera=True))]
    for label, obj in held_out_pick_meshes(out).items():
        cases.append((f"{label} (held out), incoherent", obj, ray_file(obj, out, f"rays_{obj.stem}_100k.json")))
    return cases


def pick_table(meshes, rays, out, rounds, log):
    lines = ["| mesh, rays | obbtree | Embree robust | Embree | parry3d-f64 | Embree robust / obbtree |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for label, mesh, ray_path in pick_inputs(meshes, rays, out):
        reports = rounds_of(pick_case(mesh, ray_path), rounds, log, f"pick {label}")
        count = reports["obbtree"][0].get("rays", 100000)
        per_ray = {e: median(r) * 1000 / count for e, r in reports.items()}
        ob = per_ray["obbtree"]
        cells = [f"**{ob:.3f}**"] + [f"{per_ray[e]:.3f}" for e in ("Embree robust", "Embree", "parry3d-f64")]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | **{per_ray['Embree robust'] / ob:.2f}×** |")
    return lines


def robot_table(rounds):
    """Robot self-collision beside pinocchio + coal (`bench/robots/coal_speed.py`, which runs
    both engines interleaved on the same configurations): its Markdown table, or why it could
    not run (pinocchio and example-robot-data are Python packages: `pip install pin
    example-robot-data numpy` into the Python that runs this script)."""
    script = ROOT / "bench" / "robots" / "coal_speed.py"
    cli = programs()["obbtree"][0]
    probe = subprocess.run([sys.executable, "-c", "import pinocchio, numpy, importlib.metadata as m; m.version('example-robot-data')"],
                           capture_output=True)
    if probe.returncode != 0:
        return ["(skipped: pinocchio, example-robot-data and numpy are not importable by "
                f"{sys.executable}; `pip install pin example-robot-data numpy`)"]
    out = subprocess.run(realtime_prefix() + [sys.executable, script, "--cli", cli, "--repeat", str(rounds)],
                         check=True, capture_output=True, text=True)
    return [line for line in out.stdout.splitlines() if line.startswith("|")]


def points_inputs(out, meshes):
    """The points row's meshes (the dragons and the bunny, all closed in obbtree's sense: each
    edge is used as often in one direction as in the other; trimesh's `is_watertight` says False
    for the dragons, some of whose edges bound four faces or more) and, for each, 100,000 points
    uniform in its bounding box and 100,000 near its surface (surface points, uniform by area,
    moved by Gaussian noise of 0.5% of the box's diagonal), as `.npy` and as obbtree's points
    JSON."""
    import numpy as np
    import trimesh

    cases = []
    for name, path in (("dragon_res2", meshes["dragon_res2"]), ("dragon_res3", meshes["dragon_res3"]),
                       ("bunny", ROOT / "assets" / "bunny.obj")):
        mesh = trimesh.load(path, process=False, force="mesh")
        lo, hi = mesh.bounds
        rng = np.random.default_rng(7)
        surface = trimesh.sample.sample_surface(mesh, 100_000, seed=7)[0]
        sets = {
            "uniform": rng.uniform(lo, hi, (100_000, 3)),
            "near": surface + rng.normal(size=surface.shape) * 0.005 * np.linalg.norm(hi - lo),
        }
        for kind, points in sets.items():
            stem = out / f"points_{name}_{kind}"
            np.save(f"{stem}.npy", points)
            with open(f"{stem}.json", "w") as f:
                json.dump({"points": points.tolist()}, f)
            cases.append((name, path, kind, stem, float(np.linalg.norm(hi - lo))))
    return cases


def points_disagreements(obbtree_file, anchor_file, diagonal, signed):
    """How many of an anchor's answers disagree with obbtree's certified ones: distances off by
    more than 1e-6 of the mesh's diagonal (far above float32 rounding), and, for signed queries,
    signs (points on the surface and points whose side obbtree reports undecided left out)."""
    import numpy as np

    with open(obbtree_file) as f:
        results = json.load(f)["results"]
    ours = np.array([r["distance"] for r in results], float)
    undecided = np.array([r.get("undecided", False) for r in results])
    theirs = np.load(anchor_file)
    if len(theirs) < len(ours):
        ours, undecided = ours[: len(theirs)], undecided[: len(theirs)]
    far = int((np.abs(np.abs(theirs) - np.abs(ours)) > 1e-6 * diagonal).sum())
    if not signed:
        return far, None
    decided = ~undecided & (ours != 0)
    return far, int((np.sign(theirs) != np.sign(ours))[decided].sum())


def points_table(out, meshes, rounds, log):
    """Points against a mesh beside Open3D, libigl and trimesh: µs per point, one thread and all
    cores, and each anchor's disagreements with obbtree's certified answers; or why it could not
    run."""
    probe = subprocess.run([sys.executable, "-c", "import numpy, trimesh, open3d, igl"], capture_output=True)
    if probe.returncode != 0:
        return ["(skipped: numpy, trimesh, open3d and libigl are not importable by "
                f"{sys.executable}; see bench/anchors/points_anchors.py)"]
    harness = [sys.executable, str(ROOT / "bench" / "anchors" / "points_anchors.py")]
    cli = programs()["obbtree"]
    lines = ["| mesh | points | query | obbtree | Open3D | libigl | trimesh | Open3D / obbtree | "
             "all cores: obbtree / Open3D / libigl | wrong distances: Open3D / libigl / trimesh | wrong signs |",
             "| --- | --- | --- |" + " ---: |" * 8]
    for name, path, kind, stem, diagonal in points_inputs(out, meshes):
        for query in ("unsigned", "signed"):
            flag = ["--signed"] if query == "signed" else []
            answers = {e: f"{stem}_{query}_{e}.npy" for e in ("open3d", "libigl", "trimesh", "open3d_all", "libigl_all")}
            ours = f"{stem}_{query}_obbtree.json"
            subset = f"{stem}_2k.npy"
            import numpy as np
            np.save(subset, np.load(f"{stem}.npy")[:2000])
            commands = {
                "obbtree": cli + ["points", str(path), "--points", f"{stem}.json", "--json", "--out", ours] + flag,
                "open3d": harness + ["open3d", query, str(path), f"{stem}.npy", answers["open3d"]],
                "libigl": harness + ["libigl", query, str(path), f"{stem}.npy", answers["libigl"]],
                "trimesh": harness + ["trimesh", query, str(path), subset, answers["trimesh"]],
                "obbtree all": (cli + ["points", str(path), "--points", f"{stem}.json", "--json"] + flag,
                                {"RAYON_NUM_THREADS": "0"}),
                "open3d all": harness + ["open3d", query, str(path), f"{stem}.npy", answers["open3d_all"], "--threads", "0"],
                "libigl all": harness + ["libigl", query, str(path), f"{stem}.npy", answers["libigl_all"], "--threads", "0"],
            }
            reports = rounds_of(commands, rounds, log, f"points {name} {kind} {query}")
            per_point = {e: 1e3 * median(reports[e]) / (2000 if e == "trimesh" else 100_000) for e in commands}
            wrong = {e: points_disagreements(ours, answers[e], diagonal, query == "signed")
                     for e in ("open3d", "libigl", "trimesh")}
            us = lambda e: f"{per_point[e]:.2f} µs"
            signs = " / ".join(str(wrong[e][1]) for e in wrong) if query == "signed" else "–"
            lines.append(
                f"| {name} | {kind} | {query} | **{us('obbtree')}** | {us('open3d')} | {us('libigl')} | {us('trimesh')} | "
                f"**{per_point['open3d'] / per_point['obbtree']:.1f}×** | "
                f"{us('obbtree all')} / {us('open3d all')} / {us('libigl all')} | "
                + " / ".join(str(wrong[e][0]) for e in wrong) + f" | {signs} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "anchors" / "tables")
    parser.add_argument("--only", choices=["collide", "distance", "pick", "build", "robots", "points", "cores"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    meshes, rays = inputs(args.out)
    with open(args.out / "runs.jsonl", "a") as log:
        if args.only in (None, "collide"):
            print("Collision, one thread, total query time over the pose set (median of "
                  f"{args.rounds} interleaved rounds):\n")
            print("\n".join(collide_table(meshes, args.out, args.rounds, log)) + "\n")
        if args.only in (None, "distance"):
            print(f"Distance, one thread, total query time over the poses (median of {args.rounds} rounds):\n")
            print("\n".join(distance_table(meshes, args.out, args.rounds, log)) + "\n")
        if args.only in (None, "pick"):
            print(f"Ray picking, µs per ray, one thread (median of {args.rounds} interleaved rounds):\n")
            print("\n".join(pick_table(meshes, rays, args.out, args.rounds, log)) + "\n")
        if args.only in (None, "build"):
            print(f"Building both trees of a collide run, one thread unless said (median of {args.rounds} rounds; "
                  "in brackets, the time over obbtree's):\n")
            print("\n".join(build_table(meshes, args.rounds, log)) + "\n")
        if args.only in (None, "robots"):
            print(f"Robot self-collision beside pinocchio + coal, one thread (least of {args.rounds} runs):\n")
            print("\n".join(robot_table(args.rounds)) + "\n")
        if args.only in (None, "cores"):
            print(f"The program's batches on one and two threads (median of {args.rounds} interleaved rounds):\n")
            print("\n".join(cores_table(meshes, rays, args.rounds, log)) + "\n")
        if args.only in (None, "points"):
            print("Points against a mesh, 100,000 points, µs per point (median of "
                  f"{args.rounds} interleaved rounds; trimesh on the first 2,000):\n")
            print("\n".join(points_table(args.out, meshes, args.rounds, log)) + "\n")


if __name__ == "__main__":
    main()
