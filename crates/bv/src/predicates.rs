//! Exact signs of Shewchuk's adaptive orientation predicates (the `robust` crate) on this
//! crate's types: the one place the workspace's exact decisions go through. Exact as long as no
//! intermediate overflows or underflows, which [`TriMesh`](crate::TriMesh)'s coordinate range
//! guarantees (see [`MAX_COORDINATE`](crate::MAX_COORDINATE)).

use crate::{Point, Vector};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use robust::{Coord, Coord3D};

/// Sign of `x`: `1`, `0` or `-1`.
pub fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// Exact sign of `orient3d(a, b, c, d)` in Shewchuk's convention: positive when `d` lies below
/// the plane through `a, b, c`, which appear counter-clockwise seen from above.
pub fn orient3d(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let c3 = |p: &Point| Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    };
    sign(robust::orient3d(c3(a), c3(b), c3(c), c3(d)))
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

/// Below this scale the float terms of a triple product may be subnormal and lose the relative
/// accuracy the bound assumes; the exact evaluation decides there.
pub const TRIPLE_UNDERFLOW: f64 = 1e-250;

/// Exact sign of `d·((p - o)×(q - o))`: on which side of the ray `o + t d` the directed edge
/// `p → q` passes (zero: the ray's line meets the edge's line), evaluated in exact rational
/// arithmetic (every `f64` is a rational); `None` if a coordinate is not finite.
pub fn ray_edge_side(o: &Point, d: &Vector, p: &Point, q: &Point) -> Option<i8> {
    let [o, d, p, q] = exact::vectors([o.coords, *d, p.coords, q.coords])?;
    let e = exact::dot(&d, &exact::cross(&exact::sub(&p, &o), &exact::sub(&q, &o)));
    Some(match e.cmp(&BigRational::zero()) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    })
}

/// The exact parameter `t = [a-o, b-o, c-o] / (n·d)` at which the line `o + t d` meets the plane
/// of `a, b, c` (`n = (b-a)×(c-a)`), rounded to `f64` once; `None` if the line is parallel to
/// the plane (or the triangle degenerate) or a coordinate is not finite.
pub fn ray_plane_parameter(o: &Point, d: &Vector, [a, b, c]: [&Point; 3]) -> Option<f64> {
    let [o, d, a, b, c] = exact::vectors([o.coords, *d, a.coords, b.coords, c.coords])?;
    let n = exact::cross(&exact::sub(&b, &a), &exact::sub(&c, &a));
    let den = exact::dot(&n, &d);
    if den.is_zero() {
        return None;
    }
    (exact::dot(&n, &exact::sub(&a, &o)) / den).to_f64()
}

/// Vector arithmetic on exact rationals, for the rare decisions the float filters leave open.
mod exact {
    use super::*;

    pub type Q3 = [BigRational; 3];

    /// The exact values of finite vectors (`None` if a coordinate is not finite).
    pub fn vectors<const N: usize>(vs: [Vector; N]) -> Option<[Q3; N]> {
        let q = |x: f64| BigRational::from_float(x);
        let all: Option<Vec<Q3>> = vs
            .iter()
            .map(|v| Some([q(v.x)?, q(v.y)?, q(v.z)?]))
            .collect();
        all?.try_into().ok()
    }

    pub fn sub(x: &Q3, y: &Q3) -> Q3 {
        std::array::from_fn(|i| &x[i] - &y[i])
    }

    pub fn dot(x: &Q3, y: &Q3) -> BigRational {
        (0..3).fold(BigRational::zero(), |acc, i| acc + &x[i] * &y[i])
    }

    pub fn cross(x: &Q3, y: &Q3) -> Q3 {
        std::array::from_fn(|i| {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            &x[j] * &y[k] - &x[k] * &y[j]
        })
    }
}
