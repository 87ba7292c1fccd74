//! The numbers the cylinder tests are written on, once for both: rigorous intervals (the float
//! filter) and exact rationals (the slow path).
//!
//! [`Interval`] is interval arithmetic with outward rounding (R. E. Moore, *Interval Analysis*,
//! 1966; as a geometric filter: Brönnimann, Burnikel & Pion, "Interval arithmetic yields
//! efficient dynamic filters for computational geometry", *Discrete Applied Mathematics* 109,
//! 2001): each operation rounds to nearest and then steps one `f64` outward
//! ([`f64::next_down`] on the low end, [`f64::next_up`] on the high end). A rounded-to-nearest
//! result is within half an ulp of the true one (an absolute `2⁻¹⁰⁷⁵` when it underflows), so
//! the stepped ends enclose it; an overflow gives an infinite end, and a NaN (`∞ − ∞`, `0·∞`)
//! widens the interval to the whole line. So the true value of every expression lies in its
//! interval, and a sign read off an interval that excludes zero is the true sign. A sign the
//! interval cannot settle is `None`, and the caller falls back to [`BigRational`], whose signs
//! are always known.

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// An ordered field whose signs may be unknown (`None`, intervals only).
pub(super) trait Field: Clone {
    fn from_f64(x: f64) -> Self;
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
    /// `self / o`; the callers divide only by a value whose sign they have settled as nonzero.
    fn div(&self, o: &Self) -> Self;
    /// The sign, when known.
    fn sign(&self) -> Option<Ordering>;
    /// The smaller of the two values (an enclosure of it for intervals).
    fn min(&self, o: &Self) -> Self;
    /// The least value of `a + 2·b·s + c·s²` over `s ∈ [0, 1]`, where `c >= 0` and `q` is the
    /// value at `s = 1` (`a + 2b + c`).
    fn quadratic_min(a: &Self, b: &Self, c: &Self, q: &Self) -> Option<Self>;

    fn zero() -> Self {
        Self::from_f64(0.0)
    }
    fn square(&self) -> Self {
        self.mul(self)
    }
}

/// A closed interval `[lo, hi]` of reals holding the true value (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Interval {
    lo: f64,
    hi: f64,
}

impl Interval {
    /// From rounded-to-nearest ends: steps each outward; NaN widens to the whole line.
    fn outward(lo: f64, hi: f64) -> Self {
        if lo.is_nan() || hi.is_nan() {
            return Self::whole();
        }
        Self {
            lo: lo.next_down(),
            hi: hi.next_up(),
        }
    }

    fn whole() -> Self {
        Self {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        }
    }
}

impl Interval {
    /// The low end.
    pub(super) fn lo(&self) -> f64 {
        self.lo
    }
    /// The high end.
    pub(super) fn hi(&self) -> f64 {
        self.hi
    }
    /// The midpoint (a float estimate, not an enclosure).
    pub(super) fn mid(&self) -> f64 {
        self.lo / 2.0 + self.hi / 2.0
    }
    /// `√max(x, 0)` (`sqrt` is correctly rounded, IEEE 754-2008 §5.4.1).
    pub(super) fn sqrt(&self) -> Self {
        Self::outward(self.lo.max(0.0).sqrt(), self.hi.max(0.0).sqrt()).at_least_zero()
    }
    /// `max(x, 0)`.
    pub(super) fn at_least_zero(&self) -> Self {
        Self {
            lo: self.lo.max(0.0),
            hi: self.hi.max(0.0),
        }
    }
}

impl Field for Interval {
    fn from_f64(x: f64) -> Self {
        Self { lo: x, hi: x }
    }

    fn add(&self, o: &Self) -> Self {
        Self::outward(self.lo + o.lo, self.hi + o.hi)
    }

    fn sub(&self, o: &Self) -> Self {
        Self::outward(self.lo - o.hi, self.hi - o.lo)
    }

