#!/usr/bin/env python3
"""A scene of many posed meshes and frames of moves, for ``fcl_scene`` (and ``obbtree``'s scenes).

usage: scene.py OUT_DIR N_OBJECTS N_FRAMES MOVE_FRACTION SEED [--meshes a.obj,b.stl,..]
                [--touch 0.05] [--allow-frac F] [--scale unit|none]

Writes OUT_DIR/scene.json, OUT_DIR/frames.json, OUT_DIR/meta.json (the parameters; not part of
the format) and OUT_DIR/meshes/NAME.obj, an OBJ copy of every mesh used (coordinates by ``repr``).

- Meshes: ``--meshes`` (OBJ, STL or PLY, each optionally .gz) or, by default, the bundled ones:
  bunny, duck, teapot, the eight KUKA iiwa links, the twelve differential parts and dragon_res4.
  Their units differ (the differential is in millimetres), so by default (``--scale unit``) each
  copy is moved to put its centroid at the origin and scaled to a bounding radius of 1 (c: the
  mean of the vertices the triangles use, r: their largest distance from c); ``--scale none``
  copies them as they are. Object i uses mesh i mod M (M meshes), and is named
  ``o<i>_<mesh>`` with i zero-padded, so names sort as the objects.
- Frame 0 (``scene.json``): every rotation uniform on SO(3) (Shoemake 1992), every centroid
  uniform in a cube of side L. L is the smallest side (found by bisection) at which at most a
  fraction ``--touch`` of the objects have a bounding sphere that meets another's: spheres that
  meet are necessary for contact, not sufficient, so fewer objects than that actually touch.
- Frames (``frames.json``): the first round(MOVE_FRACTION x N) objects of a random order move in
  every frame, each along its own fixed random direction by 0.02 L and about its own fixed
  random axis by 0.05 rad per frame; a frame lists the new absolute poses of those objects.
- ``--allow-frac F``: a random fraction F of the object pairs whose bounding spheres meet at
  frame 0 go to ``allow`` (pairs never checked); default 0.

Formats: ``scene.json`` ``{"objects":[{"name","mesh" (relative to scene.json),"pose":{"translation",
"rotation"}}],"allow":[[a,b],..]}``; ``frames.json`` ``{"frames":[{name: pose, ..}, ..]}``; a pose
maps a point p of the mesh to R p + t (rotation vector: axis x angle, radians).
"""
import argparse
import math
import os
import random

import mesh_files

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.join(HERE, '..', '..', 'assets')
DEFAULT_MESHES = (['bunny.obj', 'duck/duck.obj', 'teapot.obj']
                  + [f'kuka_iiwa/link_{k}.obj' for k in range(8)]
                  + [f'differential/diff_{part}.stl' for part in (
                      'arm', 'carrier', 'carrier_cover', 'leftshaft', 'motor_cover', 'pinion',
                      'rightshaft', 'ring', 'side', 'spider', 'spider_shaft', 'stand')]
                  + ['dragon_res4.ply.gz'])
STEP_OF_SIDE = 0.02
STEP_ANGLE = 0.05


def mesh_name(path):
    base = os.path.basename(path)
    for ext in ('.gz', '.obj', '.stl', '.ply', '.OBJ', '.STL', '.PLY'):
        if base.endswith(ext):
            base = base[:-len(ext)]
    return base


def copy_meshes(paths, out_dir, scale):
    """Writes OUT_DIR/meshes/NAME.obj for each path; returns (name, centroid, radius) of each copy."""
    os.makedirs(os.path.join(out_dir, 'meshes'), exist_ok=True)
    copies = []
    for path in paths:
        vertices, triangles = mesh_files.read_mesh(path)
        c, r = mesh_files.centroid_radius(mesh_files.used_vertices(vertices, triangles))
        if scale == 'unit':
            vertices = [tuple((v[k] - c[k]) / r for k in range(3)) for v in vertices]
            c, r = mesh_files.centroid_radius(mesh_files.used_vertices(vertices, triangles))
        name = mesh_name(path)
        mesh_files.write_obj(os.path.join(out_dir, 'meshes', name + '.obj'), vertices, triangles)
        copies.append((name, c, r))
    return copies


def meeting_spheres(centres, radii):
    """The pairs (i, j), i < j, whose bounding spheres meet."""
    n = len(centres)
    return [(i, j) for i in range(n) for j in range(i + 1, n)
            if math.dist(centres[i], centres[j]) <= radii[i] + radii[j]]


def touching_fraction(units, radii, side):
    touching = {k for pair in meeting_spheres([[side * x for x in u] for u in units], radii) for k in pair}
    return len(touching) / len(units)


