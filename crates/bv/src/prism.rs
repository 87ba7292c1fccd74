//! A triangle's prism: the slab of its plane thickened by `half_thickness` on each side,
//! cut by the three planes through its edges normal to it (a triangular prism around the
//! triangle), built so that it holds the triangle whatever the rounding of its normal.
//!
//! Because the edge planes stand normal to the slab, a point's squared distance to the prism
//! is the sum of its squared excess beyond the slab and its squared distance, across the
//! normal, to the triangle's region of the plane. That distance is measured from the excesses
//! beyond the edge planes (Ericson, *Real-Time Collision Detection* (2005) §5.1.5, the
//! triangle's face, edge and vertex regions): the greatest excess beside an edge, and beyond a
//! corner the distance to the line where its two edge planes meet. So the bound is the
//! point–triangle distance itself, up to the slab's thinness, wherever the closest point lies,
//! but at the corners too thin or too flat to divide by (sine below 0.1, where the
//! greatest excess stays a lower bound), and never more than it. A walk can then leave out a
//! triangle that is no nearer than its best without measuring it, even when the two are all
//! but tied, which boxes (short by the triangle's extent along the line of sight) cannot do.

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
        let (off_plane_squared, excess) = self.excesses(p);
        let beside = greatest_excess(excess);
        let corner = if beside > 0.0 {
            self.corner_distance_squared(excess)
        } else {
            0.0
        };
        off_plane_squared + (beside * beside).max(corner)
    }

    /// Whether [`Prism::distance_squared`] of `p` is at least `bound_squared`, the distance to
    /// a corner's edge computed only when the greatest excess falls short.
    #[inline]
    pub fn is_at_least(&self, p: &Point, bound_squared: f64) -> bool {
        let (off_plane_squared, excess) = self.excesses(p);
        let beside = greatest_excess(excess);
        off_plane_squared + beside * beside >= bound_squared
            || (beside > 0.0
                && off_plane_squared + self.corner_distance_squared(excess) >= bound_squared)
    }

    /// The squared excess of `p` beyond the slab, and its excess beyond each edge plane.
    #[inline]
    fn excesses(&self, p: &Point) -> (f64, [f64; 3]) {
        let off_plane =
            ((self.normal.dot(&p.coords) - self.offset).abs() - self.half_thickness).max(0.0);
        let excess = [0, 1, 2].map(|i| self.sides[i].dot(&p.coords) - self.side_offsets[i]);
        (off_plane * off_plane, excess)
    }

    /// For a point outside some edge plane whose excesses beyond the three are `excess`, its
    /// squared distance across the normal to the edge of the corner whose normal cone holds it
    /// (see [`Prism::corner_squared`]; the corners' cones do not overlap but on their
    /// boundaries, where either measure is a lower bound), or 0 when none measured does (the
    /// point is beside an edge, or beyond a thin corner).
    #[inline]
    fn corner_distance_squared(&self, excess: [f64; 3]) -> f64 {
        // Most often the corner between the two greatest excesses: tried first.
        let least = (0..3).fold(0, |m, k| if excess[k] < excess[m] { k } else { m });
        let corner = (0..3).find_map(|step| {
            let (i, j) = ((least + step + 1) % 3, (least + step + 2) % 3);
            self.corner_squared([i, j], [excess[i], excess[j]])
        });
        corner.unwrap_or(0.0)
    }

    /// The squared distance, across the normal, from a point in the normal cone of the corner
    /// where edge planes `i` and `j` meet (the point is `λ·sides[i] + μ·sides[j]` from the
    /// line where the planes cross, with `λ, μ ≥ 0`) to that line, else `None`. With
    /// `c = sides[i] · sides[j]`, the excesses are `e_i = λ + μc` and `e_j = λc + μ`, so
    /// `λ = (e_i − c·e_j)/(1 − c²)` and the distance squared is
    /// `e_j² + (e_i − c·e_j)²/(1 − c²)`: a sum of squares, without cancellation. A corner
    /// whose sine is below the root of [`MIN_CORNER_SINE_SQUARED`] is not measured (`None`), as
    /// dividing by `1 − c²` would magnify the rounding.
    #[inline]
    fn corner_squared(&self, [i, j]: [usize; 2], [e_i, e_j]: [f64; 2]) -> Option<f64> {
        let c = self.sides[i].dot(&self.sides[j]);
        // λ and μ, each times 1 − c² (positive).
        let (lambda, mu) = (e_i - c * e_j, e_j - c * e_i);
        if lambda < 0.0 || mu < 0.0 {
            return None;
        }
        let sine_squared = 1.0 - c * c;
        (sine_squared >= MIN_CORNER_SINE_SQUARED)
            .then(|| e_j * e_j + lambda * lambda / sine_squared)
    }
}

