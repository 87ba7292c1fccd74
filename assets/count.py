#!/usr/bin/env python3
"""Independent reader for the mesh files obbtree loads; shares no code with the Rust loaders.

    python3 assets/count.py [ROOT]
        Per bundled mesh under ROOT (default: this folder): vertices, triangles, whether every
        edge is used as often in each direction, vertices at equal coordinates counted as one
        (closed: no boundary edge), and exactly degenerate
        triangles (zero cross product in exact rational arithmetic). This is the BUNDLED table
        of tests/common/mod.rs.

    python3 assets/count.py --dump FILE...
        Per file: a line `mesh FILE V T`, then V lines `x y z` (each coordinate as Python's
        repr of the double, which reads back exactly), then T lines `a b c` (0-based).

What the Rust loaders must give: for OBJ, PLY and OFF every vertex in file order, referenced or
not; for STL the distinct corners (bit-identical f32 after -0.0 -> 0.0) in order of first
appearance. Triangles are the faces in file order, each n-gon fanned into (v0, v1, v2),
(v0, v2, v3), ... A `.gz` suffix means gzip around the format named by the suffix before it.
Standard library only.
"""
import gzip, math, struct, sys
from fractions import Fraction
from pathlib import Path


def fan(face):
    return [(face[0], face[k], face[k + 1]) for k in range(1, len(face) - 1)]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def from_f32_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def round_f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32(token):
    """The f32 nearest to the decimal `token` (ties to even), as a float. Rounding through the
    double is exact unless the double falls exactly halfway between two f32; then decide on the
    exact decimal value."""
    x = float(token)
    near = round_f32(x)
    if near == x or not math.isfinite(near):
        return near
    # The other f32 around x: one step from `near` towards x (away from zero iff |x| > |near|).
    step = 1 if abs(x) > abs(near) else -1
    other = from_f32_bits(f32_bits(near) + step)
    if 2 * x != near + other:
        return near
    exact = Fraction(token)
    return min((near, other), key=lambda c: (abs(Fraction(c) - exact), f32_bits(c) & 1))


def obj(data):
    """Every `v` in order; `f` corners a, a/t, a/t/n, a//n, negative ones relative; `\\` joins."""
    statements, pending = [], ""
    for line in data.decode("latin-1").split("\n"):
        line = line.split("#")[0].rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
        else:
            statements.append(pending + line)
            pending = ""
    statements.append(pending)
    pos, tris = [], []
    for s in statements:
        w = s.split()
        if w and w[0] == "v":
            pos.append(tuple(float(x) for x in w[1:4]))
        elif w and w[0] == "f":
            face = [int(c.split("/")[0]) for c in w[1:]]
            tris += fan([i - 1 if i > 0 else len(pos) + i for i in face])
    return pos, tris


def merged(corners):
    """STL corners merged by bit-identical f32 coordinates, numbered by first appearance."""
    ids, pos, tris = {}, [], []
    for k in range(0, len(corners), 3):
        tri = []
        for c in corners[k:k + 3]:
            p = tuple(x + 0.0 for x in c)
            key = struct.pack("<3f", *p)
            if key not in ids:
                ids[key] = len(pos)
                pos.append(p)
            tri.append(ids[key])
        tris.append(tuple(tri))
    return pos, tris


def stl(data):
    """Binary when the size is 84 + 50 * (the count at byte 80), else ascii `vertex x y z`."""
    if len(data) >= 84 and len(data) == 84 + 50 * struct.unpack_from("<I", data, 80)[0]:
        n = (len(data) - 84) // 50
        corners = [struct.unpack_from("<3f", data, 84 + 50 * k + 12 + 12 * c)
                   for k in range(n) for c in range(3)]
    else:
        w = data.decode("ascii").split()
        corners = [tuple(f32(x) for x in w[i + 1:i + 4]) for i in range(len(w)) if w[i] == "vertex"]
    return merged(corners)


PLY_TYPES = {"char": "b", "int8": "b", "uchar": "B", "uint8": "B", "short": "h", "int16": "h",
             "ushort": "H", "uint16": "H", "int": "i", "int32": "i", "uint": "I", "uint32": "I",
             "float": "f", "float32": "f", "double": "d", "float64": "d"}


