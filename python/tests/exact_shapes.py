"""Exact tests of primitive shapes in rational arithmetic, sharing no code with obbtree: the
oracle that decides disagreements between obbtree and coal on shapes
(bench/shapes/coal_shapes.py, tests/test_shapes_vs_coal.py).

**Placement.** A shape is taken as obbtree places it (crates/bv/src/shape/mod.rs, "Exactness
model"): its centre, segment ends, corners or points are ``R·p + t`` rounded to float64, with the
operations in obbtree's order (nalgebra's matrix–vector product, column by column:
``((R[i][0]·p[0] + R[i][1]·p[1]) + R[i][2]·p[2]) + t[i]``), so these are the very floats obbtree
decides on; a radius is kept as given; a halfspace ``n·p <= d`` is placed as ``n' = R·n``,
``d' = d + ((n'[0]·t[0] + n'[1]·t[1]) + n'[2]·t[2])``. The functions below compute these floats
in Python (IEEE float64, no fused operations) and hand them over exactly as ``Fraction``.

**Decisions**, all on those rationals, touching counting as touching:

* A sphere, capsule, box, convex hull and mesh triangle is a *core* (a point, a segment, the
  convex hull of points, a triangle) swept by a radius (0 for hulls and triangles): two of them
  touch iff the squared distance of their cores is at most the squared sum of their radii
  (Ericson, *Real-Time Collision Detection* (2005) §4.5.1). The squared distance of two cores,
  hulls of finitely many points, is computed exactly by GJK in integers (:func:`core_squared`;
  the coordinates scaled by one power of two), which tests/test_shapes_vs_coal.py checks
  against the Voronoi-region walks of tests/exact.py.
* A halfspace against anything: the least value of ``n·x`` over the other shape against ``d``,
  squared where a radius enters; halfspace against halfspace: empty intersection only for
  opposite parallel normals with the offsets apart.
* Sphere against cylinder: the radial and axial distances of the centre, squared twice to stay
  rational.

Capsule–cylinder, cylinder–cylinder, cylinder–hull and cylinder–triangle have no such test
(the rim circle makes them quartic): :func:`touches` raises :class:`NotExact`, and
tests/numeric_shapes.py decides them numerically.
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from exact import _dot, _sub


class NotExact(Exception):
    """The pair has no exact rational test here (a cylinder with a rim against a curve or
    a flat face): decide it with tests/numeric_shapes.py."""


# ---- placement: the floats obbtree computes ------------------------------------------------


def place_point(rotation, translation, p):
    """``R·p + t`` in float64, in obbtree's order of operations (see the module docs)."""
    r, t = [[float(x) for x in row] for row in rotation], [float(x) for x in translation]
    x, y, z = (float(c) for c in p)
    return tuple(((r[i][0] * x + r[i][1] * y) + r[i][2] * z) + t[i] for i in range(3))


def place_vector(rotation, v):
    """``R·v`` in float64, in obbtree's order of operations."""
    return place_point(rotation, (0.0, 0.0, 0.0), v)


def _rational(p):
    return tuple(Fraction(c) for c in p)


@dataclass(frozen=True)
class Swept:
    """The points within ``radius`` of the segment ``[a, b]`` (``a == b``: a sphere)."""

    a: tuple
    b: tuple
    radius: Fraction


@dataclass(frozen=True)
class Hull:
    """The convex hull of ``points`` (at least four, spanning three dimensions)."""

    points: tuple


@dataclass(frozen=True)
class Triangle:
    """A closed triangle (a mesh's, non-degenerate), with its coordinate box."""

    vertices: tuple

    def __post_init__(self):
        object.__setattr__(self, "bounds", _bounds(self.vertices))


@dataclass(frozen=True)
class Cylinder:
    """The solid cylinder of ``radius`` about the segment ``[a, b]`` (flat caps)."""

    a: tuple
    b: tuple
    radius: Fraction


@dataclass(frozen=True)
class Halfspace:
    """``{p : normal·p <= offset}``."""

    normal: tuple
    offset: Fraction


def _axis_ends(length, rotation, translation):
    h = float(length) / 2.0
    return [_rational(place_point(rotation, translation, (0.0, 0.0, z))) for z in (-h, h)]


def sphere(radius, rotation, translation):
    """A sphere of ``radius`` placed as obbtree places it."""
    c = _rational(place_point(rotation, translation, (0.0, 0.0, 0.0)))
    return Swept(c, c, Fraction(float(radius)))


def capsule(radius, length, rotation, translation):
    """A capsule along z (segment ``(0, 0, ∓length/2)``) placed as obbtree places it."""
    a, b = _axis_ends(length, rotation, translation)
    return Swept(a, b, Fraction(float(radius)))


def cylinder(radius, length, rotation, translation):
    """A cylinder along z (axis ``(0, 0, ∓length/2)``) placed as obbtree places it."""
    a, b = _axis_ends(length, rotation, translation)
    return Cylinder(a, b, Fraction(float(radius)))


