#!/usr/bin/env python3
"""N incoherent rays aimed at a mesh, for ``obbtree pick --rays`` and ``embree_bench ray``.

usage: rays.py MESH.obj N SEED OUT.json

Each ray starts at a point uniform on the sphere of radius 2R about the centre of the mesh's
AABB (R: the largest distance of a vertex some triangle uses from that centre) and points at a
point uniform in the AABB (unit direction): the recipe of the ``pick`` criterion bench, so that
about 60% of the rays hit a dragon. Writes ``{"meta":{...},"rays":[{"origin","dir"}, ...]}``;
numbers by ``repr``, so every tool reads the same doubles.
"""
import math
import random
import sys

import mesh_files


def rays(points, n, rng):
    lo, hi = mesh_files.aabb(points)
    centre = [(a + b) / 2.0 for a, b in zip(lo, hi)]
    radius = max(math.dist(p, centre) for p in points)
    out = []
    while len(out) < n:
        z = 2.0 * rng.random() - 1.0
        phi = 2.0 * math.pi * rng.random()
        s = math.sqrt(max(0.0, 1.0 - z * z))
        origin = [centre[0] + 2.0 * radius * s * math.cos(phi),
                  centre[1] + 2.0 * radius * s * math.sin(phi),
                  centre[2] + 2.0 * radius * z]
        target = [lo[k] + (hi[k] - lo[k]) * rng.random() for k in range(3)]
        d = [target[k] - origin[k] for k in range(3)]
        length = math.sqrt(sum(c * c for c in d))
        if length > 0.0:
            out.append({'origin': origin, 'dir': [c / length for c in d]})
    return out, centre, radius


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    mesh, n, seed, out = argv[1], int(argv[2]), int(argv[3]), argv[4]
    vertices, triangles = mesh_files.read_mesh(mesh)
    points = mesh_files.used_vertices(vertices, triangles)
    made, centre, radius = rays(points, n, random.Random(seed))
    meta = {'generator': 'bench/anchors/rays.py', 'mesh': mesh, 'n': n, 'seed': seed,
            'aabb_centre': centre, 'radius': radius,
            'recipe': 'origin uniform on the sphere of radius 2R about the AABB centre, '
                      'aimed at a point uniform in the AABB; unit directions'}
    mesh_files.write_json(out, {'meta': meta, 'rays': made})


if __name__ == '__main__':
    main(sys.argv)
