//! The float filter in front of the exact path: certified floating-point proofs that settle
//! most queries. It answers only what it proves (a miss, or a hit with its time of impact);
//! everything else goes to the exact path, so it never changes an answer.
//!
//! 1. **Swept boxes.** Motion is linear, so over `[0, 1]` each coordinate of a point stays
//!    between its two end values, and a triangle or segment stays inside the box of its
//!    vertices' end values. Disjoint boxes on one axis prove no contact; the comparisons are of
//!    the inputs themselves, hence exact.
//! 2. **The coplanarity cubic's sign.** `f(t) = u(t)·(v(t) × w(t))` with `u, v, w` the moving
//!    differences (each linear in `t`) is a cubic whose Bernstein coefficients on `[0, 1]` are
//!    the values of its blossom, averages of the eight triple products `u_i·(v_j × w_k)` of the
//!    end differences (`i, j, k ∈ {0, 1}`; Farin, "Curves and Surfaces for CAGD", ch. 3 on
//!    blossoms). If all four have one strict sign, so has `f` on `[0, 1]` (the Bernstein basis
//!    is a nonnegative partition of unity): the points are never coplanar. Each triple product
//!    is computed as Shewchuk's orient3d determinant of rounded differences, so its error is
//!    at most `(7 + 56ε)ε` times its permanent (Shewchuk, "Adaptive precision floating-point
//!    arithmetic and fast robust geometric predicates", 1997); see [`triple`] for the margin
//!    taken here, and for underflow.
//! 3. **The inside test's signs.** At a contact the polynomials of the exact inside test have
//!    known signs: for vertex–face `n·((b − a) × (v − a)) ≥ 0` for each edge `ab`
//!    (`n = (f1 − f0) × (f2 − f0)`; `|n|²` times a barycentric coordinate), for edge–edge
//!    `0 ≤ S ≤ M` and `0 ≤ U ≤ M` (see `edge_edge.rs`; all zero when the edges are parallel).
//!    One of them certainly negative on all of `[0, 1]` proves no contact. They are formed in
//!    the basis `tᵏ(1 − t)ᵈ⁻ᵏ` (Bernstein without the binomial factors), where a product is a
//!    plain convolution of coefficients and a polynomial whose coefficients all share a strict
//!    sign has that sign on `[0, 1]`; each coefficient carries a running bound on its rounding
//!    error ([`Approx`], Higham, "Accuracy and Stability of Numerical Algorithms", 2002, §3.3).
//! 4. **A transversal crossing inside.** If the cubic's four coefficients have certified signs
//!    with exactly one sign change, it has exactly one root `t*` in `(0, 1)` and none at the
//!    ends (Descartes' rule of signs in the Bernstein basis). A float estimate of `t*` (Newton's
//!    method) gives a bracket `[lo, hi]` at most `2⁻⁴¹` wide; the cubic's certified signs at
//!    `lo` and `hi` prove `t* ∈ [lo, hi]`. If every inside-test polynomial of step 3 is
//!    certainly positive on all of `[lo, hi]` (its value at `lo` less its error and its largest
//!    change over the bracket, bounded by its derivative), the pair is in contact at `t*`,
//!    strictly inside, and at no earlier time (the four points are not coplanar before `t*`):
//!    a hit with the time of impact `[lo, hi]`.

use super::TimeOfImpact;
use crate::predicates::{underflow_bound, UNDERFLOW_ERROR};
use crate::{Point, Vector};

/// What the filter proved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Verdict {
    /// No contact on `[0, 1]`.
    Miss,
    /// Contact, earliest within this interval.
    Hit(TimeOfImpact),
    /// Nothing: the exact path decides.
    Undecided,
}

/// The filter's verdict on the point `start[0]` against the triangle of the other three.
#[inline]
pub(super) fn vertex_face(start: &[Point; 4], end: &[Point; 4]) -> Verdict {
    verdict(start, end, 1, barycentric_numerators)
}

