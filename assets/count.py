#!/usr/bin/env python3
"""Independent counts for the bundled meshes (tests/assets.rs holds them as constants).

Prints, per mesh: vertices as obbtree loads them (OBJ: distinct referenced `v` entries; STL:
distinct bit-identical corners; PLY/OFF: every vertex), triangles (fan: n-2 per n-gon), whether
every directed edge appears once with its reverse once (closed), and exactly degenerate
triangles (zero cross product in exact rational arithmetic). Standard library only.
"""
import gzip, struct, sys
from fractions import Fraction
from pathlib import Path

def fan(face):
    return [(face[0], face[k], face[k + 1]) for k in range(1, len(face) - 1)]

def obj(path):
    pos, faces = [], []
    for line in path.read_text().splitlines():
        w = line.split()
        if w and w[0] == "v":
            pos.append(tuple(w[1:4]))
        elif w and w[0] == "f":
            faces.append([int(t.split("/")[0]) - 1 for t in w[1:]])
    used = sorted({i for f in faces for i in f})
    tris = [t for f in faces for t in fan(f)]
    return len(used), tris, pos

def stl(path):
    data = path.read_bytes()
    (n,) = struct.unpack_from("<I", data, 80)
    assert len(data) == 84 + 50 * n
    ids, tris, pos = {}, [], []
    for k in range(n):
        corners = struct.unpack_from("<9f", data, 84 + 50 * k + 12)
        tri = []
        for c in range(3):
            p = tuple(x + 0.0 for x in corners[3 * c:3 * c + 3])
            key = struct.pack("<3f", *p)
            if key not in ids:
                ids[key] = len(pos)
                pos.append(tuple(repr(x) for x in p))
            tri.append(ids[key])
        tris.append(tuple(tri))
    return len(pos), tris, pos

def ply_gz(path):
    lines = gzip.open(path, "rt").read().splitlines()
    end = lines.index("end_header")
    counts = {l.split()[1]: int(l.split()[2]) for l in lines[:end] if l.startswith("element")}
    body = lines[end + 1:]
    nv, nf = counts["vertex"], counts["face"]
    pos = [tuple(l.split()[:3]) for l in body[:nv]]
    faces = [[int(x) for x in l.split()[1:]] for l in body[nv:nv + nf]]
    assert all(len(f) == int(l.split()[0]) for f, l in zip(faces, body[nv:]))
    return nv, [t for f in faces for t in fan(f)], pos

def closed(tris):
    directed = {}
    for a, b, c in tris:
        for e in ((a, b), (b, c), (c, a)):
            directed[e] = directed.get(e, 0) + 1
    return all(n == 1 and directed.get((b, a)) == 1 for (a, b), n in directed.items())

def degenerate(tris, pos):
    count = 0
    for t in tris:
        a, b, c = ([Fraction(float(x)) for x in pos[i]] for i in t)  # the f64 value, exactly
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        cross = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        count += cross == (0, 0, 0)
    return count

root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
meshes = sorted(p for p in root.rglob("*") if p.suffix in (".obj", ".stl", ".gz") and "large" not in p.parts)
for p in meshes:
    reader = {".obj": obj, ".stl": stl, ".gz": ply_gz}[p.suffix]
    nv, tris, pos = reader(p)
    print(f"{p.relative_to(root)}\t{nv}\t{len(tris)}\t{closed(tris)}\t{degenerate(tris, pos)}")
