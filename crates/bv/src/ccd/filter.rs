//! The float filter in front of the exact path: proofs of "no contact" that cost a few dozen
//! floating-point operations. It never answers "contact", so it cannot change an answer.
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

use crate::predicates::UNDERFLOW_ERROR;
use crate::{Point, Vector};

/// Whether the filter proves that the point `start[0]` never meets the triangle of the other
/// three (see the module docs).
#[inline]
pub(super) fn rules_out_vertex_face(start: &[Point; 4], end: &[Point; 4]) -> bool {
    swept_boxes_apart(start, end, 1) || never_coplanar(start, end) || vertex_outside(start, end)
}

/// Whether the filter proves that the segment of `start[0..2]` never meets that of `start[2..4]`.
#[inline]
pub(super) fn rules_out_edge_edge(start: &[Point; 4], end: &[Point; 4]) -> bool {
    swept_boxes_apart(start, end, 2)
        || never_coplanar(start, end)
        || lines_cross_outside(start, end)
}

/// Whether, on some axis, the swept range of points `..split` and that of points `split..` are
/// disjoint.
#[inline]
fn swept_boxes_apart(start: &[Point; 4], end: &[Point; 4], split: usize) -> bool {
    (0..3).any(|axis| {
        let range = |points: std::ops::Range<usize>| {
            let values = points.flat_map(|i| [start[i][axis], end[i][axis]]);
            values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
        };
        let ((lo_a, hi_a), (lo_b, hi_b)) = (range(0..split), range(split..4));
        hi_a < lo_b || hi_b < lo_a
    })
}

/// Whether the four points are certainly never coplanar on `[0, 1]`: the Bernstein
/// coefficients of `f(t) = (x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))` all exceed their error bounds
/// with one sign.
#[inline]
fn never_coplanar(start: &[Point; 4], end: &[Point; 4]) -> bool {
    let differences = |x: &[Point; 4]| [x[1] - x[0], x[2] - x[0], x[3] - x[0]];
    let ([u0, v0, w0], [u1, v1, w1]) = (differences(start), differences(end));
    let t = |u: &Vector, v: &Vector, w: &Vector| triple(u, v, w);
    let sum = |terms: [(f64, f64); 3]| {
        let value = terms[0].0 + terms[1].0 + terms[2].0;
        let bound = terms[0].1 + terms[1].1 + terms[2].1;
        (value, bound * SUM_MARGIN)
    };
    let bernstein = [
        t(&u0, &v0, &w0),
        sum([t(&u1, &v0, &w0), t(&u0, &v1, &w0), t(&u0, &v0, &w1)]),
        sum([t(&u0, &v1, &w1), t(&u1, &v0, &w1), t(&u1, &v1, &w0)]),
        t(&u1, &v1, &w1),
    ];
    bernstein.iter().all(|&(b, e)| b > e) || bernstein.iter().all(|&(b, e)| b < -e)
}

/// `u·(v × w)` in floating point and a bound on its error against the exact triple product of
/// the exact differences the rounded `u, v, w` stand for: [`TRIPLE_MARGIN`] times the permanent
/// `Σ |uᵢ| (|vⱼ wₖ| + |vₖ wⱼ|)`, plus [`UNDERFLOW_ERROR`]` · (|u|₁ + 1)` for products that
/// land among the subnormals (as in [`orient3d`](crate::predicates::orient3d)). A NaN or an
/// infinite value makes every comparison with the bound fail: undecided.
#[inline(always)]
fn triple(u: &Vector, v: &Vector, w: &Vector) -> (f64, f64) {
    let (a, b, c) = (v.y * w.z, v.z * w.y, v.z * w.x);
    let (d, e, f) = (v.x * w.z, v.x * w.y, v.y * w.x);
    let value = u.x * (a - b) + u.y * (c - d) + u.z * (e - f);
    let permanent = u.x.abs() * (a.abs() + b.abs())
        + u.y.abs() * (c.abs() + d.abs())
        + u.z.abs() * (e.abs() + f.abs());
    let l1 = u.x.abs() + u.y.abs() + u.z.abs();
    (
        value,
        TRIPLE_MARGIN * permanent + UNDERFLOW_ERROR * (l1 + 1.0),
    )
}

