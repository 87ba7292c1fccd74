//! A triangle's prism: the slab of its plane thickened by `half_thickness` on each side,
//! cut by the three planes through its edges normal to it (a triangular prism around the
//! triangle), built so that it holds the triangle whatever the rounding of its normal.
//!
//! Because the edge planes stand normal to the slab, a point's squared distance to the prism
//! is at least the sum of its squared excess beyond the slab and its greatest excess beyond an
//! edge plane: the point–triangle distance itself, up to the slab's thinness, whenever the
//! triangle's closest point lies inside the triangle or on an edge (Ericson, *Real-Time
//! Collision Detection* (2005) §5.1.5, the face and edge regions), and never more than it. So
//! a walk can leave out a triangle that is no nearer than its best without measuring it, even
//! when the two are all but tied, which boxes (short by the triangle's extent along the line
//! of sight) cannot do.

use crate::{Point, Triangle, Vector};

/// A triangle's prism (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prism {
    /// The unit normal of the triangle's plane as computed; zero for a triangle whose edges'
    /// cross product vanishes (whose prism is then all of space).
    pub normal: Vector,
    /// `normal · centroid`: where the plane lies along the normal.
    pub offset: f64,
    /// How far the triangle's corners reach from the plane along the normal, as computed.
    pub half_thickness: f64,
    /// For each edge `i` (from corner `i` to corner `i + 1`), the unit normal of its plane,
    /// normal to `normal` and facing away from the triangle.
    pub sides: [Vector; 3],
    /// For each edge plane, the greatest `sides[i] · corner` over the three corners, as
    /// computed: the corners lie on the triangle's side of it.
    pub side_offsets: [f64; 3],
    /// The largest corner's 1-norm: the scale of the rounding of the distance.
    pub scale: f64,
}

impl Prism {
    /// The prism around `t` (see the module docs).
    pub fn around_triangle(t: &Triangle) -> Self {
        let corners = t.vertices();
        let normal = unit_or_zero((t.b - t.a).cross(&(t.c - t.a)));
        let centroid = (t.a.coords + t.b.coords + t.c.coords) / 3.0;
        let offset = normal.dot(&centroid);
        let reach = |direction: &Vector| corners.map(|v| direction.dot(&v.coords));
        let half_thickness = reach(&normal)
            .iter()
            .fold(0.0f64, |t, along| t.max((along - offset).abs()));
        let sides =
            [0, 1, 2].map(|i| unit_or_zero((corners[(i + 1) % 3] - corners[i]).cross(&normal)));
        let side_offsets =
            sides.map(|side| reach(&side).into_iter().fold(f64::NEG_INFINITY, f64::max));
        let scale = corners
            .iter()
            .fold(0.0f64, |s, v| s.max(v.coords.abs().sum()));
        Self {
            normal,
            offset,
            half_thickness,
            sides,
            side_offsets,
            scale,
        }
    }