/// The filter's verdict on the segment of `start[0..2]` against that of `start[2..4]`.
#[inline]
pub(super) fn edge_edge(start: &[Point; 4], end: &[Point; 4]) -> Verdict {
    verdict(start, end, 2, crossing_parameters)
}

/// The four steps of the module docs for the primitives `start[..split]` and `start[split..]`,
/// whose inside test's polynomials `inside` forms.
#[inline(always)]
fn verdict<const N: usize>(
    start: &[Point; 4],
    end: &[Point; 4],
    split: usize,
    inside: fn(&[Point; 4], &[Point; 4]) -> [Bernstein; N],
) -> Verdict {
    if swept_boxes_apart(start, end, split) {
        return Verdict::Miss;
    }
    let f = coplanarity(start, end);
    if f.sign().is_some() {
        return Verdict::Miss;
    }
    let crossing = || single_crossing(&f, |t| coplanarity_at(start, end, t));
    inside_test(&inside(start, end), crossing)
}

/// Steps 3 and 4 of the module docs, for the polynomials `inside`, all `≥ 0` at a contact, and
/// the bracket of the coplanarity cubic's only root in `[0, 1]` that `crossing` proves, if any.
#[inline(never)]
fn inside_test<const N: usize>(
    inside: &[Bernstein; N],
    crossing: impl FnOnce() -> Option<[f64; 2]>,
) -> Verdict {
    if inside.iter().any(|p| p.sign() == Some(-1)) {
        return Verdict::Miss;
    }
    let Some([lo, hi]) = crossing() else {
        return Verdict::Undecided;
    };
    let signs = inside.each_ref().map(|p| p.sign_on(lo, hi));
    if signs.iter().all(|&s| s == Some(1)) {
        Verdict::Hit(TimeOfImpact { lo, hi })
    } else if signs.contains(&Some(-1)) {
        // The only candidate time is the root, in `[lo, hi]`, where the test fails.
        Verdict::Miss
    } else {
        Verdict::Undecided
    }
}

/// Whether, on some axis, the swept range of points `..split` and that of points `split..` are
/// disjoint.
#[inline]
fn swept_boxes_apart(start: &[Point; 4], end: &[Point; 4], split: usize) -> bool {
    let swept = |i: usize| {
        (
            start[i].coords.inf(&end[i].coords),
            start[i].coords.sup(&end[i].coords),
        )
    };
    let hull = |points: std::ops::Range<usize>| {
        let first = swept(points.start);
        points
            .skip(1)
            .map(swept)
            .fold(first, |(lo, hi), (l, h)| (lo.inf(&l), hi.sup(&h)))
    };
    let ((lo_a, hi_a), (lo_b, hi_b)) = (hull(0..split), hull(split..4));
    (0..3).any(|k| hi_a[k] < lo_b[k] || hi_b[k] < lo_a[k])
}

/// The coplanarity cubic `f(t) = (x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))` in the basis
/// `tᵏ(1 − t)³⁻ᵏ`: its coefficients are sums of the triple products of the end differences
/// (step 2 of the module docs), with their error bounds.
#[inline]
fn coplanarity(start: &[Point; 4], end: &[Point; 4]) -> Bernstein {
    let differences = |x: &[Point; 4]| [x[1] - x[0], x[2] - x[0], x[3] - x[0]];
    let ([u0, v0, w0], [u1, v1, w1]) = (differences(start), differences(end));
    let t = |u: &Vector, v: &Vector, w: &Vector| triple(u, v, w);
    let sum = |terms: [Approx; 3]| Approx {
        value: terms[0].value + terms[1].value + terms[2].value,
        error: (terms[0].error + terms[1].error + terms[2].error) * SUM_MARGIN,
    };
    let c = [
        t(&u0, &v0, &w0),
        sum([t(&u1, &v0, &w0), t(&u0, &v1, &w0), t(&u0, &v0, &w1)]),
        sum([t(&u0, &v1, &w1), t(&u1, &v0, &w1), t(&u1, &v1, &w0)]),
        t(&u1, &v1, &w1),
        Approx::default(),
    ];
    Bernstein { c, degree: 3 }
}