/// `8ε` (`ε = 2⁻⁵³`, the unit roundoff): Shewchuk's `o3derrboundA = (7 + 56ε)ε` with room
/// for the permanent's own rounding.
const TRIPLE_MARGIN: f64 = 4.0 * f64::EPSILON;

/// The factor on the summed bounds of three triple products: their two additions err by at most
/// `2ε` of the sum of the magnitudes, which are at most the permanents (up to `8ε`), i.e. by at
/// most a quarter of the summed `8ε · permanent` bounds; `1.5` leaves room for the rounding of
/// the bounds themselves.
const SUM_MARGIN: f64 = 1.5;

/// Whether, on all of `[0, 1]`, the vertex is certainly on the outer side of one of the face's
/// edges within the face's plane (step 3 of the module docs).
#[inline(never)]
fn vertex_outside(start: &[Point; 4], end: &[Point; 4]) -> bool {
    let [v, f0, f1, f2] = moving(start, end);
    let n = cross(&sub(&f1, &f0), &sub(&f2, &f0));
    [[&f0, &f1], [&f1, &f2], [&f2, &f0]]
        .iter()
        .any(|[a, b]| dot(&n, &cross(&sub(b, a), &sub(&v, a))).certainly_negative())
}

/// Whether, on all of `[0, 1]`, the crossing point of the edges' lines (where they are not
/// parallel) certainly lies beyond an end of one edge (step 3 of the module docs).
#[inline(never)]
fn lines_cross_outside(start: &[Point; 4], end: &[Point; 4]) -> bool {
    let [a0, a1, b0, b1] = moving(start, end);
    let (a, b, d) = (sub(&a1, &a0), sub(&b1, &b0), sub(&b0, &a0));
    let m = cross(&a, &b);
    let scale = dot(&m, &m);
    let (s, u) = (dot(&cross(&d, &b), &m), dot(&cross(&d, &a), &m));
    let beyond = [scale.sub(&s), scale.sub(&u), s, u];
    beyond.iter().any(Bernstein::certainly_negative)
}

/// The unit roundoff `2⁻⁵³`.
const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// A float and a bound on its distance to the exact value it stands for, kept through each
/// operation: the propagated input errors plus the operation's own rounding (`u·|result|`, and
/// [`UNDERFLOW_ERROR`] for a product that may be subnormal). The bounds are themselves rounded,
/// down by at most a factor `(1 − u)` per operation; [`Bernstein::certainly_negative`] inflates
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

    /// Whether every coefficient is negative by more than its (inflated) error bound: then the
    /// polynomial is negative on all of `[0, 1]`. NaN or infinite values never are.
    fn certainly_negative(&self) -> bool {
        let c = &self.c[..=self.degree];
        c.iter().all(|a| a.value < -a.error * ERROR_INFLATION)
    }
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
    use crate::ccd::{edge_edge, vertex_face};
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
    fn the_filter_never_rules_out_a_contact() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut decided = [0; 2];
        for i in 0..3000 {
            let (start, end) = query(&mut rng, i % 2 == 0);
            let cases = [
                (
                    rules_out_vertex_face(&start, &end),
                    vertex_face::exact(&start, &end),
                ),
                (
                    rules_out_edge_edge(&start, &end),
                    edge_edge::exact(&start, &end),
                ),
            ];
            for (k, (ruled_out, exact)) in cases.into_iter().enumerate() {
                assert!(!ruled_out || exact.is_none(), "{start:?} {end:?}");
                decided[k] += usize::from(ruled_out);
            }
        }
        assert!(decided.iter().all(|&d| d > 1000), "{decided:?}");
    }
}
