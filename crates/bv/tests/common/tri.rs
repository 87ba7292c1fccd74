//! Helpers shared by the property tests: the case count, exact arithmetic, and generators that
//! deliberately produce touching, coplanar and degenerate configurations.
#![allow(dead_code)] // each test binary uses a subset

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::{Point, Triangle};
use proptest::prelude::*;

/// Number of random cases per property: `OBBTREE_PROPTEST_CASES`, or `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("OBBTREE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The proptest configuration every property uses.
pub fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The exact value of a finite `f64`.
pub fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// Exact vector.
pub type Q3 = [BigRational; 3];

pub fn q3(p: &Point) -> Q3 {
    [q(p.x), q(p.y), q(p.z)]
}

pub fn sub(a: &Q3, b: &Q3) -> Q3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

pub fn dot(a: &Q3, b: &Q3) -> BigRational {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

pub fn cross(a: &Q3, b: &Q3) -> Q3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

/// Exact test whether the convex hulls of two point sets meet, as a linear feasibility problem:
/// are there weights `λ, μ >= 0`, `Σλ = Σμ = 1`, with `Σ λ_i a_i = Σ μ_j b_j`? It is decided by
/// enumerating the basic solutions (supports with independent columns) in exact integers.
/// Shares nothing with the implementation under test.
pub fn hulls_meet_exact(a: &[Point], b: &[Point]) -> bool {
    // Scale all coordinates by one power of two into integers (the problem is homogeneous in
    // the coordinates).
    let all: Vec<f64> = a.iter().chain(b).flat_map(|p| [p.x, p.y, p.z]).collect();
    let ints = to_common_integers(&all);
    let (na, nb) = (a.len(), b.len());
    // Columns: (a_i, 1, 0) and (-b_j, 0, 1); right-hand side (0, 0, 0, 1, 1).
    let column = |c: usize| -> [BigInt; 5] {
        let k = 3 * c;
        if c < na {
            [
                ints[k].clone(),
                ints[k + 1].clone(),
                ints[k + 2].clone(),
                BigInt::from(1),
                BigInt::zero(),
            ]
        } else {
            [
                -ints[k].clone(),
                -ints[k + 1].clone(),
                -ints[k + 2].clone(),
                BigInt::zero(),
                BigInt::from(1),
            ]
        }
    };
    let cols: Vec<[BigInt; 5]> = (0..na + nb).map(column).collect();
    let rhs = [0, 0, 0, 1, 1].map(BigInt::from);
    for mask in 1u32..(1 << (na + nb)) {
        let support: Vec<usize> = (0..na + nb).filter(|&c| mask >> c & 1 == 1).collect();
        let has_a = support.iter().any(|&c| c < na);
        let has_b = support.iter().any(|&c| c >= na);
        if support.len() > 5 || !has_a || !has_b {
            continue;
        }
        if basic_solution_nonnegative(
            &support.iter().map(|&c| cols[c].clone()).collect::<Vec<_>>(),
            &rhs,
        ) {
            return true;
        }
    }
    false
}

/// Integers `m_i` and one exponent `e` with `x_i = m_i · 2^e` exactly.
pub fn to_common_integers(xs: &[f64]) -> Vec<BigInt> {
    let parts: Vec<(BigInt, i32)> = xs
        .iter()
        .map(|&x| {
            if x == 0.0 {
                return (BigInt::zero(), i32::MAX);
            }
            let bits = x.abs().to_bits();
            let exp = ((bits >> 52) & 0x7ff) as i32;
            let mant = bits & ((1 << 52) - 1);
            let (m, e) = if exp == 0 {
                (mant, -1074)
            } else {
                (mant | (1 << 52), exp - 1075)
            };
            let m = BigInt::from(m);
            (if x < 0.0 { -m } else { m }, e)
        })
        .collect();
    let e0 = parts.iter().map(|p| p.1).min().unwrap_or(0);
    parts
        .into_iter()
        .map(|(m, e)| {
            if m.is_zero() {
                m
            } else {
                m << ((e - e0) as usize)
            }
        })
        .collect()
}

/// Whether `A_S x = rhs` (columns `cols`) is consistent with independent columns and its unique
/// solution is non-negative. Gaussian elimination over the rationals.
fn basic_solution_nonnegative(cols: &[[BigInt; 5]], rhs: &[BigInt; 5]) -> bool {
    let k = cols.len();
    let mut m: Vec<Vec<BigRational>> = (0..5)
        .map(|r| {
            let mut row: Vec<BigRational> = cols
                .iter()
                .map(|c| BigRational::from_integer(c[r].clone()))
                .collect();
            row.push(BigRational::from_integer(rhs[r].clone()));
            row
        })
        .collect();
    let mut row = 0;
    for col in 0..k {
        let Some(piv) = (row..5).find(|&r| !m[r][col].is_zero()) else {
            return false; // dependent columns: not a basic support
        };
        m.swap(row, piv);
        for r in 0..5 {
            if r != row && !m[r][col].is_zero() {
                let f = &m[r][col] / &m[row][col];
                for c in col..=k {
                    let v = &m[row][c] * &f;
                    m[r][c] -= v;
                }
            }
        }
        row += 1;
    }
    if (k..5).any(|r| !m[r][k].is_zero()) {
        return false; // inconsistent
    }
    (0..k).all(|i| !(&m[i][k] / &m[i][i]).is_negative())
}

/// Generator of coordinates: a small integer grid (the source of exact touching, coplanar and
/// collinear configurations), scaled by a power of ten from 1e-8 to 1e8 and shifted.
pub fn grid_scale() -> impl Strategy<Value = (f64, f64)> {
    (
        prop_oneof![Just(1.0), Just(0.5), Just(1e-8), Just(1e8), Just(3.0e-3)],
        prop_oneof![Just(0.0), Just(0.0), Just(1e8), Just(-7.25)],
    )
}

/// A point on the integer grid `[-r, r]³`.
pub fn grid_point(r: i32) -> impl Strategy<Value = [i32; 3]> {
    [-r..=r, -r..=r, -r..=r]
}

/// How the second triangle is built from the first.
#[derive(Clone, Copy, Debug)]
pub enum Relation {
    /// Independent vertices.
    Free,
    /// Shares one vertex.
    SharedVertex,
    /// Shares an edge.
    SharedEdge,
    /// In the first triangle's plane (integer affine combinations of its vertices).
    Coplanar,
    /// A vertex on an edge of the first (edge midpoint, on an even grid).
    VertexOnEdge,
    /// Zero-area: collinear vertices.
    Collinear,
    /// Zero-area: a single point.
    Point,
}

/// A pair of triangles on an integer grid with the given relation, before scaling.
pub fn grid_pair() -> impl Strategy<Value = ([[i64; 3]; 3], [[i64; 3]; 3], Relation)> {
    let rel = prop_oneof![
        3 => Just(Relation::Free),
        2 => Just(Relation::SharedVertex),
        2 => Just(Relation::SharedEdge),
        3 => Just(Relation::Coplanar),
        2 => Just(Relation::VertexOnEdge),
        1 => Just(Relation::Collinear),
        1 => Just(Relation::Point),
    ];
    let w = -2i64..=2;
    (
        [grid_point(3), grid_point(3), grid_point(3)],
        [grid_point(3), grid_point(3), grid_point(3)],
        rel,
        [
            (w.clone(), w.clone()),
            (w.clone(), w.clone()),
            (w.clone(), w),
        ],
        any::<bool>(),
    )
        .prop_map(|(p, q, rel, weights, degenerate_first)| {
            let p: [[i64; 3]; 3] = p.map(|v| v.map(|c| 2 * c as i64)); // even grid: midpoints exact
            let q: [[i64; 3]; 3] = q.map(|v| v.map(|c| 2 * c as i64));
            let lerp =
                |a: [i64; 3], b: [i64; 3], t: i64| [0, 1, 2].map(|k| a[k] + t * (b[k] - a[k]));
            let q = match rel {
                Relation::Free => q,
                Relation::SharedVertex => [p[0], q[1], q[2]],
                Relation::SharedEdge => [p[1], p[0], q[2]],
                Relation::Coplanar => weights.map(|(s, t)| {
                    [0, 1, 2].map(|k| p[0][k] + s * (p[1][k] - p[0][k]) + t * (p[2][k] - p[0][k]))
                }),
                Relation::VertexOnEdge => [[0, 1, 2].map(|k| (p[0][k] + p[1][k]) / 2), q[1], q[2]],
                Relation::Collinear => [q[0], q[1], lerp(q[0], q[1], weights[0].0)],
                Relation::Point => [q[0], q[0], q[0]],
            };
            if degenerate_first && matches!(rel, Relation::Collinear | Relation::Point) {
                (q, p, rel)
            } else {
                (p, q, rel)
            }
        })
}

/// The grid triangle scaled by `scale` and shifted by `shift`.
pub fn place(t: &[[i64; 3]; 3], (scale, shift): (f64, f64)) -> Triangle {
    let p = |v: &[i64; 3]| {
        Point::new(
            v[0] as f64 * scale + shift,
            v[1] as f64 * scale + shift,
            v[2] as f64 * scale + shift,
        )
    };
    Triangle::new(p(&t[0]), p(&t[1]), p(&t[2]))
}

/// A triangle with generic (non-grid) vertices of magnitude about `scale` around `shift`.
pub fn float_triangle() -> impl Strategy<Value = [[f64; 3]; 3]> {
    let v = || [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64];
    [v(), v(), v()]
}

pub fn place_f(t: &[[f64; 3]; 3], (scale, shift): (f64, f64)) -> Triangle {
    let p = |v: &[f64; 3]| {
        Point::new(
            v[0] * scale + shift,
            v[1] * scale + shift,
            v[2] * scale + shift,
        )
    };
    Triangle::new(p(&t[0]), p(&t[1]), p(&t[2]))
}

/// Exact `BigRational` → nearest-ish `f64` (for reporting only).
pub fn approx(x: &BigRational) -> f64 {
    use num_traits::ToPrimitive;
    x.to_f64().unwrap_or(f64::NAN)
}

/// `|x|` of an exact value is `<= bound` (exact comparison).
pub fn abs_le(x: &BigRational, bound: &BigRational) -> bool {
    x.abs() <= *bound
}
