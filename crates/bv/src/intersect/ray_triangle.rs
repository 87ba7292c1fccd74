//! Ray–triangle: Möller–Trumbore (fast) and a watertight variant (for picking).

use crate::{Point, Ray, Triangle};
use robust::{orient2d, Coord};

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

/// Möller–Trumbore: solve `o + t d = (1-u-v) v0 + u v1 + v v2` by Cramer's rule (seed 004
/// "射线/三角形相交测试"; T. Möller, B. Trumbore, "Fast, minimum storage ray-triangle
/// intersection", JGT 1997). Two-sided, closed (`u, v >= 0`, `u + v <= 1`, `t >= 0`).
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

/// Watertight ray–triangle (S. Woop, C. Benthin, I. Wald, "Watertight Ray/Triangle
/// Intersection", JCGT 2(1), 2013): translate to the ray origin, permute so the dominant
/// direction axis is `z` and shear so the ray becomes the `+z` axis; the hit is decided by
/// the signs of the three 2D edge functions of the sheared vertices at the origin.
///
/// Exact handling: the paper re-evaluates edge functions that round to zero in higher
/// precision; here every edge function is Shewchuk's adaptive `orient2d` (exact sign) on the
/// sheared coordinates. Since a vertex's sheared coordinates depend only on the vertex and the
/// ray, two triangles sharing an edge evaluate exactly opposite edge functions, and the exact
/// signs describe a genuine planar configuration: a ray through a shared edge or vertex of a
/// closed mesh hits at least one triangle around it. Closed and two-sided like [`cast`].
/// Same as [`WatertightRay::new`] then [`WatertightRay::cast`] (for many triangles, prepare
/// the ray once).
///
/// Policy outside [`Ray`]'s contract: a zero direction is never a hit, and neither is a hit
/// whose `t` or barycentrics are not representable in `f64` (e.g. a direction of 1e-300 and a
/// triangle at distance 1e80, `t ≈ 1e380`): every returned hit has finite `t`, `u`, `v`.
pub fn cast_watertight(ray: &Ray, tri: &Triangle) -> Option<TriangleHit> {
    WatertightRay::new(ray).cast(tri)
}

/// A ray prepared for [`cast_watertight`]: the axis permutation and shear constants, which
/// depend on the ray only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WatertightRay {
    origin: Point,
    /// The permuted axes `[kx, ky, kz]` (`kz` the dominant direction axis).
    axes: [usize; 3],
    /// `(d[kx] / d[kz], d[ky] / d[kz], 1 / d[kz])`.
    shear: [f64; 3],
}

impl WatertightRay {
    /// The constants of `ray` (non-zero direction).
    pub fn new(ray: &Ray) -> Self {
        let d = &ray.dir;
        let kz = d.iamax();
        let (mut kx, mut ky) = ((kz + 1) % 3, (kz + 2) % 3);
        if d[kz] < 0.0 {
            std::mem::swap(&mut kx, &mut ky); // keep the winding
        }
        Self {
            origin: ray.origin,
            axes: [kx, ky, kz],
            shear: [d[kx] / d[kz], d[ky] / d[kz], 1.0 / d[kz]],
        }
    }

    /// [`cast_watertight`] with the prepared ray, on the triangle `a, b, c`.
    #[inline]
    pub fn cast_vertices(&self, a: &Point, b: &Point, c: &Point) -> Option<TriangleHit> {
        let [kx, ky, kz] = self.axes;
        let [sx, sy, sz] = self.shear;
        let shear = |p: &Point| {
            let q = p - self.origin;
            (
                Coord {
                    x: q[kx] - sx * q[kz],
                    y: q[ky] - sy * q[kz],
                },
                sz * q[kz],
            )
        };
        let ((a, az), (b, bz), (c, cz)) = (shear(a), shear(b), shear(c));
        let o = Coord { x: 0.0, y: 0.0 };
        let (eu, ev, ew) = (orient2d(c, b, o), orient2d(a, c, o), orient2d(b, a, o));
        if (eu < 0.0 || ev < 0.0 || ew < 0.0) && (eu > 0.0 || ev > 0.0 || ew > 0.0) {
            return None;
        }
        let det = eu + ev + ew;
        if det == 0.0 {
            return None;
        }
        let t_scaled = eu * az + ev * bz + ew * cz;
        if t_scaled * det < 0.0 {
            return None;
        }
        let hit = TriangleHit {
            t: t_scaled / det,
            u: ev / det,
            v: ew / det,
        };
        // A zero direction makes the shear constants NaN, and a direction tiny beside the
        // triangle's distance makes `t` overflow: no representable hit, reported as a miss.
        (hit.t.is_finite() && hit.u.is_finite() && hit.v.is_finite()).then_some(hit)
    }

    /// [`cast_watertight`] with the prepared ray.
    #[inline]
    pub fn cast(&self, tri: &Triangle) -> Option<TriangleHit> {
        self.cast_vertices(&tri.a, &tri.b, &tri.c)
    }
}
