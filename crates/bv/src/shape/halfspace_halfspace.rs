//! Halfspace against halfspace.

use crate::Vector;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// Whether the closed halfspaces `n·p <= d` and `m·p <= e` (nonzero normals) share a point.
/// They always do unless the normals point exactly opposite ways, `m = −λn` with `λ > 0`; then
/// the second is `n·p >= −e/λ` and they meet iff `−e/λ <= d`, i.e. `λd + e >= 0`. Decided in
/// exact rationals (parallelism by an exactly zero cross product), a handful of operations.
pub fn halfspace_halfspace(n: &Vector, d: f64, m: &Vector, e: f64) -> bool {
    let q = |x: f64| BigRational::from_float(x).expect("finite value");
    let nq: [BigRational; 3] = std::array::from_fn(|i| q(n[i]));
    let mq: [BigRational; 3] = std::array::from_fn(|i| q(m[i]));
    let parallel = (0..3).all(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        (&nq[j] * &mq[k] - &nq[k] * &mq[j]).is_zero()
    });
    let dot = (0..3).fold(BigRational::zero(), |acc, i| acc + &nq[i] * &mq[i]);
    if !parallel || !dot.is_negative() {
        return true;
    }
    // `m = −λn`: λ = −m_i / n_i for any i with n_i ≠ 0.
    let i = (0..3).find(|&i| !nq[i].is_zero()).expect("nonzero normal");
    let lambda = -&mq[i] / &nq[i];
    !(lambda * q(d) + q(e)).is_negative()
}