    fn mul(&self, o: &Self) -> Self {
        let p = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        if p.iter().any(|x| x.is_nan()) {
            return Self::whole();
        }
        Self::outward(
            p.iter().copied().fold(f64::INFINITY, f64::min),
            p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    fn div(&self, o: &Self) -> Self {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return Self::whole();
        }
        let p = [
            self.lo / o.lo,
            self.lo / o.hi,
            self.hi / o.lo,
            self.hi / o.hi,
        ];
        if p.iter().any(|x| x.is_nan()) {
            return Self::whole();
        }
        Self::outward(
            p.iter().copied().fold(f64::INFINITY, f64::min),
            p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    fn sign(&self) -> Option<Ordering> {
        if self.lo > 0.0 {
            Some(Ordering::Greater)
        } else if self.hi < 0.0 {
            Some(Ordering::Less)
        } else if self.lo == 0.0 && self.hi == 0.0 {
            Some(Ordering::Equal)
        } else {
            None
        }
    }

    fn min(&self, o: &Self) -> Self {
        Self {
            lo: self.lo.min(o.lo),
            hi: self.hi.min(o.hi),
        }
    }

    /// When the signs of `b` and `b + c` settle where the least value is (`s = 0`, `s = 1` or
    /// inside), that value; otherwise the enclosure from `min(a, q)` above and, below, `0`,
    /// `a − 2|b|` (as `2sb >= −2|b|` and `cs² >= 0` on `[0, 1]`) and, when `c > 0`, the
    /// unconstrained least value `a − b²/c`. Near a settled case these bounds meet.
    fn quadratic_min(a: &Self, b: &Self, c: &Self, q: &Self) -> Option<Self> {
        let b_sign = b.sign();
        let bc_sign = b.add(c).sign();
        let c_sign = c.sign();
        if matches!(b_sign, Some(Ordering::Greater | Ordering::Equal)) {
            return Some(*a);
        }
        if matches!(bc_sign, Some(Ordering::Less | Ordering::Equal)) {
            return Some(*q);
        }
        let inner = a.sub(&b.square().div(c));
        if b_sign == Some(Ordering::Less)
            && bc_sign == Some(Ordering::Greater)
            && c_sign == Some(Ordering::Greater)
        {
            return Some(inner);
        }
        let b_abs = Self::from_f64(b.lo.abs().max(b.hi.abs()));
        let mut lo = a.sub(&b_abs.add(&b_abs)).lo.max(0.0);
        if c_sign == Some(Ordering::Greater) {
            lo = lo.max(inner.lo);
        }
        let hi = a.hi.min(q.hi);
        (lo <= hi).then_some(Self { lo, hi })
    }
}

impl Field for BigRational {
    fn from_f64(x: f64) -> Self {
        BigRational::from_float(x).expect("finite value")
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn div(&self, o: &Self) -> Self {
        self / o
    }
    fn sign(&self) -> Option<Ordering> {
        Some(if self.is_positive() {
            Ordering::Greater
        } else if self.is_negative() {
            Ordering::Less
        } else {
            Ordering::Equal
        })
    }
    fn min(&self, o: &Self) -> Self {
        if o < self {
            o.clone()
        } else {
            self.clone()
        }
    }
    /// Exactly: at `s = 0` if `b >= 0`, at `s = 1` if `b + c <= 0`, else at `s = −b/c`.
    fn quadratic_min(a: &Self, b: &Self, c: &Self, q: &Self) -> Option<Self> {
        if !b.is_negative() {
            return Some(a.clone());
        }
        let bc = b + c;
        if !bc.is_positive() {
            return Some(q.clone());
        }
        debug_assert!(!c.is_zero());
        Some(a - b * b / c)
    }
}

/// A vector of three field values.
pub(super) type V3<T> = [T; 3];

pub(super) fn v3<T: Field>(p: &[f64; 3]) -> V3<T> {
    [T::from_f64(p[0]), T::from_f64(p[1]), T::from_f64(p[2])]
}

/// A point's coordinates as field values.
pub(super) fn point3<T: Field>(p: &crate::Point) -> V3<T> {
    v3(&[p.x, p.y, p.z])
}

pub(super) fn sub3<T: Field>(a: &V3<T>, b: &V3<T>) -> V3<T> {
    [a[0].sub(&b[0]), a[1].sub(&b[1]), a[2].sub(&b[2])]
}

pub(super) fn dot3<T: Field>(a: &V3<T>, b: &V3<T>) -> T {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}

pub(super) fn cross3<T: Field>(a: &V3<T>, b: &V3<T>) -> V3<T> {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}

/// `a + λ·(b − a)`.
pub(super) fn lerp3<T: Field>(a: &V3<T>, b: &V3<T>, lambda: &T) -> V3<T> {
    std::array::from_fn(|i| a[i].add(&lambda.mul(&b[i].sub(&a[i]))))
}

/// Whether a sign is `<= 0` / `> 0`, when known.
pub(super) fn at_most_zero<T: Field>(x: &T) -> Option<bool> {
    x.sign().map(|s| s != Ordering::Greater)
}

/// The power of two (as two factors, see
/// [`power_of_two_factors`](crate::range::power_of_two_factors)) that brings the largest
/// magnitude of `values` to `[0.5, 1)`: scaling every input of a test by it changes no answer
/// (each test is homogeneous in its lengths) and keeps the filter's intervals, of degree up to
/// 8 in the inputs, clear of overflow. On the exact range it is exact: nonzero inputs are at
/// least `2⁻³⁰⁶` and the largest at most `2³³⁹` in magnitude, so the scaled ones stay at least
/// `2⁻⁶⁴⁶`, normal.
pub(super) fn normalizing_factors(values: impl IntoIterator<Item = f64>) -> [f64; 2] {
    let largest = values.into_iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    if largest == 0.0 || !largest.is_finite() {
        return [1.0, 1.0];
    }
    crate::range::power_of_two_factors(-crate::range::binary_exponent(largest) - 1)
}

/// `x · f0 · f1` when both products are exact (no result or intermediate subnormal, none
/// infinite), else `None`. For inputs outside the exact range, where
/// [`normalizing_factors`] alone does not guarantee it.
pub(super) fn exactly_scaled(x: f64, [f0, f1]: [f64; 2]) -> Option<f64> {
    let normal = |y: f64| y.is_finite() && (y == 0.0 || y.abs() >= f64::MIN_POSITIVE);
    let m = x * f0;
    let y = m * f1;
    (normal(m) && normal(y) && (y == 0.0) == (x == 0.0)).then_some(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interval ends enclose the rational value of a few ill-conditioned expressions.
    #[test]
    fn intervals_enclose() {
        let x = Interval::from_f64(0.1);
        let y = Interval::from_f64(1e300);
        let s = x.add(&y).sub(&y);
        assert!(s.lo <= 0.1 && 0.1 <= s.hi);
        let z = y.mul(&y);
        assert_eq!(z.hi, f64::INFINITY);
        assert_eq!(z.sub(&z).sign(), None);
        let tiny = Interval::from_f64(1e-200);
        let p = tiny.mul(&tiny);
        assert!(p.lo < 0.0 && p.hi > 0.0 && p.sign().is_none());
        let third = Interval::from_f64(1.0).div(&Interval::from_f64(3.0));
        assert_eq!(
            third
                .mul(&Interval::from_f64(3.0))
                .sub(&Interval::from_f64(1.0))
                .sign(),
            None
        );
        assert_eq!(Interval::from_f64(0.0).sign(), Some(Ordering::Equal));
    }
}
