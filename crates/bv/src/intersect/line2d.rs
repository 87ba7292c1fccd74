//! 2D line–line intersection.

use nalgebra::{Point2, Vector2};

/// `v⊥ = (-v_y, v_x)`.
pub fn perp(v: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(-v.y, v.x)
}

/// Parameters `(s, t)` with `o1 + s·d1 = o2 + t·d2` (*Real-Time Rendering*, 3rd ed. (2008),
/// §16.16, two dimensions: `s = (o2 - o1)·d2⊥ / (d1·d2⊥)`, `t = (o1 - o2)·d1⊥ / (d2·d1⊥)`).
/// `None` when the lines are parallel or coincident (`d1·d2⊥` exactly zero; nearly parallel
/// lines give large, correctly signed parameters).
pub fn intersect(
    o1: &Point2<f64>,
    d1: &Vector2<f64>,
    o2: &Point2<f64>,
    d2: &Vector2<f64>,
) -> Option<(f64, f64)> {
    let denom = d1.dot(&perp(d2));
    if denom == 0.0 {
        return None;
    }
    Some((
        (o2 - o1).dot(&perp(d2)) / denom,
        (o1 - o2).dot(&perp(d1)) / -denom,
    ))
}

/// The intersection point of the two lines, `o1 + s·d1` (see [`intersect`]).
pub fn point(
    o1: &Point2<f64>,
    d1: &Vector2<f64>,
    o2: &Point2<f64>,
    d2: &Vector2<f64>,
) -> Option<Point2<f64>> {
    intersect(o1, d1, o2, d2).map(|(s, _)| o1 + d1 * s)
}