def box(sizes, rotation, translation):
    """A box of full ``sizes``: the hull of its eight corners ``±size/2`` placed."""
    h = [float(s) / 2.0 for s in sizes]
    signs = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    corners = [(x * h[0], y * h[1], z * h[2]) for x, y, z in signs]
    return convex(corners, rotation, translation)


def convex(points, rotation, translation):
    """The hull of ``points`` placed one by one."""
    return Hull(tuple(_rational(place_point(rotation, translation, p)) for p in points))


def halfspace(normal, offset, rotation, translation):
    """The halfspace ``normal·p <= offset`` placed: ``n' = R·n``, ``d' = d + n'·t``."""
    n = place_vector(rotation, normal)
    t = [float(x) for x in translation]
    d = float(offset) + ((n[0] * t[0] + n[1] * t[1]) + n[2] * t[2])
    return Halfspace(_rational(n), Fraction(d))


def triangle(vertices):
    """A mesh triangle as it is (the mesh at the identity pose)."""
    return Triangle(tuple(_rational(v) for v in vertices))


# ---- exact geometry on rationals -----------------------------------------------------------


def _cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _core_points(core):
    """The points whose convex hull is the core: a point or segment's ends, a hull's points,
    a triangle's vertices."""
    if isinstance(core, Swept):
        return [core.a, core.b]
    if isinstance(core, Hull):
        return list(core.points)
    return list(core.vertices)


def _as_integers(*point_sets):
    """The point sets scaled by one power of two ``2^e`` that makes every coordinate an
    integer (every float is a dyadic rational), and ``e``."""
    e = max((c.denominator.bit_length() - 1 for ps in point_sets for p in ps for c in p), default=0)
    return [[tuple(int(c * 2**e) for c in p) for p in ps] for ps in point_sets], e


def _det(m):
    if len(m) == 1:
        return m[0][0]
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return sum(
        (-1) ** j * m[0][j] * _det([row[:j] + row[j + 1 :] for row in m[1:]]) for j in range(3)
    )


def _face_closest(face):
    """The point of the affine hull of ``face`` (integer points) closest to the origin, as
    ``(V, δ)`` with the point ``V/δ``, ``δ > 0`` (Cramer's rule on the normal equations, in
    integers), when the points are affinely independent and it lies in the face's relative
    interior (barycentric coordinates all positive); else None."""
    y0, edges = face[0], [_sub(y, face[0]) for y in face[1:]]
    if not edges:
        return y0, 1
    gram = [[_dot(e, f) for f in edges] for e in edges]
    rhs = [-_dot(e, y0) for e in edges]
    det = _det(gram)  # >= 0, and 0 only for affinely dependent points
    if det == 0:
        return None
    mus = [
        _det([row[:i] + [rhs[r]] + row[i + 1 :] for r, row in enumerate(gram)])
        for i in range(len(edges))
    ]
    if det - sum(mus) <= 0 or any(m <= 0 for m in mus):
        return None
    v = tuple(det * y0[k] + sum(m * e[k] for m, e in zip(mus, edges)) for k in range(3))
    return v, det


def _closest_on_simplex(simplex, w):
    """The point of the hull of ``simplex + [w]`` closest to the origin, ``(V, δ)``, and the
    face whose relative interior holds it, ``w`` being a point that brings it closer than the
    hull of ``simplex`` alone (so that face holds ``w``; trying every such face: one of them
    qualifies)."""
    best = None
    for size in range(len(simplex) + 1):
        for rest in combinations(simplex, size):
            face = list(rest) + [w]
            found = _face_closest(face)
            if found is None:
                continue
            (v, d) = found
            if best is None or _dot(v, v) * best[1] ** 2 < _dot(best[0], best[0]) * d * d:
                best = (v, d, face)
    return best


def _gjk_squared(p, q):
    """The exact squared distance of the hulls of the integer point sets ``p`` and ``q``:
    GJK (Gilbert, Johnson & Keerthi 1988) on their Minkowski difference, every step in
    integers. Each step adds the difference's vertex ``w`` least along the current closest
    point ``v`` and moves ``v`` to the closest point of the new simplex, so ``|v|`` strictly
    falls; it stops when ``v·w >= |v|²`` (the plane through ``v`` normal to it has the whole
    difference on its far side, so ``v`` is the closest point) or ``v = 0`` (they meet). Exact
    arithmetic makes this finite (finitely many faces, none visited twice)."""

    def support(v):
        a = min(p, key=lambda x: _dot(v, x))
        b = max(q, key=lambda x: _dot(v, x))
        return _sub(a, b)

    v, d = _sub(p[0], q[0]), 1
    simplex = [v]
    while v != (0, 0, 0):
        w = support(v)
        if d * _dot(v, w) >= _dot(v, v):
            break
        v, d, simplex = _closest_on_simplex(simplex, w)
    return Fraction(_dot(v, v), d * d)


def core_squared(a, b):
    """The exact squared distance of the cores of ``a`` and ``b`` (each a Swept, Hull or
    Triangle; a Swept's radius is not counted)."""
    (p, q), e = _as_integers(_core_points(a), _core_points(b))
    return _gjk_squared(p, q) / 4**e


