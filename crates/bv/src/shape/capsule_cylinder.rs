//! Capsule against cylinder.

use super::capsule_capsule::capsule_capsule;
use super::cylinder_triangle::cylinder_triangle;
use super::field::{normalizing_factors, Field, Interval};
use super::sphere_cylinder::sphere_cylinder;
use crate::{Point, Triangle};
use std::cell::Cell;

thread_local! {
    static WIDE: Cell<u64> = const { Cell::new(0) };
}

/// How many times [`capsule_cylinder`] has met an enclosure wider than its band on this thread
/// and answered yes outside the band (for the tests that check it stays 0; not part of the
/// API).
#[doc(hidden)]
pub fn capsule_cylinder_wide_enclosures() -> u64 {
    WIDE.with(Cell::get)
}

/// The widest enclosure `β` of the squared distance (in units where the largest input
/// magnitude lies in `[0.5, 1)`, see [`capsule_cylinder`]) on which the certified search
/// answers; wider, the answer is the conservative yes.
const BAND: f64 = 1.0 / (1u64 << 40) as f64;

/// Whether the capsule of radius `s` about `[c, d]` meets the solid cylinder of radius `r`
/// about `[a, b]` (`a ≠ b`). **Conservative**: never a false "no"; a "yes" may be given for
/// shapes a hair apart, whose distance `D` satisfies `D² <= s² + 2⁻³⁷·M²`, `M` the largest
/// magnitude among the coordinates of `a, b, c, d` and `r`, `s` (with one exception, below,
/// which the tests check never happens on their cases).
///
/// The segment's distance to the cylinder involves the rim circle (a quartic), so it is not
/// decided exactly. Exact steps settle most pairs: no if the capsule misses the capsule of
/// radius `r` about `[a, b]`, which holds the cylinder ([`capsule_capsule`]); yes if the ball
/// about `c` or `d` touches the cylinder ([`sphere_cylinder`]) or the segment meets it
/// ([`cylinder_triangle`]). Otherwise `G(τ)`, the squared distance from `x(τ) = c + τ(d − c)`
/// to the cylinder `C`, is convex and differentiable with `G'(τ) = 2(x − P(x))·(d − c)`, `P`
/// the projection onto `C` (Bauschke & Combettes, *Convex Analysis and Monotone Operator
/// Theory in Hilbert Spaces* (2011), Cor. 12.31); `P` clamps the axial coordinate to the
/// slab and the radial one to the disc. A bisection on the sign of `G'` in `f64` finds a
/// near-least `τ₂`; rigorous intervals (see `field`) then enclose `G(τ₂)` and `G'(τ₂)`, and
/// the tangent at `τ₂` bounds `G` from below on `[0, 1]` (convexity):
/// `min G >= G(τ₂) + min(−G'(τ₂)·τ₂, G'(τ₂)·(1 − τ₂))`. This encloses `D²` in `[lo, hi]`
/// (`hi` the upper end of `G(τ₂)`): no if `lo > s²`, else yes, so a yes has
/// `D² <= hi <= s² + (hi − lo)`. Inputs are first scaled by a power of two (exact) so the
/// largest magnitude lies in `[0.5, 1)`; there a yes with a width `hi − lo` of at most
/// `2⁻⁴⁰` has `D² <= s² + 2⁻⁴⁰ + 2⁻⁵²` (the last for the rounding of `s²`), and undoing the
/// scaling, by a factor at most `2M`, gives the bound above. A wider enclosure (a search that did not converge, or
/// intervals blown up by cancellation) is answered yes whatever the distance: the exception,
/// counted per thread for the tests.
pub fn capsule_cylinder([c, d]: [&Point; 2], s: f64, [a, b]: [&Point; 2], r: f64) -> bool {
    if !capsule_capsule([a, b], r, [c, d], s) {
        return false;
    }
    if sphere_cylinder(c, s, [a, b], r)
        || sphere_cylinder(d, s, [a, b], r)
        || cylinder_triangle([a, b], r, &Triangle::new(*c, *d, *d))
    {
        return true;
    }
    let points = [c, d, a, b].map(|p| [p.x, p.y, p.z]);
    let [f0, f1] = normalizing_factors(points.iter().flatten().copied().chain([r, s]));
    let scaled = points.map(|p| p.map(|x| x * f0 * f1));
    let (lo, hi) = enclosure(&scaled, r * f0 * f1);
    let s2 = Interval::from_f64(s * f0 * f1).square();
    if hi - lo > BAND {
        WIDE.with(|n| n.set(n.get() + 1));
        return true;
    }
    lo <= s2.hi()
}

