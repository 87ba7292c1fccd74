//! Cylinder–cylinder: the distance between two solid cylinders, with a certified interval
//! ([`certified`]: GJK on both cylinders' closed-form support mappings, Gilbert, Johnson &
//! Keerthi 1988, certified by the supporting planes).

use super::certified::{certified, Certified};
use super::support::Cylinder;

/// The distance between cylinders `a` and `b`, with the guarantee of
/// [`certified`](super::certified).
pub fn cylinder_cylinder(a: &Cylinder, b: &Cylinder) -> Certified {
    certified(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    /// Parallel axes 3 apart (radii 1 and 0.5: gap 1.5), and crossed axes 4 apart (gap 2.5).
    #[test]
    fn parallel_and_crossed_axes() {
        let a = Cylinder {
            a: Point::new(0.0, 0.0, -1.0),
            b: Point::new(0.0, 0.0, 1.0),
            radius: 1.0,
        };
        let parallel = Cylinder {
            a: Point::new(3.0, 0.0, -2.0),
            b: Point::new(3.0, 0.0, 0.5),
            radius: 0.5,
        };
        let crossed = Cylinder {
            a: Point::new(4.0, -2.0, 0.0),
            b: Point::new(4.0, 2.0, 0.0),
            radius: 0.5,
        };
        for (b, want) in [(parallel, 1.5), (crossed, 2.5)] {
            let c = cylinder_cylinder(&a, &b);
            assert!(c.settled && (c.distance - want).abs() <= 1e-12, "{c:?}");
            assert!(c.lower <= want && want <= c.upper, "{c:?}");
        }
    }
}
