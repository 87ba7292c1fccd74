//! Exact signs for halfspaces: of `n·p − d`, and of `n·c − d − r·|n|` (a ball against a
//! plane), behind rigorous float filters.

use crate::{Point, Vector};
use num_rational::BigRational;
use num_traits::Signed;

/// The unit roundoff `2⁻⁵³`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// `n·p − d` in `f64` and a bound on its error. The value is a dot product of length 4
/// (`d` times `−1`), whose rounding is at most `γ₄ · Σ|terms|`, `γ₄ = 4u/(1 − 4u)` (Higham,
/// *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (2002), §3.1); the returned bound
/// is `8u` times the computed `Σ|terms|`, which is at least `(1 − γ₄)` times the true one, so
/// it covers `γ₄ · Σ|terms|` with room. On the exact range every nonzero product is at least
/// `2⁻⁶¹²` and at most `2⁶⁷⁸` in magnitude, so none underflows or overflows.
fn filtered(n: &Vector, d: f64, p: &Point) -> (f64, f64) {
    let value = n.x * p.x + n.y * p.y + n.z * p.z - d;
    let sum = (n.x * p.x).abs() + (n.y * p.y).abs() + (n.z * p.z).abs() + d.abs();
    (value, 8.0 * UNIT * sum)
}

/// The exact value of a finite `f64`.
fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite value")
}

/// `n·p − d` exactly.
fn exact_value(n: &Vector, d: f64, p: &Point) -> BigRational {
    (0..3).fold(-q(d), |acc, i| acc + q(n[i]) * q(p[i]))
}

/// The exact sign of `n·p − d` (finite inputs in the exact range): `-1` when `p` is strictly
/// inside the halfspace `n·p <= d`, `0` on its plane, `1` outside. The float value decides
/// when it exceeds its error bound (see [`filtered`]), exact rationals otherwise.
pub(crate) fn side(n: &Vector, d: f64, p: &Point) -> i8 {
    let (value, bound) = filtered(n, d, p);
    if value > bound {
        1
    } else if value < -bound {
        -1
    } else {
        side_exact(n, d, p)
    }
}

#[cold]
fn side_exact(n: &Vector, d: f64, p: &Point) -> i8 {
    let v = exact_value(n, d, p);
    if v.is_positive() {
        1
    } else if v.is_negative() {
        -1
    } else {
        0
    }
}

/// Whether the ball of radius `r >= 0` about `c` meets the halfspace `n·p <= d`, exactly:
/// whether `s = n·c − d <= r·|n|` (the signed distance `s / |n|` at most `r`; Ericson (2005)
/// §5.2.2, sphere against plane). `|n|` is irrational in general, so the exact decision
/// compares squares with their signs: `s <= 0` touches; otherwise `s² <= r²·|n|²`.
///
/// Float filter: `s` is within `e = 8u·Σ|terms|` of its computed value (see [`filtered`]);
/// `|n| = sqrt(n·n)` and `r·|n|` computed in `f64` err by at most `3.5u` relatively (`γ₃/2` for
/// the sum of squares under the root, `u` for the root, `u` for the product), and each of the
/// comparisons' sums and products by `u`. Relative margins of `32u` on both sides cover all of
/// them; only a case within them goes to rationals.
pub(crate) fn ball_meets(n: &Vector, d: f64, c: &Point, r: f64) -> bool {
    let (s, e) = filtered(n, d, c);
    if s <= -e {
        return true;
    }
    let rn = r * n.norm();
    let slack = 32.0 * UNIT;
    if s - e > 0.0 {
        if (s + e) * (1.0 + slack) <= rn * (1.0 - slack) {
            return true;
        }
        if (s - e) * (1.0 - slack) > rn * (1.0 + slack) {
            return false;
        }
    }
    ball_meets_exact(n, d, c, r)
}

#[cold]
fn ball_meets_exact(n: &Vector, d: f64, c: &Point, r: f64) -> bool {
    let s = exact_value(n, d, c);
    if !s.is_positive() {
        return true;
    }
    let n2 = (0..3).fold(BigRational::from_integer(0.into()), |acc, i| {
        acc + q(n[i]) * q(n[i])
    });
    let r = q(r);
    &s * &s <= &r * &r * n2
}
