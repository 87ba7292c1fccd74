#!/usr/bin/env python3
"""obbtree's primitive shapes against coal's on random poses, every disagreement decided by an
oracle and listed.

usage: bench/shapes/coal_shapes.py [-n N] [--seed S] [--show INDEX] [PAIR ...]

PAIR is a name of the table (``sphere-box``, ``cylinder-mesh``, ...; default: all 27). Needs
``obbtree`` (python/, built by maturin), ``coal`` (the ``pin==4.1.0`` wheel of
python/requirements-test.txt) and numpy and scipy. Prints a markdown table, then every
disagreement (with both shapes as Python when obbtree is wrong or the oracle undecided);
``--show INDEX`` prints case INDEX of each PAIR that way instead (same ``-n`` and seed).

**Pairs.** Every pair of {sphere, capsule, cylinder, box, convex, halfspace} (21), and each of
them against a mesh (6): an icosphere of 80 triangles, radius 1, its vertices rounded to
multiples of 2⁻²⁰ (so a vertex sits exactly at each pole), at the identity pose. Sizes are
drawn per case (radii, lengths and box sizes so that every shape fits within 0.7 of its centre; a
convex shape is the hull of 10 points on a random ellipsoid, given to both libraries as its
hull's vertices, with the hull's triangles for coal). Both libraries get the same float64
rotation matrices and translations; a halfspace is ``z <= 0`` in its own frame, so that its pose
sets its plane.

**Cases.** N per pair (default 1,000), in three kinds, seeded:

* *random*: the first shape at a random pose near the origin (the mesh at the identity), the
  second at a random rotation, in a random direction from the first, at a distance drawn
  uniformly up to 1.1 times the sum of their extents (about half of them touch); a halfspace
  faces the first shape, its plane at that distance;
* *near*: the same, at the distance where obbtree's answer changes (found by bisection to a
  float's precision; for the mesh, from outside or from inside its shell), then moved by a
  relative 0, ±2⁻⁵², ±1e-12, ±1e-9 or ±1e-6: touching and near-touching cases;
* *grid*: exact contacts on a dyadic grid, the same for every N: both shapes turned by one of
  the 24 quarter-turn rotations (entries 0 and ±1, so nothing rounds), the second stacked on
  the first along a coordinate axis at the sum of their exact support distances, and shifted
  sideways by 0, ¼, ½ or all of the width of their contact sets (faces, a cap's or a
  segment's extent), so they touch: face to face, edge to edge, at a corner or a rim, a ball
  on a face, a shape on a halfspace's plane, on the mesh's top vertex. These must touch;
  each is also moved one float step apart (its truth then left to the oracle).

**Verdicts.** obbtree's ``collide`` against coal's ``collide`` (default ``CollisionRequest``).
Every disagreement goes to the oracle, which decides on the shapes as obbtree places them
(python/tests/exact_shapes.py: ``R·p + t`` in float64, then exact rationals):

* exactly (python/tests/exact_shapes.py) for every pair but the five below: squared distances
  of cores (point, segment, hull, triangle) by GJK in integers against the squared sum of
  radii, halfspaces by the least of ``n·x``, sphere–cylinder in closed form;
* numerically (python/tests/numeric_shapes.py, GJK in 80-digit decimals, a margin of 1e-40 of
  the magnitudes) for capsule–cylinder, cylinder–cylinder, cylinder–box, cylinder–convex and
  cylinder–mesh: listed as "decided numerically".

obbtree's capsule–cylinder and cylinder–cylinder are documented as conservative
(crates/bv/src/shape/mod.rs: never a false "no"; a "yes" allowed within a band): a "yes" for
shapes apart is "within obbtree's band" when the oracle puts them inside it (capsule–cylinder:
``D² <= s² + 2⁻³⁷·M²``, cylinder–cylinder: ``D² <= 2⁻³⁸·M²`` or each bounding capsule
touching the other cylinder), and obbtree is wrong otherwise.

**Distances.** For every pair of measured kinds (all but the halfspace), for cases both
libraries find apart: obbtree's ``distance`` against coal's (default ``DistanceRequest``), a
disagreement when they differ by more than 1e-9 of the distance (with a floor of 1e-15 of the
sizes). Each disagreement is decided by the distance of the cores, radii subtracted: exact
(80-digit square root of the exact square) without a cylinder, else the middle of the
80-digit decimal GJK's enclosure (python/tests/numeric_shapes.py; its width, about 1e-30 of
the magnitudes, is far below both tolerances). obbtree is right when within its documented
``1e-12·(d* + L)``, coal when within 1e-9.
"""

import argparse
import decimal
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parents[2] / "python" / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import exact_shapes  # noqa: E402
import numeric_shapes  # noqa: E402

