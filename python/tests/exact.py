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
