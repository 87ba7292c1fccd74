"""obbtree's Python package beside the libraries it replaces, in one run, printed as a table:

* scene collisions through ``obbtree.trimesh.CollisionManager`` against
  ``trimesh.collision.CollisionManager`` (python-fcl): the same objects, the same frames of
  ``set_transform`` calls, ``in_collision_internal(return_names=True)`` after each;
* first hits of many rays on the 202,520-triangle dragon (``assets/dragon_res2.ply.gz``)
  through ``RayMeshIntersector.intersects_first``: obbtree's (all cores, in chunks) against
  trimesh's Embree backend (embreex);
* the per-call cost of one small query from Python (two KUKA links, one pose, touching and
  far apart) against the engine's own call in a loop without Python.

Build the extension optimised first (``cd python && maturin develop --release``), then from
the repository root::

    python python/benchmarks/compare.py [--rays 1000000] [--objects 200] [--frames 50]

Timings are the best of ``--repeat`` runs (default 5) after one untimed warm-up; memory is the
growth of the resident size during the timed ray queries over the size before them, each
library's rays in a process of its own (the process's peak when the queries set it, else the
largest size a sampling thread saw; "not measured" when neither applies). Nothing here is a test: the answers are only compared and counted.
"""

import argparse
import pathlib
import resource
import sys
import time
import timeit

import numpy as np

import obbtree
import obbtree.trimesh as ob

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


def load(name):
    return obbtree.Mesh.load(ASSETS / name)


def as_trimesh(mesh, scale=1.0):
    import trimesh

    return trimesh.Trimesh(vertices=mesh.vertices * scale, faces=mesh.faces, process=False)


def best_of(repeat, run):
    """The least wall time of ``repeat`` timed calls of ``run``, after one untimed call; and
    the last call's answer."""
    run()
    times, answer = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = run()
        times.append(time.perf_counter() - start)
    return min(times), answer


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --- scene collisions -------------------------------------------------------------------------


def random_rotations(rng, k):
    """``k`` uniformly random rotation matrices (Shoemake's quaternions)."""
    u = rng.random((k, 3))
    q = np.stack(
        [
            np.sqrt(1 - u[:, 0]) * np.sin(2 * np.pi * u[:, 1]),
            np.sqrt(1 - u[:, 0]) * np.cos(2 * np.pi * u[:, 1]),
            np.sqrt(u[:, 0]) * np.sin(2 * np.pi * u[:, 2]),
            np.sqrt(u[:, 0]) * np.cos(2 * np.pi * u[:, 2]),
        ],
        axis=1,
    )
    x, y, z, w = q.T
    return np.stack(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    ).transpose(2, 0, 1)


def random_transforms(rng, k, side):
    t = np.tile(np.eye(4), (k, 1, 1))
    t[:, :3, :3] = random_rotations(rng, k)
    t[:, :3, 3] = rng.random((k, 3)) * side
    return t


def scene_meshes():
    """The eight KUKA links, and the bunny and the teapot scaled to the links' size (0.2)."""
    meshes = [as_trimesh(load(f"kuka_iiwa/link_{i}.obj")) for i in range(8)]
    for name in ("bunny.obj", "teapot.obj"):
        mesh = load(name)
        extent = np.ptp(mesh.vertices, axis=0).max()
        meshes.append(as_trimesh(mesh, 0.2 / extent))
    return meshes


