"""Exact triangle tests in rational arithmetic, sharing no code with obbtree: the oracle that
decides every disagreement between obbtree and the other libraries.

Every float64 is a rational (``fractions.Fraction`` converts it exactly), so the orientation
determinants below have exact signs (Shewchuk 1997 computes the same signs adaptively; here
they are simply computed exactly). The tests follow Ericson, *Real-Time Collision Detection*
(2005) §5.3.6 (segment against triangle by signed volumes) and treat the triangles as closed
sets: touching intersects.
"""

from fractions import Fraction


def _q(p):
    return tuple(Fraction(float(c)) for c in p)


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def orient3d(a, b, c, d):
    """Sign of the determinant of (b - a, c - a, d - a): which side of plane abc d is on."""
    u, v, w = _sub(b, a), _sub(c, a), _sub(d, a)
    det = (
        u[0] * (v[1] * w[2] - v[2] * w[1])
        - u[1] * (v[0] * w[2] - v[2] * w[0])
        + u[2] * (v[0] * w[1] - v[1] * w[0])
    )
    return (det > 0) - (det < 0)


def _orient2d(a, b, c):
    det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (det > 0) - (det < 0)


def _drop_axis(tri):
    """The axis to drop to project a (non-degenerate) triangle's plane to 2D without loss."""
    u, v = _sub(tri[1], tri[0]), _sub(tri[2], tri[0])
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    return max(range(3), key=lambda k: abs(n[k]))


