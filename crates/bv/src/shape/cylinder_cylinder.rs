//! Cylinder against cylinder.

use super::capsule_capsule::capsule_capsule;
use super::capsule_cylinder::capsule_cylinder;
use super::capsule_cylinder::IntervalCylinder;
use super::cylinder_triangle::cylinder_triangle;
use super::field::{normalizing_factors, Field, Interval};
use super::halfspace_cylinder::halfspace_cylinder;
use crate::distance::segment_segment;
use crate::{Point, Triangle, Vector};
use std::cell::Cell;

thread_local! {
    static FALLBACKS: Cell<u64> = const { Cell::new(0) };
}

/// How many times [`cylinder_cylinder`] has answered by its last, wide-band step on this
/// thread (for the tests that count it; not part of the API).
#[doc(hidden)]
pub fn cylinder_cylinder_fallbacks() -> u64 {
    FALLBACKS.with(Cell::get)
}

/// The certified squared distance (in units where the largest input magnitude lies in
/// `[0.5, 1)`) under which [`cylinder_cylinder`] says yes.
const BAND: f64 = 1.0 / (1u64 << 40) as f64;

/// Whether the solid cylinders of radius `r` about `[a, b]` and `s` about `[c, d]` meet.
/// **Conservative**: never a false "no". A "yes" is exact when an axis meets the other
/// cylinder, certified `D² <= 2⁻³⁸·M²` (`D` their distance, `M` the largest magnitude among
/// the coordinates and radii) in most other cases, and otherwise, in a last step for the
/// cases the search below does not settle, given when the capsule of radius `r` about
/// `[a, b]` (which holds the first cylinder) touches the second cylinder and the capsule of
/// radius `s` about `[c, d]` touches the first, each by [`capsule_cylinder`]: that step's band
/// is the size of the capsules' end caps, up to about `r` or `s` near the rims. It ran on 0
/// or 1 of the 48 random pairs of `random_cylinder_pairs_never_a_false_no` and on none of the
/// exact contacts of `cylinder_pairs_in_exact_contact` in test runs (counted per thread).
///
/// Steps: no if the two bounding capsules miss ([`capsule_capsule`], exact); yes if an axis
/// segment meets the other cylinder ([`cylinder_triangle`] on the segment, exact); no if a
/// plane separates them, tried along `b − a`, `d − c`, their cross product, the direction
/// between the axes' closest points and the direction between near-closest points `x₀ ∈ C₁`,
/// `y₀ ∈ C₂` from alternating projections in `f64` (which converge to a closest pair of
/// disjoint closed convex sets: Cheney & Goldstein, "Proximity maps for convex sets", Proc.
/// AMS 10, 1959), each decided exactly by two [`halfspace_cylinder`] tests (separating axes,
/// Ericson (2005) §5.2.1). Then a certificate in rigorous intervals: `H(x) = dist²(x, C₂)` is
/// convex with gradient `2(x − P₂(x))` (Bauschke & Combettes (2011), Cor. 12.31), so
/// `D² >= H(x₀) + 2·min over C₁ of (x₀ − P₂(x₀))·(x − x₀)`, the minimum in closed form (a
/// linear function's least value on a cylinder): no if that is positive; and
/// `D <= dist(x₀, C₂) + dist(x₀, C₁)`: yes if that squared is at most `2⁻⁴⁰` in units where
/// the largest magnitude lies in `[0.5, 1)` (the inputs are scaled by a power of two, exact),
/// which is `2⁻³⁸·M²` after undoing the scaling. The float steps only propose points and
/// directions: every decision rests on exact tests or rigorous intervals.
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
    let inputs = [a, b, c, d, &x].map(|p| [p.x, p.y, p.z]);
    let [f0, f1] = normalizing_factors(inputs.iter().flatten().copied().chain([r, s]));
    let scaled = inputs.map(|p| p.map(|v| v * f0 * f1));
    if let Some(answer) = certificate(&scaled, r * f0 * f1, s * f0 * f1) {
        return answer;
    }
    FALLBACKS.with(|n| n.set(n.get() + 1));
    capsule_cylinder([a, b], r, [c, d], s) && capsule_cylinder([c, d], s, [a, b], r)
}

/// From a point `x₀` (`points[4]`) near the first cylinder's closest point to the second, a
/// certified answer, or `None`. `H(x) = dist²(x, C₂)` is convex with gradient
/// `2(x − P₂(x))`, so `D² = min over C₁ of H >= H(x₀) + 2·min over C₁ of (x₀ − P₂(x₀))·(x − x₀)`,
/// the last minimum in closed form (a linear function's least value on a cylinder, as in
/// [`halfspace_cylinder`]): apart if that lower bound is positive. And
/// `D <= dist(x₀, C₂) + dist(x₀, C₁)`: near if that upper bound squared is at most [`BAND`].
/// All in rigorous intervals.
fn certificate(points: &[[f64; 3]; 5], r: f64, s: f64) -> Option<bool> {
    let first = IntervalCylinder::new(&points[0], &points[1], r);
    let second = IntervalCylinder::new(&points[2], &points[3], s);
    let x0 = points[4].map(Interval::from_f64);
    let dot = |u: &[Interval; 3], v: &[Interval; 3]| {
        u[0].mul(&v[0]).add(&u[1].mul(&v[1])).add(&u[2].mul(&v[2]))
    };
    let (h, gap) = second.distance2(&x0);
    let b = points[1].map(Interval::from_f64);
    let toward = |p: &[Interval; 3]| {
        let d: [Interval; 3] = std::array::from_fn(|i| p[i].sub(&x0[i]));
        dot(&gap, &d)
    };
    let w = &first.w;
    let cross = [
        gap[1].mul(&w[2]).sub(&gap[2].mul(&w[1])),
        gap[2].mul(&w[0]).sub(&gap[0].mul(&w[2])),
        gap[0].mul(&w[1]).sub(&gap[1].mul(&w[0])),
    ];
    let reach = first
        .r_length
        .mul(&dot(&cross, &cross).sqrt())
        .div(&first.length2);
    let least = toward(&first.a).min(&toward(&b)).sub(&reach);
    if h.add(&least).add(&least).lo() > 0.0 {
        return Some(false);
    }
    let (h1, _) = first.distance2(&x0);
    let upper = h.sqrt().add(&h1.sqrt());
    (upper.square().hi() <= BAND).then_some(true)
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
    for _ in 0..400 {
        let (x_next, y_next) = (project(&y, [a, b], r), y);
        let y_next = if x_next == x {
            y_next
        } else {
            project(&x_next, [c, d], s)
        };
        if x_next == x && y_next == y {
            break;
        }
        (x, y) = (x_next, y_next);
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