KINDS = ("sphere", "capsule", "cylinder", "box", "convex", "halfspace")
PAIRS = [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]] + [(k, "mesh") for k in KINDS]
# The kinds whose distances are compared (a halfspace has none to compare: coal's is signed).
MEASURED = {"sphere", "capsule", "cylinder", "box", "convex", "mesh"}
# Relative moves of the near cases off the distance where obbtree's answer changes.
NUDGES = (0.0, 2.0**-52, -(2.0**-52), 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6)
DISTANCE_AGREEMENT = 1e-9
# obbtree's answer on a disagreement, judged by the oracle.
RIGHT, IN_BAND = "obbtree right", "within obbtree's band"
WRONG, UNDECIDED = "obbtree WRONG", "undecided"


# ---- shapes --------------------------------------------------------------------------------


@dataclass
class Solid:
    """A shape of ``kind`` with its sizes ``params`` at the pose ``(rotation, translation)``."""

    kind: str
    params: tuple
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    translation: np.ndarray = field(default_factory=lambda: np.zeros(3))

    def pose(self):
        m = np.eye(4)
        m[:3, :3], m[:3, 3] = self.rotation, self.translation
        return m


def icosphere():
    """80 triangles on the unit sphere, a vertex at each pole, vertices rounded to multiples of
    2⁻²⁰ (dyadic: the grid cases can rest on the top vertex exactly)."""
    z, r = 1 / math.sqrt(5), 2 / math.sqrt(5)
    ring = lambda h, phase: [  # noqa: E731
        (r * math.cos(2 * math.pi * k / 5 + phase), r * math.sin(2 * math.pi * k / 5 + phase), h)
        for k in range(5)
    ]
    verts = [(0.0, 0.0, 1.0)] + ring(z, 0.0) + ring(-z, math.pi / 5) + [(0.0, 0.0, -1.0)]
    faces = []
    for k in range(5):
        a, b = 1 + k, 1 + (k + 1) % 5
        c, d = 6 + k, 6 + (k + 1) % 5
        faces += [(0, a, b), (a, c, b), (b, c, d), (c, 11, d)]
    verts, faces = [np.array(v) for v in verts], faces
    middle = {}

    def mid(i, j):
        key = (min(i, j), max(i, j))
        if key not in middle:
            m = verts[i] + verts[j]
            verts.append(m / np.linalg.norm(m))
            middle[key] = len(verts) - 1
        return middle[key]

    fine = []
    for a, b, c in faces:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        fine += [(a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)]
    v = np.round(np.array(verts) * 2.0**20) / 2.0**20
    return v, np.array(fine, dtype=np.int64)


MESH_VERTICES, MESH_FACES = icosphere()


def hull_of(points):
    """The hull's vertices of ``points`` and its triangles over them, facing outward (scipy's
    Qhull, in floats: only to build the two libraries' inputs)."""
    from scipy.spatial import ConvexHull

    hull = ConvexHull(points)
    keep = np.unique(hull.vertices)
    index = np.full(len(points), -1)
    index[keep] = np.arange(len(keep))
    vertices, triangles = points[keep], index[hull.simplices]
    a, b, c = (vertices[triangles[:, i]] for i in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - vertices.mean(axis=0)) < 0
    triangles[inward] = triangles[inward][:, [0, 2, 1]]
    return vertices, triangles


def draw_params(kind, rng):
    """Random sizes of a ``kind`` that fit within 0.7 of its centre."""
    if kind == "sphere":
        return (rng.uniform(0.2, 0.7),)
    if kind in ("capsule", "cylinder"):
        return (rng.uniform(0.1, 0.35), rng.uniform(0.1, 0.7))
    if kind == "box":
        return tuple(rng.uniform(0.2, 0.8, 3))
    if kind == "convex":
        directions = rng.normal(size=(10, 3))
        directions /= np.linalg.norm(directions, axis=1)[:, None]
        return hull_of(directions * rng.uniform(0.3, 0.7, 3))
    if kind == "halfspace":
        return ((0.0, 0.0, 1.0), 0.0)
    return ()


def extent(solid):
    """A bound on the distance from the shape's centre to its points (0 for a halfspace)."""
    k, p = solid.kind, solid.params
    return {
        "sphere": lambda: p[0],
        "capsule": lambda: p[0] + p[1] / 2,
        "cylinder": lambda: math.hypot(p[0], p[1] / 2),
        "box": lambda: math.hypot(*p) / 2,
        "convex": lambda: float(np.linalg.norm(p[0], axis=1).max()),
        "halfspace": lambda: 0.0,
        "mesh": lambda: 1.0,
    }[k]()


