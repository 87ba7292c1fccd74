//! Halfspace against cylinder.

use super::field::{
    at_most_zero, cross3, dot3, exactly_scaled, normalizing_factors, sub3, v3, Field, Interval,
};
use crate::{Point, Vector};
use num_rational::BigRational;

/// Whether the closed halfspace `n·p <= d` meets the solid cylinder of radius `r` about
/// `[a, b]` (`a ≠ b`), exactly. The cylinder is the convex hull of its two cap discs, so `n·x`
/// is least on one of them, and on the disc about an end `e` (normal `w = b − a`) its least
/// value is `n·e − r·|n × w| / |w|` (the extreme point of a disc along `n`, as Ericson (2005)
/// §5.2.4 finds it for a cone's base against a plane). So the test is, for `e = a` or `e = b`, `s = n·e − d <= r·|n × w| / |w|`:
/// `s <= 0`, or `s²·|w|² <= r²·|n × w|²`, decided by signs and squares on `Field`
/// (`field.rs`: rigorous intervals first, exact rationals when a sign is too close to call).
/// `n` need not be a unit.
pub fn halfspace_cylinder(n: &Vector, d: f64, [a, b]: [&Point; 2], r: f64) -> bool {
    let inputs = [[n.x, n.y, n.z], [a.x, a.y, a.z], [b.x, b.y, b.z]];
    // Scaling the points and `r` by `f`, `n` by `g` and `d` by `fg` keeps every answer; the
    // filter runs only when every scaling is exact (`n` and `d` need not be in the exact
    // range: `cylinder_cylinder` passes computed ones).
    let f = normalizing_factors(inputs[1..].iter().flatten().copied().chain([r]));
    let g = normalizing_factors(inputs[0]);
    let fg = [f[0] * f[1], g[0] * g[1]];
    let scale3 = |p: &[f64; 3], h| -> Option<[f64; 3]> {
        Some([
            exactly_scaled(p[0], h)?,
            exactly_scaled(p[1], h)?,
            exactly_scaled(p[2], h)?,
        ])
    };
    let filtered = (|| {
        let scaled = [
            scale3(&inputs[0], g)?,
            scale3(&inputs[1], f)?,
            scale3(&inputs[2], f)?,
        ];
        let d = exactly_scaled(d, fg)?;
        meets::<Interval>(&scaled, d, exactly_scaled(r, f)?)
    })();
    filtered
        .or_else(|| meets::<BigRational>(&inputs, d, r))
        .expect("exact signs")
}

/// [`halfspace_cylinder`] on `[n, a, b]`; `None` when an interval sign is unknown.
fn meets<T: Field>(inputs: &[[f64; 3]; 3], d: f64, r: f64) -> Option<bool> {
    let [n, a, b] = inputs.map(|p| v3::<T>(&p));
    let w = sub3(&b, &a);
    let nw = cross3(&n, &w);
    let r = T::from_f64(r);
    let reach = r.square().mul(&dot3(&nw, &nw));
    let length2 = dot3(&w, &w);
    let d = T::from_f64(d);
    let mut unknown = false;
    for e in [&a, &b] {
        let s = dot3(&n, e).sub(&d);
        let answer = match at_most_zero(&s) {
            Some(true) => Some(true),
            Some(false) => at_most_zero(&s.square().mul(&length2).sub(&reach)),
            None => None,
        };
        match answer {
            Some(true) => return Some(true),
            Some(false) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(false)
}
