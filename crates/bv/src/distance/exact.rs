//! Exact squared distances as fractions of big integers, for the decisions the float filters
//! leave open ([`super::tri_tri::within`]) and for [`super::tri_tri::exact_distance_squared`].
//!
//! Vertices enter as integers with one common power-of-two exponent
//! ([`crate::predicates::exact::integers`]), so every squared distance between points, segments
//! and triangles is a quotient of integer polynomials in them: no rational normalisation is
//! needed until the end, and comparisons are cross-multiplications.

use crate::predicates::exact::Z3;
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::Zero;

/// The non-negative number `num / den` (`den > 0`).
#[derive(Clone, Debug)]
pub(crate) struct Fraction {
    num: BigInt,
    den: BigInt,
}

impl Fraction {
    /// `num / den` for `den > 0`.
    pub(crate) fn new(num: BigInt, den: BigInt) -> Self {
        debug_assert!(den.sign() == Sign::Plus);
        Self { num, den }
    }

    /// The integer `num`.
    pub(crate) fn integer(num: BigInt) -> Self {
        Self::new(num, BigInt::from(1))
    }

    /// `self < other`.
    pub(crate) fn less(&self, other: &Self) -> bool {
        &self.num * &other.den < &other.num * &self.den
    }

    /// The smaller of `self` and `other`.
    pub(crate) fn min(self, other: Self) -> Self {
        if other.less(&self) {
            other
        } else {
            self
        }
    }

    /// The smallest of a non-empty list.
    pub(crate) fn least(all: impl IntoIterator<Item = Self>) -> Self {
        all.into_iter()
            .reduce(Self::min)
            .expect("a non-empty list of candidates")
    }

    /// `self · 4^exponent` as a reduced rational: the squared distance of points whose integer
    /// coordinates carry the common factor `2^exponent`.
    pub(crate) fn scaled_rational(self, exponent: i32) -> BigRational {
        let shift = 2 * exponent.unsigned_abs() as usize;
        if exponent >= 0 {
            BigRational::new(self.num << shift, self.den)
        } else {
            BigRational::new(self.num, self.den << shift)
        }
    }

    /// Whether `self · 4^exponent <= d²` exactly, for finite `d >= 0`.
    pub(crate) fn scaled_at_most_squared(&self, exponent: i32, d: f64) -> bool {
        let (mantissa, e, _) = num_traits::Float::integer_decode(d);
        let m = BigInt::from(mantissa);
        // With d = m·2^e: self·4^E <= m²·4^e  <=>  num·4^(E - e) <= m²·den.
        let (left, right) = (&self.num, &m * &m * &self.den);
        let shift = i64::from(exponent) - i64::from(e);
        if shift >= 0 {
            (left << (2 * shift as usize)) <= right
        } else {
            *left <= (right << (2 * (-shift) as usize))
        }
    }
}

/// `0 <= num <= den` for `den > 0`: the exact fraction lies in `[0, 1]`.
pub(crate) fn in_unit_interval(num: &BigInt, den: &BigInt) -> bool {
    num.sign() != Sign::Minus && num <= den
}

/// Whether every coordinate is zero.
pub(crate) fn is_zero(v: &Z3) -> bool {
    v.iter().all(Zero::is_zero)
}
