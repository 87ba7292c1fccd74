#!/usr/bin/env python3
"""Compares two scene results: the same touching object pairs, with the same triangle-pair counts,
and the same closest pair, at frame 0 and in every frame.

usage: scene_compare.py A.json B.json [--tol T] [--dist-tol R] [--show N]

A and B are ``{"contacts":[{"a","b","pairs"}],"frames":[{"contacts":[..]}]}`` (``fcl_scene --out``
or the same shape from another program). Per frame, the sets of touching pairs {a, b} must be
equal and each pair's triangle-pair counts may differ by at most T (default 0). When both have
the closest pair (``"closest":{"a","b","distance"}`` or null, at the top level and in each frame:
``fcl_scene --mode distance``, ``obbtree scene --min-distance``), it must be the same pair {a, b}
at distances within R relative (default 1e-9); contacts are compared when both have them.
Prints one line per differing frame (up to N pairs each, default 5) and a summary; exits 0 when
they agree.
"""
import argparse
import json
import sys


def touching(contacts):
    return {tuple(sorted((c['a'], c['b']))): c['pairs'] for c in contacts}


def frames_of(report, key):
    """The value of `key` at frame 0 and in every frame, or None when the report has no `key`."""
    if key not in report:
        return None
    return [report[key]] + [f[key] for f in report.get('frames', [])]


def compare_closest(k, a, b, tol):
    """Lines describing how frame k's closest pairs differ (none when they agree)."""
    pair_a, pair_b = (None if c is None else tuple(sorted((c['a'], c['b']))) for c in (a, b))
    if pair_a != pair_b:
        return [f'frame {k}: closest {pair_a} (A) against {pair_b} (B)']
    if a is None:
        return []
    da, db = a['distance'], b['distance']
    if abs(da - db) > tol * max(abs(da), abs(db)):
        return [f'frame {k}: closest {pair_a} at {da!r} (A) against {db!r} (B)']
    return []


def compare_frame(k, a, b, tol, show):
    """Lines describing how frame k differs (none when it agrees)."""
    ta, tb = touching(a), touching(b)
    only_a, only_b = sorted(set(ta) - set(tb)), sorted(set(tb) - set(ta))
    counts = sorted(p for p in set(ta) & set(tb) if abs(ta[p] - tb[p]) > tol)
    if not (only_a or only_b or counts):
        return []
    return [f'frame {k}: {len(only_a)} pairs only in A {only_a[:show]}, {len(only_b)} only in B '
            f'{only_b[:show]}, {len(counts)} with other counts '
            f'{[(p, ta[p], tb[p]) for p in counts[:show]]}']


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('a')
    parser.add_argument('b')
    parser.add_argument('--tol', type=int, default=0)
    parser.add_argument('--dist-tol', type=float, default=1e-9)
    parser.add_argument('--show', type=int, default=5)
    args = parser.parse_args()
    with open(args.a) as fa, open(args.b) as fb:
        report_a, report_b = json.load(fa), json.load(fb)
    checks = [('contacts', lambda k, a, b: compare_frame(k, a, b, args.tol, args.show)),
              ('closest', lambda k, a, b: compare_closest(k, a, b, args.dist_tol))]
    lines, summary = [], []
    for key, compare in checks:
        fa_frames, fb_frames = frames_of(report_a, key), frames_of(report_b, key)
        if fa_frames is None or fb_frames is None:
            continue
        if len(fa_frames) != len(fb_frames):
            sys.exit(f'{args.a} has {len(fa_frames)} frames (with frame 0), {args.b} {len(fb_frames)}')
        differ = [line for k, (a, b) in enumerate(zip(fa_frames, fb_frames)) for line in compare(k, a, b)]
        lines += differ
        summary.append(f'{key}: {len(fa_frames)} frames (with frame 0), {len(differ)} differ')
        if key == 'contacts':
            summary[-1] += (f', touching pairs over all frames: {sum(len(f) for f in fa_frames)} (A), '
                            f'{sum(len(f) for f in fb_frames)} (B)')
    if not summary:
        sys.exit(f'{args.a} and {args.b} have neither "contacts" nor "closest" in common')
    for line in lines:
        print(line)
    print('; '.join(summary))
    sys.exit(1 if lines else 0)


if __name__ == '__main__':
    main()