/// `u·(v × w)` in floating point and a bound on its error against the exact triple product of
/// the exact differences the rounded `u, v, w` stand for: [`TRIPLE_MARGIN`] times the permanent
/// `Σ |uᵢ| (|vⱼ wₖ| + |vₖ wⱼ|)`, plus [`UNDERFLOW_ERROR`]` · (|u|₁ + 1)` for products that
/// land among the subnormals (as in [`orient3d`](crate::predicates::orient3d)). A NaN or an
/// infinite value makes every comparison with the bound fail: undecided.
#[inline(always)]
fn triple(u: &Vector, v: &Vector, w: &Vector) -> Approx {
    let (a, b, c) = (v.y * w.z, v.z * w.y, v.z * w.x);
    let (d, e, f) = (v.x * w.z, v.x * w.y, v.y * w.x);
    let value = u.x * (a - b) + u.y * (c - d) + u.z * (e - f);
    let permanent = u.x.abs() * (a.abs() + b.abs())
        + u.y.abs() * (c.abs() + d.abs())
        + u.z.abs() * (e.abs() + f.abs());
    let l1 = u.x.abs() + u.y.abs() + u.z.abs();
    let error = TRIPLE_MARGIN * permanent + underflow_bound(l1);
    Approx { value, error }
}

/// `8ε` (`ε = 2⁻⁵³`, the unit roundoff): Shewchuk's `o3derrboundA = (7 + 56ε)ε` with room
/// for the permanent's own rounding.
const TRIPLE_MARGIN: f64 = 4.0 * f64::EPSILON;

/// The factor on the summed bounds of three triple products: their two additions err by at most
/// `2ε` of the sum of the magnitudes, which are at most the permanents (up to `8ε`), i.e. by at
/// most a quarter of the summed `8ε · permanent` bounds; `1.5` leaves room for the rounding of
/// the bounds themselves.
const SUM_MARGIN: f64 = 1.5;

/// `n·((b − a) × (v − a))` for the face's edges `ab` (`n = (f1 − f0) × (f2 − f0)`): `|n|²`
/// times the vertex's barycentric coordinates when coplanar (step 3 of the module docs).
fn barycentric_numerators(start: &[Point; 4], end: &[Point; 4]) -> [Bernstein; 3] {
    let [v, f0, f1, f2] = moving(start, end);
    let n = cross(&sub(&f1, &f0), &sub(&f2, &f0));
    [[&f0, &f1], [&f1, &f2], [&f2, &f0]].map(|[a, b]| dot(&n, &cross(&sub(b, a), &sub(&v, a))))
}

/// `S, U, M − S, M − U` of `edge_edge.rs` (`M = |m|²`, `m = (a1 − a0) × (b1 − b0)`):
/// `|m|²` times the crossing point's parameters on the two edges and their complements, when
/// coplanar and not parallel (step 3 of the module docs).
fn crossing_parameters(start: &[Point; 4], end: &[Point; 4]) -> [Bernstein; 4] {
    let [a0, a1, b0, b1] = moving(start, end);
    let (a, b, d) = (sub(&a1, &a0), sub(&b1, &b0), sub(&b0, &a0));
    let m = cross(&a, &b);
    let scale = dot(&m, &m);
    let (s, u) = (dot(&cross(&d, &b), &m), dot(&cross(&d, &a), &m));
    [s, u, scale.sub(&s), scale.sub(&u)]
}

