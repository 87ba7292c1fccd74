#!/usr/bin/env python3
"""One timed points query of an anchor engine, the side of `obbtree points` in the tables'
points row: Open3D's `RaycastingScene`, libigl or trimesh on a mesh and a `.npy` array of
points, writing the distances to a `.npy` file and printing one JSON line
`{"query_total_ms": t}`.

usage: points_anchors.py ENGINE QUERY MESH POINTS.npy OUT.npy [--threads N]

ENGINE is open3d, libigl or trimesh; QUERY is unsigned or signed (negative inside, obbtree's
convention: trimesh's sign is turned). `--threads 1` asks for one thread (Open3D's `nthreads`,
libigl's `IGL_NUM_THREADS`, which must be set before libigl starts, so this sets it and runs
itself again); 0 means all cores.

What is timed: the query call alone. Open3D builds its tree on the first query, so a query of
a few points runs first, untimed. libigl's functions build their tree inside every call, so the
time of the same call on one point is taken away (the median of three). Needs numpy, trimesh
5.2 with the packages its proximity queries import (rtree, scipy), open3d 0.20 and libigl 2.6.3
(`pip install numpy trimesh==5.2.0 rtree==1.4.1 scipy==1.17.1 open3d==0.20.0 libigl==2.6.3`;
Open3D needs `libusb-1.0-0` on Debian).
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np


def load(path):
    import trimesh

    mesh = trimesh.load(path, process=False, force="mesh")
    return np.asarray(mesh.vertices, float), np.asarray(mesh.faces, np.int64), mesh


def open3d_query(vertices, faces, points, signed, threads):
    import open3d as o3d

    scene = o3d.t.geometry.RaycastingScene()
    scene.add_triangles(o3d.core.Tensor(vertices.astype(np.float32)), o3d.core.Tensor(faces.astype(np.uint32)))
    query = scene.compute_signed_distance if signed else scene.compute_distance
    warm = o3d.core.Tensor(points[:16].astype(np.float32))
    query(warm, nthreads=threads)
    tensor = o3d.core.Tensor(points.astype(np.float32))
    start = time.perf_counter()
    distance = query(tensor, nthreads=threads).numpy().astype(float)
    return distance, time.perf_counter() - start


def libigl_query(vertices, faces, points, signed):
    import igl

    def call(p):
        if signed:
            return igl.signed_distance(p, vertices, faces)[0]
        return np.sqrt(igl.point_mesh_squared_distance(p, vertices, faces)[0])

    def timed(p):
        start = time.perf_counter()
        out = call(p)
        return out, time.perf_counter() - start

    overhead = statistics.median(timed(points[:1])[1] for _ in range(3))
    distance, seconds = timed(points)
    return np.asarray(distance, float).reshape(-1), max(seconds - overhead, 0.0)


def trimesh_query(mesh, points, signed):
    import trimesh

    start = time.perf_counter()
    if signed:
        distance = -trimesh.proximity.signed_distance(mesh, points)
    else:
        distance = trimesh.proximity.closest_point(mesh, points)[1]
    return np.asarray(distance, float), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", choices=["open3d", "libigl", "trimesh"])
    parser.add_argument("query", choices=["unsigned", "signed"])
    parser.add_argument("mesh")
    parser.add_argument("points")
    parser.add_argument("out")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.engine == "libigl" and args.threads and os.environ.get("IGL_NUM_THREADS") != str(args.threads):
        env = dict(os.environ, IGL_NUM_THREADS=str(args.threads))
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    vertices, faces, mesh = load(args.mesh)
    points = np.load(args.points)
    signed = args.query == "signed"
    if args.engine == "open3d":
        distance, seconds = open3d_query(vertices, faces, points, signed, args.threads)
    elif args.engine == "libigl":
        distance, seconds = libigl_query(vertices, faces, points, signed)
    else:
        distance, seconds = trimesh_query(mesh, points, signed)
    np.save(args.out, distance)
    print(json.dumps({"query_total_ms": seconds * 1e3, "points": len(points)}))


if __name__ == "__main__":
    main()
