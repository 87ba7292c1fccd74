#!/usr/bin/env python3
"""N rays aimed at a mesh, for ``obbtree pick --rays`` and ``embree_bench ray``: incoherent,
or with ``--camera`` the coherent rays of one picture.

usage: rays.py MESH.obj N SEED OUT.json [--camera]

Incoherent: each ray starts at a point uniform on the sphere of radius 2R about the centre of the mesh's
AABB (R: the largest distance of a vertex some triangle uses from that centre) and points at a
point uniform in the AABB (unit direction): the recipe of the ``pick`` criterion bench, so that
about 60% of the rays hit a dragon. Writes ``{"meta":{...},"rays":[{"origin","dir"}, ...]}``;
numbers by ``repr``, so every tool reads the same doubles.

``--camera``: the rays of a pinhole camera's W x W pixels (W the integer square root of N), row
by row as a renderer casts them: the eye on the same sphere in a direction drawn from SEED,
looking at the centre, its 60-degree field of view just holding the sphere of radius R (the
whole mesh), one ray through each pixel's centre.
"""
import math
import random
import sys

import mesh_files


def frame(points):
    """The AABB of the points, its centre, and R: the largest distance of a point from it."""
    lo, hi = mesh_files.aabb(points)
    centre = [(a + b) / 2.0 for a, b in zip(lo, hi)]
    return lo, hi, centre, max(math.dist(p, centre) for p in points)


def sphere_point(centre, r, rng):
    """A point uniform on the sphere of radius r about centre."""
    z = 2.0 * rng.random() - 1.0
    phi = 2.0 * math.pi * rng.random()
    s = math.sqrt(max(0.0, 1.0 - z * z))
    return [centre[0] + r * s * math.cos(phi), centre[1] + r * s * math.sin(phi), centre[2] + r * z]


def unit(v):
    """v over its length, or None when that is 0."""
    length = math.sqrt(sum(c * c for c in v))
    return [c / length for c in v] if length > 0.0 else None


def rays(points, n, rng):
    lo, hi, centre, radius = frame(points)
    out = []
    while len(out) < n:
        origin = sphere_point(centre, 2.0 * radius, rng)
        target = [lo[k] + (hi[k] - lo[k]) * rng.random() for k in range(3)]
        d = unit([target[k] - origin[k] for k in range(3)])
        if d is not None:
            out.append({'origin': origin, 'dir': d})
    return out, centre, radius


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def camera_rays(points, n, rng):
    """The rays of a W x W picture (W = isqrt(n)) from an eye 2R from the AABB centre, row by
    row: at distance 2R a sphere of radius R fills a cone of half angle 30 degrees."""
    _, _, centre, radius = frame(points)
    eye = sphere_point(centre, 2.0 * radius, rng)
    forward = unit([centre[k] - eye[k] for k in range(3)])
    helper = [0.0, 0.0, 1.0] if abs(forward[2]) < 0.9 else [1.0, 0.0, 0.0]
    right = unit(cross(forward, helper))
    up = cross(right, forward)
    width = math.isqrt(n)
    half = math.tan(math.radians(30.0))
    out = []
    for row in range(width):
        v = half * (1.0 - 2.0 * (row + 0.5) / width)
        for column in range(width):
            u = half * (2.0 * (column + 0.5) / width - 1.0)
            d = unit([forward[k] + u * right[k] + v * up[k] for k in range(3)])
            out.append({'origin': eye, 'dir': d})
    return out, centre, radius


def main(argv):
    camera = '--camera' in argv
    argv = [a for a in argv if a != '--camera']
    if len(argv) != 5:
        sys.exit(__doc__)
    mesh, n, seed, out = argv[1], int(argv[2]), int(argv[3]), argv[4]
    vertices, triangles = mesh_files.read_mesh(mesh)
    points = mesh_files.used_vertices(vertices, triangles)
    make = camera_rays if camera else rays
    made, centre, radius = make(points, n, random.Random(seed))
    recipe = ('a pinhole camera 2R from the AABB centre in a direction uniform on the sphere, '
              'looking at the centre, 60-degree field of view, W x W pixels row by row'
              if camera else
              'origin uniform on the sphere of radius 2R about the AABB centre, '
              'aimed at a point uniform in the AABB; unit directions')
    meta = {'generator': 'bench/anchors/rays.py', 'mesh': mesh, 'n': len(made), 'seed': seed,
            'aabb_centre': centre, 'radius': radius, 'recipe': recipe}
    mesh_files.write_json(out, {'meta': meta, 'rays': made})


if __name__ == '__main__':
    main(sys.argv)