def scene_frames(args):
    """The objects' meshes and first transforms, and per frame the moves (a tenth of the
    objects to new random transforms)."""
    rng = np.random.default_rng(7)
    meshes = scene_meshes()
    side = 0.6 * args.objects ** (1 / 3)  # about one object in ten touches another
    start = random_transforms(rng, args.objects, side)
    moved = max(1, args.objects // 10)
    frames = [
        (rng.choice(args.objects, moved, replace=False), random_transforms(rng, moved, side))
        for _ in range(args.frames)
    ]
    return [meshes[k % len(meshes)] for k in range(args.objects)], start, frames


def run_scene(manager_type, objects, start, frames, ask):
    manager = manager_type()
    for k, (mesh, transform) in enumerate(zip(objects, start)):
        manager.add_object(f"o{k}", mesh, transform)

    def frames_run():
        # Each run replays the same frames from the same start.
        for k, transform in enumerate(start):
            manager.set_transform(f"o{k}", transform)
        found = [manager.in_collision_internal(**ask)[1]]
        for indices, transforms in frames:
            for k, transform in zip(indices, transforms):
                manager.set_transform(f"o{k}", transform)
            found.append(manager.in_collision_internal(**ask)[1])
        return found

    return frames_run


def bench_scene(args, rows):
    import trimesh

    objects, start, frames = scene_frames(args)
    for ask, what in (
        ({"return_names": True}, "return_names"),
        ({"return_data": True}, "return_data: every triangle pair"),
    ):
        timed = {}
        for label, manager_type in (
            ("obbtree", ob.CollisionManager),
            ("trimesh + python-fcl", trimesh.collision.CollisionManager),
        ):
            run = run_scene(manager_type, objects, start, frames, ask)
            timed[label] = best_of(args.repeat, run)
        (ours, found_o), (theirs, found_t) = timed["obbtree"], timed["trimesh + python-fcl"]
        if "return_names" in ask:
            same = sum(a == b for a, b in zip(found_o, found_t))
            detail = f"{sum(map(len, found_o))} touching pairs, the same in {same}/{len(found_o)} frames"
        else:
            detail = f"{sum(map(len, found_o)):,} / {sum(map(len, found_t)):,} contacts"
        rows.append(
            (
                f"scene: {args.objects} objects, {args.frames + 1} frames of 10% moved, "
                f"in_collision_internal({what}) ({detail})",
                f"{ours * 1e3:.1f} ms",
                f"{theirs * 1e3:.1f} ms",
                f"{theirs / ours:.1f}×",
            )
        )


# --- rays -------------------------------------------------------------------------------------


def dragon_rays(mesh, count):
    """``count`` rays from a sphere around the dragon towards random points of its box: most
    hit."""
    rng = np.random.default_rng(11)
    lo, hi = mesh.vertices.min(axis=0), mesh.vertices.max(axis=0)
    center, radius = (lo + hi) / 2, np.linalg.norm(hi - lo)
    origins = rng.normal(size=(count, 3))
    origins = center + radius * origins / np.linalg.norm(origins, axis=1)[:, None]
    targets = lo + rng.random((count, 3)) * (hi - lo)
    return origins, targets - origins


def current_rss_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def ray_worker(args):
    """In a process of its own: one library's index build and timed ``intersects_first`` on the
    dragon's rays; prints ``build seconds, query seconds, memory growth, peak reached`` and saves
    the first hits to ``--out``."""
    from trimesh.ray.ray_pyembree import RayMeshIntersector as EmbreeIntersector

    dragon = load("dragon_res2.ply.gz")
    mesh = as_trimesh(dragon)
    origins, directions = dragon_rays(dragon, args.rays)
    make = {"obbtree": ob.RayMeshIntersector, "embreex": EmbreeIntersector}[args.ray_worker]
    start = time.perf_counter()
    intersector = make(mesh)
    intersector.intersects_first(origins[:1], directions[:1])  # builds the index
    build = time.perf_counter() - start
    baseline, peak_before = current_rss_bytes(), peak_rss_bytes()
    sampled = RssSampler()
    with sampled:
        seconds, first = best_of(
            args.repeat, lambda: intersector.intersects_first(origins, directions)
        )
    peak_after = peak_rss_bytes()
    np.save(args.out, first)
    if peak_after > peak_before:  # the peak was reached during the queries: exact
        print(build, seconds, peak_after - baseline, 1)
    else:  # a sampled maximum (a library that keeps the GIL is not sampled meanwhile)
        print(build, seconds, sampled.peak - baseline, int(sampled.samples > 10))


class RssSampler:
    """The largest resident size seen by a thread reading it every half millisecond (while
    the main thread runs a query without the GIL)."""

    def __enter__(self):
        import threading

        self.peak, self.samples, self._done = current_rss_bytes(), 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._done.wait(0.0005):
            self.peak = max(self.peak, current_rss_bytes())
            self.samples += 1

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()
        return False


def bench_rays(args, rows):
    import subprocess
    import tempfile

    timed = {}
    with tempfile.TemporaryDirectory() as folder:
        for label in ("obbtree", "embreex"):
            out = pathlib.Path(folder) / f"{label}.npy"
            command = [sys.executable, __file__, "--ray-worker", label, "--rays", str(args.rays)]
            command += ["--repeat", str(args.repeat), "--out", str(out)]
            answer = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            build, seconds, growth, reached = answer.split()[-4:]
            timed[label] = (float(build), float(seconds), int(growth), reached == "1", np.load(out))
    (build_o, ours, grow_o, reached_o, first_o) = timed["obbtree"]
    (build_e, theirs, grow_e, reached_e, first_e) = timed["embreex"]
    verdicts = judge_differences(args, first_o, first_e)
    rows.append(
        (
            f"rays: {args.rays:,} on dragon_res2 (202,520 triangles), intersects_first; "
            f"{int((first_o >= 0).sum()):,} hits; first triangles differ on "
            f"{sum(verdicts.values()):,} rays, decided exactly: {verdicts['obbtree']} for obbtree, "
            f"{verdicts['tie']} ties (the same point), {verdicts['embreex']} for embreex",
            f"{ours:.3f} s",
            f"{theirs:.3f} s",
            f"{theirs / ours:.2f}×",
        )
    )
    rows.append(("rays: index build (first query)", f"{build_o:.3f} s", f"{build_e:.3f} s",
                 f"{build_e / build_o:.2f}×"))

    def mib(growth, measured):
        return f"{growth / 2**20:.0f} MiB" if measured else "not measured"

    rows.append(("rays: resident memory growth during the queries (input: "
                 f"{2 * args.rays * 24 / 2**20:.0f} MiB)", mib(grow_o, reached_o),
                 mib(grow_e, reached_e), ""))


def judge_differences(args, first_o, first_e):
    """Every ray on which the two first triangles differ, decided by the exact rational oracle
    of the tests (tests/exact.py): whose triangle is really hit, and first. Counts of rays
    where obbtree's answer is the exact one, where both are (a tie: the same hit point, a shared
    edge or vertex), and where embreex's is."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
    from exact import ray_hits_triangle, ray_parameter

    dragon = load("dragon_res2.ply.gz")
    triangles = dragon.vertices[dragon.faces]
    origins, directions = dragon_rays(dragon, args.rays)
    verdicts = {"obbtree": 0, "tie": 0, "embreex": 0}

    def hit_at(k, triangle):
        """The exact ray parameter of a hit of ray ``k`` on ``triangle``, None for no hit."""
        if triangle < 0 or not ray_hits_triangle(origins[k], directions[k], triangles[triangle], 4.0):
            return None
        return ray_parameter(origins[k], directions[k], triangles[triangle])

    for k in np.flatnonzero(first_o != first_e):
        t_o, t_e = hit_at(k, first_o[k]), hit_at(k, first_e[k])
        if first_o[k] < 0:  # obbtree: a miss; right unless embreex's triangle is hit
            right = "obbtree" if t_e is None else "embreex"
        elif t_o is None:  # obbtree's triangle is not hit
            right = "embreex"
        elif t_e is None or t_o < t_e:
            right = "obbtree"
        else:
            right = "tie" if t_o == t_e else "embreex"
        verdicts[right] += 1
    return verdicts


# --- one small query --------------------------------------------------------------------------


def bench_single(args, rows):
    a = obbtree.Model(load("kuka_iiwa/link_2.obj"))
    b = obbtree.Model(load("kuka_iiwa/link_3.obj"))
    touching, apart = np.eye(4), np.eye(4)
    touching[2, 3] = 0.1
    apart[0, 3] = 1.0
    collide, engine = obbtree.collide, obbtree._obbtree._engine_collide_seconds
    for label, pose in (("touching", touching), ("apart", apart)):
        count = args.calls
        python = min(
            timeit.repeat(
                lambda: collide(a, None, b, pose, mode="first"), number=count, repeat=args.repeat
            )
        ) / count
        rust = min(engine(a, None, b, pose, mode="first", repeats=count) for _ in range(args.repeat))
        hit = collide(a, None, b, pose, mode="first")[0]
        rows.append(
            (
                f"one collide, KUKA links 2 and 3 {label} ({'hit' if hit else 'miss'}): "
                "Python call / engine call",
                f"{python * 1e6:.2f} µs",
                f"{rust * 1e6:.2f} µs (Rust)",
                f"{python / rust:.2f}× the Rust call",
            )
        )


def print_table(rows):
    header = ("", "obbtree", "other", "other / obbtree")
    table = [header, ("---", "---:", "---:", "---:")] + rows
    for row in table:
        print("| " + " | ".join(row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rays", type=int, default=1_000_000)
    parser.add_argument("--objects", type=int, default=200)
    parser.add_argument("--frames", type=int, default=50)
    parser.add_argument("--calls", type=int, default=100_000, help="calls per single-query timing")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ray-worker", choices=["obbtree", "embreex"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument(
        "--only", choices=["scene", "rays", "single"], action="append", help="run only these"
    )
    args = parser.parse_args()
    if args.ray_worker:
        return ray_worker(args)
    parts = args.only or ["scene", "rays", "single"]
    rows = []
    for part in parts:
        {"scene": bench_scene, "rays": bench_rays, "single": bench_single}[part](args, rows)
        print(f"{part} done", file=sys.stderr)
    import os

    print(f"\n{os.cpu_count()} cores, numpy {np.__version__}\n")
    print_table(rows)


if __name__ == "__main__":
    main()