    /// A lower bound on the squared distance from `p` to the prism, as computed in floating
    /// point: it differs from the exact bound by a few ulps of `|p|₁ + scale`.
    #[inline]
    pub fn distance_squared(&self, p: &Point) -> f64 {
        let off_plane =
            ((self.normal.dot(&p.coords) - self.offset).abs() - self.half_thickness).max(0.0);
        let beside = (0..3)
            .map(|i| self.sides[i].dot(&p.coords) - self.side_offsets[i])
            .fold(0.0f64, f64::max);
        off_plane * off_plane + beside * beside
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
    use crate::distance::point_triangle::closest_point;
    use proptest::prelude::*;

    fn point(scale: f64) -> impl Strategy<Value = Point> {
        let c = move || -scale..scale;
        (c(), c(), c()).prop_map(|(x, y, z)| Point::new(x, y, z))
    }

    /// The distance from `p` to the closed triangle by dense sampling of barycentric
    /// coordinates: an upper bound on the exact distance, within the sampling step.
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
        /// The bound never exceeds the triangle's distance (the prism holds the triangle),
        /// checked against sampled points of the triangle, which share no code with it.
        #[test]
        fn bounds_the_triangle_distance_from_below(
            a in point(10.0), b in point(10.0), c in point(10.0), p in point(30.0)
        ) {
            let t = Triangle::new(a, b, c);
            let prism = Prism::around_triangle(&t);
            let pad = 1e-12 * (p.coords.abs().sum() + prism.scale);
            for corner in t.vertices() {
                prop_assert!(prism.distance_squared(&corner).sqrt() <= pad);
            }
            prop_assert!(prism.distance_squared(&p).sqrt() <= sampled_distance(&p, &t) + pad);
        }

        /// Where the closest point lies inside the triangle or on an edge, the bound is the
        /// distance (the face and edge regions).
        #[test]
        fn is_the_distance_in_the_face_and_edge_regions(
            a in point(10.0), b in point(10.0), c in point(10.0), p in point(30.0)
        ) {
            let t = Triangle::new(a, b, c);
            let closest = closest_point(&p, &t);
            let at_corner = t.vertices().iter().any(|v| (v - closest).norm() < 1e-9);
            prop_assume!(!at_corner);
            let prism = Prism::around_triangle(&t);
            let exact = (closest - p).norm();
            let bound = prism.distance_squared(&p).sqrt();
            prop_assert!((bound - exact).abs() <= 1e-9 * (1.0 + exact), "{} against {}", bound, exact);
        }
    }

    #[test]
    fn is_exact_above_a_flat_triangle_and_beside_an_edge() {
        let t = Triangle::new(
            Point::new(-1.0, -1.0, 0.0),
            Point::new(2.0, -1.0, 0.0),
            Point::new(-1.0, 2.0, 0.0),
        );
        let prism = Prism::around_triangle(&t);
        assert_eq!(prism.half_thickness, 0.0);
        assert_eq!(prism.distance_squared(&Point::new(0.0, 0.0, 3.0)), 9.0);
        // Below the edge y = -1 by 2, and 3 above the plane.
        assert_eq!(prism.distance_squared(&Point::new(0.0, -3.0, 3.0)), 13.0);
        // Beyond the corner (-1, -1): the greater of the two edges' excesses, 2 of (2, 1).
        assert_eq!(prism.distance_squared(&Point::new(-2.0, -3.0, 0.0)), 4.0);
    }

    #[test]
    fn a_thick_prism_reaches_its_half_thickness_off_the_plane() {
        let flat = Prism::around_triangle(&Triangle::new(
            Point::new(-1.0, -1.0, 0.0),
            Point::new(2.0, -1.0, 0.0),
            Point::new(-1.0, 2.0, 0.0),
        ));
        let thick = Prism {
            half_thickness: 1.0,
            ..flat
        };
        assert_eq!(thick.distance_squared(&Point::new(0.0, 0.0, 3.0)), 4.0);
        assert_eq!(thick.distance_squared(&Point::new(0.0, 0.0, -3.0)), 4.0);
        assert_eq!(thick.distance_squared(&Point::new(0.0, 0.0, 0.5)), 0.0);
        assert_eq!(thick.distance_squared(&Point::new(0.0, -3.0, 1.5)), 4.25);
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
        let prism = Prism::around_triangle(&t).distance_squared(&far).sqrt();
        let boxed = crate::Aabb::from_points(&t.vertices())
            .distance_squared(&far)
            .sqrt();
        let exact = 300.0f64.sqrt();
        assert!((prism - exact).abs() < 1e-12, "{prism} against {exact}");
        assert!(boxed < exact - 1.0, "{boxed}");
    }

    #[test]
    fn is_all_of_space_around_a_zero_area_triangle() {
        let t = Triangle::new(
            Point::new(0.0, 0.0, 0.0),
            Point::new(3.0, 0.0, 0.0),
            Point::new(6.0, 0.0, 0.0),
        );
        let prism = Prism::around_triangle(&t);
        assert_eq!(prism.normal, Vector::zeros());
        assert_eq!(prism.distance_squared(&Point::new(3.0, 5.0, 0.0)), 0.0);
    }
}
