//! Exact polynomials in the time `t` with integer coefficients, the isolation of their roots in
//! `[0, 1]`, and the exact sign of another polynomial at such a root.
//!
//! * Root isolation is the Descartes method of Collins and Akritas ("Polynomial real root
//!   isolation using Descartes' rule of signs", SYMSAC 1976) on dyadic subintervals of
//!   `[0, 1]`: the number of sign variations of the polynomial mapped from the interval to
//!   `(0, ∞)` bounds the number of roots inside it and has the same parity; zero variations
//!   prove no root, one proves exactly one. Bisection of a square-free polynomial ends (Vincent's
//!   theorem), and a midpoint that is a root is reported exactly.
//! * The sign of `g` at a root `r` of the square-free `p`, isolated in `(lo, hi)`: `g(r) = 0`
//!   iff `gcd(p, g)` changes sign on `(lo, hi)` (its roots are among `p`'s, and `r` is the only
//!   one there); otherwise the interval is bisected around `r` until Descartes' rule proves that
//!   `g` has no root in it, and `g`'s sign at the midpoint is its sign at `r`. This is the
//!   classical way of computing with real algebraic numbers (Sturm-free variant of the sign
//!   determination in Basu, Pollack & Roy, "Algorithms in Real Algebraic Geometry", ch. 10).
//!
//! Everything is exact integer arithmetic (`num-bigint`): evaluation at a dyadic `n / 2ᵏ` is
//! the homogenised Horner sum `Σ cᵢ nⁱ 2ᵏ⁽ᵈ⁻ⁱ⁾`, which has the sign of the value.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::ops::{Add, Mul, Neg, Sub};

/// A polynomial `Σ cᵢ tⁱ` with integer coefficients, lowest degree first, without trailing
/// zero coefficients (the zero polynomial has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Poly(Vec<BigInt>);

/// The dyadic number `num / 2^exp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dyadic {
    num: BigInt,
    exp: u32,
}

/// The closed interval `[lo / 2^exp, hi / 2^exp]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Interval {
    lo: BigInt,
    hi: BigInt,
    exp: u32,
}

/// An instant of `[0, 1]` given exactly: a dyadic number, or the only root of a square-free
/// polynomial inside an open interval whose ends are not roots.
#[derive(Clone, Debug)]
pub(crate) enum Time {
    /// Exactly this dyadic number.
    At(Dyadic),
    /// The root of `poly` in the open `interval`, at whose ends `poly` has opposite signs.
    Root {
        /// Square-free, of degree at least 1.
        poly: Poly,
        /// Contains exactly one root of `poly`, strictly inside.
        interval: Interval,
    },
}

impl Poly {
    /// The constant `c`.
    pub fn constant(c: BigInt) -> Self {
        Self(vec![c]).trimmed()
    }

    /// The constant 1.
    pub fn one() -> Self {
        Self::constant(BigInt::one())
    }

    /// The linear motion from `start` (at `t = 0`) to `end` (at `t = 1`).
    pub fn linear(start: &BigInt, end: &BigInt) -> Self {
        Self(vec![start.clone(), end - start]).trimmed()
    }