def obbtree_model(solid):
    import obbtree

    k, p = solid.kind, solid.params
    return {
        "sphere": lambda: obbtree.Model.sphere(p[0]),
        "capsule": lambda: obbtree.Model.capsule(p[0], p[1]),
        "cylinder": lambda: obbtree.Model.cylinder(p[0], p[1]),
        "box": lambda: obbtree.Model.box(list(p)),
        "convex": lambda: obbtree.Model.convex(p[0]),
        "halfspace": lambda: obbtree.Model.halfspace(list(p[0]), p[1]),
        "mesh": lambda: MESH_MODEL.get(),
    }[k]()


def coal_geometry(solid):
    import coal

    k, p = solid.kind, solid.params
    if k == "convex":
        points = coal.StdVec_Vec3s()
        points.extend(np.asarray(v, dtype=float) for v in p[0])
        triangles = coal.StdVec_Triangle()
        triangles.extend(coal.Triangle(*map(int, t)) for t in p[1])
        return coal.Convex(points, triangles)
    return {
        "sphere": lambda: coal.Sphere(p[0]),
        "capsule": lambda: coal.Capsule(p[0], p[1]),
        "cylinder": lambda: coal.Cylinder(p[0], p[1]),
        "box": lambda: coal.Box(*p),
        "halfspace": lambda: coal.Halfspace(np.array(p[0], dtype=float), p[1]),
        "mesh": lambda: MESH_COAL.get(),
    }[k]()


def placed(solid):
    """The shape as obbtree places it, in exact rationals (python/tests/exact_shapes.py); the
    mesh as its list of triangles."""
    k, p, r, t = solid.kind, solid.params, solid.rotation, solid.translation
    return {
        "sphere": lambda: exact_shapes.sphere(p[0], r, t),
        "capsule": lambda: exact_shapes.capsule(p[0], p[1], r, t),
        "cylinder": lambda: exact_shapes.cylinder(p[0], p[1], r, t),
        "box": lambda: exact_shapes.box(p, r, t),
        "convex": lambda: exact_shapes.convex(p[0], r, t),
        "halfspace": lambda: exact_shapes.halfspace(p[0], p[1], r, t),
        "mesh": lambda: MESH_TRIANGLES.get(),
    }[k]()


class _Once:
    """A value made on first use (the mesh's models need obbtree and coal imported)."""

    def __init__(self, make):
        self.make, self.value = make, None

    def get(self):
        if self.value is None:
            self.value = self.make()
        return self.value


def _coal_mesh():
    import coal

    model = coal.BVHModelOBBRSS()
    model.beginModel(len(MESH_FACES), len(MESH_VERTICES))
    model.addVertices(MESH_VERTICES)
    model.addTriangles(MESH_FACES)
    model.endModel()
    return model


def _obbtree_mesh():
    import obbtree

    return obbtree.Model(obbtree.Mesh(MESH_VERTICES, MESH_FACES))


MESH_MODEL = _Once(_obbtree_mesh)
MESH_COAL = _Once(_coal_mesh)
MESH_TRIANGLES = _Once(lambda: [exact_shapes.triangle(MESH_VERTICES[f]) for f in MESH_FACES])


# ---- the two libraries ---------------------------------------------------------------------


def obbtree_collide(a, b, models):
    import obbtree

    return bool(obbtree.collide(models[0], a.pose(), models[1], b.pose(), mode="first")[0])


def coal_collide(a, b, geometries):
    import coal

    request, result = coal.CollisionRequest(), coal.CollisionResult()
    coal.collide(geometries[0], _transform(a), geometries[1], _transform(b), request, result)
    return bool(result.isCollision())


def obbtree_distance(a, b, models):
    import obbtree

    return obbtree.distance(models[0], a.pose(), models[1], b.pose()).distance


def coal_distance(a, b, geometries):
    import coal

    request, result = coal.DistanceRequest(), coal.DistanceResult()
    coal.distance(geometries[0], _transform(a), geometries[1], _transform(b), request, result)
    return result.min_distance


def _transform(solid):
    import coal

    rotation, translation = (np.array(x, dtype=float) for x in (solid.rotation, solid.translation))
    return coal.Transform3s(rotation, translation)


# ---- poses ---------------------------------------------------------------------------------


