"""Check a large batch of poses over a dask.distributed cluster.

Mesh B is placed at each of N random poses around mesh A; which poses make them touch? The
models are built once, here, and scattered to every worker once: a model pickles with its
tree, so no worker rebuilds it. Each task makes its own chunk of poses from a seed (nothing
large crosses the network) and checks them with ``obbtree.collide_many``, which releases the
GIL and runs on every core of its worker.

On this machine (a LocalCluster)::

    python dask_poses.py --poses 1000000

On a real cluster, start a scheduler and workers (``dask scheduler``; ``dask worker
tcp://HOST:8786`` on each machine, each with ``pip install obbtree`` from this repository's
python/ directory), then point the same script at the scheduler::

    python dask_poses.py --poses 1000000 --scheduler tcp://HOST:8786

The mesh files are read here, not on the workers, so they need not be on the workers' disks.
"""

import argparse
import pathlib
import time

import numpy as np

import obbtree

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


def pose_chunk(seed, chunk, size, spread):
    """Chunk ``chunk`` of the pose batch: ``size`` random rigid poses (uniform rotations from
    unit quaternions, Shoemake 1992; translations uniform in ``[-spread, spread]³``), the same
    wherever they are made."""
    rng = np.random.default_rng([seed, chunk])
    q = rng.normal(size=(size, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    poses = np.zeros((size, 4, 4))
    poses[:, 0] = np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), 0 * w], 1)
    poses[:, 1] = np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), 0 * w], 1)
    poses[:, 2] = np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), 0 * w], 1)
    poses[:, :3, 3] = rng.uniform(-spread, spread, size=(size, 3))
    poses[:, 3, 3] = 1.0
    return poses


def check_chunk(a, b, seed, chunk, size, spread):
    """Which poses of the chunk make B (at the pose) touch A (at the origin): ``(size,)`` bool."""
    return obbtree.collide_many(a, None, b, pose_chunk(seed, chunk, size, spread), mode="first")[0]


def chunk_sizes(count, chunk):
    return [min(chunk, count - start) for start in range(0, count, chunk)]


def run(client, a, b, count, chunk=50_000, seed=0, spread=None):
    """Which of ``count`` random poses of ``b`` touch ``a``, computed on ``client``'s cluster."""
    if spread is None:
        spread = 2.0 * float(np.abs(a.mesh.vertices).max())
    # Once to every worker; the tasks then refer to the workers' copies.
    a_on_workers, b_on_workers = client.scatter([a, b], broadcast=True)
    futures = [
        client.submit(check_chunk, a_on_workers, b_on_workers, seed, k, size, spread, pure=False)
        for k, size in enumerate(chunk_sizes(count, chunk))
    ]
    return np.concatenate(client.gather(futures))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--poses", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=50_000)
    parser.add_argument("--a", default=str(ASSETS / "bunny.obj"))
    parser.add_argument("--b", default=str(ASSETS / "teapot.obj"))
    parser.add_argument("--scheduler", help="address of a running scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    a = obbtree.Model(obbtree.Mesh.load(args.a))
    b = obbtree.Model(obbtree.Mesh.load(args.b))
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    with client:
        start = time.perf_counter()
        touching = run(client, a, b, args.poses, args.chunk)
        seconds = time.perf_counter() - start
    print(f"{touching.sum()} of {len(touching)} poses touch ({seconds:.2f} s, {len(touching) / seconds:,.0f} poses/s)")


if __name__ == "__main__":
    main()
