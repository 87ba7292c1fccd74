#!/usr/bin/env python3
"""ASCII PLY (.gz) with `float` coordinates -> OBJ for the comparison harnesses.

usage: ply2obj.py IN.ply.gz OUT.obj

Each coordinate is rounded to f32 (as obbtree's PLY loader reads `property float`) and written
with repr(), so the OBJ holds exactly the f64 values obbtree works on and every tool reading the
OBJ (FCL, coal, poses.py) sees the same geometry as the benches, which load the PLY.
"""
import gzip, struct, sys

f32 = lambda s: repr(struct.unpack('f', struct.pack('f', float(s)))[0])
src, dst = sys.argv[1], sys.argv[2]
with gzip.open(src, 'rt') as f:
    lines = f.read().split('\n')
h = lines.index('end_header')
count = lambda kind: int([l for l in lines[:h] if l.startswith('element ' + kind)][0].split()[2])
nv, nf = count('vertex'), count('face')
with open(dst, 'w') as out:
    for l in lines[h + 1:h + 1 + nv]:
        out.write('v ' + ' '.join(f32(x) for x in l.split()[:3]) + '\n')
    for l in lines[h + 1 + nv:h + 1 + nv + nf]:
        p = l.split()
        assert p[0] == '3', 'triangles only'
        out.write('f ' + ' '.join(str(int(i) + 1) for i in p[1:4]) + '\n')
