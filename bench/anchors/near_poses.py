#!/usr/bin/env python3
"""The poses in contact, each pushed just out of contact: near misses for yes/no queries.

usage: near_poses.py A.obj B.obj POSES.json OUT.json EXACT [--gap G]

EXACT is a program with the contract of ``obbtree collide`` (e.g. ``target/release/obbtree``):
``EXACT collide A B --poses P.json --mode first --json`` prints ``{"results":[{"intersects":..}]}``.
For every pose that EXACT finds in contact, B is moved away from A along the line between the
centroids (c_A to R c_B + t); the distance s at which the meshes part is found by bisection on
[0, r_A + r_B] (at r_A + r_B the bounding spheres no longer meet) down to 1e-9 (r_A + r_B), every
pose of a step in one EXACT run. The pose written is the disjoint end of the bracket moved a
further G x (r_A + r_B) (default 0.002), then checked disjoint by EXACT once more (a pose that
touches again, which a non-convex B can do, is dropped with a note). Poses not in contact are
left out; ``meta.source_indices`` lists where each written pose came from.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import mesh_files
from separated_poses import pushed

BISECTION_STEPS = 30


class Exact:
    """Yes/no answers of EXACT for a list of poses."""

    def __init__(self, program, a, b, scratch):
        self.program, self.a, self.b = program, a, b
        self.path = os.path.join(scratch, 'poses.json')

    def intersects(self, poses):
        mesh_files.write_json(self.path, {'poses': poses})
        command = [self.program, 'collide', self.a, self.b, '--poses', self.path,
                   '--mode', 'first', '--json']
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f'{" ".join(command)} failed: {run.stderr.strip()}')
        return [r['intersects'] for r in json.loads(run.stdout)['results']]


def part(exact, poses, c_a, c_b, reach):
    """For each pose (all in contact), the smallest tried push at which EXACT says disjoint."""
    lo, hi = [0.0] * len(poses), [reach] * len(poses)
    for _ in range(BISECTION_STEPS):
        mid = [(l + h) / 2.0 for l, h in zip(lo, hi)]
        touching = exact.intersects([pushed(p, c_a, c_b, s) for p, s in zip(poses, mid)])
        for k, t in enumerate(touching):
            if t:
                lo[k] = mid[k]
            else:
                hi[k] = mid[k]
    return hi


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ('a', 'b', 'poses', 'out', 'exact'):
        parser.add_argument(name)
    parser.add_argument('--gap', type=float, default=0.002)
    args = parser.parse_args()
    c_a, r_a = mesh_files.centroid_radius(mesh_files.used_vertices(*mesh_files.read_mesh(args.a)))
    c_b, r_b = mesh_files.centroid_radius(mesh_files.used_vertices(*mesh_files.read_mesh(args.b)))
    reach = r_a + r_b
    source = mesh_files.read_json(args.poses)['poses']
    with tempfile.TemporaryDirectory() as scratch:
        exact = Exact(args.exact, args.a, args.b, scratch)
        indices = [i for i, t in enumerate(exact.intersects(source)) if t]
        touching = [source[i] for i in indices]
        pushes = part(exact, touching, c_a, c_b, reach)
        near = [pushed(p, c_a, c_b, s + args.gap * reach) for p, s in zip(touching, pushes)]
        still = exact.intersects(near)
    kept = [k for k, t in enumerate(still) if not t]
    if len(kept) < len(near):
        print(f'near_poses: {len(near) - len(kept)} poses touch again after the gap; left out',
              file=sys.stderr)
    meta = {'generator': 'bench/anchors/near_poses.py', 'a': args.a, 'b': args.b,
            'source': args.poses, 'exact': args.exact, 'gap': args.gap,
            'centroid_a': list(c_a), 'radius_a': r_a, 'centroid_b': list(c_b), 'radius_b': r_b,
            'source_indices': [indices[k] for k in kept]}
    mesh_files.write_json(args.out, {'meta': meta, 'poses': [near[k] for k in kept]})
    print(f'near_poses: {len(kept)} near misses from {len(source)} poses ({len(indices)} in contact)')


if __name__ == '__main__':
    main()
