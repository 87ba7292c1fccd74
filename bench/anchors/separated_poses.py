#!/usr/bin/env python3
"""The same poses with B pushed away from A: disjoint poses for yes/no queries.

usage: separated_poses.py POSES.json FACTOR OUT.json

Each pose's translation moves B's centroid further from A's along the line between the centroids
(c_A to R c_B + t; along +x when they coincide) by FACTOR x (r_A + r_B). The centroids and radii
are read from the pose file's ``meta`` (as ``poses.py`` writes it). With FACTOR >= 1 the bounding
spheres no longer meet, so every pose is disjoint; 1.2 is "far apart".
"""
import math
import sys

import mesh_files


def direction_away(c_a, centre_b):
    d = [centre_b[k] - c_a[k] for k in range(3)]
    length = math.sqrt(sum(x * x for x in d))
    return [x / length for x in d] if length > 0.0 else [1.0, 0.0, 0.0]


def pushed(pose, c_a, c_b, distance):
    """``pose`` with B moved ``distance`` away from c_A along the line between the centroids."""
    u = direction_away(c_a, mesh_files.transform(pose, c_b))
    return {'translation': [pose['translation'][k] + distance * u[k] for k in range(3)],
            'rotation': list(pose['rotation'])}


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    source, factor, out = argv[1], float(argv[2]), argv[3]
    poses = mesh_files.read_json(source)
    meta = poses.get('meta', {})
    try:
        c_a, c_b = meta['centroid_a'], meta['centroid_b']
        reach = meta['radius_a'] + meta['radius_b']
    except KeyError:
        sys.exit(f'{source}: its "meta" lacks centroid_a/b and radius_a/b (write it with poses.py)')
    moved = [pushed(p, c_a, c_b, factor * reach) for p in poses['poses']]
    meta = dict(meta, generator='bench/anchors/separated_poses.py', source=source, factor=factor)
    mesh_files.write_json(out, {'meta': meta, 'poses': moved})


if __name__ == '__main__':
    main(sys.argv)
