//! 2D segment–segment intersection.

use super::line2d::perp;
use nalgebra::Point2;
use robust::{orient2d, Coord};

/// Parameters `(s, t)` of the intersection point `p1 + s(p2 - p1) = q1 + t(q2 - q1)` of two
/// closed segments, by Antonio's test (F. Antonio, "Faster line segment intersection", Graphics
/// Gems III, 1992; *Real-Time Rendering*, 3rd ed. (2008), §16.16): with `a = q2 - q1`,
/// `b = p2 - p1`, `c = p1 - q1`, `d = c·a⊥`, `e = c·b⊥`, `f = a·b⊥`, reject unless `d` and `e`
/// lie between 0 and `f` (for either sign of `f`), then `s = d/f`, `t = e/f`. `None` for
/// parallel segments (`f == 0`, including collinear overlapping ones: use [`overlaps`] for
/// those).
pub fn intersect(
    p1: &Point2<f64>,
    p2: &Point2<f64>,
    q1: &Point2<f64>,
    q2: &Point2<f64>,
) -> Option<(f64, f64)> {
    let (a, b, c) = (q2 - q1, p2 - p1, p1 - q1);
    let (d, e, f) = (c.dot(&perp(&a)), c.dot(&perp(&b)), a.dot(&perp(&b)));
    let between = |x: f64| {
        if f > 0.0 {
            (0.0..=f).contains(&x)
        } else {
            (f..=0.0).contains(&x)
        }
    };
    (f != 0.0 && between(d) && between(e)).then(|| (d / f, e / f))
}

/// Whether two closed segments meet (touching and collinear overlap included), decided
/// exactly with Shewchuk's `orient2d`: each segment's endpoints are not strictly on one side
/// of the other's line, and collinear segments overlap in their bounding boxes.
pub fn overlaps(p1: &Point2<f64>, p2: &Point2<f64>, q1: &Point2<f64>, q2: &Point2<f64>) -> bool {
    let c = |p: &Point2<f64>| Coord { x: p.x, y: p.y };
    let side = |a, b, p| {
        let o = orient2d(c(a), c(b), c(p));
        if o > 0.0 {
            1.0
        } else if o < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    let (s1, s2, s3, s4) = (
        side(p1, p2, q1),
        side(p1, p2, q2),
        side(q1, q2, p1),
        side(q1, q2, p2),
    );
    if s1 == 0.0 && s2 == 0.0 && s3 == 0.0 && s4 == 0.0 {
        // All four points collinear (or points): overlap of the projections on both axes.
        return (0..2)
            .all(|k| p1[k].min(p2[k]) <= q1[k].max(q2[k]) && q1[k].min(q2[k]) <= p1[k].max(p2[k]));
    }
    s1 * s2 <= 0.0 && s3 * s4 <= 0.0
}