/// The least squared sine of a corner (between its two edge planes) whose distance
/// [`Prism::corner_squared`] measures: the rounding of the excesses is magnified by at most
/// `1/sine`, 10 here.
const MIN_CORNER_SINE_SQUARED: f64 = 0.01;

/// The greatest of `excess` and 0: a lower bound on the distance across the normal from a
/// point with those excesses beyond the edge planes to the prism.
#[inline]
fn greatest_excess(excess: [f64; 3]) -> f64 {
    excess.iter().copied().fold(0.0f64, f64::max)
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

        /// `is_at_least` answers as comparing `distance_squared` does, at and around it.
        #[test]
        fn is_at_least_compares_the_bound(
            a in point(10.0), b in point(10.0), c in point(10.0), p in point(30.0),
            scale in 0.0..2.0f64
        ) {
            let prism = Prism::around_triangle(&Triangle::new(a, b, c));
            let bound = prism.distance_squared(&p);
            for threshold in [bound, bound * scale, bound * (1.0 + 1e-12), scale] {
                prop_assert_eq!(prism.is_at_least(&p, threshold), bound >= threshold);
            }
        }

        /// Wherever the closest point lies, the bound is the distance (the face, edge and
        /// vertex regions), but beyond a corner too thin or too flat to measure.
        #[test]
        fn is_the_distance_but_beyond_thin_and_flat_corners(
            a in point(10.0), b in point(10.0), c in point(10.0), p in point(30.0)
        ) {
            let t = Triangle::new(a, b, c);
            let closest = closest_point(&p, &t);
            let corners = t.vertices();
            let at_thin_corner = (0..3).any(|k| {
                let (v, u, w) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
                let cosine = (u - v).normalize().dot(&(w - v).normalize());
                (v - closest).norm() < 1e-9 && 1.0 - cosine * cosine < 0.011
            });
            prop_assume!(!at_thin_corner);
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
        // Beyond the right-angled corner (-1, -1), by 1 and 2: the corner's distance.
        assert_eq!(prism.distance_squared(&Point::new(-2.0, -3.0, 0.0)), 5.0);
        // Beyond the corner (2, -1), of 45°, and 4 above: its distance, 1 + 1 + 16.
        assert_eq!(prism.distance_squared(&Point::new(3.0, -2.0, 4.0)), 18.0);
    }

    #[test]
    fn measures_a_corner_whose_edge_has_the_least_excess() {
        // The corner at the origin is 30°; edge 0 runs from it to (cos 30°, sin 30°), edge 2
        // from (1, 0) back to it. The point 10 along edge 2's outward normal and 3 along edge
        // 0's lies in the corner's normal cone, yet edge 0's excess is the least of the three.
        let half_root_three = 0.75f64.sqrt();
        let t = Triangle::new(
            Point::new(0.0, 0.0, 0.0),
            Point::new(half_root_three, 0.5, 0.0),
            Point::new(1.0, 0.0, 0.0),
        );
        let prism = Prism::around_triangle(&t);
        let p = Point::new(-1.5, -10.0 + 3.0 * half_root_three, 0.0);
        let distance_squared = p.coords.norm_squared();
        assert!((prism.distance_squared(&p) - distance_squared).abs() < 1e-9);
    }

    #[test]
    fn keeps_the_greatest_excess_beyond_a_thin_corner() {
        // The corner at the origin is about 2.9° (its sine about 0.05).
        let t = Triangle::new(
            Point::new(0.0, 0.0, 0.0),
            Point::new(10.0, 0.0, 0.0),
            Point::new(10.0, 0.5, 0.0),
        );
        let prism = Prism::around_triangle(&t);
        // 3 behind the corner: the excess beyond the long bottom edge's plane is 0 and
        // beyond the slanted one's 3·sin(2.9°); the distance, 3, is not measured.
        let p = Point::new(-3.0, 0.0, 0.0);
        let slanted = 3.0 * 0.5 / 100.25f64.sqrt();
        assert!((prism.distance_squared(&p) - slanted * slanted).abs() < 1e-12);
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
