#!/usr/bin/env python3
"""Compares two scene results: the same touching object pairs, with the same triangle-pair counts,
at frame 0 and in every frame.

usage: scene_compare.py A.json B.json [--tol T] [--show N]

A and B are ``{"contacts":[{"a","b","pairs"}],"frames":[{"contacts":[..]}]}`` (``fcl_scene --out``
or the same shape from another program). Per frame, the sets of touching pairs {a, b} must be
equal and each pair's triangle-pair counts may differ by at most T (default 0). Prints one line
per differing frame (up to N pairs each, default 5) and a summary; exits 0 when they agree.
"""
import argparse
import json
import sys


def touching(contacts):
    return {tuple(sorted((c['a'], c['b']))): c['pairs'] for c in contacts}


def frames_of(report):
    return [report['contacts']] + [f['contacts'] for f in report.get('frames', [])]


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
    parser.add_argument('--show', type=int, default=5)
    args = parser.parse_args()
    with open(args.a) as fa, open(args.b) as fb:
        fa_frames, fb_frames = frames_of(json.load(fa)), frames_of(json.load(fb))
    if len(fa_frames) != len(fb_frames):
        sys.exit(f'{args.a} has {len(fa_frames)} frames (with frame 0), {args.b} {len(fb_frames)}')
    lines = [line for k, (a, b) in enumerate(zip(fa_frames, fb_frames))
             for line in compare_frame(k, a, b, args.tol, args.show)]
    for line in lines:
        print(line)
    pairs_a = sum(len(f) for f in fa_frames)
    print(f'frames: {len(fa_frames)} (with frame 0); touching pairs over all frames: {pairs_a} (A), '
          f'{sum(len(f) for f in fb_frames)} (B); frames that differ: {len(lines)}')
    sys.exit(1 if lines else 0)


if __name__ == '__main__':
    main()
