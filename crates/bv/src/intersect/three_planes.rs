//! The intersection point of three planes.

use super::plane::Plane;
use crate::Point;

/// Relative determinant below which three planes are treated as having no single common
/// point: `|n1 · (n2 × n3)| <= 1e-12 · |n1| |n2| |n3|` (angles below about 1e-12 rad).
pub const PARALLEL_TOLERANCE: f64 = 1e-12;

/// The point on all three planes (R. Goldman, "Intersection of three planes", Graphics Gems,
/// 1990; *Real-Time Rendering*, 3rd ed. (2008), §16.17; Ericson, *Real-Time Collision
/// Detection* (2005), §5.4.5):
/// `p = ((p1·n1)(n2×n3) + (p2·n2)(n3×n1) + (p3·n3)(n1×n2)) / |n1 n2 n3|`, with
/// `p_i·n_i = -d_i`. `None` when the determinant is (relatively) zero: two planes parallel, or
/// all three sharing a line direction (see [`PARALLEL_TOLERANCE`]).
pub fn point(p1: &Plane, p2: &Plane, p3: &Plane) -> Option<Point> {
    let (n1, n2, n3) = (&p1.normal, &p2.normal, &p3.normal);
    let n23 = n2.cross(n3);
    let det = n1.dot(&n23);
    if det.abs() <= PARALLEL_TOLERANCE * n1.norm() * n2.norm() * n3.norm() {
        return None;
    }
    Some(Point::from(
        (n23 * -p1.d + n3.cross(n1) * -p2.d + n1.cross(n2) * -p3.d) / det,
    ))
}
