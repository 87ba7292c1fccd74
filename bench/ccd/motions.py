#!/usr/bin/env python3
"""Mesh–mesh continuous collision: motion files, and obbtree, FCL and parry timed side by side.

usage: motions.py gen A.obj B.obj N SEED OUT.json [--rotating]
       motions.py thin OUT_DIR
       motions.py run A.obj B.obj MOTIONS.json --fcl FCL_BENCH --parry PARRY_CCD
                      [--obbtree OBBTREE] [--check OBBTREE] [--tolerance D] [--rounds R]
                      [--samples S] [--fcl-solver ca|naive] [--json OUT.json]

A motion file is the input of `obbtree ccd A B --motions`: {"motions":[{"start":POSE,"end":POSE}]},
POSE {"translation":[x,y,z],"rotation":[rx,ry,rz]}, the pose of B in A's frame (A stays at the
identity). Over t in [0, 1] B's origin moves linearly and B turns about its origin at constant
angular velocity along the shortest arc: R(t) = R0 exp(t log(R0^T R1)).

gen: N motions of B past A (c: the mean of the vertices the triangles use, r: their largest
distance from c). Each motion takes B's centroid along a line of direction uniform on the sphere
from 1.5 (r_A + r_B) before a point P to 1.5 (r_A + r_B) after it, so both ends are separated:
at even indices P is within 0.2 r_A of c_A (B tunnels through A), at odd indices P lies
(0.3 .. 1.1) (r_A + r_B) from c_A across the line (B passes nearby; some touch). Rotations
uniform; with --rotating every second pair of motions (indices 2, 3, 6, 7, ...) also turns B
by an angle uniform in [0.3, 2.5] rad about a uniform axis; the others are pure translations,
start.rotation == end.rotation exactly.

thin: OUT_DIR/plate.obj (a 2 x 2 x 0.001 box about the origin), OUT_DIR/cube.obj (side 0.05
about the origin) and OUT_DIR/motions.json: the cube crossing the plate in one step (a pure
translation from z = 0.3 to z = -0.3, the same with a turn, and a pure rotation of the cube
resting 0.005 above the plate, whose corners sweep through it).

run: every engine answers the motion file R times (default 3), interleaved round robin (engine
order rotated each round); per engine the median query_total_ms, the per-query time and the
answers of the first round. Then a certifying check: S times per motion (default 2000, t = i/(S-1))
B's pose is interpolated here exactly as above and `CHECK collide A B --poses .. --mode first
--json` (exact static collision; CHECK defaults to --obbtree, else target/release/obbtree) says
whether the meshes touch. A colliding sample proves contact and bounds the first contact time
from above: an engine that says "no hit" there has a MISS, one whose toi lo exceeds the first
colliding sample's t is LATE. "unconfirmed" counts hits no sample confirms (contact between
samples, or a false hit). Engines: obbtree `OBBTREE ccd A B --motions M [--tolerance D] --json`,
FCL `FCL_BENCH ccd A B M [--solver ..] [--tolerance D]`, parry `PARRY_CCD A B M [--tolerance D]`
(bench/anchors/README.md); each prints one JSON line with build_ms, query_total_ms and results.
Standard library only (and bench/anchors/mesh_files.py).
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'bench' / 'anchors'))
import mesh_files  # noqa: E402

TRAVEL = 1.5        # half a motion's length, in r_A + r_B
THROUGH = 0.2       # tunnelling motions pass within this many r_A of c_A
NEAR = (0.3, 1.1)   # nearby motions pass this far from c_A, in r_A + r_B
TURN = (0.3, 2.5)   # turning motions turn by this much (rad)


# ------------------------------------------------------------------------------------------------
# The motion of the contract

def relative_turn(start_rv, end_rv):
    """log(R0^T R1) as a rotation vector (B's frame), shortest arc."""
    q0 = mesh_files.rotation_vector_to_quaternion(start_rv)
    q1 = mesh_files.rotation_vector_to_quaternion(end_rv)
    x, y, z, w = q0
    return mesh_files.quaternion_to_rotation_vector(mesh_files.quaternion_product((-x, -y, -z, w), q1))


def pose_at(motion, t):
    """B's pose at time t: T0 + t (T1 - T0), R0 exp(t log(R0^T R1))."""
    s, e = motion['start'], motion['end']
    translation = [s['translation'][k] + t * (e['translation'][k] - s['translation'][k]) for k in range(3)]
    if s['rotation'] == e['rotation']:
        return {'translation': translation, 'rotation': list(s['rotation'])}
    turn = relative_turn(s['rotation'], e['rotation'])
    q = mesh_files.quaternion_product(mesh_files.rotation_vector_to_quaternion(s['rotation']),
                                      mesh_files.rotation_vector_to_quaternion([t * c for c in turn]))
    return {'translation': translation, 'rotation': mesh_files.quaternion_to_rotation_vector(q)}


# ------------------------------------------------------------------------------------------------
# gen and thin

def placing(c_b, rotation, target):
    """The pose with ``rotation`` that puts B's centroid ``c_b`` at ``target``."""
    placed = mesh_files.transform({'translation': [0.0, 0.0, 0.0], 'rotation': rotation}, c_b)
    return {'translation': [target[k] - placed[k] for k in range(3)], 'rotation': rotation}


def across(rng, d):
    """A unit vector perpendicular to the unit vector ``d``."""
    while True:
        u = mesh_files.random_unit_vector(rng)
        v = [u[k] - d[k] * sum(u[j] * d[j] for j in range(3)) for k in range(3)]
        n = math.sqrt(sum(c * c for c in v))
        if n > 1e-6:
            return [c / n for c in v]


def end_rotation(rng, start_rv):
    """R0 turned in B's frame by an angle in TURN about a uniform axis."""
    axis, angle = mesh_files.random_unit_vector(rng), rng.uniform(*TURN)
    q = mesh_files.quaternion_product(mesh_files.rotation_vector_to_quaternion(start_rv),
                                      mesh_files.rotation_vector_to_quaternion([angle * c for c in axis]))
    return mesh_files.quaternion_to_rotation_vector(q)


def one_motion(index, rotating, c_a, r_a, c_b, r_b, rng):
    d = mesh_files.random_unit_vector(rng)
    if index % 2 == 0:
        p = mesh_files.random_in_ball(rng, c_a, THROUGH * r_a)
    else:
        side, off = across(rng, d), rng.uniform(*NEAR) * (r_a + r_b)
        p = [c_a[k] + off * side[k] for k in range(3)]
    half = TRAVEL * (r_a + r_b)
    r0 = mesh_files.random_rotation_vector(rng)
    r1 = end_rotation(rng, r0) if rotating and index % 4 >= 2 else list(r0)
    return {'start': placing(c_b, r0, [p[k] - half * d[k] for k in range(3)]),
            'end': placing(c_b, r1, [p[k] + half * d[k] for k in range(3)])}


def gen(a_path, b_path, n, seed, out, rotating):
    a_points = mesh_files.used_vertices(*mesh_files.read_mesh(a_path))
    b_points = mesh_files.used_vertices(*mesh_files.read_mesh(b_path))
    (c_a, r_a), (c_b, r_b) = mesh_files.centroid_radius(a_points), mesh_files.centroid_radius(b_points)
    rng = random.Random(seed)
    motions = [one_motion(i, rotating, c_a, r_a, c_b, r_b, rng) for i in range(n)]
    meta = {'generator': 'bench/ccd/motions.py gen', 'a': a_path, 'b': b_path, 'n': n, 'seed': seed,
            'rotating': rotating, 'centroid_a': list(c_a), 'radius_a': r_a,
            'centroid_b': list(c_b), 'radius_b': r_b,
            'kinds': 'even index: through A; odd: nearby; with rotating, index % 4 >= 2 turns'}
    mesh_files.write_json(out, {'meta': meta, 'motions': motions})


def box(half):
    """The vertices and triangles of the box [-half, half] (outward faces)."""
    v = [(x * half[0], y * half[1], z * half[2]) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    return v, [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]


def thin(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    mesh_files.write_obj(out / 'plate.obj', *box((1.0, 1.0, 0.0005)))
    mesh_files.write_obj(out / 'cube.obj', *box((0.025, 0.025, 0.025)))
    still = [0.0, 0.0, 0.0]
    motions = [
        {'start': {'translation': [0.1, 0.2, 0.3], 'rotation': still},
         'end': {'translation': [0.1, 0.2, -0.3], 'rotation': still}},
        {'start': {'translation': [0.1, 0.2, 0.3], 'rotation': still},
         'end': {'translation': [0.1, 0.2, -0.3], 'rotation': [0.4, 0.9, 0.2]}},
        {'start': {'translation': [0.0, 0.0, 0.0305], 'rotation': still},
         'end': {'translation': [0.0, 0.0, 0.0305], 'rotation': [math.pi / 4, 0.0, 0.0]}},
    ]
    meta = {'generator': 'bench/ccd/motions.py thin', 'a': 'plate.obj (2 x 2 x 0.001)',
            'b': 'cube.obj (side 0.05)',
            'kinds': 'translation through the plate; the same turning; a pure rotation into it'}
    mesh_files.write_json(out / 'motions.json', {'meta': meta, 'motions': motions})


# ------------------------------------------------------------------------------------------------
# run

def engine_commands(args):
    """name -> command (a list) of every engine given."""
    tol = ['--tolerance', str(args.tolerance)] if args.tolerance is not None else []
    a, b, m = args.a, args.b, args.motions
    commands = {}
    if args.obbtree:
        commands['obbtree'] = [args.obbtree, 'ccd', a, b, '--motions', m, '--json'] + tol
    commands['fcl'] = [args.fcl, 'ccd', a, b, m, '--solver', args.fcl_solver] + tol
    commands['parry'] = [args.parry, a, b, m] + tol
    return commands


def run_once(command):
    """The JSON report an engine prints (its last line), or {"supported": False, ...}."""
    proc = subprocess.run(command, capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip().startswith('{')]
    if not lines:
        sys.exit(f"{' '.join(command)}: exit {proc.returncode}, no JSON\n{proc.stderr}")
    report = json.loads(lines[-1])
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(command)}: exit {proc.returncode}\n{proc.stderr}")
    return report


def run_rounds(commands, rounds):
    """name -> list of reports, the engines interleaved round robin."""
    names = list(commands)
    reports = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            reports[name].append(run_once(commands[name]))
    return reports


def first_contacts(check, a, b, motions, samples):
    """Per motion, the first sampled t at which `check collide` finds contact, or None."""
    ts = [i / (samples - 1) for i in range(samples)]
    poses = [pose_at(m, t) for m in motions for t in ts]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'poses.json')
        mesh_files.write_json(path, {'poses': poses})
        out = subprocess.run([check, 'collide', a, b, '--poses', path, '--mode', 'first', '--json'],
                             capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'{check} collide: exit {out.returncode}\n{out.stderr}')
    hits = [r['intersects'] for r in json.loads(out.stdout)['results']]
    return [next((ts[i] for i in range(samples) if hits[k * samples + i]), None)
            for k in range(len(motions))]


def judge(results, contacts):
    """Counts of an engine's answers against the sampled first contacts."""
    counts = {'hits': 0, 'misses': [], 'late': [], 'unconfirmed': []}
    for k, (r, c) in enumerate(zip(results, contacts)):
        counts['hits'] += bool(r['hit'])
        if c is not None and not r['hit']:
            counts['misses'].append(k)
        elif c is not None and r['toi'] is not None and r['toi'][0] > c + 1e-9:
            counts['late'].append(k)
        elif c is None and r['hit']:
            counts['unconfirmed'].append(k)
    return counts


def summary(name, reports, contacts, n):
    first = reports[0]
    if first.get('supported') is False:
        return {'engine': name, 'supported': False}
    total = statistics.median(r['query_total_ms'] for r in reports)
    row = {'engine': name, 'build_ms': statistics.median(r['build_ms'] for r in reports),
           'query_total_ms': total, 'per_query_us': 1000.0 * total / max(n, 1)}
    row.update(judge(first['results'], contacts))
    return row


def print_table(rows, certified, n):
    print(f'{n} motions, {certified} in contact by the sampled check')
    print(f"{'engine':8} {'query ms':>10} {'us/query':>10} {'hits':>5} {'miss':>5} {'late':>5} {'unconf':>6}")
    for r in rows:
        if r.get('supported') is False:
            print(f"{r['engine']:8} unsupported")
            continue
        print(f"{r['engine']:8} {r['query_total_ms']:10.3f} {r['per_query_us']:10.1f} {r['hits']:5d} "
              f"{len(r['misses']):5d} {len(r['late']):5d} {len(r['unconfirmed']):6d}")
    for r in rows:
        for key in ('misses', 'late', 'unconfirmed'):
            if r.get(key):
                print(f"  {r['engine']} {key}: motions {r[key]}")


def run(args):
    motions = mesh_files.read_json(args.motions)['motions']
    check = args.check or args.obbtree or str(ROOT / 'target' / 'release' / 'obbtree')
    reports = run_rounds(engine_commands(args), args.rounds)
    contacts = first_contacts(check, args.a, args.b, motions, args.samples)
    rows = [summary(name, reps, contacts, len(motions)) for name, reps in reports.items()]
    certified = sum(c is not None for c in contacts)
    print_table(rows, certified, len(motions))
    if args.json:
        mesh_files.write_json(args.json, {'motions': len(motions), 'samples': args.samples,
                                          'first_contact_samples': contacts, 'engines': rows})


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', required=True)
    g = sub.add_parser('gen', help='N motions of B past A')
    g.add_argument('a'), g.add_argument('b'), g.add_argument('n', type=int)
    g.add_argument('seed', type=int), g.add_argument('out')
    g.add_argument('--rotating', action='store_true')
    t = sub.add_parser('thin', help='a thin plate, a small cube and motions across the plate')
    t.add_argument('out_dir')
    r = sub.add_parser('run', help='time the engines and count their misses')
    r.add_argument('a'), r.add_argument('b'), r.add_argument('motions')
    r.add_argument('--obbtree'), r.add_argument('--fcl', required=True)
    r.add_argument('--parry', required=True), r.add_argument('--check')
    r.add_argument('--tolerance', type=float), r.add_argument('--rounds', type=int, default=3)
    r.add_argument('--samples', type=int, default=2000)
    r.add_argument('--fcl-solver', choices=['ca', 'naive'], default='ca')
    r.add_argument('--json')
    return parser.parse_args(argv)


def main(argv):
    args = parse(argv)
    if args.command == 'gen':
        gen(args.a, args.b, args.n, args.seed, args.out, args.rotating)
    elif args.command == 'thin':
        thin(args.out_dir)
    else:
        run(args)


if __name__ == '__main__':
    main(sys.argv[1:])
