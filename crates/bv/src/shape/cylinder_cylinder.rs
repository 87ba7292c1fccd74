//! Cylinder against cylinder.

use super::capsule_capsule::capsule_capsule;
use super::capsule_cylinder::capsule_cylinder;
use super::cylinder_triangle::cylinder_triangle;
use super::halfspace_cylinder::halfspace_cylinder;
use crate::distance::segment_segment;
use crate::{Point, Triangle, Vector};

/// Whether the solid cylinders of radius `r` about `[a, b]` and `s` about `[c, d]` meet.
/// **Conservative**: never a false "no"; a "yes" is exact when one axis meets the other
/// cylinder, and otherwise may be given for cylinders apart, but only when the capsule of
/// radius `r` about `[a, b]` (which holds the first cylinder) touches the second cylinder and
/// the capsule of radius `s` about `[c, d]` touches the first, each as decided by
/// [`capsule_cylinder`] (so within its hair-wide band). That leaves a band the size of the
/// capsules' end caps, up to about `r` or `s` near the rims: cylinder–cylinder distance is not
/// decided finer here.
///
/// Exact steps: no if the two bounding capsules miss ([`capsule_capsule`]); yes if an axis
/// segment meets the other cylinder ([`cylinder_triangle`] on the segment); no if a plane
/// separates them, tried along `b − a`, `d − c`, their cross product, the direction between
/// the axes' closest points and the direction between near-closest points of the two solids
/// (alternating projections in `f64`, which converge to a closest pair of disjoint closed
/// convex sets: Cheney & Goldstein, "Proximity maps for convex sets", Proc. AMS 10, 1959),
/// each decided exactly by two [`halfspace_cylinder`] tests (separating axes, Ericson (2005)
/// §5.2.1); then the two capsule tests above. The float steps only propose directions: every
/// "no" is proven exactly.
pub fn cylinder_cylinder([a, b]: [&Point; 2], r: f64, [c, d]: [&Point; 2], s: f64) -> bool {
    if !capsule_capsule([a, b], r, [c, d], s) {
        return false;
    }
    if cylinder_triangle([a, b], r, &Triangle::new(*c, *d, *d))
        || cylinder_triangle([c, d], s, &Triangle::new(*a, *b, *b))
    {
        return true;
    }
    let (w, v) = (b - a, d - c);
    let (p, q) = closest_axis_points([a, b], [c, d]);
    let (x, y) = near_points([a, b], r, [c, d], s);
    let candidates = [w, v, w.cross(&v), q - p, y - x];
    if candidates
        .iter()
        .any(|n| separates(n, [a, b], r, [c, d], s) || separates(&-n, [a, b], r, [c, d], s))
    {
        return false;
    }
    capsule_cylinder([a, b], r, [c, d], s) && capsule_cylinder([c, d], s, [a, b], r)
}

/// Float closest points of the two axis segments (any points serve: they only propose a
/// direction, which is then checked exactly).
fn closest_axis_points([a, b]: [&Point; 2], [c, d]: [&Point; 2]) -> (Point, Point) {
    let (u, v) = (b - a, d - c);
    let (s, t) = segment_segment::parameters(
        &a.coords,
        &u,
        u.norm_squared(),
        &c.coords,
        &v,
        v.norm_squared(),
    );
    (a + u * s, c + v * t)
}

/// Float points `x` of the first cylinder and `y` of the second after alternating projections
/// from the first's centre (any points serve: they only propose a direction).
fn near_points([a, b]: [&Point; 2], r: f64, [c, d]: [&Point; 2], s: f64) -> (Point, Point) {
    let mut x = nalgebra::center(a, b);
    let mut y = project(&x, [c, d], s);
    for _ in 0..48 {
        x = project(&y, [a, b], r);
        y = project(&x, [c, d], s);
    }
    (x, y)
}

/// The float projection of `x` onto the cylinder of radius `r` about `[a, b]`: the axial
/// coordinate clamped to the axis, the radial offset to the disc.
fn project(x: &Point, [a, b]: [&Point; 2], r: f64) -> Point {
    let w = b - a;
    let p = x - a;
    let t = p.dot(&w) / w.norm_squared();
    let mut radial = p - w * t;
    let rho = radial.norm();
    if rho > r {
        radial *= r / rho;
    }
    a + w * t.clamp(0.0, 1.0) + radial
}

/// Whether the plane `n·x = δ`, `δ` halfway between the float estimates of the first
/// cylinder's largest and the second's least `n·x`, has the first cylinder strictly on its
/// negative side and the second strictly on its positive side (both exact).
fn separates(n: &Vector, [a, b]: [&Point; 2], r: f64, [c, d]: [&Point; 2], s: f64) -> bool {
    let reach = |w: Vector, radius: f64| {
        let l = w.norm();
        if l == 0.0 {
            0.0
        } else {
            radius * n.cross(&w).norm() / l
        }
    };
    let high = n.dot(&a.coords).max(n.dot(&b.coords)) + reach(b - a, r);
    let low = n.dot(&c.coords).min(n.dot(&d.coords)) - reach(d - c, s);
    let delta = high / 2.0 + low / 2.0;
    if low.partial_cmp(&high) != Some(std::cmp::Ordering::Greater)
        || !delta.is_finite()
        || *n == Vector::zeros()
    {
        return false;
    }
    !halfspace_cylinder(&-n, -delta, [a, b], r) && !halfspace_cylinder(n, delta, [c, d], s)
}
