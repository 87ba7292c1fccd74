//! Exact distance oracle for point sets' convex hulls (triangles, segments, points), written
//! apart from the engine: no region logic, no intersection test, no shared arithmetic.
//!
//! `min |Σ λᵢ aᵢ − Σ μⱼ bⱼ|²` over the two simplices (`λ, μ >= 0`, `Σλ = Σμ = 1`) is a convex
//! quadratic programme. Some optimal pair `(x, y)` has affinely independent supports whose
//! direction spaces meet only in 0 (move both points along a common direction, which keeps
//! `x − y`, until a weight vanishes); on those supports the optimum is the unique solution of
//! the normal equations of `min |r + M θ|²` (`M`: the supports' edge vectors from their first
//! points, `θ` the free weights), with weights in the simplices. Every such feasible solution
//! is a pair of points of the hulls, so the least of them over all support pairs is the
//! distance. Solved by Cramer's rule over the integers (coordinates scaled by one power of two).

use super::exact::{dot, q3, sub, to_common_integers, Q3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use obbtree_bv::Point;

/// An integer vector.
type I3 = [BigInt; 3];

/// The exact squared distance between the convex hulls of `a` and `b` (1 to 3 points each).
pub fn hull_distance_squared(a: &[Point], b: &[Point]) -> BigRational {
    // Integer coordinates `n·2^e` with one common `e`: the squared distance is that of the
    // integer points times `4^e`.
    let all: Vec<f64> = a.iter().chain(b).flat_map(|p| [p.x, p.y, p.z]).collect();
    let ints = to_common_integers(&all);
    let unit = all
        .iter()
        .zip(&ints)
        .find(|(_, n)| !n.is_zero())
        .map(|(x, n)| super::exact::q(*x) / BigRational::from_integer(n.clone()))
        .unwrap_or_else(BigRational::one);
    let point = |i: usize| -> I3 { [0, 1, 2].map(|k| ints[3 * i + k].clone()) };
    let pa: Vec<I3> = (0..a.len()).map(point).collect();
    let pb: Vec<I3> = (a.len()..a.len() + b.len()).map(point).collect();
    integer_hull_distance_squared(&pa, &pb) * &unit * &unit
}

/// [`hull_distance_squared`] for points with exact dyadic rational coordinates (such as
/// `corner + l·axis` evaluated exactly).
pub fn dyadic_hull_distance_squared(a: &[Q3], b: &[Q3]) -> BigRational {
    let den = a
        .iter()
        .chain(b)
        .flatten()
        .map(|x| x.denom().clone())
        .max()
        .expect("points");
    let int = |p: &Q3| -> I3 {
        p.clone().map(|x| {
            let n = x * BigRational::from_integer(den.clone());
            assert!(n.is_integer(), "dyadic coordinates");
            n.to_integer()
        })
    };
    let pa: Vec<I3> = a.iter().map(int).collect();
    let pb: Vec<I3> = b.iter().map(int).collect();
    integer_hull_distance_squared(&pa, &pb) / BigRational::from_integer(&den * &den)
}

/// The exact squared distance between the hulls of integer points.
fn integer_hull_distance_squared(pa: &[I3], pb: &[I3]) -> BigRational {
    let mut best: Option<(BigInt, BigInt)> = None;
    for mask_a in 1..(1u32 << pa.len()) {
        for mask_b in 1..(1u32 << pb.len()) {
            let pick = |pts: &[I3], mask: u32| -> Vec<I3> {
                (0..pts.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| pts[i].clone())
                    .collect()
            };
            if let Some((num, den)) = support_pair(&pick(pa, mask_a), &pick(pb, mask_b)) {
                if best.as_ref().is_none_or(|(bn, bd)| &num * bd < bn * &den) {
                    best = Some((num, den));
                }
            }
        }
    }
    let (num, den) = best.expect("the vertex pairs are always feasible");
    BigRational::new(num, den)
}

fn isub(a: &I3, b: &I3) -> I3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

fn idot(a: &I3, b: &I3) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// The squared distance (as `num / den`) of the normal equations' solution on the supports
/// `sa`, `sb`, if it is unique and its weights are feasible. By Cramer's rule over the
/// integers: the Gram matrix of independent columns has a positive determinant `det`, and the
/// weights are `x_i / det`.
fn support_pair(sa: &[I3], sb: &[I3]) -> Option<(BigInt, BigInt)> {
    let r = isub(&sa[0], &sb[0]);
    // Columns: the edges of `sa` (weights α), the negated edges of `sb` (weights β).
    let mut columns: Vec<I3> = sa[1..].iter().map(|p| isub(p, &sa[0])).collect();
    columns.extend(sb[1..].iter().map(|p| isub(&sb[0], p)));
    let k = columns.len();
    if k > 3 {
        return None; // four vectors in space are dependent
    }
    let gram: Vec<Vec<BigInt>> = (0..k)
        .map(|i| (0..k).map(|j| idot(&columns[i], &columns[j])).collect())
        .collect();
    let rhs: Vec<BigInt> = columns.iter().map(|c| -idot(c, &r)).collect();
    let det = determinant(&gram);
    if det.is_zero() {
        return None;
    }
    let x: Vec<BigInt> = (0..k)
        .map(|i| {
            let mut m = gram.clone();
            for (row, b) in m.iter_mut().zip(&rhs) {
                row[i] = b.clone();
            }
            determinant(&m)
        })
        .collect();
    let (alpha, beta) = x.split_at(sa.len() - 1);
    let feasible = |w: &[BigInt]| {
        w.iter().all(|x| !x.is_negative()) && w.iter().fold(BigInt::zero(), |s, x| s + x) <= det
    };
    if !feasible(alpha) || !feasible(beta) {
        return None;
    }
    // det·w = det·r + Σ x_i c_i.
    let mut w: I3 = r.map(|c| c * &det);
    for (c, t) in columns.iter().zip(&x) {
        for i in 0..3 {
            w[i] += &c[i] * t;
        }
    }
    Some((idot(&w, &w), &det * &det))
}

/// The determinant of a 0×0 to 3×3 matrix.
fn determinant(m: &[Vec<BigInt>]) -> BigInt {
    match m.len() {
        0 => BigInt::one(),
        1 => m[0][0].clone(),
        2 => &m[0][0] * &m[1][1] - &m[0][1] * &m[1][0],
        _ => {
            &m[0][0] * (&m[1][1] * &m[2][2] - &m[1][2] * &m[2][1])
                - &m[0][1] * (&m[1][0] * &m[2][2] - &m[1][2] * &m[2][0])
                + &m[0][2] * (&m[1][0] * &m[2][1] - &m[1][1] * &m[2][0])
        }
    }
}

/// The exact squared distance between two triangles (as point triples).
pub fn triangle_distance_squared(p: &[Point; 3], q: &[Point; 3]) -> BigRational {
    hull_distance_squared(p, q)
}

/// The exact squared distance from a point to a triangle.
pub fn point_triangle_distance_squared(x: &Point, t: &[Point; 3]) -> BigRational {
    hull_distance_squared(&[*x], t)
}

/// The exact squared distance between two points.
pub fn point_distance_squared(x: &Point, y: &Point) -> BigRational {
    let d = sub(&q3(x), &q3(y));
    dot(&d, &d)
}