    fn trimmed(mut self) -> Self {
        while self.0.last().is_some_and(Zero::is_zero) {
            self.0.pop();
        }
        self
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The degree; 0 for constants including zero.
    fn degree(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    fn lead(&self) -> &BigInt {
        self.0.last().expect("a nonzero polynomial")
    }

    fn derivative(&self) -> Self {
        let c = self.0.iter().enumerate().skip(1);
        Self(c.map(|(i, c)| c * BigInt::from(i)).collect()).trimmed()
    }

    /// Divided by the gcd of its coefficients, with a positive leading coefficient: the same
    /// roots, smaller numbers.
    fn primitive(self) -> Self {
        let Some(lead) = self.0.last() else {
            return self;
        };
        let content = self.0.iter().fold(BigInt::zero(), |g, c| g.gcd(c));
        let content = if lead.is_negative() {
            -content
        } else {
            content
        };
        Self(self.0.iter().map(|c| c / &content).collect())
    }

    /// `(q, r)` with `lead(b)^(deg a − deg b + 1) · a = q·b + r`, `deg r < deg b` (pseudo-division:
    /// stays in the integers).
    fn pseudo_divide(&self, b: &Self) -> (Self, Self) {
        let (da, db) = (self.degree(), b.degree());
        if self.is_zero() || da < db {
            return (Self(Vec::new()), self.clone());
        }
        let lead = b.lead();
        let (mut q, mut r) = (vec![BigInt::zero(); da - db + 1], self.0.clone());
        for k in (0..=da - db).rev() {
            let c = r[db + k].clone();
            r.iter_mut().chain(q.iter_mut()).for_each(|x| *x *= lead);
            q[k] += &c;
            for (j, bj) in b.0.iter().enumerate() {
                r[j + k] -= &c * bj;
            }
        }
        (Self(q).trimmed(), Self(r).trimmed())
    }

    /// The greatest common divisor up to a constant factor (Euclid's pseudo-remainder
    /// sequence), or a constant when there is no common root. The degrees here are at most 4,
    /// so the coefficients' growth over the few steps costs less than removing their contents
    /// (big-integer gcds) would.
    fn gcd(&self, other: &Self) -> Self {
        let (mut a, mut b) = (self.clone(), other.clone());
        if a.degree() < b.degree() {
            std::mem::swap(&mut a, &mut b);
        }
        while !b.is_zero() {
            let r = a.pseudo_divide(&b).1;
            a = std::mem::replace(&mut b, r);
        }
        a
    }

    /// The square-free part: the same roots, each simple. Nonzero input.
    fn square_free(&self) -> Self {
        let common = self.gcd(&self.derivative());
        if common.degree() == 0 {
            return self.clone();
        }
        self.pseudo_divide(&common).0.primitive()
    }

    /// The exact sign of the value at `x`.
    pub fn sign_at(&self, x: &Dyadic) -> i8 {
        let d = self.degree();
        let mut acc = BigInt::zero();
        for (i, c) in self.0.iter().enumerate().rev() {
            acc = acc * &x.num + (c << (x.exp as usize * (d - i)));
        }
        sign(&acc)
    }

    /// `2^(exp·d) · p((lo + (hi − lo)·x) / 2^exp)`: the interval mapped onto `[0, 1]`.
    fn on_interval(&self, i: &Interval) -> Self {
        let d = self.degree();
        let map = Self(vec![i.lo.clone(), &i.hi - &i.lo]);
        let mut acc = Self(Vec::new());
        for (k, c) in self.0.iter().enumerate().rev() {
            acc = &(&acc * &map) + &Self::constant(c << (i.exp as usize * (d - k)));
        }
        acc
    }

    /// The sign variations of `(1 + y)^d · q(1 / (1 + y))` for `q` this polynomial mapped onto
    /// `[0, 1]` (Descartes' rule on the interval): an upper bound on the number of roots in the
    /// open interval, of the same parity.
    fn variations_on(&self, i: &Interval) -> usize {
        let mut c = self.on_interval(i).0;
        c.resize(self.degree() + 1, BigInt::zero());
        c.reverse();
        taylor_shift_by_one(&mut c);
        let signs = c.iter().map(sign).filter(|&s| s != 0);
        let signs: Vec<i8> = signs.collect();
        signs.windows(2).filter(|w| w[0] != w[1]).count()
    }
}

/// `c(x) ↦ c(x + 1)` in place, by repeated synthetic division.
fn taylor_shift_by_one(c: &mut [BigInt]) {
    let n = c.len();
    for i in 0..n.saturating_sub(1) {
        for j in (i..n - 1).rev() {
            let next = c[j + 1].clone();
            c[j] += next;
        }
    }
}

fn sign(x: &BigInt) -> i8 {
    crate::predicates::exact::sign(x)
}

impl Add for &Poly {
    type Output = Poly;
    fn add(self, o: &Poly) -> Poly {
        let n = self.0.len().max(o.0.len());
        let at = |p: &Poly, i: usize| p.0.get(i).cloned().unwrap_or_default();
        Poly((0..n).map(|i| at(self, i) + at(o, i)).collect()).trimmed()
    }
}

impl Neg for &Poly {
    type Output = Poly;
    fn neg(self) -> Poly {
        Poly(self.0.iter().map(|c| -c).collect())
    }
}

impl Sub for &Poly {
    type Output = Poly;
    fn sub(self, o: &Poly) -> Poly {
        self + &-o
    }
}

impl Mul for &Poly {
    type Output = Poly;
    fn mul(self, o: &Poly) -> Poly {
        if self.is_zero() || o.is_zero() {
            return Poly(Vec::new());
        }
        let mut c = vec![BigInt::zero(); self.0.len() + o.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in o.0.iter().enumerate() {
                c[i + j] += a * b;
            }
        }
        Poly(c).trimmed()
    }
}

impl Dyadic {
    /// The integer `n`.
    pub fn integer(n: i64) -> Self {
        Self {
            num: n.into(),
            exp: 0,
        }
    }

    fn rational(&self) -> BigRational {
        BigRational::new(self.num.clone(), BigInt::one() << self.exp as usize)
    }

    /// The largest `f64` at most this number.
    pub fn round_down(&self) -> f64 {
        let q = self.rational();
        let x = q.to_f64().unwrap_or(f64::NAN);
        match BigRational::from_float(x) {
            Some(y) if y > q => x.next_down(),
            _ => x,
        }
    }

    /// The smallest `f64` at least this number.
    pub fn round_up(&self) -> f64 {
        let q = self.rational();
        let x = q.to_f64().unwrap_or(f64::NAN);
        match BigRational::from_float(x) {
            Some(y) if y < q => x.next_up(),
            _ => x,
        }
    }
}

impl Interval {
    /// `[0, 1]`.
    fn unit() -> Self {
        Self {
            lo: BigInt::zero(),
            hi: BigInt::one(),
            exp: 0,
        }
    }

    fn ends(&self) -> [Dyadic; 2] {
        [&self.lo, &self.hi].map(|num| Dyadic {
            num: num.clone(),
            exp: self.exp,
        })
    }

    /// The two halves and the midpoint.
    fn bisect(&self) -> (Self, Dyadic, Self) {
        let exp = self.exp + 1;
        let (lo, mid, hi) = (&self.lo << 1, &self.lo + &self.hi, &self.hi << 1);
        let left = Self {
            lo,
            hi: mid.clone(),
            exp,
        };
        let right = Self {
            lo: mid.clone(),
            hi,
            exp,
        };
        (left, Dyadic { num: mid, exp }, right)
    }

    /// The half (or the midpoint) where `poly`, of opposite signs at the ends, vanishes.
    fn narrowed(&self, poly: &Poly) -> Result<Self, Dyadic> {
        let (left, mid, right) = self.bisect();
        match poly.sign_at(&mid) {
            0 => Err(mid),
            s if s == poly.sign_at(&self.ends()[1]) => Ok(left),
            _ => Ok(right),
        }
    }
}

/// The roots of the nonzero `p` in `[0, 1]`, each once, in increasing order.
pub(crate) fn roots_in_unit_interval(p: &Poly) -> Vec<Time> {
    let poly = p.square_free();
    let mut roots = Vec::new();
    if poly.degree() == 0 {
        return roots;
    }
    let [zero, one] = Interval::unit().ends();
    if poly.sign_at(&zero) == 0 {
        roots.push(Time::At(zero));
    }
    isolate(&poly, Interval::unit(), &mut roots);
    if poly.sign_at(&one) == 0 {
        roots.push(Time::At(one));
    }
    roots
}

/// Appends the roots of the square-free `poly` inside the open `interval`, in order.
fn isolate(poly: &Poly, interval: Interval, roots: &mut Vec<Time>) {
    let variations = poly.variations_on(&interval);
    let ends_nonzero = || interval.ends().iter().all(|e| poly.sign_at(e) != 0);
    if variations == 0 {
        return;
    }
    if variations == 1 && ends_nonzero() {
        let poly = poly.clone();
        roots.push(Time::Root { poly, interval });
        return;
    }
    let (left, mid, right) = interval.bisect();
    isolate(poly, left, roots);
    if poly.sign_at(&mid) == 0 {
        roots.push(Time::At(mid));
    }
    isolate(poly, right, roots);
}

impl Time {
    /// `t = 0`.
    pub fn zero() -> Self {
        Self::At(Dyadic::integer(0))
    }

    /// The exact sign of `g` at this instant.
    pub fn sign_of(&self, g: &Poly) -> i8 {
        match self {
            Self::At(x) => g.sign_at(x),
            Self::Root { poly, interval } => sign_at_root(g, poly, interval.clone()),
        }
    }

    /// Dyadic bounds `lo ≤ t ≤ hi` with `hi − lo ≤ 2^-precision` (equal when exact).
    pub fn enclosure(&self, precision: u32) -> [Dyadic; 2] {
        let Self::Root { poly, interval } = self else {
            let Self::At(x) = self else { unreachable!() };
            return [x.clone(), x.clone()];
        };
        let mut interval = interval.clone();
        while interval.exp < precision || &interval.hi - &interval.lo > BigInt::one() {
            match interval.narrowed(poly) {
                Ok(half) => interval = half,
                Err(root) => return [root.clone(), root],
            }
        }
        interval.ends()
    }
}

/// The sign of `g` at the root of the square-free `poly` isolated in `interval` (module docs).
fn sign_at_root(g: &Poly, poly: &Poly, mut interval: Interval) -> i8 {
    if g.is_zero() {
        return 0;
    }
    if g.variations_on(&interval) == 0 {
        // No root of `g` around `r` (the common case): no gcd needed.
        return g.sign_at(&interval.bisect().1);
    }
    let common = poly.gcd(g);
    let [lo, hi] = interval.ends();
    if common.degree() > 0 && common.sign_at(&lo) != common.sign_at(&hi) {
        return 0;
    }
    loop {
        if g.variations_on(&interval) == 0 {
            return g.sign_at(&interval.bisect().1);
        }
        match interval.narrowed(poly) {
            Ok(half) => interval = half,
            Err(root) => return g.sign_at(&root),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(c: &[i64]) -> Poly {
        Poly(c.iter().map(|&c| BigInt::from(c)).collect()).trimmed()
    }

    fn approx(t: &Time) -> f64 {
        let [lo, hi] = t.enclosure(50);
        0.5 * (lo.round_down() + hi.round_up())
    }

    #[test]
    fn roots_of_a_cubic_with_a_double_root_and_an_end_root() {
        // (3t − 1)² (t − 1)(2t − 1): roots 1/3 (double), 1/2 (a bisection point) and 1.
        let p = &(&(&poly(&[-1, 3]) * &poly(&[-1, 3])) * &poly(&[-1, 1])) * &poly(&[-1, 2]);
        let roots = roots_in_unit_interval(&p);
        let values: Vec<f64> = roots.iter().map(approx).collect();
        assert_eq!(values.len(), 3, "{values:?}");
        assert!((values[0] - 1.0 / 3.0).abs() < 1e-14);
        assert!(matches!(roots[1], Time::At(_)) && values[1] == 0.5);
        assert!(matches!(roots[2], Time::At(_)) && values[2] == 1.0);
    }

    #[test]
    fn sign_at_a_root_is_exact_for_a_shared_root() {
        let third = roots_in_unit_interval(&poly(&[-1, 3])).remove(0);
        assert_eq!(third.sign_of(&poly(&[1, -6, 9])), 0); // (3t − 1)²
        assert_eq!(third.sign_of(&poly(&[-1, 0, 9])), 0); // 9t² − 1
        assert_eq!(third.sign_of(&poly(&[-333_333, 1_000_000])), 1); // t − 0.333333
        assert_eq!(third.sign_of(&poly(&[-333_334, 1_000_000])), -1);
        assert_eq!(third.sign_of(&poly(&[])), 0);
    }

    #[test]
    fn enclosure_is_narrow_and_contains_the_root() {
        let sqrt_half = roots_in_unit_interval(&poly(&[-1, 0, 2])).remove(0);
        let [lo, hi] = sqrt_half.enclosure(40);
        let (lo, hi) = (lo.round_down(), hi.round_up());
        assert!(lo <= 0.5f64.sqrt() && 0.5f64.sqrt() <= hi && hi - lo <= 1e-12);
    }

    /// Directed rounding of dyadic numbers with more bits than an `f64` holds: `1 ± 2⁻⁶⁰`
    /// round to 1 one way and to its neighbour the other.
    #[test]
    fn dyadics_round_outwards_to_floats() {
        let one_and = |delta: i64| Dyadic {
            num: (BigInt::one() << 60usize) + delta,
            exp: 60,
        };
        assert_eq!(one_and(1).round_down(), 1.0);
        assert_eq!(one_and(1).round_up(), 1.0f64.next_up());
        assert_eq!(one_and(-1).round_down(), 1.0f64.next_down());
        assert_eq!(one_and(-1).round_up(), 1.0);
        assert_eq!(one_and(0).round_down(), 1.0);
        assert_eq!(one_and(0).round_up(), 1.0);
    }

    /// A root at a dyadic point that isolation did not land on (3/8, inside `[0, 1]` as
    /// isolated) is found exactly when the enclosure narrows onto it; a root closer to 0 than
    /// the enclosure's precision (`2⁻⁵⁰ / 3`) gets an interval starting at 0 that holds it.
    #[test]
    fn enclosures_are_exact_at_dyadic_roots_and_hold_roots_near_zero() {
        let (eighths, far) = (poly(&[-3, 8]), poly(&[-2, 1])); // 8t − 3, t − 2
        let three_eighths = roots_in_unit_interval(&(&eighths * &far)).remove(0);
        assert!(matches!(three_eighths, Time::Root { .. }));
        let [lo, hi] = three_eighths.enclosure(40);
        assert_eq!((lo.round_down(), hi.round_up()), (0.375, 0.375));
        let slope = BigInt::from(3) << 50usize;
        let near_zero = Poly(vec![BigInt::from(-1), slope.clone()]); // 3·2⁵⁰ t − 1
        let root = BigRational::new(BigInt::one(), slope);
        let [lo, hi] = roots_in_unit_interval(&near_zero).remove(0).enclosure(40);
        assert!(lo.rational() <= root && root <= hi.rational());
        assert!(
            hi.rational() - lo.rational()
                <= BigRational::new(BigInt::one(), BigInt::one() << 40usize)
        );
    }
}