def random_rotation(rng):
    """A uniformly random rotation matrix (from a unit quaternion), float64."""
    w, x, y, z = (q := rng.normal(size=4)) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def facing(direction, rng):
    """A rotation taking z to ``direction`` (unit), with a random turn about it."""
    helper = np.array([1.0, 0.0, 0.0]) if abs(direction[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, direction)
    x /= np.linalg.norm(x)
    y = np.cross(direction, x)
    angle = rng.uniform(0, 2 * math.pi)
    x, y = math.cos(angle) * x + math.sin(angle) * y, -math.sin(angle) * x + math.cos(angle) * y
    return np.column_stack([x, y, direction])


def along(a, b, direction, distance):
    """``b`` moved to ``a``'s centre plus ``distance`` along ``direction``."""
    return Solid(b.kind, b.params, b.rotation, np.asarray(a.translation) + distance * direction)


def edge_of_touching(touch, lo, hi):
    """The distance where ``touch`` changes, by bisection between ``lo`` (touching) and ``hi``
    (apart), to a float's precision: the last touching distance found."""
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return lo
        if touch(mid):
            lo = mid
        else:
            hi = mid


def random_case(pair, rng, near):
    """One random case of ``pair`` (a pair of kinds): ``(a, b)`` Solids."""
    ka, kb = pair
    if kb == "mesh":
        a = Solid("mesh", ())
        b = Solid(ka, draw_params(ka, rng), random_rotation(rng))
    else:
        a = Solid(ka, draw_params(ka, rng), random_rotation(rng), rng.uniform(-1, 1, 3))
        b = Solid(kb, draw_params(kb, rng), random_rotation(rng))
    direction = rng.normal(size=3)
    direction /= np.linalg.norm(direction)
    if b.kind == "halfspace":
        b.rotation = facing(-direction, rng)  # its outside faces a
    reach = extent(a) + extent(b)
    if pair == ("halfspace", "halfspace") and near:
        return _parallel_halfspaces(a, b, rng)
    if not near:
        return a, along(a, b, direction, rng.uniform(0, 1.1) * reach)
    models = (obbtree_model(a), obbtree_model(b))
    touch = lambda s: obbtree_collide(a, along(a, b, direction, s), models)  # noqa: E731
    # A touching start and an apart end: a shape against the mesh starts on its shell and
    # ends outside or at the centre (inside the hollow mesh); anything else starts at a's
    # centre and ends outside.
    shell = kb == "mesh" and ka != "halfspace"
    start = 1.0 if shell else 0.0
    end = 0.0 if shell and rng.random() < 0.5 else reach + 0.01
    if not touch(start) or touch(end):
        return a, along(a, b, direction, rng.uniform(0, 1.1) * reach)
    s = edge_of_touching(touch, start, end)
    return a, along(a, b, direction, s * (1 + NUDGES[rng.integers(len(NUDGES))]))


def _parallel_halfspaces(a, b, rng):
    """Two halfspaces with exactly opposite normals (b's rotation is a's with two columns
    negated), their planes a small random distance apart either way."""
    b.rotation = np.array(a.rotation) * np.array([1.0, -1.0, -1.0])
    normal = a.rotation[:, 2]
    gap = rng.choice([1, -1]) * 10.0 ** -rng.integers(0, 16)
    return a, Solid(b.kind, b.params, b.rotation, np.asarray(a.translation) + gap * normal)


# ---- the dyadic grid of exact contacts -----------------------------------------------------


def quarter_turns():
    """The 24 rotations that permute the axes with signs (determinant +1)."""
    from itertools import permutations, product

    turns = []
    for perm in permutations(range(3)):
        for signs in product((1.0, -1.0), repeat=3):
            m = np.zeros((3, 3))
            for row, col in enumerate(perm):
                m[row, col] = signs[row]
            if np.linalg.det(m) > 0:
                turns.append(m)
    return turns


QUARTER_TURNS = quarter_turns()
GRID_PARAMS = {
    "sphere": (0.375,),
    "capsule": (0.25, 0.5),
    "cylinder": (0.25, 0.75),
    "box": (0.5, 0.75, 0.25),
    # An octahedron: its farthest point along each axis is on the axis.
    "convex": hull_of(
        np.array(
            [[0.5, 0, 0], [-0.25, 0, 0], [0, 0.375, 0], [0, -0.5, 0], [0, 0, 0.25], [0, 0, -0.625]]
        )
    ),
    "halfspace": ((0.0, 0.0, 1.0), 0.0),
    "mesh": (),
}


def support(solid, axis, sign):
    """The exact support distance of a quarter-turned ``solid`` along ``sign``·e_axis from its
    centre, and the half-widths of its contact set (the points at that distance) along each
    axis, measured through the centre's projection."""
    k, p = solid.kind, solid.params
    local = int(np.argmax(np.abs(solid.rotation[axis])))  # the local axis lying along it
    local_sign = sign * solid.rotation[axis, local]
    widths = [0.0, 0.0, 0.0]
    if k == "sphere":
        return p[0], widths
    if k in ("capsule", "cylinder"):
        half = p[1] / 2
        for j in range(3):
            if j == axis:
                continue
            lies = int(np.argmax(np.abs(solid.rotation[j]))) == 2  # its axis along e_j
            if k == "capsule":
                widths[j] = half if lies else 0.0
            else:
                widths[j] = half if lies else (p[0] if local == 2 else 0.0)
        if local == 2:
            return half + (p[0] if k == "capsule" else 0.0), widths
        return p[0], widths
    if k == "box":
        for j in range(3):
            if j != axis:
                widths[j] = p[int(np.argmax(np.abs(solid.rotation[j])))] / 2
        return p[local] / 2, widths
    if k == "convex":
        return max(local_sign * q[local] for q in p[0]), widths
    if k == "mesh":
        return 1.0, widths  # only along +z: the top vertex
    raise ValueError(k)


def grid_cases(pair):
    """The exact contacts of ``pair`` (see the module docs): ``(a, b, touching)`` triples, each
    touching case followed by its copy one float step apart."""
    ka, kb = pair
    rng = np.random.default_rng(12345)
    cases = []
    for index in range(24):
        turn_a, turn_b = QUARTER_TURNS[index], QUARTER_TURNS[(7 * index + 3) % 24]
        axis, sign = (2, 1.0) if kb == "mesh" else (index % 3, (-1.0) ** (index // 3))
        if kb == "mesh":
            a = Solid("mesh", ())
            b = Solid(ka, GRID_PARAMS[ka], turn_b)
        else:
            a = Solid(ka, GRID_PARAMS[ka], turn_a, np.array([0.25, -0.5, 0.125]))
            b = Solid(kb, GRID_PARAMS[kb], turn_b)
        e = np.zeros(3)
        e[axis] = sign
        if b.kind == "halfspace":
            b.rotation = _axis_facing(-e, turn_b)
        if a.kind == "halfspace":
            a.rotation = _axis_facing(e, turn_a)
        reach_a, widths_a = _grid_support(a, axis, sign)
        reach_b, widths_b = _grid_support(b, axis, -sign)
        offset = reach_a + reach_b
        side = [j for j in range(3) if j != axis][index % 2]
        share = [0.0, 0.25, 0.5, 1.0][(index // 2) % 4] * rng.choice([1.0, -1.0])
        shift = np.zeros(3)
        shift[side] = share * (widths_a[side] + widths_b[side])
        centre = np.asarray(a.translation) + offset * e + shift
        b = Solid(b.kind, b.params, b.rotation, centre)
        cases.append((a, b, True))
        apart = centre.copy()
        apart[axis] += sign * math.ulp(max(abs(centre[axis]), 0.5))
        cases.append((a, Solid(b.kind, b.params, b.rotation, apart), None))
    return cases


def _axis_facing(normal, turn):
    """A quarter-turn rotation taking z to ``normal`` (a signed axis), the first of the 24
    that does, after ``turn``'s own choice when it already does."""
    for m in [turn] + QUARTER_TURNS:
        if np.array_equal(m[:, 2], normal):
            return m
    raise ValueError(normal)


def _grid_support(solid, axis, sign):
    """``support`` for the grid, a halfspace being its plane (reach 0, any width)."""
    if solid.kind == "halfspace":
        return 0.0, [1.0] * 3
    return support(solid, axis, sign)


# ---- the oracle ----------------------------------------------------------------------------


@dataclass
class Decision:
    """The oracle's answer on a case: ``touch`` (None: undecided), ``how`` ("exact",
    "numeric"), and for a conservative "yes" on shapes apart whether obbtree's band holds."""

    touch: object
    how: str
    note: str = ""
    in_band: bool = False


def decide(a, b):
    """Whether ``a`` and ``b`` touch, on obbtree's placement (see the module docs)."""
    pa, pb = placed(a), placed(b)
    if a.kind == "mesh":
        try:
            return Decision(exact_shapes.touches_mesh(pb, pa), "exact")
        except exact_shapes.NotExact:
            touch, lower, upper = numeric_shapes.touches_mesh(pb, pa)  # a cylinder: no radius
            return Decision(touch, "numeric", f"gap in [{float(lower):.3g}, {float(upper):.3g}]")
    try:
        return Decision(exact_shapes.touches(pa, pb), "exact")
    except exact_shapes.NotExact:
        pass
    touch, lower, upper = numeric_shapes.touches(pa, pb)
    gap = [float(x - numeric_shapes.radii(pa, pb)) for x in (lower, upper)]
    note = f"gap in [{gap[0]:.3g}, {gap[1]:.3g}]"
    return Decision(touch, "numeric", note, touch is False and _in_band(pa, pb))


def _in_band(pa, pb):
    """Whether a conservative "yes" for ``pa`` and ``pb`` apart stays in obbtree's documented
    band (crates/bv/src/shape/capsule_cylinder.rs, cylinder_cylinder.rs), numerically.
    Capsule–cylinder: the segment within ``√(s² + 2⁻³⁷·M²)`` of the cylinder; cylinder–cylinder:
    within ``√(2⁻³⁸·M²)`` of each other, or (the last step) each one's bounding capsule within
    capsule–cylinder's band of the other."""
    kinds = {type(pa), type(pb)}
    if kinds == {exact_shapes.Cylinder}:
        capsules = [(exact_shapes.Swept(x.a, x.b, x.radius), y) for x, y in ((pa, pb), (pb, pa))]
        return _core_within(pa, pb, 0, 2.0**-38) or all(_in_band(*c) for c in capsules)
    if kinds == {exact_shapes.Cylinder, exact_shapes.Swept}:
        capsule = pa if isinstance(pa, exact_shapes.Swept) else pb
        return _core_within(pa, pb, capsule.radius, 2.0**-37)
    return False


def _core_within(pa, pb, radius, band):
    """Whether the cores of ``pa`` and ``pb`` (segments and cylinders) are within
    ``√(radius² + band·M²)``, ``M`` the largest magnitude of their coordinates and radii."""
    values = [abs(c) for s in (pa, pb) for p in (s.a, s.b) for c in p] + [pa.radius, pb.radius]
    with decimal.localcontext(numeric_shapes.CONTEXT):
        m = numeric_shapes._dec(max(values))
        limit = (numeric_shapes._dec(radius) ** 2 + decimal.Decimal(band) * m * m).sqrt()
    return numeric_shapes.within(pa, pb, limit)[0] is True


def exact_distance(a, b):
    """The distance of two measured shapes (Decimal, 80 digits): exact without a cylinder,
    else to the 80-digit decimal GJK's enclosure."""
    pa, pb = placed(a), placed(b)
    if "cylinder" in (a.kind, b.kind):
        return _decimal_distance(pa, pb)
    if a.kind == "mesh":
        core2 = exact_shapes.core_distance_squared_to_mesh(pb, pa)
        radii = exact_shapes.radius(pb)
    else:
        core2 = exact_shapes.core_squared(pa, pb)
        radii = exact_shapes.radius(pa) + exact_shapes.radius(pb)
    with decimal.localcontext(numeric_shapes.CONTEXT):
        core = numeric_shapes._dec(core2).sqrt()
        return max(core - numeric_shapes._dec(radii), decimal.Decimal(0))


def _decimal_distance(pa, pb):
    """The distance of two placed shapes one of which is a cylinder (``pa`` may be the mesh's
    triangles): the middle of the decimal GJK's enclosure of the cores' distance, radii
    subtracted; against a mesh, the least over its triangles, nearest boxes first (a
    triangle's box gap less the cylinder's radius bounds its distance from below)."""
    with decimal.localcontext(numeric_shapes.CONTEXT):
        if not isinstance(pa, list):
            lower, upper = numeric_shapes.core_distance(pa, pb)
            return max((lower + upper) / 2 - numeric_shapes.radii(pa, pb), decimal.Decimal(0))
        best = None
        for gap, t in exact_shapes.near_triangles([pb.a, pb.b], pa):
            if best is not None and numeric_shapes._dec(gap - pb.radius) > best:
                break
            # A triangle whose enclosure starts beyond the best so far is left early.
            target = None if best is None else best + numeric_shapes.radii(t, pb)
            lower, upper = numeric_shapes.core_distance(t, pb, target)
            if target is not None and lower > target:
                continue
            if target is not None:
                lower, upper = numeric_shapes.core_distance(t, pb)
            d = max((lower + upper) / 2 - numeric_shapes.radii(t, pb), decimal.Decimal(0))
            best = d if best is None else min(best, d)
        return best


def _size(a, b):
    """``L`` of obbtree's distance guarantee: the largest coordinate of the placed cores, plus
    the radii."""
    return max(float(np.abs(s.translation).max()) + extent(s) for s in (a, b))


# ---- the comparison ------------------------------------------------------------------------


@dataclass
class Disagreement:
    pair: str
    case: int
    kind: str
    obbtree: bool
    coal: bool
    decision: Decision
    coal_distance: float
    shapes: tuple = ()

    @property
    def verdict(self):
        """RIGHT, IN_BAND, WRONG or UNDECIDED: obbtree's answer judged by the oracle's."""
        d = self.decision
        if d.touch is None:
            return UNDECIDED
        if d.touch == self.obbtree:
            return RIGHT
        return IN_BAND if self.obbtree and d.in_band else WRONG

    def line(self):
        d = self.decision
        how = d.how + (", " + d.note if d.note else "")
        text = (
            f"{self.pair} #{self.case} ({self.kind}): obbtree {_yn(self.obbtree)}, coal "
            f"{_yn(self.coal)} (coal distance {self.coal_distance:.3g}); oracle ({how}): "
            f"{_touching(d.touch)}: {self.verdict}"
        )
        if self.verdict in (UNDECIDED, WRONG):
            text += "".join("\n    " + reproducer(s) for s in self.shapes)
        return text


def reproducer(solid):
    """The solid as Python that rebuilds it bit for bit (floats in hex)."""
    h = lambda x: f"float.fromhex('{float(x).hex()}')"  # noqa: E731
    arr = lambda m: "[" + ", ".join(arr(r) if np.ndim(r) else h(r) for r in m) + "]"  # noqa: E731
    params = "".join((arr(p) if np.ndim(p) else h(p)) + ", " for p in solid.params)
    pose = f"np.array({arr(solid.rotation)}), np.array({arr(solid.translation)})"
    return f"Solid({solid.kind!r}, ({params}), {pose})"


@dataclass
class DistanceDisagreement:
    pair: str
    case: int
    obbtree: float
    coal: float
    exact: float
    obbtree_right: bool
    coal_right: bool

    def line(self):
        return (
            f"{self.pair} #{self.case} distance: obbtree {self.obbtree:.17g}, coal "
            f"{self.coal:.17g}, exact {self.exact:.17g}: obbtree "
            f"{'right' if self.obbtree_right else 'WRONG'}, "
            f"coal {'right' if self.coal_right else 'off'}"
        )


def _yn(x):
    return "yes" if x else "no"


def _touching(x):
    return {True: "touching", False: "apart", None: "undecided"}[x]


@dataclass
class PairOutcome:
    """What one pair's run found."""

    pair: str
    cases: int = 0
    touching: int = 0
    agree: int = 0
    disagreements: list = field(default_factory=list)
    grid_misses: list = field(default_factory=list)  # exact contacts obbtree calls apart
    measured: int = 0
    distance_disagreements: list = field(default_factory=list)
    seconds: float = 0.0

    def count(self, verdict):
        return sum(d.verdict == verdict for d in self.disagreements)

    @property
    def failures(self):
        """Everything the CI test refuses: an undecided disagreement, obbtree wrong by the
        oracle, an exact contact obbtree calls apart, obbtree's distance off the exact one."""
        return (
            [d.line() for d in self.disagreements if d.verdict in (UNDECIDED, WRONG)]
            + [f"{self.pair} #{i} (grid): a contact, obbtree says apart" for i in self.grid_misses]
            + [d.line() for d in self.distance_disagreements if not d.obbtree_right]
        )


def pair_cases(pair, count, seed):
    """The cases of one pair: ``count`` random ones (alternately random and near) then the
    grid, as ``(a, b, truth, kind)`` (``truth`` True for a grid contact, else None)."""
    rng = np.random.default_rng([seed, PAIRS.index(pair)])
    kinds = ["random", "near"]
    cases = [(*random_case(pair, rng, near=i % 2), None, kinds[i % 2]) for i in range(count)]
    grid = grid_cases(pair)
    return cases + [(a, b, t, "grid" if t else "grid, a step apart") for a, b, t in grid]


def compare_pair(pair, count, seed, collide=obbtree_collide):
    """Runs ``count`` random cases (half random, half near) and the grid of one pair."""
    start = time.perf_counter()
    outcome = PairOutcome(f"{pair[0]}-{pair[1]}")
    for index, (a, b, truth, kind) in enumerate(pair_cases(pair, count, seed)):
        check_case(outcome, index, a, b, truth, kind, collide)
    outcome.seconds = time.perf_counter() - start
    return outcome


def show(pair, count, seed, index):
    """One case in full: both shapes as Python, both verdicts, the oracle's."""
    a, b, _, kind = pair_cases(pair, count, seed)[index]
    models, geometries = (obbtree_model(a), obbtree_model(b)), (coal_geometry(a), coal_geometry(b))
    d = decide(a, b)
    return (
        f"{pair[0]}-{pair[1]} #{index} ({kind}): obbtree {_yn(obbtree_collide(a, b, models))}, "
        f"coal {_yn(coal_collide(a, b, geometries))}; oracle ({d.how}, {d.note}): "
        f"{_touching(d.touch)}"
        f"\n    a = {reproducer(a)}\n    b = {reproducer(b)}"
    )


def check_case(outcome, index, a, b, truth, kind, collide):
    """One case: both verdicts, the oracle on a disagreement, distances when both are apart."""
    models = (obbtree_model(a), obbtree_model(b))
    geometries = (coal_geometry(a), coal_geometry(b))
    ours, theirs = collide(a, b, models), coal_collide(a, b, geometries)
    outcome.cases += 1
    outcome.touching += ours
    if truth is True and not ours:
        outcome.grid_misses.append(index)
    if ours == theirs:
        outcome.agree += 1
    else:
        decision, signed = decide(a, b), _coal_signed(a, b, geometries)
        outcome.disagreements.append(
            Disagreement(outcome.pair, index, kind, ours, theirs, decision, signed, (a, b))
        )
    if not ours and not theirs and {a.kind, b.kind} <= MEASURED:
        outcome.measured += 1
        compare_distance(outcome, index, a, b, models, geometries)


def _coal_signed(a, b, geometries):
    try:
        return coal_distance(a, b, geometries)
    except Exception:  # coal refuses some pairs' distances
        return math.nan


def compare_distance(outcome, index, a, b, models, geometries):
    """obbtree's distance against coal's; a disagreement beyond 1e-9 goes to the exact
    distance."""
    ours, theirs = obbtree_distance(a, b, models), coal_distance(a, b, geometries)
    size = _size(a, b)
    if abs(ours - theirs) <= DISTANCE_AGREEMENT * max(ours, theirs) + 1e-15 * size:
        return
    exact = float(exact_distance(a, b))
    outcome.distance_disagreements.append(
        DistanceDisagreement(
            outcome.pair,
            index,
            ours,
            theirs,
            exact,
            abs(ours - exact) <= 1e-12 * (exact + size),
            abs(theirs - exact) <= DISTANCE_AGREEMENT * exact + 1e-15 * size,
        )
    )


def _distance_cell(o):
    if not o.measured:
        return "—"
    right = sum(d.obbtree_right for d in o.distance_disagreements)
    return f"{o.measured} / {len(o.distance_disagreements)} ({right})"


# The table's columns: header, cell of a PairOutcome.
COLUMNS = [
    ("pair", lambda o: o.pair),
    ("cases", lambda o: o.cases),
    ("obbtree: touching", lambda o: o.touching),
    ("agree", lambda o: o.agree),
    ("disagree", lambda o: len(o.disagreements)),
    ("obbtree right", lambda o: o.count(RIGHT)),
    ("coal right", lambda o: sum(d.decision.touch == d.coal for d in o.disagreements)),
    ("within obbtree's band", lambda o: o.count(IN_BAND)),
    ("obbtree wrong", lambda o: o.count(WRONG)),
    ("undecided", lambda o: o.count(UNDECIDED)),
    ("decided numerically", lambda o: sum(d.decision.how == "numeric" for d in o.disagreements)),
    ("distances: compared / disagree (obbtree right)", _distance_cell),
]


def table(outcomes):
    """The markdown table of a run, one row per pair."""
    rule = "|---" + "|---:" * (len(COLUMNS) - 1) + "|"
    rows = ["| " + " | ".join(h for h, _ in COLUMNS) + " |", rule]
    rows += ["| " + " | ".join(str(cell(o)) for _, cell in COLUMNS) + " |" for o in outcomes]
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="*", help="pairs to run, e.g. sphere-box (default: all)")
    parser.add_argument("-n", type=int, default=1000, help="random cases per pair (default 1000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--show", type=int, action="append", default=[], metavar="INDEX",
                        help="print case INDEX of each pair in full (as Python) instead of a run")
    args = parser.parse_args(argv)
    names = {f"{a}-{b}": (a, b) for a, b in PAIRS}
    unknown = [p for p in args.pairs if p not in names]
    if unknown:
        parser.error(f"unknown pairs {unknown}; known: {', '.join(names)}")
    chosen = [names[p] for p in args.pairs] or PAIRS
    if args.show:
        print("\n".join(show(pair, args.n, args.seed, i) for pair in chosen for i in args.show))
        return 0
    outcomes = []
    for pair in chosen:
        outcomes.append(compare_pair(pair, args.n, args.seed))
        o = outcomes[-1]
        found = f"{o.cases} cases, {len(o.disagreements)} disagreements"
        print(f"{o.pair}: {found}, {o.seconds:.1f} s", file=sys.stderr)
    print(table(outcomes))
    print()
    for o in outcomes:
        for d in o.disagreements + o.distance_disagreements:
            print("* " + d.line())
    failures = [f for o in outcomes for f in o.failures]
    print(f"\n{len(failures)} failures" + "".join("\n  " + f for f in failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
