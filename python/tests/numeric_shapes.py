"""Distances of placed shapes in 80-digit decimal arithmetic, for the pairs with a cylinder
that tests/exact_shapes.py cannot decide in rationals (capsule–cylinder, cylinder–cylinder,
cylinder–hull, cylinder–triangle: the cylinder's rim circle makes them quartic). Shares no code
with obbtree; its answers are marked "decided numerically" by its callers.

GJK (Gilbert, Johnson & Keerthi, *IEEE J. Robotics and Automation* 4(2), 1988) on the
Minkowski difference of the two shapes' cores (spheres and capsules are a point or a segment
swept by a radius; the cylinder, hulls and triangles are their own cores), each given by its
support function. Each step adds the support point ``w`` of the difference towards ``−v`` to a
simplex of such points and moves ``v`` to the simplex's point closest to the origin, found by
trying every face that holds ``w`` (the closest point lies in the relative interior of one
face, where the affine problem's barycentric coordinates are positive; among the faces that
qualify the least norm wins). Then

* ``upper = |v|``: ``v`` is a convex combination of differences of points of the two cores;
* ``lower = max over the steps of v·w/|v|``, ``w`` the support point of the difference towards
  ``−v``: no point of the difference lies on the origin's side of that plane.

The cores' distance lies in ``[lower, upper]`` up to the rounding of 80-digit arithmetic, about
``1e-78`` of the inputs' magnitude. A verdict is given only when the enclosure clears the sum of
the radii by ``MARGIN`` times that magnitude (``1e-40``): apart when ``lower`` exceeds it by
more, touching when ``upper`` is within it (shapes in exact contact, whose distance is 0, land
there).
"""

import decimal
import functools
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

from exact_shapes import Cylinder, Swept, _core_points, _cross, near_triangles

CONTEXT = decimal.Context(prec=80)
MARGIN = Decimal("1e-40")
# Below this fraction of the margin the enclosure is as good as 80 digits make it.
SETTLED = Decimal("1e-30")
ITERATIONS = 400


def _in_context(f):
    """Runs ``f`` with every decimal operation rounded to CONTEXT's 80 digits."""

    @functools.wraps(f)
    def run(*args, **kwargs):
        with decimal.localcontext(CONTEXT):
            return f(*args, **kwargs)

    return run


def _dec(x):
    if isinstance(x, Fraction):
        return Decimal(x.numerator) / Decimal(x.denominator)
    return +Decimal(x)


def _vec(p):
    return tuple(_dec(c) for c in p)


