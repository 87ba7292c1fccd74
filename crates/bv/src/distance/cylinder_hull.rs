//! Cylinder–hull: the distance between a solid cylinder and the convex hull of a few points
//! (a point, a segment, a triangle, a polytope's vertices), with a certified interval
//! ([`certified`]: GJK on the cylinder's closed-form support mapping, Gilbert, Johnson &
//! Keerthi 1988, certified by the supporting planes).

use super::certified::{certified, Certified};
use super::support::{Cylinder, Hull};
use crate::Point;

/// The distance between `cylinder` (A) and the hull of `points` (B, at least one point), with
/// the guarantee of [`certified`](super::certified).
pub fn cylinder_hull(cylinder: &Cylinder, points: &[Point]) -> Certified {
    certified(cylinder, &Hull(points))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drum() -> Cylinder {
        Cylinder {
            a: Point::new(0.0, 0.0, -1.0),
            b: Point::new(0.0, 0.0, 1.0),
            radius: 1.0,
        }
    }

    /// A point beside the side, above a cap, and off the rim: distances 1, 0.5 and 5.
    #[test]
    fn points_off_the_side_the_cap_and_the_rim() {
        for (p, want) in [
            (Point::new(2.0, 0.0, 0.25), 1.0),
            (Point::new(0.25, -0.5, 1.5), 0.5),
            (Point::new(4.0, 0.0, 5.0), 5.0),
        ] {
            let c = cylinder_hull(&drum(), &[p]);
            assert!(c.settled, "{p}: {c:?}");
            assert!(c.lower <= want && want <= c.upper, "{p}: {c:?}");
            assert!((c.distance - want).abs() <= 1e-12, "{p}: {c:?}");
        }
    }

    /// A triangle parallel to the side at distance 0.5, and one tilted towards the rim.
    #[test]
    fn triangles_beside_the_side_and_the_rim() {
        let side = [
            Point::new(1.5, -1.0, -0.5),
            Point::new(1.5, 1.0, -0.5),
            Point::new(1.5, 0.0, 0.5),
        ];
        let c = cylinder_hull(&drum(), &side);
        assert!(c.settled && c.lower <= 0.5 && 0.5 <= c.upper, "{c:?}");
        // The plane x + z = 3 is nearest the rim point (1, 0, 1): distance 1/√2.
        let rim = [
            Point::new(1.5, -1.0, 1.5),
            Point::new(1.5, 1.0, 1.5),
            Point::new(2.5, 0.0, 0.5),
        ];
        let c = cylinder_hull(&drum(), &rim);
        let want = std::f64::consts::FRAC_1_SQRT_2;
        assert!(c.settled && (c.distance - want).abs() <= 1e-12, "{c:?}");
        assert!(c.lower <= want && want <= c.upper, "{c:?}");
    }
}