/// The bracket `[lo, hi]` (step 4 of the module docs) of the only root of the cubic `f` in
/// `(0, 1)`, if its coefficients prove there is exactly one and its values at the bracket's
/// ends, `value_at` (with error bounds), prove that the bracket contains it.
fn single_crossing(f: &Bernstein, value_at: impl Fn(f64) -> Approx) -> Option<[f64; 2]> {
    let mut signs = [0i8; COEFFICIENTS];
    for (sign, a) in signs.iter_mut().zip(&f.c[..=f.degree]) {
        *sign = a.sign()?;
    }
    let signs = &signs[..=f.degree];
    if signs.windows(2).filter(|w| w[0] != w[1]).count() != 1 {
        return None;
    }
    let root = f.newton_root()?;
    let (lo, hi) = ((root - BRACKET).max(0.0), (root + BRACKET).min(1.0));
    let proven = value_at(lo).sign() == Some(signs[0]) && value_at(hi).sign() == Some(-signs[0]);
    (proven && hi - lo <= 1e-12).then_some([lo, hi])
}

/// Half the width of a hit's bracket: `hi − lo ≤ 2·BRACKET` plus two roundings of the ends
/// (a few `10⁻¹⁶`), checked to be at most `10⁻¹²`.
const BRACKET: f64 = 4.9e-13;

/// The coplanarity cubic's value at `t`, with its error bound, from the points' positions at
/// `t` (more accurate near a root than the Bernstein coefficients' bounds allow).
fn coplanarity_at(start: &[Point; 4], end: &[Point; 4], t: f64) -> Approx {
    let t = Approx::exact(t);
    let position = |i: usize, k: usize| {
        let (a, b) = (Approx::exact(start[i][k]), Approx::exact(end[i][k]));
        a.add(t.mul(b.sub(a)))
    };
    let x: [[Approx; 3]; 4] = std::array::from_fn(|i| std::array::from_fn(|k| position(i, k)));
    let difference = |i: usize| -> [Approx; 3] { std::array::from_fn(|k| x[i][k].sub(x[0][k])) };
    let (u, v, w) = (difference(1), difference(2), difference(3));
    (0..3).fold(Approx::default(), |acc, i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        acc.add(u[i].mul(v[j].mul(w[k]).sub(v[k].mul(w[j]))))
    })
}

/// The unit roundoff `2⁻⁵³`.
const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// A float and a bound on its distance to the exact value it stands for, kept through each
/// operation: the propagated input errors plus the operation's own rounding (`u·|result|`, and
/// [`UNDERFLOW_ERROR`] for a product that may be subnormal). The bounds are themselves rounded,
/// down by at most a factor `(1 − u)` per operation; [`Approx::sign`] inflates
/// them to cover that.
#[derive(Clone, Copy, Debug, Default)]
struct Approx {
    value: f64,
    error: f64,
}

impl Approx {
    fn exact(value: f64) -> Self {
        Self { value, error: 0.0 }
    }

    fn add(self, o: Self) -> Self {
        let value = self.value + o.value;
        let error = self.error + o.error + UNIT_ROUNDOFF * value.abs();
        Self { value, error }
    }

    fn sub(self, o: Self) -> Self {
        self.add(Self {
            value: -o.value,
            error: o.error,
        })
    }

    /// The certified sign of the exact value: `None` when the error bound (inflated by
    /// [`ERROR_INFLATION`]) does not exclude zero, or for NaN and infinities.
    fn sign(self) -> Option<i8> {
        let margin = self.error * ERROR_INFLATION;
        if self.value > margin {
            Some(1)
        } else if self.value < -margin {
            Some(-1)
        } else {
            None
        }
    }

    fn mul(self, o: Self) -> Self {
        let value = self.value * o.value;
        let propagated = self.value.abs() * o.error + o.value.abs() * self.error;
        let error =
            propagated + self.error * o.error + UNIT_ROUNDOFF * value.abs() + UNDERFLOW_ERROR;
        Self { value, error }
    }
}

/// The most coefficients a polynomial here has (degree 4).
const COEFFICIENTS: usize = 5;

/// A polynomial of degree `degree ≤ 4` as its coefficients `c_k` in the basis
/// `t^k (1 − t)^(degree − k)`, each with its error bound.
#[derive(Clone, Copy, Debug)]
struct Bernstein {
    c: [Approx; COEFFICIENTS],
    degree: usize,
}