def _segments_meet_2d(p, q, a, b):
    d1, d2 = _orient2d(a, b, p), _orient2d(a, b, q)
    d3, d4 = _orient2d(p, q, a), _orient2d(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True

    def on(s, t, r):  # r on the closed segment st, given collinear
        return min(s[0], t[0]) <= r[0] <= max(s[0], t[0]) and min(s[1], t[1]) <= r[1] <= max(
            s[1], t[1]
        )

    return (
        (d1 == 0 and on(a, b, p))
        or (d2 == 0 and on(a, b, q))
        or (d3 == 0 and on(p, q, a))
        or (d4 == 0 and on(p, q, b))
    )


def _point_in_triangle_2d(p, a, b, c):
    s = [_orient2d(a, b, p), _orient2d(b, c, p), _orient2d(c, a, p)]
    return all(x >= 0 for x in s) or all(x <= 0 for x in s)


def _segment_meets_triangle(p, q, tri):
    a, b, c = tri
    op, oq = orient3d(a, b, c, p), orient3d(a, b, c, q)
    if op * oq > 0:
        return False
    if op == 0 and oq == 0:  # coplanar: 2D
        k = _drop_axis(tri)
        proj = lambda x: tuple(x[i] for i in range(3) if i != k)  # noqa: E731
        p2, q2, a2, b2, c2 = map(proj, (p, q, a, b, c))
        return (
            _point_in_triangle_2d(p2, a2, b2, c2)
            or _segments_meet_2d(p2, q2, a2, b2)
            or _segments_meet_2d(p2, q2, b2, c2)
            or _segments_meet_2d(p2, q2, c2, a2)
        )
    s = [orient3d(p, q, a, b), orient3d(p, q, b, c), orient3d(p, q, c, a)]
    return all(x >= 0 for x in s) or all(x <= 0 for x in s)


def _degenerate(tri):
    u, v = _sub(tri[1], tri[0]), _sub(tri[2], tri[0])
    return all(
        x == 0
        for x in (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    )


def triangles_intersect(t1, t2):
    """Whether the closed triangles ``t1`` and ``t2`` ((3, 3) float arrays) share a point.

    Non-degenerate triangles that meet do so in a convex set each of whose extreme points lies
    on an edge of one of them, so some edge of one meets the other triangle.
    """
    t1, t2 = [_q(p) for p in t1], [_q(p) for p in t2]
    if _degenerate(t1) or _degenerate(t2):
        raise ValueError("the oracle takes non-degenerate triangles only")
    return _triangles_meet(t1, t2)


def _triangles_meet(t1, t2):
    """``triangles_intersect`` on triangles already in rationals (non-degenerate)."""
    edges = lambda t: [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]  # noqa: E731
    return any(_segment_meets_triangle(p, q, t2) for p, q in edges(t1)) or any(
        _segment_meets_triangle(p, q, t1) for p, q in edges(t2)
    )


def ray_hits_triangle(origin, direction, tri, reach):
    """Whether the segment ``origin + t·direction``, ``0 <= t <= reach`` meets the closed
    triangle ``tri`` (a non-degenerate one)."""
    o = _q(origin)
    d = _q(direction)
    r = Fraction(float(reach))
    end = tuple(o[i] + r * d[i] for i in range(3))
    t = [_q(p) for p in tri]
    if _degenerate(t):
        raise ValueError("the oracle takes non-degenerate triangles only")
    return _segment_meets_triangle(o, end, t)


def ray_parameter(origin, direction, tri):
    """The exact ``t`` at which the line ``origin + t·direction`` crosses the plane of ``tri``
    (None when parallel to it)."""
    o, d = _q(origin), _q(direction)
    a, b, c = [_q(p) for p in tri]
    u, v = _sub(b, a), _sub(c, a)
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    denom = sum(n[i] * d[i] for i in range(3))
    if denom == 0:
        return None
    return sum(n[i] * (a[i] - o[i]) for i in range(3)) / denom


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _along(a, d, s):
    return (a[0] + s * d[0], a[1] + s * d[1], a[2] + s * d[2])


def _squared_gap(p, q):
    d = _sub(p, q)
    return _dot(d, d)


def _point_triangle_squared(p, tri):
    """Squared distance from point ``p`` to the closed triangle ``tri`` (rationals): the
    Voronoi-region walk of Ericson (2005) §5.1.5, whose branches are exact here."""
    a, b, c = tri
    ab, ac, ap = _sub(b, a), _sub(c, a), _sub(p, a)
    d1, d2 = _dot(ab, ap), _dot(ac, ap)
    if d1 <= 0 and d2 <= 0:
        return _squared_gap(p, a)
    bp = _sub(p, b)
    d3, d4 = _dot(ab, bp), _dot(ac, bp)
    if d3 >= 0 and d4 <= d3:
        return _squared_gap(p, b)
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return _squared_gap(p, _along(a, ab, d1 / (d1 - d3)))
    cp = _sub(p, c)
    d5, d6 = _dot(ab, cp), _dot(ac, cp)
    if d6 >= 0 and d5 <= d6:
        return _squared_gap(p, c)
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return _squared_gap(p, _along(a, ac, d2 / (d2 - d6)))
    va = d3 * d6 - d5 * d4
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return _squared_gap(p, _along(b, _sub(c, b), w))
    v, w = vb / (va + vb + vc), vc / (va + vb + vc)
    return _squared_gap(p, _along(_along(a, ab, v), ac, w))


def _clamp(x):
    return min(max(x, Fraction(0)), Fraction(1))


def _segment_segment_squared(p1, q1, p2, q2):
    """Squared distance between closed segments of non-zero length (rationals): Ericson (2005)
    §5.1.9, exact here, parallel segments included."""
    d1, d2, r = _sub(q1, p1), _sub(q2, p2), _sub(p1, p2)
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    c, b = _dot(d1, r), _dot(d1, d2)
    denom = a * e - b * b
    s = _clamp((b * f - c * e) / denom) if denom != 0 else Fraction(0)
    t = (b * s + f) / e
    if t < 0:
        t, s = Fraction(0), _clamp(-c / a)
    elif t > 1:
        t, s = Fraction(1), _clamp((b - c) / a)
    return _squared_gap(_along(p1, d1, s), _along(p2, d2, t))


def triangle_distance_squared(t1, t2):
    """The exact squared distance between the closed triangles ``t1`` and ``t2`` ((3, 3) float
    arrays, non-degenerate), a Fraction: 0 when they meet; otherwise the least of the six
    vertex–triangle and nine edge–edge distances, one of which realises the distance of two
    disjoint triangles (Ericson (2005) §5.1, "closest points of two triangles")."""
    if triangles_intersect(t1, t2):
        return Fraction(0)
    return _apart_triangles_squared([_q(p) for p in t1], [_q(p) for p in t2])


def _apart_triangles_squared(a, b):
    """The squared distance of disjoint triangles in rationals (the least of the fifteen
    candidates of ``triangle_distance_squared``)."""
    edges = lambda t: [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]  # noqa: E731
    return min(
        [_point_triangle_squared(p, b) for p in a]
        + [_point_triangle_squared(p, a) for p in b]
        + [_segment_segment_squared(p, q, r, s) for p, q in edges(a) for r, s in edges(b)]
    )


def within(t1, t2, margin):
    """Whether the closed triangles are at most ``margin`` (a float) apart, exactly."""
    m = Fraction(float(margin))
    return triangle_distance_squared(t1, t2) <= m * m
