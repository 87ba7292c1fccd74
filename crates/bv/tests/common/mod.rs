//! Shared helpers for the primitive-test suites: case count, strategies, exact rational
//! slab oracle, and conversions to parry3d-f64 (glam) types.
#![allow(dead_code)]

use nalgebra::{Matrix3, Rotation3, Unit};
use obbtree_bv::{Aabb, Obb, Point, Ray, Sphere, Vector};
use parry3d_f64::math::{Pose, Rotation, Vector as PVec};
use proptest::prelude::*;
use std::cmp::Ordering;

/// Property-test case count: `OBBTREE_PROPTEST_CASES`, default 2000.
pub fn cases() -> u32 {
    std::env::var("OBBTREE_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000)
}

/// The proptest configuration used by every suite.
pub fn config() -> ProptestConfig {
    ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() }
}

pub fn coord() -> impl Strategy<Value = f64> {
    -10.0..10.0f64
}
pub fn point() -> impl Strategy<Value = Point> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Point::new(x, y, z))
}
pub fn vector() -> impl Strategy<Value = Vector> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vector::new(x, y, z))
}
/// Non-zero direction, sometimes with exact zero components (parallel cases).
pub fn direction() -> impl Strategy<Value = Vector> {
    (vector(), 0..8u8).prop_filter_map("zero direction", |(mut v, mask)| {
        for k in 0..3 {
            if mask >> k & 1 == 1 && mask != 7 {
                v[k] = 0.0;
            }
        }
        (v != Vector::zeros()).then_some(v)
    })
}
pub fn ray() -> impl Strategy<Value = Ray> {
    (point(), direction()).prop_map(|(o, d)| Ray::new(o, d))
}
pub fn half_extents() -> impl Strategy<Value = Vector> {
    (0.0..5.0f64, 0.0..5.0f64, 0.0..5.0f64).prop_map(|(x, y, z)| Vector::new(x, y, z))
}
pub fn aabb() -> impl Strategy<Value = Aabb> {
    (point(), half_extents()).prop_map(|(c, h)| Aabb::new(c - h, c + h))
}
pub fn rotation() -> impl Strategy<Value = Matrix3<f64>> {
    (vector(), -4.0..4.0f64).prop_map(|(axis, angle)| match Unit::try_new(axis, 1e-6) {
        Some(axis) => Rotation3::from_axis_angle(&axis, angle).into_inner(),
        None => Matrix3::identity(),
    })
}
pub fn obb() -> impl Strategy<Value = Obb> {
    (point(), rotation(), half_extents()).prop_map(|(center, axes, half_extents)| Obb { center, axes, half_extents })
}
pub fn sphere() -> impl Strategy<Value = Sphere> {
    (point(), 0.0..5.0f64).prop_map(|(center, radius)| Sphere { center, radius })
}
/// Small integer coordinates (exactly representable; many degenerate coincidences).
pub fn grid_point(n: i32) -> impl Strategy<Value = Point> {
    (-n..=n, -n..=n, -n..=n).prop_map(|(x, y, z)| Point::new(x.into(), y.into(), z.into()))
}
pub fn grid_vector(n: i32) -> impl Strategy<Value = Vector> {
    grid_point(n).prop_map(|p| p.coords)
}

/// The box as an OBB (identity axes).
pub fn obb_of(aabb: &Aabb) -> Obb {
    Obb { center: nalgebra::center(&aabb.mins, &aabb.maxs), axes: Matrix3::identity(), half_extents: (aabb.maxs - aabb.mins) * 0.5 }
}

