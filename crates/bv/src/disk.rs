//! A thick disk: the points within `radius` of an axis through `center` along `normal` and
//! within `half_thickness` of the plane through `center` normal to it (a short cylinder).
//!
//! Around a triangle (centre at its centroid, normal its own) the disk is flat up to rounding
//! and as wide as the triangle, whatever the triangle's tilt against the axes, so the distance
//! from a point to it bounds the point–triangle distance from below much more tightly than the
//! triangle's box does for a point off a tilted triangle: the box's gap shrinks by the
//! triangle's extent along the line of sight, the disk's only by the triangle's reach across
//! its normal beyond the point's foot. The distance is that of a capped cylinder: the length of
//! the point's excess along the axis and across it.

use crate::{Point, Triangle, Vector};

/// A disk thickened on both sides of its plane (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disk {
    /// The centre.
    pub center: Point,
    /// The unit normal of its plane; zero for a disk around a zero-area triangle, whose
    /// [`Disk::radius`] then bounds it as a ball.
    pub normal: Vector,
    /// How far it reaches from the axis.
    pub radius: f64,
    /// How far it reaches from its plane on each side.
    pub half_thickness: f64,
}

impl Disk {
    /// The disk around `t`: centred at its centroid, across its normal (as computed; zero when
    /// the cross product of its edges vanishes), with the radius and half-thickness of its
    /// farthest corners as computed (the corners' parts along and across the computed normal),
    /// so that it holds the corners up to the rounding of those parts.
    pub fn around_triangle(t: &Triangle) -> Self {
        let center = Point::from((t.a.coords + t.b.coords + t.c.coords) / 3.0);
        let normal = unit_or_zero((t.b - t.a).cross(&(t.c - t.a)));
        let mut disk = Self {
            center,
            normal,
            radius: 0.0,
            half_thickness: 0.0,
        };
        for corner in t.vertices() {
            let (along, across) = disk.parts(&corner);
            disk.half_thickness = disk.half_thickness.max(along.abs());
            disk.radius = disk.radius.max(across);
        }
        disk
    }

    /// The squared distance from `p` to the disk, as computed in floating point; the exact
    /// distance differs by a few ulps of `|p − center| + radius + half_thickness`.
    #[inline]
    pub fn distance_squared(&self, p: &Point) -> f64 {
        let (along, across) = self.parts(p);
        let off_plane = (along.abs() - self.half_thickness).max(0.0);
        let off_axis = (across - self.radius).max(0.0);
        off_plane * off_plane + off_axis * off_axis
    }

    /// The parts of `p − center` along the normal (signed) and across it (its length).
    #[inline]
    fn parts(&self, p: &Point) -> (f64, f64) {
        let offset = p - self.center;
        let along = offset.dot(&self.normal);
        (along, (offset - self.normal * along).norm())
    }
}

/// `v` scaled to unit length, or zero when its length is zero or not finite.
fn unit_or_zero(v: Vector) -> Vector {
    let length = v.norm();
    if length > 0.0 && length.is_finite() {
        v / length
    } else {
        Vector::zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn coordinate() -> impl Strategy<Value = f64> {
        -10.0..10.0f64
    }

    fn point() -> impl Strategy<Value = Point> {
        (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Point::new(x, y, z))
    }

    /// The distance from `p` to the closed triangle by dense sampling of barycentric
    /// coordinates (an upper bound on the exact distance, within the sampling step).
    fn sampled_distance(p: &Point, t: &Triangle) -> f64 {
        let steps = 60;
        let mut best = f64::INFINITY;
        for i in 0..=steps {
            for j in 0..=steps - i {
                let (u, v) = (i as f64 / steps as f64, j as f64 / steps as f64);
                let q = t.a + (t.b - t.a) * u + (t.c - t.a) * v;
                best = best.min((q - p).norm());
            }
        }
        best
    }

    proptest! {
        /// The disk's distance never exceeds the triangle's (it holds the triangle).
        #[test]
        fn bounds_the_triangle_distance_from_below(a in point(), b in point(), c in point(), p in point()) {
            let t = Triangle::new(a, b, c);
            let disk = Disk::around_triangle(&t);
            let pad = 1e-12 * (1.0 + (p - disk.center).norm() + disk.radius);
            for corner in t.vertices() {
                prop_assert!(disk.distance_squared(&corner).sqrt() <= pad);
            }
            prop_assert!(disk.distance_squared(&p).sqrt() <= sampled_distance(&p, &t) + pad);
        }
    }

    #[test]
    fn is_exact_above_a_flat_triangle_and_beside_it() {
        let t = Triangle::new(
            Point::new(-1.0, -1.0, 0.0),
            Point::new(2.0, -1.0, 0.0),
            Point::new(-1.0, 2.0, 0.0),
        );
        let disk = Disk::around_triangle(&t);
        assert_eq!(disk.half_thickness, 0.0);
        assert_eq!(disk.radius, 5.0f64.sqrt());
        assert_eq!(disk.distance_squared(&Point::new(0.0, 0.0, 3.0)), 9.0);
        // Beside it in its plane, at 4 from the centre: 4 − √5 from the disk.
        let beside = disk.distance_squared(&Point::new(4.0, 0.0, 0.0)).sqrt();
        assert!((beside - (4.0 - 5.0f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn bounds_a_tilted_triangle_tighter_than_its_box() {
        // A triangle in the plane x + y + z = 0, seen from far along its normal.
        let t = Triangle::new(
            Point::new(1.0, -1.0, 0.0),
            Point::new(0.0, 1.0, -1.0),
            Point::new(-1.0, 0.0, 1.0),
        );
        let far = Point::new(10.0, 10.0, 10.0);
        let disk = Disk::around_triangle(&t).distance_squared(&far).sqrt();
        let boxed = crate::Aabb::from_points(&t.vertices())
            .distance_squared(&far)
            .sqrt();
        let exact = 300.0f64.sqrt();
        assert!((disk - exact).abs() < 1e-12, "{disk} against {exact}");
        assert!(boxed < exact - 1.0, "{boxed}");
    }

    #[test]
    fn is_a_ball_around_a_zero_area_triangle() {
        let t = Triangle::new(
            Point::new(0.0, 0.0, 0.0),
            Point::new(3.0, 0.0, 0.0),
            Point::new(6.0, 0.0, 0.0),
        );
        let disk = Disk::around_triangle(&t);
        assert_eq!(disk.normal, Vector::zeros());
        assert_eq!(disk.radius, 3.0);
        assert_eq!(disk.distance_squared(&Point::new(3.0, 5.0, 0.0)), 4.0);
    }
}