def ply(data):
    """Elements as the header declares them; vertex x y z, face vertex_indices (or vertex_index)."""
    end = data.index(b"end_header")
    body = data[data.index(b"\n", end) + 1:]
    elements, encoding = [], None
    for line in data[:end].decode("ascii").splitlines():
        w = line.split()
        if w and w[0] == "format":
            encoding = w[1]
        elif w and w[0] == "element":
            elements.append((w[1], int(w[2]), []))
        elif w and w[0] == "property":
            kind = ("list", w[2], w[3]) if w[1] == "list" else w[1]
            elements[-1][2].append((w[-1], kind))
    if encoding == "ascii":
        tokens = iter(body.split())

        def read(t):
            word = next(tokens).decode()
            return f32(word) if PLY_TYPES[t] == "f" else float(word) if PLY_TYPES[t] == "d" else int(word)
    else:
        order = "<" if encoding == "binary_little_endian" else ">"
        offset = 0

        def read(t):
            nonlocal offset
            (value,) = struct.unpack_from(order + PLY_TYPES[t], body, offset)
            offset += struct.calcsize(PLY_TYPES[t])
            return value
    pos, tris = [], []
    for name, count, props in elements:
        for _ in range(count):
            item = {}
            for prop, kind in props:
                if isinstance(kind, tuple):
                    item[prop] = [read(kind[2]) for _ in range(read(kind[1]))]
                else:
                    item[prop] = read(kind)
            if name == "vertex":
                pos.append((float(item["x"]), float(item["y"]), float(item["z"])))
            elif name == "face":
                tris += fan(item.get("vertex_indices", item.get("vertex_index")))
    return pos, tris


def off(data):
    """Keyword (counts on its line or the next), vertices x y z [...], faces n i0 ... [...]."""
    lines = [w for w in (l.split("#")[0].split() for l in data.decode().splitlines()) if w]
    counts, rest = (lines[0][1:], lines[1:]) if len(lines[0]) > 1 else (lines[1], lines[2:])
    nv, nf = int(counts[0]), int(counts[1])
    pos = [tuple(float(x) for x in l[:3]) for l in rest[:nv]]
    tris = [t for l in rest[nv:nv + nf] for t in fan([int(i) for i in l[1:1 + int(l[0])]])]
    return pos, tris


READERS = {".obj": obj, ".stl": stl, ".ply": ply, ".off": off}


def read(path):
    data, name = path.read_bytes(), path.name.lower()
    if name.endswith(".gz"):
        data, name = gzip.decompress(data), name[:-3]
    return READERS[Path(name).suffix](data)


def closed(tris, pos):
    # Vertices at equal coordinates are one position (0.0 and -0.0 alike).
    first = {}
    same = [first.setdefault(tuple(x + 0.0 for x in p), i) for i, p in enumerate(pos)]
    net = {}
    for a, b, c in ((same[a], same[b], same[c]) for a, b, c in tris):
        for u, v in ((a, b), (b, c), (c, a)):
            if u != v:
                key = (min(u, v), max(u, v))
                net[key] = net.get(key, 0) + (1 if u < v else -1)
    return all(n == 0 for n in net.values())


def degenerate(tris, pos):
    count = 0
    for t in tris:
        a, b, c = ([Fraction(x) for x in pos[i]] for i in t)  # the double's value, exactly
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        cross = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        count += cross == (0, 0, 0)
    return count


def dump(paths):
    out = sys.stdout
    for name in paths:
        pos, tris = read(Path(name))
        out.write(f"mesh {name} {len(pos)} {len(tris)}\n")
        out.writelines(f"{x!r} {y!r} {z!r}\n" for x, y, z in pos)
        out.writelines(f"{a} {b} {c}\n" for a, b, c in tris)


def table(root):
    suffixes = (".obj", ".stl", ".ply", ".off", ".gz")
    meshes = sorted(p for p in root.rglob("*") if p.suffix in suffixes and "large" not in p.parts)
    for p in meshes:
        pos, tris = read(p)
        print(f"{p.relative_to(root)}\t{len(pos)}\t{len(tris)}\t{closed(tris, pos)}\t{degenerate(tris, pos)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        dump(sys.argv[2:])
    else:
        table(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