def _bounds(points):
    """The coordinate box of ``points``: ``(lowest, highest)`` per axis."""
    lowest = tuple(min(p[i] for p in points) for i in range(3))
    return lowest, tuple(max(p[i] for p in points) for i in range(3))


def near_triangles(points, triangles, reach=None):
    """``triangles`` nearest first by the gap between their coordinate boxes and that of
    ``points`` (the largest per-axis gap: a lower bound on the distance, exact), with the gaps;
    those farther than ``reach`` left out."""
    lo, hi = _bounds(points)
    gaps = [
        (max(max(t.bounds[0][i] - hi[i], lo[i] - t.bounds[1][i]) for i in range(3)), t)
        for t in triangles
    ]
    gaps = [(max(g, 0), t) for g, t in gaps if reach is None or g <= reach]
    return sorted(gaps, key=lambda gt: gt[0])


def radius(shape):
    """The radius swept around a core: a Swept's, else 0."""
    return shape.radius if isinstance(shape, Swept) else Fraction(0)


def _halfspace_touches(h, shape):
    """Whether ``h`` meets ``shape``: the least of ``n·x`` over the shape against ``d``."""
    n, d = h.normal, h.offset
    if isinstance(shape, Halfspace):
        m, e = shape.normal, shape.offset
        opposite = _cross(n, m) == (0, 0, 0) and _dot(n, m) < 0
        return not (opposite and e * _dot(n, n) - _dot(m, n) * d < 0)
    if isinstance(shape, Cylinder):
        u = _sub(shape.b, shape.a)
        gap = min(_dot(n, shape.a), _dot(n, shape.b)) - d
        # The rim reaches r·|n⊥| below the lower end, |n⊥|² = |n|² − (n·u)²/|u|².
        reach = shape.radius**2 * (_dot(n, n) - _dot(n, u) ** 2 / _dot(u, u))
        return gap <= 0 or gap * gap <= reach
    gap = min(_dot(n, p) for p in _core_points(shape)) - d
    return gap <= 0 or gap * gap <= radius(shape) ** 2 * _dot(n, n)


def _sphere_cylinder(s, c):
    """Whether the ball ``s`` (a Swept with a == b) meets the solid cylinder ``c``: from the
    centre's axial gap ``g`` beyond the caps and radial distance ``ρ`` from the axis, the
    distance is ``max(ρ − r, 0)`` within the slab, ``g`` over a cap, ``√(g² + (ρ − r)²)``
    beyond the rim; each comparison with the ball's radius ``R`` squared until rational."""
    u, w = _sub(c.b, c.a), _sub(s.a, c.a)
    length2, along = _dot(u, u), _dot(w, u)
    rho2 = _dot(w, w) - along * along / length2
    r, big_r = c.radius, s.radius
    if along < 0:
        g2 = along * along / length2
    elif along > length2:
        g2 = (along - length2) ** 2 / length2
    else:
        return rho2 <= (r + big_r) ** 2
    if rho2 <= r * r:
        return g2 <= big_r * big_r
    k = big_r * big_r - g2  # (ρ − r)² <= k, i.e. ρ² − r² − k <= 2r√k
    if k < 0:
        return False
    x = rho2 - r * r - k
    return x <= 0 or x * x <= 4 * r * r * k


def touches(a, b):
    """Whether the placed shapes ``a`` and ``b`` share a point, exactly (see the module docs);
    raises :class:`NotExact` for the cylinder pairs without a rational test."""
    if isinstance(b, Halfspace) and not isinstance(a, Halfspace):
        a, b = b, a
    if isinstance(a, Halfspace):
        return _halfspace_touches(a, b)
    if isinstance(b, Cylinder) and not isinstance(a, Cylinder):
        a, b = b, a
    if isinstance(a, Cylinder):
        if isinstance(b, Swept) and b.a == b.b:
            return _sphere_cylinder(b, a)
        raise NotExact(f"cylinder against {type(b).__name__}")
    return core_squared(a, b) <= (radius(a) + radius(b)) ** 2


def touches_mesh(shape, triangles):
    """Whether ``shape`` touches one of the closed ``triangles`` (Triangle values); raises
    :class:`NotExact` for a cylinder (but a ball)."""
    if isinstance(shape, Halfspace):
        return any(_halfspace_touches(shape, t) for t in triangles)
    # A cylinder lies within its radius of its axis, like a capsule.
    points = [shape.a, shape.b] if isinstance(shape, Cylinder) else _core_points(shape)
    reach = shape.radius if isinstance(shape, Cylinder) else radius(shape)
    return any(touches(shape, t) for _, t in near_triangles(points, triangles, reach))


def core_distance_squared_to_mesh(shape, triangles):
    """The exact squared distance of ``shape``'s core (a Swept or Hull) to the closest of
    ``triangles``; triangles whose boxes are farther than the best found are skipped."""
    best = None
    for gap, t in near_triangles(_core_points(shape), triangles):
        if best is not None and gap * gap > best:
            break
        d2 = core_squared(shape, t)
        best = d2 if best is None else min(best, d2)
    return best