pub fn pv(v: &Vector) -> PVec {
    PVec::new(v.x, v.y, v.z)
}
pub fn pp(p: &Point) -> PVec {
    pv(&p.coords)
}
pub fn pray(r: &Ray) -> parry3d_f64::query::Ray {
    parry3d_f64::query::Ray::new(pp(&r.origin), pv(&r.dir))
}
/// Pose with the given rotation matrix and translation.
pub fn pose(axes: &Matrix3<f64>, t: &Point) -> Pose {
    let q = nalgebra::UnitQuaternion::from_matrix(axes);
    let rot = Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize();
    Pose::from_parts(pp(t), rot)
}
pub fn obb_pose(obb: &Obb) -> (Pose, parry3d_f64::shape::Cuboid) {
    (pose(&obb.axes, &obb.center), parry3d_f64::shape::Cuboid::new(pv(&obb.half_extents)))
}
/// Relative closeness.
pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// An exact rational `n / d` (`d > 0`).
#[derive(Clone, Copy, Debug)]
pub struct Q(pub i128, pub i128);
impl Q {
    pub fn new(n: i128, d: i128) -> Self {
        if d < 0 {
            Q(-n, -d)
        } else {
            Q(n, d)
        }
    }
    pub fn cmp(&self, o: &Q) -> Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// Exact slab interval for integer data: slabs `(s, ds, lo, hi)` meaning
/// `lo <= s + t ds <= hi`, intersected with `t >= 0`. Returns the entry parameter if non-empty.
pub fn exact_slabs(slabs: &[(i128, i128, i128, i128)]) -> Option<Q> {
    let (mut t0, mut t1): (Q, Option<Q>) = (Q(0, 1), None);
    for &(s, ds, lo, hi) in slabs {
        if ds == 0 {
            if s < lo || s > hi {
                return None;
            }
            continue;
        }
        let (mut a, mut b) = (Q::new(lo - s, ds), Q::new(hi - s, ds));
        if a.cmp(&b) == Ordering::Greater {
            std::mem::swap(&mut a, &mut b);
        }
        if a.cmp(&t0) == Ordering::Greater {
            t0 = a;
        }
        if t1.is_none_or(|t1| b.cmp(&t1) == Ordering::Less) {
            t1 = Some(b);
        }
    }
    match t1 {
        Some(t1) if t0.cmp(&t1) == Ordering::Greater => None,
        _ => Some(t0),
    }
}

pub fn int(x: f64) -> i128 {
    assert_eq!(x, x.round());
    x as i128
}

/// An exact dyadic number `m · 2^e`: closed under `+`, `-`, `*`, which is all that separating-axis
/// projections need, and much cheaper than reduced rationals.
#[derive(Clone, Debug)]
pub struct Dy {
    m: BigInt,
    e: i64,
}

impl Dy {
    pub fn new(x: f64) -> Self {
        let v = to_common_integers(&[x]);
        if x == 0.0 {
            return Dy {
                m: BigInt::zero(),
                e: 0,
            };
        }
        // to_common_integers with one value gives the mantissa at its own exponent.
        let bits = x.abs().to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        Dy {
            m: v[0].clone(),
            e: if exp == 0 { -1074 } else { exp - 1075 },
        }
    }
    fn aligned(&self, o: &Dy) -> (BigInt, BigInt, i64) {
        let e = self.e.min(o.e);
        (
            &self.m << ((self.e - e) as usize),
            &o.m << ((o.e - e) as usize),
            e,
        )
    }
    pub fn add(&self, o: &Dy) -> Dy {
        let (a, b, e) = self.aligned(o);
        Dy { m: a + b, e }
    }
    pub fn sub(&self, o: &Dy) -> Dy {
        let (a, b, e) = self.aligned(o);
        Dy { m: a - b, e }
    }
    pub fn mul(&self, o: &Dy) -> Dy {
        Dy {
            m: &self.m * &o.m,
            e: self.e + o.e,
        }
    }
    pub fn abs(&self) -> Dy {
        Dy {
            m: self.m.abs(),
            e: self.e,
        }
    }
    pub fn is_zero(&self) -> bool {
        self.m.is_zero()
    }
    /// `self > o`.
    pub fn gt(&self, o: &Dy) -> bool {
        self.sub(o).m.is_positive()
    }
    pub fn to_f64(&self) -> f64 {
        use num_traits::ToPrimitive;
        let bits = self.m.bits() as i64;
        let shift = (bits - 60).max(0);
        (&self.m >> (shift as usize)).to_f64().unwrap_or(f64::NAN)
            * 2f64.powi((self.e + shift) as i32)
    }
}

pub type D3 = [Dy; 3];

pub fn d3(v: &[f64; 3]) -> D3 {
    v.map(Dy::new)
}

pub fn d_dot(a: &D3, b: &D3) -> Dy {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}

pub fn d_cross(a: &D3, b: &D3) -> D3 {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}

/// A convex body for exact separating-axis tests: its projection onto `L` is
/// `[c·L - r, c·L + r]` with `r = Σ |g·L|` over its half-generators `g`, plus explicit points
/// (the hull of `points` ⊕ the zonotope `Σ [-g, g]` around `c`).
pub struct ExactBody {
    pub points: Vec<D3>,
    pub generators: Vec<D3>,
}

impl ExactBody {
    fn interval(&self, l: &D3) -> (Dy, Dy) {
        let r = self
            .generators
            .iter()
            .fold(Dy::new(0.0), |acc, g| acc.add(&d_dot(g, l).abs()));
        let proj: Vec<Dy> = self.points.iter().map(|p| d_dot(p, l)).collect();
        let lo = proj
            .iter()
            .skip(1)
            .fold(proj[0].clone(), |m, x| if m.gt(x) { x.clone() } else { m });
        let hi = proj
            .iter()
            .skip(1)
            .fold(proj[0].clone(), |m, x| if x.gt(&m) { x.clone() } else { m });
        (lo.sub(&r), hi.add(&r))
    }

    /// Exact: whether `axis` separates the two closed bodies (strictly), and the separation
    /// distance along it in floating point (negative: overlap).
    pub fn separation(&self, other: &ExactBody, axis: &D3) -> Option<(bool, f64)> {
        if axis.iter().all(Dy::is_zero) {
            return None;
        }
        let ((a0, a1), (b0, b1)) = (self.interval(axis), other.interval(axis));
        let apart = b0.gt(&a1) || a0.gt(&b1);
        let len = axis.iter().map(|x| x.to_f64().powi(2)).sum::<f64>().sqrt();
        let gap = b0.sub(&a1).to_f64().max(a0.sub(&b1).to_f64()) / len;
        Some((apart, gap))
    }
}

/// Exact separating-axis decision over the given candidate axes: `(separated, largest gap)`.
pub fn exact_sat(a: &ExactBody, b: &ExactBody, axes: &[D3]) -> (bool, f64) {
    axes.iter()
        .filter_map(|l| a.separation(b, l))
        .fold((false, f64::NEG_INFINITY), |(s, g), (s2, g2)| {
            (s || s2, g.max(g2))
        })
}
