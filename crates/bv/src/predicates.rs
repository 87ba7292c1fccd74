//! Exact signs of Shewchuk's adaptive orientation predicates (the `robust` crate) on this
//! crate's types: the one place the workspace's exact decisions go through. The `robust` crate
//! is exact as long as no intermediate overflows or underflows, which the exact range of
//! [`range`](crate::range) guarantees (it contains [`TriMesh`](crate::TriMesh)'s coordinate
//! range): [`orient2d`] is exact there, [`orient3d`] on all finite coordinates (outside the
//! range it decides in integers).

use crate::range::in_exact_range;
use crate::{Point, Vector};
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use robust::{Coord, Coord3D};

/// Sign of `x`: `1`, `0` or `-1`.
pub fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// Exact sign of `orient3d(a, b, c, d)` in Shewchuk's convention: positive when `d` lies below
/// the plane through `a, b, c`, which appear counter-clockwise seen from above. Exact for all
/// finite coordinates.
///
/// The first, floating-point stage of Shewchuk's adaptive predicate is inlined here (the same
/// determinant of the differences `a - d`, `b - d`, `c - d` and the same permanent bound, with
/// [`TRIPLE_ERROR`] ≥ his `o3derrboundA`), so the common case costs no call; only when it
/// cannot decide does the adaptive predicate (the `robust` crate) run, out of line. Collision
/// and ray picking (the watertight test's `t` sign goes through it) both gain from this (see
/// `docs/performance.md`).
///
/// Shewchuk's bound assumes no underflow. A product that lands among the subnormals errs by up
/// to `2⁻¹⁰⁷⁵` absolutely, which the relative bound misses and the `z` differences then
/// multiply, so the float stage's bound also carries [`UNDERFLOW_ERROR`] `· (Σ|z| + 1)`, at
/// least `(2 Σ|z| + 3) · 2⁻¹⁰⁷⁵` with room for its own rounding (inputs far below the exact
/// range, e.g. a ray origin `2⁻¹⁰⁰⁰` off a triangle with coordinates near `1e-160`, made the
/// float stage return a wrong sign). Likewise the adaptive predicate runs only on coordinates
/// in the exact range of [`range`](crate::range); others are decided in integers.
#[inline]
pub fn orient3d(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let (ad, bd, cd) = (a - d, b - d, c - d);
    let (bdxcdy, cdxbdy) = (bd.x * cd.y, cd.x * bd.y);
    let (cdxady, adxcdy) = (cd.x * ad.y, ad.x * cd.y);
    let (adxbdy, bdxady) = (ad.x * bd.y, bd.x * ad.y);
    let det = ad.z * (bdxcdy - cdxbdy) + bd.z * (cdxady - adxcdy) + cd.z * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * ad.z.abs()
        + (cdxady.abs() + adxcdy.abs()) * bd.z.abs()
        + (adxbdy.abs() + bdxady.abs()) * cd.z.abs();
    let bound = TRIPLE_ERROR * permanent + underflow_bound(ad.z.abs() + bd.z.abs() + cd.z.abs());
    if det > bound {
        1
    } else if det < -bound {
        -1
    } else {
        orient3d_adaptive(a, b, c, d)
    }
}

/// The exact signs of [`orient3d`]`(a, b, c, p)` and `orient3d(a, b, c, q)`: on which side of
/// one triangle's plane each end of a segment lies. The float stage shares the triangle's
/// part: with `a` as the pivot the determinant is `(a − d)·((b − a)×(c − a))` (the same
/// determinant after subtracting its first row from the others), whose cross product serves
/// both points. It is the determinant of the transposed matrix of rounded differences
/// expanded along another column, so Shewchuk's bound holds as stated for his (J. R.
/// Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
/// predicates", 1997, §4.3: it counts one rounding for each difference, product and sum, in
/// the same pattern), with the permanent and the underflow term taken on the same factors.
/// Where it cannot decide, [`orient3d`]'s exact stages do.
#[inline]
pub fn orient3d_pair(a: &Point, b: &Point, c: &Point, p: &Point, q: &Point) -> [i8; 2] {
    let (u, v) = (b - a, c - a);
    let (uyvz, uzvy) = (u.y * v.z, u.z * v.y);
    let (uzvx, uxvz) = (u.z * v.x, u.x * v.z);
    let (uxvy, uyvx) = (u.x * v.y, u.y * v.x);
    let normal = Vector::new(uyvz - uzvy, uzvx - uxvz, uxvy - uyvx);
    let magnitude = Vector::new(
        uyvz.abs() + uzvy.abs(),
        uzvx.abs() + uxvz.abs(),
        uxvy.abs() + uyvx.abs(),
    );
    [p, q].map(|d| {
        let w = a - d;
        let det = w.x * normal.x + w.y * normal.y + w.z * normal.z;
        let (wx, wy, wz) = (w.x.abs(), w.y.abs(), w.z.abs());
        let permanent = wx * magnitude.x + wy * magnitude.y + wz * magnitude.z;
        let bound = TRIPLE_ERROR * permanent + underflow_bound(wx + wy + wz);
        if det > bound {
            1
        } else if det < -bound {
            -1
        } else {
            orient3d_adaptive(a, b, c, d)
        }
    })
}

