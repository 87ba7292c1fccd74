//! Ray–triangle: Möller–Trumbore (fast) and a watertight variant (for picking).

use crate::predicates;
use crate::range::{binary_exponent, power_of_two_factors};
use crate::{Point, Ray, Triangle, Vector};
use std::ops::{Add, Mul, Sub};
use wide::f64x2;

/// A ray–triangle hit: ray parameter `t` and barycentrics, the point being
/// `(1 - u - v)·a + u·b + v·c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleHit {
    /// Ray parameter (`t >= 0`).
    pub t: f64,
    /// Weight of vertex `b`.
    pub u: f64,
    /// Weight of vertex `c`.
    pub v: f64,
}

impl TriangleHit {
    /// The hit point from the barycentrics.
    pub fn point(&self, tri: &Triangle) -> Point {
        Point::from(
            tri.a.coords * (1.0 - self.u - self.v) + tri.b.coords * self.u + tri.c.coords * self.v,
        )
    }
}

/// Möller–Trumbore: solve `o + t d = (1-u-v) v0 + u v1 + v v2` by Cramer's rule (T. Möller,
/// B. Trumbore, "Fast, minimum storage ray-triangle intersection", JGT 2(1), 1997; *Real-Time
/// Rendering*, 3rd ed. (2008), §16.8). Two-sided, closed (`u, v >= 0`, `u + v <= 1`, `t >= 0`).
/// A zero determinant (ray in the triangle's plane, or zero-area triangle) is a miss.
/// Not watertight: see [`cast_watertight`].
pub fn cast(ray: &Ray, tri: &Triangle) -> Option<TriangleHit> {
    let (e1, e2) = (tri.b - tri.a, tri.c - tri.a);
    let p = ray.dir.cross(&e2);
    let det = e1.dot(&p);
    if det == 0.0 {
        return None;
    }
    let inv = 1.0 / det;
    let s = ray.origin - tri.a;
    let u = s.dot(&p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(&e1);
    let v = ray.dir.dot(&q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(&q) * inv;
    (t >= 0.0).then_some(TriangleHit { t, u, v })
}

/// Exact ray–triangle, hence watertight: the hit is decided by the exact signs of the three
/// edge functions `Eₐ = d·((b-o)×(c-o))`, `E_b = d·((c-o)×(a-o))`, `E_c = d·((a-o)×(b-o))`
/// (the scalar triple products of C. Ericson, *Real-Time Collision Detection*, §5.3.4, which
/// say on which side of the ray each directed edge passes) and of `t` (by `orient3d(a, b, c,
/// o)`), all on the input coordinates. Each edge function is first evaluated in `f64` and
/// accepted when it exceeds Shewchuk's error bound for a 3×3 determinant of differences
/// ([`predicates::ray_edge_side`]); only a ray within rounding of an edge (or vertex) pays for
/// the exact evaluation. Since two triangles sharing an edge evaluate exactly opposite edge
/// functions, a ray through a shared edge or vertex of a closed mesh hits every triangle
/// around it whose closed projection contains it, so at least one, never none (the property
/// Woop, Benthin & Wald, "Watertight Ray/Triangle Intersection", JCGT 2(1), 2013, obtain with
/// a sheared frame; their shear rounds the vertices, which for a needle triangle with a
/// vertex at 1e86 moves an edge by far more than the distance to the ray). Closed and
/// two-sided like [`cast`]; a ray in the triangle's plane (all three edge functions zero) or
/// a zero-area triangle is a miss. `t`, `u`, `v` are then computed in `f64` (accurate to a
/// few ulps of the distances involved, except for rays nearly parallel to the plane).
/// Same as [`WatertightRay::new`] then [`WatertightRay::cast`] (for many triangles, prepare
/// the ray once).
///
/// The decisions are exact for all finite coordinates and directions. The edge functions are
/// evaluated with the direction scaled by a power of two to a largest component in `[1, 2)`
/// (which changes neither their signs nor `u`, `v`), so for vertices and origin in the exact
/// range of [`range`](crate::range) (magnitudes up to `2³³⁹ ≈ 1.1e102`) they cannot overflow,
/// whatever the direction's magnitude.
///
/// Policy outside [`Ray`]'s contract: a zero direction is never a hit, and neither is a hit
/// whose `t` or barycentrics are not representable in `f64` (e.g. a direction of 1e-300 and a
/// triangle at distance 1e80, `t ≈ 1e380`): every returned hit has finite `t`, `u`, `v`.
/// Beyond the exact range (coordinates near 1e200) an edge function can overflow; such a hit
/// is reported as a miss rather than with non-finite barycentrics.
pub fn cast_watertight(ray: &Ray, tri: &Triangle) -> Option<TriangleHit> {
    WatertightRay::new(ray).cast(tri)
}

/// A ray prepared for [`cast_watertight`]: what the edge-function filter reuses per ray.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WatertightRay {
    origin: Point,
    /// The direction, for the exact `t`.
    dir: Vector,
    /// The direction scaled by a power of two to `max |dᵢ|` in `[1, 2)` when that is exact
    /// ([`unit_direction`]), for the edge functions and the float `t`: the signs and the
    /// barycentrics `E_b / ΣE`, `E_c / ΣE` do not change, and the magnitudes no longer follow
    /// the direction's, which made them overflow (a hit lost for a direction of 1e200 at a
    /// triangle near 1e100, `d·n` infinite and `t = 0` for one of 6e107) or underflow
    /// (barycentrics of 1/3 each for a direction of 1e-200).
    edge_dir: Vector,
    /// `max |edge_dirᵢ|`, the direction's part of the error bounds.
    edge_scale: f64,
    /// Two factors whose product is the inverse of the scaling (`t = t' · f₀ · f₁` for the `t'`
    /// of `edge_dir`), in two so that each is representable.
    t_factors: [f64; 2],
    /// At least `UNDERFLOW_ERROR · (Σ|edge_dirᵢ| + 1)` ([`predicates::underflow_bound`]): the
    /// edge functions' error from products that underflow (see [`predicates::orient3d`], whose
    /// float stage has the same structure).
    underflow: f64,
}

/// How many times its error bound the float `d·n` of [`WatertightRay::plane_parameter`] must
/// exceed for the float `t` to be kept: `2³⁶`, so that `t` is within about `2⁻³⁵` of itself
/// (plus a few ulps of the triangle's size over `|d|`), and only grazing rays and slivers pay
/// for the exact quotient.
const T_ACCURACY: f64 = (1u64 << 36) as f64;

impl WatertightRay {
    /// The constants of `ray`.
    pub fn new(ray: &Ray) -> Self {
        let (edge_dir, t_factors) = unit_direction(&ray.dir);
        Self {
            origin: ray.origin,
            dir: ray.dir,
            edge_dir,
            edge_scale: edge_dir.amax(),
            t_factors,
            underflow: predicates::underflow_bound(edge_dir.lp_norm(1)),
        }
    }

    /// [`cast_watertight`] with the prepared ray, on the triangle `a, b, c`.
    #[inline]
    pub fn cast_vertices(&self, a: &Point, b: &Point, c: &Point) -> Option<TriangleHit> {
        if self.edge_scale == 0.0 {
            return None;
        }
        let (ua, ub, uc) = (a - self.origin, b - self.origin, c - self.origin);
        let (na, nb, nc) = (ua.lp_norm(1), ub.lp_norm(1), uc.lp_norm(1));
        // The float value when the bound proves its sign; otherwise the exact sign with the
        // float magnitude (at least the smallest normal, so the sign survives the sums below).
        let edge = |p: &Point, u: &Vector, nu: f64, q: &Point, v: &Vector, nv: f64| {
            let (e, bound) = self.edge_function(&[u.x, u.y, u.z], &[v.x, v.y, v.z], nu, nv);
            if e.abs() > bound && bound < f64::INFINITY && bound > predicates::TRIPLE_UNDERFLOW {
                Some(e)
            } else {
                let side = predicates::ray_edge_side(&self.origin, &self.edge_dir, p, q)?;
                Some(f64::from(side) * e.abs().max(f64::MIN_POSITIVE))
            }
        };
        let ea = edge(b, &ub, nb, c, &uc, nc)?;
        let eb = edge(c, &uc, nc, a, &ua, na)?;
        // Two edges on opposite sides already prove a miss (most rays tested against a leaf).
        if ea * eb < 0.0 {
            return None;
        }
        let ec = edge(a, &ua, na, b, &ub, nb)?;
        if (ea < 0.0 || eb < 0.0 || ec < 0.0) && (ea > 0.0 || eb > 0.0 || ec > 0.0) {
            return None;
        }
        let det = ea + eb + ec;
        if det == 0.0 {
            return None;
        }
        // `t = [a-o, b-o, c-o] / (n·d)`: the ray meets the plane of `a, b, c` at `o + t d`, and
        // `det = Eₐ + E_b + E_c = n·d` has the sign the three share. `orient3d(a, b, c, o)`
        // is `[a-o, b-o, c-o]` exactly signed.
        let side = predicates::orient3d(a, b, c, &self.origin);
        if f64::from(side) * det < 0.0 {
            return None;
        }
        let t = if side == 0 {
            0.0
        } else {
            self.plane_parameter([a, b, c], [na, nb, nc])?.max(0.0)
        };
        let hit = TriangleHit {
            t,
            u: eb / det,
            v: ec / det,
        };
        // A direction tiny beside the triangle's distance makes `t` overflow: no representable
        // hit, reported as a miss.
        (hit.t.is_finite() && hit.u.is_finite() && hit.v.is_finite()).then_some(hit)
    }

    /// The parameter where the ray meets the plane of the triangle `a, b, c`,
    /// `(p - o)·n / (d·n)` (`None` if not finite), evaluated where rounding hurts least: `p`
    /// the vertex nearest the origin (`distances`: the vertices' 1-norm distances from it) and
    /// `n` the cross product of the two shorter edges. The error of the numerator is then a
    /// few ulps of `|p - o||n|`, and a needle's long edges (a vertex at 1e86) neither swamp
    /// the numerator nor cancel in the normal. A ray so close to parallel to the plane that
    /// `d·n` is lost to rounding gets the exact value instead.
    fn plane_parameter(&self, [a, b, c]: [&Point; 3], distances: [f64; 3]) -> Option<f64> {
        let nearest = (0..3)
            .min_by(|&i, &j| distances[i].total_cmp(&distances[j]))
            .unwrap_or(0);
        let p = [a, b, c][nearest];
        let edges = [b - a, c - b, a - c];
        let longest = (0..3)
            .max_by(|&i, &j| edges[i].amax().total_cmp(&edges[j].amax()))
            .unwrap_or(0);
        let (e1, e2) = (edges[(longest + 1) % 3], edges[(longest + 2) % 3]);
        let n = e1.cross(&e2);
        // `d·n = d·(e₁×e₂)` has the edge functions' form, so the same evaluation and bound
        // serve; within it (a ray grazing the plane, where `t` is as ill-conditioned as
        // `1 / sin` of the angle) the exact quotient, rounded once.
        let [u, v] = [e1, e2].map(|e| [e.x, e.y, e.z]);
        let (dn, dn_error) = self.edge_function(&u, &v, e1.lp_norm(1), e2.lp_norm(1));
        let [f0, f1] = self.t_factors;
        let t = (p - self.origin).dot(&n) / dn * f0 * f1;
        // `d·n` known to better than `2⁻³⁶` of itself; otherwise (a grazing ray, or a sliver
        // whose two shorter edges are so nearly parallel that their cross product has lost
        // most of its digits, so `t` is off by `ε / sin` of their angle) the exact quotient.
        if t.is_finite() && dn.abs() > dn_error * T_ACCURACY {
            Some(t)
        } else {
            predicates::ray_plane_parameter(&self.origin, &self.dir, [a, b, c])
                .filter(|t| t.is_finite())
        }
    }

    /// [`cast_watertight`] with the prepared ray.
    #[inline]
    pub fn cast(&self, tri: &Triangle) -> Option<TriangleHit> {
        self.cast_vertices(&tri.a, &tri.b, &tri.c)
    }

    /// The edge function `d·(u×v)` in floating point (the terms in nalgebra's `cross` and `dot`
    /// order) for vertices `u`, `v` relative to the origin, with 1-norms `nu`, `nv`, and its
    /// error bound `TRIPLE_ERROR · max|dᵢ| · nu · nv` plus the underflow term `UNDERFLOW_ERROR ·
    /// (Σ|dᵢ| + 1)`: its sign is certain when its magnitude exceeds a finite bound above
    /// `TRIPLE_UNDERFLOW`. Without the underflow term, a direction near `1e88` and vertices
    /// near `1e-162` (products among the subnormals) passed both tests with the wrong sign.
    /// One lane ([`f64`]) or two ([`f64x2`]): the same operations in the same order, so the
    /// same bound holds.
    #[inline(always)]
    fn edge_function<T: Lanes>(&self, u: &[T; 3], v: &[T; 3], nu: T, nv: T) -> (T, T) {
        let [dx, dy, dz] = [self.edge_dir.x, self.edge_dir.y, self.edge_dir.z].map(T::splat);
        let e = dx * (u[1] * v[2] - u[2] * v[1])
            + dy * (u[2] * v[0] - u[0] * v[2])
            + dz * (u[0] * v[1] - u[1] * v[0]);
        let bound = T::splat(predicates::TRIPLE_ERROR * self.edge_scale) * nu * nv
            + T::splat(self.underflow);
        (e, bound)
    }

    /// For two triangles at once, whether [`Self::cast_vertices`] certainly misses each: two of
    /// its edge functions whose float values, within the error bound, already have strictly
    /// opposite signs (so the ray passes outside one edge and inside another). The float part
    /// of `cast_vertices`'s test, all three edges, with no branch, on coordinate arrays
    /// (`vertices[vertex][axis][lane]`), each value of the two triangles in one SIMD register
    /// (`wide::f64x2`: SSE2 on x86-64). `false` proves nothing: test that triangle with
    /// `cast_vertices`.
    #[inline]
    pub fn certainly_misses(&self, vertices: &[[[f64; 2]; 3]; 3]) -> [bool; 2] {
        let o = [self.origin.x, self.origin.y, self.origin.z].map(f64x2::splat);
        // u[vertex][axis]: the vertices relative to the origin; n[vertex]: their 1-norms.
        let u = vertices.map(|v| [0, 1, 2].map(|k| f64x2::new(v[k]) - o[k]));
        let n = u.map(|w| w[0].abs() + w[1].abs() + w[2].abs());
        let zero = f64x2::ZERO;
        let (mut positive, mut negative) = (zero, zero);
        // Edge functions E_a (b, c), E_b (c, a), E_c (a, b) as in `cast_vertices`.
        for (p, q) in [(1, 2), (2, 0), (0, 1)] {
            let (e, bound) = self.edge_function(&u[p], &u[q], n[p], n[q]);
            let certain = e.abs().simd_gt(bound)
                & bound.simd_lt(f64x2::splat(f64::INFINITY))
                & bound.simd_gt(f64x2::splat(predicates::TRIPLE_UNDERFLOW));
            positive |= certain & e.simd_gt(zero);
            negative |= certain & e.simd_lt(zero);
        }
        let misses = (positive & negative).to_bitmask();
        [misses & 1 != 0, misses & 2 != 0]
    }
}

/// `dir` times the power of two `2⁻ᵏ` that brings `max |dᵢ|` into `[1, 2)`, and `2⁻ᵏ` as two
/// factors, if the product is exact (no component lost to underflow); else `dir` and `[1, 1]`.
/// A positive scaling leaves the edge functions' signs and ratios as they are; `t` for the scaled
/// direction is `2ᵏ` times the original one.
fn unit_direction(dir: &Vector) -> (Vector, [f64; 2]) {
    let largest = dir.amax();
    if largest == 0.0 || !largest.is_finite() {
        return (*dir, [1.0, 1.0]);
    }
    let k = binary_exponent(largest);
    let [down0, down1] = power_of_two_factors(-k);
    let scaled = dir * down0 * down1;
    let [up0, up1] = power_of_two_factors(k);
    if scaled * up0 * up1 == *dir {
        (scaled, [down0, down1])
    } else {
        (*dir, [1.0, 1.0])
    }
}

/// One value ([`f64`]) or two side by side ([`f64x2`]), for [`WatertightRay::edge_function`].
trait Lanes: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// `x` in every lane.
    fn splat(x: f64) -> Self;
}

