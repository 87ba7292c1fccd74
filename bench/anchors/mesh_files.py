"""Mesh files and poses for the anchor scripts (standard library only, Python 3.9+).

Reads OBJ (``v`` and ``f`` lines, polygons fanned ``(v0, v1, v2), (v0, v2, v3), ...``), binary and
ASCII STL (corners merged when bit-identical, in first-use order) and ASCII PLY with ``float``
coordinates, each optionally gzip-compressed: the triangle order is the file's face order, as
obbtree's loaders give it, so triangle indices agree between every tool. Writes OBJ with every
coordinate printed by ``repr`` (parses back to the same double).

Poses map a point ``p`` of B to ``R p + t`` with ``R`` the rotation of the rotation vector (axis x
angle, radians): Rodrigues' formula (Murray, Li & Sastry, *A Mathematical Introduction to Robotic
Manipulation* (1994) §2.2.2).
"""
import gzip
import json
import math
import struct


def _open_bytes(path):
    with open(path, 'rb') as f:
        data = f.read()
    return gzip.decompress(data) if str(path).endswith('.gz') else data


def _stem(path):
    name = str(path)
    return name[:-3] if name.endswith('.gz') else name


def _fan(corners, out):
    out.extend((corners[0], corners[k], corners[k + 1]) for k in range(1, len(corners) - 1))


def read_obj(path):
    """(vertices, triangles) of an OBJ file; indices 0-based, negative OBJ indices resolved."""
    vertices, triangles = [], []
    for line in _open_bytes(path).decode('utf-8', 'replace').splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == 'v':
            vertices.append(tuple(float(x) for x in fields[1:4]))
        elif fields[0] == 'f':
            corners = []
            for field in fields[1:]:
                k = int(field.split('/')[0])
                corners.append(k - 1 if k > 0 else len(vertices) + k)
            _fan(corners, triangles)
    return vertices, triangles


def _f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def read_stl(path):
    """(vertices, triangles) of a binary or ASCII STL file, corners merged when bit-identical
    (after -0.0 is read as 0.0)."""
    data = _open_bytes(path)
    corners = []
    count = struct.unpack_from('<I', data, 80)[0] if len(data) >= 84 else -1
    if len(data) == 84 + 50 * count:
        for k in range(count):
            xyz = struct.unpack_from('<9f', data, 84 + 50 * k + 12)
            corners.extend(tuple(c + 0.0 for c in xyz[i:i + 3]) for i in (0, 3, 6))
    else:
        for line in data.decode('utf-8', 'replace').splitlines():
            fields = line.split()
            if fields and fields[0] == 'vertex':
                corners.append(tuple(_f32(float(x)) + 0.0 for x in fields[1:4]))
    ids, vertices, triangles = {}, [], []
    for k in range(0, len(corners), 3):
        triangle = []
        for corner in corners[k:k + 3]:
            if corner not in ids:
                ids[corner] = len(vertices)
                vertices.append(corner)
            triangle.append(ids[corner])
        triangles.append(tuple(triangle))
    return vertices, triangles


def read_ply(path):
    """(vertices, triangles) of an ASCII PLY file; coordinates rounded to f32 (``property float``)."""
    lines = _open_bytes(path).decode('utf-8', 'replace').split('\n')
    end = lines.index('end_header')
    header = lines[:end]
    if not any(line.startswith('format ascii') for line in header):
        raise ValueError(f'{path}: only ASCII PLY is read here')
    count = lambda kind: int(next(l for l in header if l.startswith('element ' + kind)).split()[2])
    nv, nf = count('vertex'), count('face')
    vertices = [tuple(_f32(float(x)) for x in l.split()[:3]) for l in lines[end + 1:end + 1 + nv]]
    triangles = []
    for line in lines[end + 1 + nv:end + 1 + nv + nf]:
        fields = [int(x) for x in line.split()]
        _fan(fields[1:1 + fields[0]], triangles)
    return vertices, triangles