/// A certified enclosure `[lo, hi]` of the least squared distance from the segment
/// `[points[0], points[1]]` to the cylinder of radius `r` about `[points[2], points[3]]`.
fn enclosure(points: &[[f64; 3]; 4], r: f64) -> (f64, f64) {
    let [c, d] = [points[0], points[1]].map(|p| p.map(Interval::from_f64));
    let dc: [Interval; 3] = std::array::from_fn(|i| d[i].sub(&c[i]));
    let cylinder = IntervalCylinder::new(&points[2], &points[3], r);
    // G(τ) and G'(τ)/2.
    let g = |tau: f64| {
        let tau = Interval::from_f64(tau);
        let x: [Interval; 3] = std::array::from_fn(|i| c[i].add(&tau.mul(&dc[i])));
        let (value, gap) = cylinder.distance2(&x);
        (value, dot3(&gap, &dc))
    };
    let slope_sign = |tau: f64| g(tau).1.mid();
    let t2 = if slope_sign(0.0) >= 0.0 {
        0.0
    } else if slope_sign(1.0) <= 0.0 {
        1.0
    } else {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..80 {
            let mid = lo / 2.0 + hi / 2.0;
            if mid <= lo || mid >= hi {
                break;
            }
            if slope_sign(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo / 2.0 + hi / 2.0
    };
    let (value, half_slope) = g(t2);
    let x = Interval::from_f64;
    let slope = half_slope.add(&half_slope);
    // The tangent's least value on [0, 1], at τ = 0 or τ = 1, for the worst slope in range.
    let at_zero = value.sub(&x(slope.hi()).mul(&x(t2))).lo();
    let at_one = value.add(&x(slope.lo()).mul(&x(1.0).sub(&x(t2)))).lo();
    (at_zero.min(at_one).max(0.0), value.hi())
}

/// A cylinder in intervals: axis start `a`, axis `w = b − a`, `|w|²` and `r·|w|`.
pub(super) struct IntervalCylinder {
    pub(super) a: [Interval; 3],
    pub(super) w: [Interval; 3],
    pub(super) length2: Interval,
    pub(super) r_length: Interval,
}

fn dot3(u: &[Interval; 3], v: &[Interval; 3]) -> Interval {
    u[0].mul(&v[0]).add(&u[1].mul(&v[1])).add(&u[2].mul(&v[2]))
}

impl IntervalCylinder {
    /// The cylinder of radius `r` about `[a, b]`.
    pub(super) fn new(a: &[f64; 3], b: &[f64; 3], r: f64) -> Self {
        let a = a.map(Interval::from_f64);
        let w: [Interval; 3] = std::array::from_fn(|i| Interval::from_f64(b[i]).sub(&a[i]));
        let length2 = dot3(&w, &w);
        let r_length = Interval::from_f64(r).mul(&length2.sqrt());
        Self {
            a,
            w,
            length2,
            r_length,
        }
    }

    /// Enclosures of the squared distance from `x` to the cylinder and of `x − P(x)`, `P` the
    /// projection onto it (half the gradient of the squared distance).
    pub(super) fn distance2(&self, x: &[Interval; 3]) -> (Interval, [Interval; 3]) {
        let (w, length2) = (&self.w, &self.length2);
        let p: [Interval; 3] = std::array::from_fn(|i| x[i].sub(&self.a[i]));
        let t = dot3(&p, w);
        // Signed axial excess times L: `t − clamp(t, 0, L²)`.
        let below = Interval::zero().sub(&t).at_least_zero();
        let above = t.sub(length2).at_least_zero();
        let excess = above.sub(&below);
        // The radial vector `p − (t/L²)·w`, its length times L, `√q`, and the share of it
        // outside the disc, `(1 − rL/√q)₊`.
        let along = t.div(length2);
        let radial: [Interval; 3] = std::array::from_fn(|i| p[i].sub(&along.mul(&w[i])));
        let u = [
            p[1].mul(&w[2]).sub(&p[2].mul(&w[1])),
            p[2].mul(&w[0]).sub(&p[0].mul(&w[2])),
            p[0].mul(&w[1]).sub(&p[1].mul(&w[0])),
        ];
        let root_q = dot3(&u, &u).sqrt();
        let outside = root_q.sub(&self.r_length).at_least_zero();
        let value = excess.square().add(&outside.square()).div(length2);
        let share = if outside.hi() == 0.0 {
            Interval::zero()
        } else {
            outside.div(&root_q)
        };
        // x − P(x) = (excess/L²)·w + share·radial.
        let gap: [Interval; 3] =
            std::array::from_fn(|i| excess.div(length2).mul(&w[i]).add(&share.mul(&radial[i])));
        (value, gap)
    }
}