/// Enough to cover the rounding of the error bounds (a factor `(1 − u)` per operation, a few
/// dozen operations deep).
const ERROR_INFLATION: f64 = 1.0 + 1e-12;

impl Bernstein {
    /// Linear motion from `start` to `end`.
    fn linear(start: f64, end: f64) -> Self {
        let mut c = [Approx::default(); COEFFICIENTS];
        c[..2].copy_from_slice(&[Approx::exact(start), Approx::exact(end)]);
        Self { c, degree: 1 }
    }

    /// `self − o`, of the same degree.
    fn sub(&self, o: &Self) -> Self {
        let mut c = self.c;
        c.iter_mut().zip(&o.c).for_each(|(x, y)| *x = x.sub(*y));
        Self { c, ..*self }
    }

    /// `self + o`, of the same degree.
    fn add(&self, o: &Self) -> Self {
        let mut c = self.c;
        c.iter_mut().zip(&o.c).for_each(|(x, y)| *x = x.add(*y));
        Self { c, ..*self }
    }

    /// The product: in this basis a convolution of the coefficients.
    fn mul(&self, o: &Self) -> Self {
        let degree = self.degree + o.degree;
        let mut c = [Approx::default(); COEFFICIENTS];
        for (i, x) in self.c[..=self.degree].iter().enumerate() {
            for (j, y) in o.c[..=o.degree].iter().enumerate() {
                c[i + j] = c[i + j].add(x.mul(*y));
            }
        }
        Self { c, degree }
    }

    /// The sign every coefficient certainly has, which the polynomial then has on all of
    /// `[0, 1]`; `None` if there is none.
    fn sign(&self) -> Option<i8> {
        let mut signs = self.c[..=self.degree].iter().map(|a| a.sign());
        let first = signs.next()??;
        signs.all(|s| s == Some(first)).then_some(first)
    }

    /// The value at `t` (taken as exact) with its error bound.
    fn value_at(&self, t: f64) -> Approx {
        let (t, s) = (Approx::exact(t), Approx::exact(1.0).sub(Approx::exact(t)));
        let power = |x: Approx, k: usize| (0..k).fold(Approx::exact(1.0), |p, _| p.mul(x));
        let terms = self.c[..=self.degree].iter().enumerate();
        let terms = terms.map(|(k, c)| c.mul(power(t, k)).mul(power(s, self.degree - k)));
        terms.fold(Approx::default(), Approx::add)
    }

    /// The sign the polynomial certainly has on all of `[lo, hi]`: that of its value at `lo`
    /// if it exceeds its error plus `(hi − lo)` times a bound on the derivative, `2d·max|c_k|`
    /// (the derivative of `Σ b_k C(d,k) tᵏ(1 − t)ᵈ⁻ᵏ` is `d Σ (b_{k+1} − b_k) C(d−1,k)
    /// tᵏ(1 − t)ᵈ⁻¹⁻ᵏ`, and `|b_k| ≤ |c_k|`).
    fn sign_on(&self, lo: f64, hi: f64) -> Option<i8> {
        let c = &self.c[..=self.degree];
        let largest = c.iter().fold(0.0f64, |m, a| m.max(a.value.abs() + a.error));
        let change = 2.0 * self.degree as f64 * largest * (hi - lo);
        let at_lo = self.value_at(lo);
        Approx {
            error: at_lo.error + change,
            ..at_lo
        }
        .sign()
    }

    /// A float estimate of a root in `[0, 1]` by Newton's method from the secant of the end
    /// values; `None` if it leaves the interval or does not settle.
    fn newton_root(&self) -> Option<f64> {
        let values = self.c.map(|a| a.value);
        let c = &values[..=self.degree];
        let (first, last) = (c[0], c[self.degree]);
        let mut t = first / (first - last);
        for _ in 0..NEWTON_STEPS {
            let (value, slope) = value_and_slope(c, t);
            let step = value / slope;
            t -= step;
            if !(0.0..=1.0).contains(&t) {
                return None;
            }
            if step.abs() < BRACKET / 4.0 {
                return Some(t);
            }
        }
        None
    }
}