def read_mesh(path):
    """(vertices, triangles) of an .obj, .stl or .ply file (each optionally .gz)."""
    stem = _stem(path).lower()
    for ext, reader in (('.obj', read_obj), ('.stl', read_stl), ('.ply', read_ply)):
        if stem.endswith(ext):
            return reader(path)
    raise ValueError(f'{path}: not .obj, .stl or .ply')


def write_obj(path, vertices, triangles, number=lambda x: repr(float(x))):
    """An OBJ file whose coordinates parse back to exactly these doubles (or are written by
    ``number``)."""
    with open(path, 'w') as out:
        for v in vertices:
            out.write('v %s %s %s\n' % tuple(number(x) for x in v))
        for t in triangles:
            out.write('f %d %d %d\n' % tuple(i + 1 for i in t))


def used_vertices(vertices, triangles):
    """The vertices some triangle references, in first-index order."""
    return [vertices[i] for i in sorted({i for t in triangles for i in t})]


def centroid_radius(points):
    """The mean of the points and the largest distance of a point from it."""
    n = len(points)
    c = tuple(sum(p[k] for p in points) / n for k in range(3))
    return c, max(math.dist(p, c) for p in points)


def aabb(points):
    """(mins, maxs) of the points."""
    return tuple(min(p[k] for p in points) for k in range(3)), tuple(max(p[k] for p in points) for k in range(3))


def rotation_matrix(rv):
    """The rotation matrix (rows) of the rotation vector ``rv`` (Rodrigues' formula)."""
    angle = math.sqrt(sum(x * x for x in rv))
    if angle == 0.0:
        return ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    x, y, z = (c / angle for c in rv)
    s, c = math.sin(angle), math.cos(angle)
    k = 1.0 - c
    return ((c + x * x * k, x * y * k - z * s, x * z * k + y * s),
            (x * y * k + z * s, c + y * y * k, y * z * k - x * s),
            (x * z * k - y * s, y * z * k + x * s, c + z * z * k))


def transform(pose, p):
    """``R p + t`` for a pose ``{"translation", "rotation"}``."""
    r = rotation_matrix(pose['rotation'])
    t = pose['translation']
    return tuple(sum(r[i][k] * p[k] for k in range(3)) + t[i] for i in range(3))


def quaternion_to_rotation_vector(q):
    """The rotation vector (angle in [0, pi]) of a unit quaternion ``(x, y, z, w)``."""
    x, y, z, w = q
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    s = math.sqrt(x * x + y * y + z * z)
    if s == 0.0:
        return [0.0, 0.0, 0.0]
    angle = 2.0 * math.atan2(s, w)
    return [x / s * angle, y / s * angle, z / s * angle]


def rotation_vector_to_quaternion(rv):
    """The unit quaternion ``(x, y, z, w)`` of a rotation vector."""
    angle = math.sqrt(sum(c * c for c in rv))
    if angle == 0.0:
        return (0.0, 0.0, 0.0, 1.0)
    s = math.sin(angle / 2.0) / angle
    return (rv[0] * s, rv[1] * s, rv[2] * s, math.cos(angle / 2.0))


def quaternion_product(a, b):
    """The quaternion of the rotation ``a`` after ``b`` (both ``(x, y, z, w)``)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def random_rotation_vector(rng):
    """A rotation uniform on SO(3) (Shoemake, "Uniform random rotations", Graphics Gems III (1992))."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    q = (a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
         b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3))
    return quaternion_to_rotation_vector(q)


def random_unit_vector(rng):
    """A direction uniform on the unit sphere."""
    while True:
        v = [rng.gauss(0.0, 1.0) for _ in range(3)]
        n = math.sqrt(sum(c * c for c in v))
        if n > 1e-12:
            return [c / n for c in v]


def random_in_ball(rng, centre, radius):
    """A point uniform in the ball of ``radius`` about ``centre``."""
    d = random_unit_vector(rng)
    r = radius * rng.random() ** (1.0 / 3.0)
    return [centre[k] + r * d[k] for k in range(3)]


def write_json(path, value):
    """``value`` as compact JSON (floats by ``repr``: they parse back exactly)."""
    with open(path, 'w') as out:
        json.dump(value, out, separators=(',', ':'))
        out.write('\n')


def read_json(path):
    with open(path) as f:
        return json.load(f)
