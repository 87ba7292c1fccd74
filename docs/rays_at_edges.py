#!/usr/bin/env python3
"""Rays aimed exactly at the vertices and edge midpoints of a closed OBJ mesh, for
`obbtree compare --rays` (where a non-watertight ray-triangle test leaks).

usage: rays_at_edges.py MESH.obj N SEED OUT.json

Each ray starts just outside the surface (within 40 degrees of the normal there: the sum of the
face normals around a vertex, the face normal for an edge midpoint) and its direction is
target - origin, kept only when that difference is exact, so that origin + dir == target and
t = 1 lies exactly on a shared vertex or edge. Midpoints are kept only when exactly on the edge.
"""
import json, math, random, sys
from fractions import Fraction


def load_obj(path):
    v, f = [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == "v":
            v.append(tuple(float(x) for x in w[1:4]))
        elif w and w[0] == "f":
            idx = [int(x.split("/")[0]) for x in w[1:]]
            idx = [i - 1 if i > 0 else len(v) + i for i in idx]
            f.extend((idx[0], idx[k], idx[k + 1]) for k in range(1, len(idx) - 1))
    return v, f


def sub(a, b):
    return [a[k] - b[k] for k in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def unit(a):
    n = math.sqrt(sum(x * x for x in a))
    return [x / n for x in a] if n > 0 else None


def on_segment(a, b, m):
    """m exactly on segment ab (exact rationals)."""
    A, B, M = ([Fraction(x) for x in p] for p in (a, b, m))
    d, e = sub(B, A), sub(M, A)
    return cross(d, e) == [0, 0, 0] and all(min(a[k], b[k]) <= m[k] <= max(a[k], b[k]) for k in range(3))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, n, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    v, f = load_obj(path)
    normal = [[0.0] * 3 for _ in v]
    for t in f:
        fn = cross(sub(v[t[1]], v[t[0]]), sub(v[t[2]], v[t[0]]))
        for i in t:
            normal[i] = [normal[i][k] + fn[k] for k in range(3)]
    rng = random.Random(seed)
    rays = []
    while len(rays) < n:
        t = f[rng.randrange(len(f))]
        k = rng.randrange(3)
        a, b = v[t[k]], v[t[(k + 1) % 3]]
        if rng.random() < 0.5:
            target, nrm = a, normal[t[k]]
        else:
            target = [0.5 * (a[j] + b[j]) for j in range(3)]
            if not on_segment(a, b, target):
                continue
            nrm = cross(sub(v[t[1]], v[t[0]]), sub(v[t[2]], v[t[0]]))
        nrm = unit(nrm)
        if nrm is None:
            continue
        away = unit([nrm[j] + 1.2 * (rng.random() - 0.5) for j in range(3)])
        if away is None or sum(away[j] * nrm[j] for j in range(3)) < math.cos(math.radians(40)):
            continue
        s = rng.uniform(0.01, 0.05)
        origin = [target[j] + away[j] * s for j in range(3)]
        d = [target[j] - origin[j] for j in range(3)]
        if any(Fraction(target[j]) - Fraction(origin[j]) != Fraction(d[j]) for j in range(3)) or d == [0, 0, 0]:
            continue
        rays.append({"origin": origin, "dir": d})
    json.dump({"rays": rays}, open(out, "w"))


main()