/// [`orient3d`] where its float stage cannot decide: by the adaptive predicate on coordinates
/// in the exact range, where it is exact, else in integers.
#[cold]
#[inline(never)]
fn orient3d_adaptive(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let points = [a, b, c, d];
    if !points.iter().all(|p| p.iter().all(|&x| in_exact_range(x))) {
        return orient3d_integers(points);
    }
    let c3 = |p: &Point| Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    };
    sign(robust::orient3d(c3(a), c3(b), c3(c), c3(d)))
}

/// [`orient3d`] in exact integer arithmetic: `(a - d)·((b - d)×(c - d))` (0 if a coordinate is
/// not finite).
fn orient3d_integers([a, b, c, d]: [&Point; 4]) -> i8 {
    let Some(([a, b, c, d], _)) = exact::integers([a.coords, b.coords, c.coords, d.coords]) else {
        return 0;
    };
    exact::sign(&exact::dot(
        &exact::sub(&a, &d),
        &exact::cross(&exact::sub(&b, &d), &exact::sub(&c, &d)),
    ))
}

/// Exact sign of the 2D orientation of `a, b, c`: positive when counter-clockwise.
pub fn orient2d(a: &Coord<f64>, b: &Coord<f64>, c: &Coord<f64>) -> i8 {
    sign(robust::orient2d(*a, *b, *c))
}

/// Shewchuk's first error bound for a 3×3 determinant of differences, `(7 + 56ε)ε` (J. R.
/// Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
/// predicates", 1997, `o3derrboundA`), here multiplied by `max|dᵢ|·‖u‖₁·‖v‖₁`, which is at least
/// the permanent `Σ |dᵢ| (|u_j v_k| + |u_k v_j|)` the bound is stated for: a float value of
/// `d·(u×v)` larger than that has the exact sign.
pub const TRIPLE_ERROR: f64 = (7.0 + 56.0 * f64::EPSILON) * f64::EPSILON;

/// `2⁻¹⁰⁷²`, four times the smallest subnormal: the absolute error of a product that
/// underflows is at most half of `2⁻¹⁰⁷⁴`, and [`orient3d`]'s float stage adds this, times one
/// plus the sum of its `|z|` differences, to its error bound (see there), through
/// [`underflow_bound`], which computes a normal number at least as large.
pub const UNDERFLOW_ERROR: f64 = f64::from_bits(4);

/// At least the rounded `UNDERFLOW_ERROR · (s + 1)` for `s ≥ 0`, and a normal number, computed
/// as `(s + 1 + 2⁵⁰) · 2⁻⁵³⁶ · 2⁻⁵³⁶` with no subnormal operand or result. x86-64 CPUs finish
/// a floating-point operation with a subnormal operand or result in microcode, about a hundred
/// cycles, and the plain product is subnormal for every `s` below `2⁵⁰` (Intel, *64 and IA-32
/// Architectures Optimization Reference Manual*, "Floating-point exceptions"; the AMD EPYC
/// machines of `docs/performance.md` pay it too). Rounding is monotone and the scalings are
/// exact, so the value is at least the product's from `2⁵⁰` up, and below it at least
/// `2⁻¹⁰²²`, which the product does not exceed. Below `2⁵⁰` it is under `2⁻¹⁰²⁰`, so a float
/// stage's decision changes only where its whole error bound is that small, far below the
/// scales (`TRIPLE_UNDERFLOW`) at which its callers trust the float stage; from `2⁵⁰` up it
/// exceeds the product by about `2⁻¹⁰²²` and an ulp of itself.
#[inline(always)]
pub fn underflow_bound(s: f64) -> f64 {
    const SHIFT: f64 = 1.0 + (1u64 << 50) as f64;
    const TWO_TO_MINUS_536: f64 = f64::from_bits((1023 - 536) << 52);
    (s + SHIFT) * TWO_TO_MINUS_536 * TWO_TO_MINUS_536
}

