//! The intersection of two triangles as a segment, for contact geometry.

use super::tri_tri_exact;
use crate::{Point, Triangle, Vector};

/// What two closed triangles have in common.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Intersection {
    /// No common point.
    Disjoint,
    /// Non-coplanar proper triangles meet in this segment (both ends equal when they touch at a
    /// point).
    Segment(Point, Point),
    /// Coplanar triangles that intersect: the common part is a polygon, not a segment.
    Coplanar,
    /// A zero-area triangle (segment or point) meets the other: there is no plane to cut.
    Degenerate,
}

/// The intersection of two closed triangles.
///
/// Whether they intersect, are coplanar or degenerate is decided exactly
/// ([`tri_tri_exact::intersects`] and exact orientation signs). For non-coplanar triangles the
/// segment is then computed as in Möller 1997 (the interval-overlap method): each triangle
/// meets the other's plane in an interval of the common line `L` (its edges that cross the
/// plane, chosen by the exact signs, cut at the linearly interpolated point), and the answer is
/// the overlap of the two intervals along `L = n_p × n_q`. The end points are floating point,
/// accurate to rounding relative to the triangles' size, except where the problem is
/// ill-conditioned: nearly parallel planes or slivers (`L` itself is noise), or a vertex off
/// the other plane by a rounding-sized distance (its edge nearly lies in that plane, so the cut
/// point slides along it).
pub fn intersection(p: &Triangle, q: &Triangle) -> Intersection {
    if !tri_tri_exact::intersects(p, q) {
        return Intersection::Disjoint;
    }
    let (pv, qv) = (p.vertices(), q.vertices());
    if tri_tri_exact::is_degenerate(&pv) || tri_tri_exact::is_degenerate(&qv) {
        return Intersection::Degenerate;
    }
    let t = tri_tri_exact::plane_sides(&pv, &qv);
    if t == [0; 3] {
        return Intersection::Coplanar;
    }
    let s = tri_tri_exact::plane_sides(&qv, &pv);
    let dir = p.scaled_normal().cross(&q.scaled_normal());
    let (a, b) = (
        cut(&pv, &s, &q.a, &q.scaled_normal(), &dir),
        cut(&qv, &t, &p.a, &p.scaled_normal(), &dir),
    );
    let at = |x: &Point| dir.dot(&x.coords);
    let lo = if at(&a.0) >= at(&b.0) { a.0 } else { b.0 };
    let hi = if at(&a.1) <= at(&b.1) { a.1 } else { b.1 };
    // Touching pairs may come out reversed by rounding: they meet in (about) one point.
    Intersection::Segment(lo, if at(&hi) >= at(&lo) { hi } else { lo })
}

/// The interval where triangle `v` (vertex sides `s`, exact) meets the plane through `o` with
/// normal `n`, ordered along `dir`.
fn cut(v: &[Point; 3], s: &[i8; 3], o: &Point, n: &Vector, dir: &Vector) -> (Point, Point) {
    let d = v.map(|x| n.dot(&(x - o)));
    let mut pts = Vec::with_capacity(3);
    for i in 0..3 {
        let j = (i + 1) % 3;
        if s[i] == 0 {
            pts.push(v[i]);
        }
        if s[i] * s[j] < 0 {
            // The exact signs differ; the float distances may not (rounding near the plane).
            let f = d[i] / (d[i] - d[j]);
            let f = if f.is_finite() {
                f.clamp(0.0, 1.0)
            } else {
                0.5
            };
            pts.push(v[i] + (v[j] - v[i]) * f);
        }
    }
    let at = |x: &Point| dir.dot(&x.coords);
    let lo = pts
        .iter()
        .copied()
        .min_by(|x, y| at(x).total_cmp(&at(y)))
        .expect("the triangle meets the plane");
    let hi = pts
        .iter()
        .copied()
        .max_by(|x, y| at(x).total_cmp(&at(y)))
        .expect("the triangle meets the plane");
    (lo, hi)
}