def cube_side(units, radii, touch):
    """The smallest side (to 1e-6 relative) at which at most `touch` of the objects' spheres meet another's."""
    lo, hi = 0.0, 2.0 * max(radii) * len(units)
    while touching_fraction(units, radii, hi) > touch:
        lo, hi = hi, 2.0 * hi
    while hi - lo > 1e-6 * hi:
        mid = (lo + hi) / 2.0
        if touching_fraction(units, radii, mid) > touch:
            lo = mid
        else:
            hi = mid
    return hi


def pose_of(centroid_at, rotation, mesh_centroid):
    """The pose with `rotation` that puts the mesh's centroid at `centroid_at`."""
    placed = mesh_files.transform({'translation': [0.0, 0.0, 0.0], 'rotation': rotation}, mesh_centroid)
    return {'translation': [centroid_at[k] - placed[k] for k in range(3)], 'rotation': rotation}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('out_dir')
    parser.add_argument('n_objects', type=int)
    parser.add_argument('n_frames', type=int)
    parser.add_argument('move_fraction', type=float)
    parser.add_argument('seed', type=int)
    parser.add_argument('--meshes', help='comma-separated mesh files (default: the bundled meshes)')
    parser.add_argument('--touch', type=float, default=0.05)
    parser.add_argument('--allow-frac', type=float, default=0.0)
    parser.add_argument('--scale', choices=('unit', 'none'), default='unit')
    args = parser.parse_args()

    paths = args.meshes.split(',') if args.meshes else [os.path.join(ASSETS, m) for m in DEFAULT_MESHES]
    copies = copy_meshes(paths, args.out_dir, args.scale)
    rng = random.Random(args.seed)
    n = args.n_objects
    width = max(3, len(str(n - 1)))
    kinds = [copies[i % len(copies)] for i in range(n)]
    names = [f'o{i:0{width}d}_{kinds[i][0]}' for i in range(n)]
    radii = [kind[2] for kind in kinds]
    rotations = [mesh_files.random_rotation_vector(rng) for _ in range(n)]
    units = [[rng.random() for _ in range(3)] for _ in range(n)]
    side = cube_side(units, radii, args.touch)
    centres = [[side * x for x in u] for u in units]

    objects = [{'name': names[i], 'mesh': f'meshes/{kinds[i][0]}.obj',
                'pose': pose_of(centres[i], rotations[i], kinds[i][1])} for i in range(n)]
    meeting = meeting_spheres(centres, radii)
    allowed = sorted(rng.sample(meeting, round(args.allow_frac * len(meeting))))
    mesh_files.write_json(os.path.join(args.out_dir, 'scene.json'), {
        'objects': objects, 'allow': [[names[i], names[j]] for i, j in allowed]})

    order = list(range(n))
    rng.shuffle(order)
    movers = sorted(order[:round(args.move_fraction * n)])
    motion = {i: (mesh_files.random_unit_vector(rng), mesh_files.random_unit_vector(rng)) for i in movers}
    frames = []
    for k in range(1, args.n_frames + 1):
        frame = {}
        for i in movers:
            direction, axis = motion[i]
            spin = mesh_files.rotation_vector_to_quaternion([STEP_ANGLE * k * a for a in axis])
            turned = mesh_files.quaternion_product(spin, mesh_files.rotation_vector_to_quaternion(rotations[i]))
            at = [centres[i][c] + STEP_OF_SIDE * side * k * direction[c] for c in range(3)]
            frame[names[i]] = pose_of(at, mesh_files.quaternion_to_rotation_vector(turned), kinds[i][1])
        frames.append(frame)
    mesh_files.write_json(os.path.join(args.out_dir, 'frames.json'), {'frames': frames})

    mesh_files.write_json(os.path.join(args.out_dir, 'meta.json'), {
        'generator': 'bench/anchors/scene.py', 'objects': n, 'frames': args.n_frames,
        'move_fraction': args.move_fraction, 'seed': args.seed, 'touch': args.touch,
        'allow_frac': args.allow_frac, 'scale': args.scale, 'meshes': paths, 'cube_side': side,
        'moving_objects': len(movers), 'meeting_sphere_pairs': len(meeting),
        'step': {'translation': STEP_OF_SIDE * side, 'angle': STEP_ANGLE}})
    print(f'scene.py: {n} objects of {len(copies)} meshes in a cube of side {side:.4g}, '
          f'{len(meeting)} pairs of bounding spheres meet; {len(movers)} move in {args.n_frames} frames')


if __name__ == '__main__':
    main()
