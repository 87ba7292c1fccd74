#!/usr/bin/env python3
"""N poses of mesh B in mesh A's frame, about half of them in contact.

usage: poses.py A.obj B.obj N SEED OUT.json

A pose maps B's point p to R p + t (R: the rotation of the rotation vector, axis x angle). Every
rotation is uniform on SO(3) (Shoemake 1992). Where B's centroid goes (c: the mean of the
vertices the triangles use, r: the largest distance of such a vertex from c):

- even index ("surface"): at a vertex of A chosen uniformly, plus an offset uniform in the ball
  of radius 0.1 r_B: B is centred on A's surface, so most of these poses touch;
- odd index ("sphere"): uniform in the ball of radius r_A + r_B about c_A, where the bounding
  spheres meet: some touch, some do not.

On two copies of the same dragon about 60% of the poses are in contact (65 of 100 on dragon_res3
from seed 1; the dragon pose files in ``benches/data/`` follow the same recipe). Writes
``{"meta":{...},"poses":[{"translation","rotation"}, ...]}``; ``meta`` keeps the parameters and
both centroids and radii, which ``separated_poses.py`` reads.
"""
import random
import sys

import mesh_files

SURFACE_OFFSET = 0.1


def centre_of_b(index, a_points, c_a, r_a, r_b, rng):
    if index % 2 == 0:
        vertex = a_points[rng.randrange(len(a_points))]
        return mesh_files.random_in_ball(rng, vertex, SURFACE_OFFSET * r_b)
    return mesh_files.random_in_ball(rng, c_a, r_a + r_b)


def pose_placing(c_b, rotation, target):
    """The pose with ``rotation`` that moves B's centroid ``c_b`` to ``target``: t = target - R c_b."""
    placed = mesh_files.transform({'translation': [0.0, 0.0, 0.0], 'rotation': rotation}, c_b)
    return {'translation': [target[k] - placed[k] for k in range(3)], 'rotation': rotation}


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    a_path, b_path, n, seed, out = argv[1], argv[2], int(argv[3]), int(argv[4]), argv[5]
    a_points = mesh_files.used_vertices(*mesh_files.read_mesh(a_path))
    b_points = mesh_files.used_vertices(*mesh_files.read_mesh(b_path))
    c_a, r_a = mesh_files.centroid_radius(a_points)
    c_b, r_b = mesh_files.centroid_radius(b_points)
    rng = random.Random(seed)
    poses = []
    for i in range(n):
        rotation = mesh_files.random_rotation_vector(rng)
        poses.append(pose_placing(c_b, rotation, centre_of_b(i, a_points, c_a, r_a, r_b, rng)))
    meta = {'generator': 'bench/anchors/poses.py', 'a': a_path, 'b': b_path, 'n': n, 'seed': seed,
            'kinds': 'even index = surface (B centroid within 0.1 r_B of a vertex of A), '
                     'odd = sphere (B centroid in ball(c_A, r_A + r_B))',
            'centroid_a': list(c_a), 'radius_a': r_a, 'centroid_b': list(c_b), 'radius_b': r_b,
            'transform': "p' = R(rotation) p + translation; rotation = axis*angle (rad)"}
    mesh_files.write_json(out, {'meta': meta, 'poses': poses})


if __name__ == '__main__':
    main(sys.argv)
