//! Sphere against cylinder.

use super::field::{at_most_zero, cross3, dot3, normalizing_factors, sub3, v3, Field, Interval};
use crate::Point;
use num_rational::BigRational;
use std::cmp::Ordering;

/// Whether the ball of radius `rho` about `c` meets the solid cylinder of radius `r` about
/// `[a, b]` (`a ≠ b`), exactly: whether the distance from `c` to the cylinder is at most `rho`.
///
/// The cylinder is a disc times a segment, so the squared distance is the sum of the squared
/// distances along the axis and across it (Ericson (2005) §5.1.3 clamps a point to a box the
/// same way, coordinate by coordinate). With `w = b − a`, `L = |w|`, `t = (c − a)·w` and
/// `q = |(c − a) × w|²`, the axial excess is `A/L` with `A = max(0, −t, t − L²)` and the radial
/// distance `√q / L`, so the test is `A² + (√q − rL)₊² <= rho²L²`. If `q <= r²L²` it is
/// `A² <= rho²L²`; otherwise, with `X = A² + q + (r² − rho²)L²`, it is `X <= 2r√(L²q)`, decided
/// by signs and squares (`X <= 0`, or `X² <= 4r²L²q`). Written once on `Field` (`field.rs`):
/// rigorous intervals first, exact rationals when a sign is too close to call.
pub fn sphere_cylinder(c: &Point, rho: f64, [a, b]: [&Point; 2], r: f64) -> bool {
    let inputs = [c, a, b].map(|p| [p.x, p.y, p.z]);
    let [f0, f1] = normalizing_factors(inputs.iter().flatten().copied().chain([r, rho]));
    let scaled = inputs.map(|p| p.map(|x| x * f0 * f1));
    ball_within::<Interval>(&scaled, rho * f0 * f1, r * f0 * f1)
        .or_else(|| ball_within::<BigRational>(&inputs, rho, r))
        .expect("exact signs")
}

/// [`sphere_cylinder`] on `[c, a, b]`; `None` when an interval sign is unknown.
pub(super) fn ball_within<T: Field>(points: &[[f64; 3]; 3], rho: f64, r: f64) -> Option<bool> {
    let [c, a, b] = points.map(|p| v3::<T>(&p));
    let w = sub3(&b, &a);
    let p = sub3(&c, &a);
    let length2 = dot3(&w, &w);
    let t = dot3(&p, &w);
    let beyond = t.sub(&length2);
    let excess = if t.sign()? == Ordering::Less {
        T::zero().sub(&t)
    } else if beyond.sign()? == Ordering::Greater {
        beyond
    } else {
        T::zero()
    };
    let u = cross3(&p, &w);
    let q = dot3(&u, &u);
    let (r, rho) = (T::from_f64(r), T::from_f64(rho));
    let (r2, rho2) = (r.square(), rho.square());
    let a2 = excess.square();
    if at_most_zero(&q.sub(&r2.mul(&length2)))? {
        return at_most_zero(&a2.sub(&rho2.mul(&length2)));
    }
    let x = a2.add(&q).add(&r2.sub(&rho2).mul(&length2));
    if at_most_zero(&x)? {
        return Some(true);
    }
    let four = T::from_f64(4.0);
    at_most_zero(&x.square().sub(&four.mul(&r2).mul(&length2).mul(&q)))
}
