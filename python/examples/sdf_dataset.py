"""Make a signed distance training set (DeepSDF-style) for every mesh in a folder.

For each mesh: the mesh is scaled into the unit sphere (centred on its bounding box), and
signed distances are computed at points sampled the way DeepSDF (Park et al., 2019) samples
them: most near the surface (surface points moved by Gaussian noise of two widths), the rest
uniform in the cube [-1, 1]³. Each mesh gives one ``NAME.npz`` with ``points`` (n, 3) and
``sdf`` (n,), negative inside (the opposite of trimesh's convention), in the normalized frame,
and ``scale`` and ``center`` to undo it. With ``--grid N`` it also holds an ``N³`` grid.

Signs are exact on closed meshes. On open ones they come from the winding number with a
rigorous bound; the few points whose bound straddles 1/2 are dropped (never guessed) and
counted in the summary.

Here, one mesh after another (each call runs on every core)::

    python sdf_dataset.py MESH_DIR OUT_DIR --points 250000

Over a dask.distributed cluster, one task per mesh::

    python sdf_dataset.py MESH_DIR OUT_DIR --scheduler tcp://HOST:8786

(``--scheduler local`` starts a LocalCluster on this machine.) The workers read the mesh files
and write the ``.npz`` files themselves, so both folders must be reachable from every worker
(a shared disk), and each worker needs this package installed.
"""

import argparse
import pathlib
import time

import numpy as np

import obbtree

SUFFIXES = {".obj", ".stl", ".ply", ".off", ".gz"}


def surface_samples(vertices, faces, count, rng):
    """``count`` points uniform on the surface: triangles drawn by area, then uniform
    barycentric coordinates (the square-root method)."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    area = np.linalg.norm(np.cross(b - a, c - a), axis=1)
    chosen = rng.choice(len(faces), size=count, p=area / area.sum())
    r1, r2 = np.sqrt(rng.random(count)), rng.random(count)
    return (
        (1 - r1)[:, None] * a[chosen]
        + (r1 * (1 - r2))[:, None] * b[chosen]
        + (r1 * r2)[:, None] * c[chosen]
    )


def sample_points(vertices, faces, count, rng, near_share=0.9, widths=(0.01, 0.0025)):
    """DeepSDF's mix: ``near_share`` of the points near the surface (half with each noise
    width), the rest uniform in [-1, 1]³."""
    near = int(count * near_share)
    base = surface_samples(vertices, faces, near, rng)
    sigma = np.where(np.arange(near) % 2 == 0, widths[0], widths[1])[:, None]
    noisy = base + rng.normal(size=base.shape) * sigma
    uniform = rng.uniform(-1.0, 1.0, (count - near, 3))
    return np.vstack([noisy, uniform])


def normalized(mesh):
    """The mesh's vertices scaled into the unit sphere about its box's centre, with the
    centre and scale."""
    vertices = np.asarray(mesh.vertices, float)
    center = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
    scale = np.linalg.norm(vertices - center, axis=1).max()
    return (vertices - center) / scale, center, scale


def one_mesh(path, out_dir, count, seed, grid=0):
    """The training set of the mesh at ``path``, written to ``out_dir/NAME.npz``; returns a
    summary ``(name, points kept, points dropped, seconds)``."""
    start = time.perf_counter()
    mesh = obbtree.Mesh.load(str(path))
    vertices, center, scale = normalized(mesh)
    faces = np.asarray(mesh.faces)
    model = obbtree.Model(obbtree.Mesh(vertices, faces))
    rng = np.random.default_rng([seed, sum(path.name.encode())])
    points = sample_points(vertices, faces, count, rng)
    sdf = obbtree.signed_distance(model, points)
    kept = ~np.isnan(sdf)
    arrays = {"points": points[kept], "sdf": sdf[kept], "center": center, "scale": scale}
    if grid:
        arrays["grid"] = obbtree.sdf_grid(model, grid, bounds=[[-1, -1, -1], [1, 1, 1]])[0]
    name = path.name.split(".")[0]
    np.savez_compressed(pathlib.Path(out_dir) / f"{name}.npz", **arrays)
    return name, int(kept.sum()), int((~kept).sum()), time.perf_counter() - start


def mesh_files(mesh_dir):
    return sorted(p for p in pathlib.Path(mesh_dir).iterdir() if p.suffix.lower() in SUFFIXES)


def run(mesh_dir, out_dir, count, seed=0, grid=0, client=None):
    """Every mesh of ``mesh_dir``: here, or one task per mesh on ``client``'s cluster."""
    pathlib.Path(out_dir).mkdir(parents=True, exist_ok=True)
    files = mesh_files(mesh_dir)
    if client is None:
        return [one_mesh(p, out_dir, count, seed, grid) for p in files]
    futures = client.map(one_mesh, files, out_dir=str(out_dir), count=count, seed=seed, grid=grid, pure=False)
    return client.gather(futures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mesh_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--points", type=int, default=250_000, help="points per mesh")
    parser.add_argument("--grid", type=int, default=0, help="also an N³ grid over [-1, 1]³")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scheduler", help="a dask scheduler address, or 'local'")
    args = parser.parse_args()
    client = None
    if args.scheduler:
        from dask.distributed import Client, LocalCluster

        client = Client(LocalCluster() if args.scheduler == "local" else args.scheduler)
    for name, kept, dropped, seconds in run(
        args.mesh_dir, args.out_dir, args.points, args.seed, args.grid, client
    ):
        print(f"{name}: {kept} points ({dropped} with an undecided side dropped), {seconds:.2f} s")


if __name__ == "__main__":
    main()