impl Lanes for f64 {
    #[inline(always)]
    fn splat(x: f64) -> Self {
        x
    }
}

impl Lanes for f64x2 {
    #[inline(always)]
    fn splat(x: f64) -> Self {
        f64x2::splat(x)
    }
}

#[cfg(test)]
mod tests {
    //! White-box check of the edge functions' error bound, the soundness condition of their
    //! filter, which end-to-end tests cannot reach: a bound weakened by a small factor, or by
    //! the underflow term, fails only on inputs whose roundings come close to the worst case.

    use super::*;
    use crate::test_support::{q, vector};
    use num_rational::BigRational;
    use num_traits::Signed;
    use rand::{Rng, SeedableRng};

    /// The bound is at least Shewchuk's `(7ε + 56ε²) · Σ|dᵢ|(|u_j v_k| + |u_k v_j|)` (ε = 2⁻⁵³,
    /// the permanent exact) plus `(2 Σ|dᵢ| + 3) · 2⁻¹⁰⁷⁵` for products that underflow, for the
    /// direction the edge functions use; the value is the float `d·(u×v)`. Magnitudes from
    /// products among the subnormals (`2⁻⁵⁴⁰`) to `2²⁰⁰`, directions of any size, some with
    /// components too far apart to be scaled.
    #[test]
    fn edge_bound_covers_shewchuks_bound_and_underflow() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let shewchuk = q((7.0 + 56.0 * f64::EPSILON / 2.0) * f64::EPSILON / 2.0);
        let smallest = q(f64::from_bits(1)) / BigRational::from_integer(2.into());
        for _ in 0..5_000 {
            let m = 2f64.powi(rng.gen_range(-540..200));
            let size = 2f64.powi(rng.gen_range(-300..300));
            let mut dir = vector(&mut rng, size);
            if rng.gen_bool(0.2) {
                dir.z *= 2f64.powi(-1000);
            }
            let ray = WatertightRay::new(&Ray::new(Point::origin(), dir));
            let (u, v) = (vector(&mut rng, m), vector(&mut rng, m));
            let (e, bound) = ray.edge_function(
                &[u.x, u.y, u.z],
                &[v.x, v.y, v.z],
                u.lp_norm(1),
                v.lp_norm(1),
            );
            let d = ray.edge_dir;
            assert_eq!(e, d.dot(&u.cross(&v)), "{dir:?} {u:?} {v:?}");
            let term = |j: usize, k: usize| (q(u[j]) * q(v[k])).abs() + (q(u[k]) * q(v[j])).abs();
            let permanent =
                q(d.x.abs()) * term(1, 2) + q(d.y.abs()) * term(2, 0) + q(d.z.abs()) * term(0, 1);
            let underflow = (q(d.lp_norm(1)) * BigRational::from_integer(2.into())
                + BigRational::from_integer(3.into()))
                * &smallest;
            assert!(
                q(bound) >= &shewchuk * permanent + underflow,
                "{dir:?} {u:?} {v:?}"
            );
        }
    }
}