def _add(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def _sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def _scale(s, u):
    return (s * u[0], s * u[1], s * u[2])


def _dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _norm(u):
    return _dot(u, u).sqrt()


class _Core:
    """A shape's core as a support function in decimals, with its swept radius."""

    def __init__(self, shape):
        if isinstance(shape, Cylinder):
            self.ends = [_vec(shape.a), _vec(shape.b)]
            self.axis = _sub(self.ends[1], self.ends[0])
            self.rim = _dec(shape.radius)
            self.across = _across(_sub(shape.b, shape.a))
            self.radius = Decimal(0)
            self.points = self.ends
        else:
            self.points = [_vec(p) for p in _core_points(shape)]
            self.rim = None
            self.radius = _dec(shape.radius) if isinstance(shape, Swept) else Decimal(0)

    def support(self, d):
        """A point of the core farthest along ``d``: for a cylinder, the end farther along
        ``d`` plus the rim radius along the part of ``d`` across the axis (taken in an
        orthonormal basis across the axis, so that a ``d`` nearly along the axis does not
        lose the point off the cap's plane)."""
        if self.rim is None:
            return max(self.points, key=lambda p: _dot(p, d))
        end = self.ends[1] if _dot(d, self.axis) > 0 else self.ends[0]
        x, y = (_dot(d, e) for e in self.across)
        length = (x * x + y * y).sqrt()
        if length == 0:
            return end
        u, v = self.across
        return _add(end, _add(_scale(self.rim * x / length, u), _scale(self.rim * y / length, v)))

    def magnitude(self):
        m = max(abs(c) for p in self.points for c in p)
        return m + self.radius + (self.rim or 0)


def _across(u):
    """Two orthonormal decimal vectors across the rational axis ``u``: exactly orthogonal
    rational vectors (``u × e_k``, ``u × (u × e_k)``), normalised in decimals."""
    k = min(range(3), key=lambda i: abs(u[i]))
    e = tuple(Fraction(int(i == k)) for i in range(3))
    first = _cross(u, e)
    second = _cross(u, first)
    return [_scale(1 / _norm(v), v) for v in (_vec(first), _vec(second))]


def _solve(a, b):
    """Gaussian elimination with partial pivoting; None when (numerically) singular."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    scale = max([abs(m[i][i]) for i in range(n)] + [Decimal(0)])
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) <= scale * Decimal("1e-60"):
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    x = [Decimal(0)] * n
    for r in reversed(range(n)):
        s = m[r][n] - sum((m[r][c] * x[c] for c in range(r + 1, n)), Decimal(0))
        x[r] = s / m[r][r]
    return x


def _affine_closest(points):
    """The point of the affine hull of ``points`` closest to the origin and its barycentric
    coordinates, or None when the points are (numerically) affinely dependent."""
    y0, edges = points[0], [_sub(p, points[0]) for p in points[1:]]
    if not edges:
        return y0, [Decimal(1)]
    mu = _solve([[_dot(e, f) for f in edges] for e in edges], [-_dot(e, y0) for e in edges])
    if mu is None:
        return None
    x = y0
    for m, e in zip(mu, edges):
        x = _add(x, _scale(m, e))
    return x, [1 - sum(mu, Decimal(0))] + mu


def _closest_on_simplex(simplex, w):
    """The point of the hull of ``simplex + [w]`` closest to the origin and the face holding
    it, ``w`` being a point that brings it closer than the hull of ``simplex`` alone (so the
    face holds ``w``)."""
    best = None
    for size in range(len(simplex) + 1):
        for rest in combinations(simplex, size):
            face = list(rest) + [w]
            found = _affine_closest(face)
            if found is None or any(c <= 0 for c in found[1]):
                continue
            x = found[0]
            if best is None or _dot(x, x) < _dot(best[0], best[0]):
                best = (x, face)
    return best


@_in_context
def core_distance(a, b, target=None):
    """An enclosure ``(lower, upper)`` (Decimals) of the distance between the cores of the
    placed shapes ``a`` and ``b``; stops early once it clears ``target`` by the margin."""
    ca, cb = _Core(a), _Core(b)
    margin = MARGIN * max(ca.magnitude(), cb.magnitude())

    def support(d):
        return _sub(ca.support(d), cb.support(_scale(Decimal(-1), d)))

    v = support((Decimal(1), Decimal(0), Decimal(0)))
    simplex, lower = [v], Decimal("-Infinity")
    for _ in range(ITERATIONS):
        upper = _norm(v)
        if upper <= margin * SETTLED:
            return Decimal(0), upper
        w = support(_scale(Decimal(-1), v))
        lower = max(lower, _dot(v, w) / upper)
        if upper - lower <= margin * SETTLED or w in simplex:
            break
        if target is not None and (lower > target + margin or upper <= target + margin):
            break
        v, simplex = _closest_on_simplex(simplex, w)
    return max(lower, Decimal(0)), _norm(v)


@_in_context
def within(a, b, distance):
    """``(verdict, lower, upper)``: whether the cores of the placed shapes ``a`` and ``b`` are
    at most ``distance`` (a Decimal) apart (None when the enclosure ``[lower, upper]`` of their
    distance does not clear it by the margin)."""
    lower, upper = core_distance(a, b, distance)
    margin = MARGIN * max(_Core(a).magnitude(), _Core(b).magnitude())
    if lower > distance + margin:
        return False, lower, upper
    if upper <= distance + margin:
        return True, lower, upper
    return None, lower, upper


@_in_context
def touches(a, b):
    """``(verdict, lower, upper)``: whether the placed convex shapes touch, their cores being
    within the sum of their radii (see :func:`within`)."""
    return within(a, b, radii(a, b))


@_in_context
def radii(a, b):
    """The sum of the radii swept around the two cores (a Decimal)."""
    return _Core(a).radius + _Core(b).radius


@_in_context
def touches_mesh(shape, triangles):
    """``(verdict, lower, upper)`` of ``shape`` (a cylinder) against the closest of the closed
    ``triangles``: touching as soon as one triangle touches (nearest boxes first), apart when
    every triangle is; triangles whose coordinate boxes are apart by more than the radius are
    left out (exactly: the cylinder lies within its radius of its axis)."""
    lower, upper, undecided = Decimal("Infinity"), Decimal("Infinity"), False
    for _, t in near_triangles([shape.a, shape.b], triangles, shape.radius):
        verdict, lo, up = touches(shape, t)
        if verdict is True:
            return True, Decimal(0), up
        undecided |= verdict is None
        lower, upper = min(lower, lo), min(upper, up)
    return (None if undecided else False), lower, upper