/// Below this scale the float terms of a triple product may be subnormal and lose the relative
/// accuracy the bound assumes; the exact evaluation decides there.
pub const TRIPLE_UNDERFLOW: f64 = 1e-250;

/// Exact sign of `d·((p - o)×(q - o))`: on which side of the ray `o + t d` the directed edge
/// `p → q` passes (zero: the ray's line meets the edge's line), evaluated in exact integer
/// arithmetic; `None` if a coordinate is not finite.
pub fn ray_edge_side(o: &Point, d: &Vector, p: &Point, q: &Point) -> Option<i8> {
    // Positions and direction each scaled by a power of two to integers: the sign is unchanged.
    let ([o, p, q], _) = exact::integers([o.coords, p.coords, q.coords])?;
    let ([d], _) = exact::integers([*d])?;
    let e = exact::dot(&d, &exact::cross(&exact::sub(&p, &o), &exact::sub(&q, &o)));
    Some(exact::sign(&e))
}

/// The exact parameter `t = [a-o, b-o, c-o] / (n·d)` at which the line `o + t d` meets the plane
/// of `a, b, c` (`n = (b-a)×(c-a)`), rounded to `f64` once; `None` if the line is parallel to
/// the plane (or the triangle degenerate) or a coordinate is not finite.
pub fn ray_plane_parameter(o: &Point, d: &Vector, [a, b, c]: [&Point; 3]) -> Option<f64> {
    // With positions `2^s·P` and direction `2^r·D` (integers `P`, `D`), the numerator scales
    // by `2^3s` and the denominator by `2^(2s+r)`: `t = (num / den)·2^(s - r)`.
    let ([o, a, b, c], s) = exact::integers([o.coords, a.coords, b.coords, c.coords])?;
    let ([d], r) = exact::integers([*d])?;
    let n = exact::cross(&exact::sub(&b, &a), &exact::sub(&c, &a));
    let den = exact::dot(&n, &d);
    if den.is_zero() {
        return None;
    }
    let num = exact::dot(&n, &exact::sub(&a, &o));
    let shift = s - r;
    let (num, den) = if shift >= 0 {
        (num << shift as usize, den)
    } else {
        (num, den << (-shift) as usize)
    };
    BigRational::new(num, den).to_f64()
}

/// Vector arithmetic on exact integers, for the rare decisions the float filters leave open
/// (no rational normalisation: a few big-integer products per call).
pub(crate) mod exact {
    use super::*;

    pub type Z3 = [BigInt; 3];

    /// Finite vectors as integers `Z` with a common exponent `e` (each coordinate is `Z·2^e`),
    /// or `None` if a coordinate is not finite.
    pub fn integers<const N: usize>(vs: [Vector; N]) -> Option<([Z3; N], i32)> {
        let mut parts = [[(0u64, 0i32, 1i8); 3]; N];
        let mut lowest = i32::MAX;
        for (v, part) in vs.iter().zip(&mut parts) {
            for (x, slot) in v.iter().zip(part.iter_mut()) {
                if !x.is_finite() {
                    return None;
                }
                let (mantissa, exponent, sign) = num_traits::Float::integer_decode(*x);
                *slot = (mantissa, i32::from(exponent), sign);
                if mantissa != 0 {
                    lowest = lowest.min(i32::from(exponent));
                }
            }
        }
        let lowest = if lowest == i32::MAX { 0 } else { lowest };
        let int = |&(mantissa, exponent, sign): &(u64, i32, i8)| {
            let z = BigInt::from(mantissa) << (exponent - lowest).max(0) as usize;
            if sign < 0 {
                -z
            } else {
                z
            }
        };
        Some((parts.map(|p| p.each_ref().map(int)), lowest))
    }

    /// `1`, `0` or `-1`.
    pub fn sign(x: &BigInt) -> i8 {
        match x.sign() {
            Sign::Minus => -1,
            Sign::NoSign => 0,
            Sign::Plus => 1,
        }
    }

    pub fn sub(x: &Z3, y: &Z3) -> Z3 {
        std::array::from_fn(|i| &x[i] - &y[i])
    }

    pub fn dot(x: &Z3, y: &Z3) -> BigInt {
        (0..3).fold(BigInt::zero(), |acc, i| acc + &x[i] * &y[i])
    }

    pub fn cross(x: &Z3, y: &Z3) -> Z3 {
        std::array::from_fn(|i| {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            &x[j] * &y[k] - &x[k] * &y[j]
        })
    }
}