/// The most Newton steps [`Bernstein::newton_root`] takes.
const NEWTON_STEPS: usize = 12;

/// `p(t)` and `p'(t)` in floating point, `p = Σ c_k tᵏ(1 − t)ᵈ⁻ᵏ`.
fn value_and_slope(c: &[f64], t: f64) -> (f64, f64) {
    let (d, s) = (c.len() - 1, 1.0 - t);
    let power = |x: f64, k: usize| if k == 0 { 1.0 } else { x.powi(k as i32) };
    c.iter().enumerate().fold((0.0, 0.0), |(v, dv), (k, &ck)| {
        let term = power(t, k) * power(s, d - k);
        let rise = if k > 0 {
            k as f64 * power(t, k - 1) * power(s, d - k)
        } else {
            0.0
        };
        let fall = if k < d {
            (d - k) as f64 * power(t, k) * power(s, d - k - 1)
        } else {
            0.0
        };
        (v + ck * term, dv + ck * (rise - fall))
    })
}

/// A moving point or vector: one [`Bernstein`] polynomial per coordinate.
type Track = [Bernstein; 3];

/// The four points moving linearly from `start` to `end`.
fn moving(start: &[Point; 4], end: &[Point; 4]) -> [Track; 4] {
    std::array::from_fn(|i| std::array::from_fn(|k| Bernstein::linear(start[i][k], end[i][k])))
}

fn sub(a: &Track, b: &Track) -> Track {
    std::array::from_fn(|i| a[i].sub(&b[i]))
}

fn cross(a: &Track, b: &Track) -> Track {
    std::array::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        a[j].mul(&b[k]).sub(&a[k].mul(&b[j]))
    })
}

fn dot(a: &Track, b: &Track) -> Bernstein {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccd::{edge_edge as edge_edge_path, vertex_face as vertex_face_path};
    use rand::{Rng, SeedableRng};

    /// Four points near each other and their positions a small step later, on a coarse dyadic
    /// grid (touching and coplanar often) or in general position.
    fn query(rng: &mut rand_pcg::Pcg64, grid: bool) -> ([Point; 4], [Point; 4]) {
        let mut coordinate = |scale: f64| {
            let x: f64 = rng.gen_range(-1.0..1.0);
            scale * if grid { (x * 4.0).round() / 4.0 } else { x }
        };
        let start: [Point; 4] =
            std::array::from_fn(|_| Point::new(coordinate(1.0), coordinate(1.0), coordinate(1.0)));
        let step = Vector::new(coordinate(0.5), coordinate(0.5), coordinate(0.5));
        let end = start
            .map(|p| p + step + Vector::new(coordinate(0.5), coordinate(0.5), coordinate(0.5)));
        (start, end)
    }

    #[test]
    fn the_filter_never_contradicts_the_exact_path() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut decided = [[0; 2]; 2];
        for i in 0..3000 {
            let (start, end) = query(&mut rng, i % 2 == 0);
            let cases = [
                (
                    vertex_face(&start, &end),
                    vertex_face_path::exact(&start, &end),
                ),
                (edge_edge(&start, &end), edge_edge_path::exact(&start, &end)),
            ];
            for (k, (verdict, exact)) in cases.into_iter().enumerate() {
                match (verdict, exact) {
                    (Verdict::Miss, None) => decided[k][0] += 1,
                    (Verdict::Hit(t), Some(e)) => {
                        assert!(t.lo <= e.hi && e.lo <= t.hi && t.hi - t.lo <= 1e-12);
                        decided[k][1] += 1;
                    }
                    (Verdict::Undecided, _) => {}
                    _ => panic!("{verdict:?} but exactly {exact:?}: {start:?} {end:?}"),
                }
            }
        }
        assert!(
            decided.iter().all(|d| d[0] > 1000 && d[1] > 20),
            "{decided:?}"
        );
    }
}
