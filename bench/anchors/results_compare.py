#!/usr/bin/env python3
"""Compares the per-query answers of two programs on the same inputs.

usage: results_compare.py A.json B.json [--tol T] [--show N]

The files are JSON reports of ``obbtree collide --json``, ``obbtree pick --json`` or of a
harness's ``--out`` (the same shapes); the kind is read from the keys:

- collision ``{"results":[{"intersects","pairs"}]}``: the yes/no answer of every pose and, when
  neither file is a yes/no run (``mode`` "first" or "bool"), the set of intersecting triangle
  pairs of every pose;
- distance ``{"results":[{"distance",...}]}`` (|d_A - d_B| <= T (1 + |d_A|), T default 1e-9) or
  margin ``{"results":[{"within"}]}``;
- rays ``{"hits":[{"hit","triangle","t"}]}``: hit or miss and the triangle of every ray, and t
  within T relative (default 1e-9; single-precision engines such as Embree need about 1e-5). A
  different triangle at the same t (a ray through a shared edge or vertex, or a triangle the mesh
  holds twice) is counted apart, but still as a difference.

Prints one summary line per check and up to N (default 5) differing queries; exits 0 when
everything agrees, 1 otherwise.
"""
import argparse
import json
import sys


def is_yes_no(report):
    return report.get('mode') in ('first', 'bool')


def compare_collisions(a, b, show):
    ra, rb = a['results'], b['results']
    yes_no = [k for k, (x, y) in enumerate(zip(ra, rb)) if x['intersects'] != y['intersects']]
    print(f'poses: {len(ra)}; intersecting: {sum(x["intersects"] for x in ra)} (A), '
          f'{sum(y["intersects"] for y in rb)} (B); yes/no differs on {len(yes_no)}'
          + (f': {yes_no[:show]}' if yes_no else ''))
    if is_yes_no(a) or is_yes_no(b):
        return not yes_no
    only_a = only_b = 0
    differing = []
    for k, (x, y) in enumerate(zip(ra, rb)):
        sa, sb = {tuple(p) for p in x['pairs']}, {tuple(p) for p in y['pairs']}
        if sa != sb:
            only_a += len(sa - sb)
            only_b += len(sb - sa)
            differing.append((k, sorted(sa - sb)[:3], sorted(sb - sa)[:3]))
    print(f'triangle pairs: {sum(len(x["pairs"]) for x in ra)} (A), {sum(len(y["pairs"]) for y in rb)} (B); '
          f'pair sets differ on {len(differing)} poses ({only_a} pairs only in A, {only_b} only in B)')
    for k, in_a, in_b in differing[:show]:
        print(f'  pose {k}: only in A {in_a}, only in B {in_b}')
    return not yes_no and not differing


def compare_distances(a, b, tol, show):
    ra, rb = a['results'], b['results']
    if 'within' in ra[0]:
        bad = [k for k, (x, y) in enumerate(zip(ra, rb)) if x['within'] != y['within']]
        print(f'poses: {len(ra)}; within: {sum(x["within"] for x in ra)} (A), '
              f'{sum(y["within"] for y in rb)} (B); differs on {len(bad)}' + (f': {bad[:show]}' if bad else ''))
        return not bad
    errors = [abs(x['distance'] - y['distance']) for x, y in zip(ra, rb)]
    bad = [k for k, (x, e) in enumerate(zip(ra, errors)) if e > tol * (1.0 + abs(x['distance']))]
    same_pair = sum(x.get('pair') == y.get('pair') for x, y in zip(ra, rb))
    print(f'poses: {len(ra)}; largest |d_A - d_B| {max(errors, default=0.0):.3e}; beyond tolerance: '
          f'{len(bad)}; same closest triangle pair on {same_pair}')
    for k in bad[:show]:
        print(f'  pose {k}: {ra[k]["distance"]!r} (A) against {rb[k]["distance"]!r} (B)')
    return not bad


def compare_hits(a, b, tol, show):
    ha, hb = a['hits'], b['hits']
    flag = [k for k, (x, y) in enumerate(zip(ha, hb)) if x['hit'] != y['hit']]
    both = [k for k, (x, y) in enumerate(zip(ha, hb)) if x['hit'] and y['hit']]
    triangle = [k for k in both if ha[k]['triangle'] != hb[k]['triangle']]
    t_off = [k for k in both if abs(ha[k]['t'] - hb[k]['t']) > tol * max(1.0, abs(ha[k]['t']))]
    ties = [k for k in triangle if k not in t_off]
    print(f'rays: {len(ha)}; hits: {sum(x["hit"] for x in ha)} (A), {sum(y["hit"] for y in hb)} (B); '
          f'hit/miss differs on {len(flag)}, triangle on {len(triangle)} ({len(ties)} of them at the same t '
          f'within tolerance: a shared edge or vertex, or a duplicated triangle), t beyond tolerance on {len(t_off)}')
    for k in (flag + triangle + t_off)[:show]:
        print(f'  ray {k}: {ha[k]} (A) against {hb[k]} (B)')
    return not (flag or triangle or t_off)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('a')
    parser.add_argument('b')
    parser.add_argument('--tol', type=float, default=1e-9)
    parser.add_argument('--show', type=int, default=5)
    args = parser.parse_args()
    with open(args.a) as fa, open(args.b) as fb:
        a, b = json.load(fa), json.load(fb)
    kind_a = 'hits' if 'hits' in a else 'results'
    if kind_a not in b or len(a[kind_a]) != len(b[kind_a]):
        sys.exit(f'{args.a} and {args.b} do not answer the same queries')
    if kind_a == 'hits':
        same = compare_hits(a, b, args.tol, args.show)
    elif not a['results'] or 'intersects' in a['results'][0]:
        same = compare_collisions(a, b, args.show)
    else:
        same = compare_distances(a, b, args.tol, args.show)
    sys.exit(0 if same else 1)


if __name__ == '__main__':
    main()
