//! Shared helpers for the primitive-test suites: case count, strategies, exact rational
//! slab oracle, and conversions to parry3d-f64 (glam) types.
#![allow(dead_code)]

pub mod distance;
pub mod exact;
#[path = "../../../../tests/common/knob.rs"]
pub mod knob;
pub mod lp;
pub mod sat;

use nalgebra::{Matrix3, Rotation3, Unit};
use obbtree_bv::{Aabb, Obb, Point, Ray, Sphere, Vector};
use parry3d_f64::math::{Pose, Rotation, Vector as PVec};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::cmp::Ordering;

/// Property-test case count of a test whose CI count is `default`, scaled by the one knob
/// `OBBTREE_PROPTEST_CASES` like every property test of the workspace (see [`knob`]).
pub fn cases_with(default: u32) -> u32 {
    knob::cases(default)
}

/// Property-test case count: [`cases_with`]`(2000)`.
pub fn cases() -> u32 {
    cases_with(2000)
}

/// The proptest configuration with `cases_with(default)` cases; failing seeds are saved next to
/// the test's source and replayed first (see [`knob`]).
pub fn config_with(default: u32) -> ProptestConfig {
    knob::config(default)
}

/// A test runner with [`config_with`]`(default)` for properties run by hand
/// (`runner.run(...)`): `source_file` (pass `file!()`) tells it where to save failing seeds, which
/// the `proptest!` macro does by itself.
pub fn runner_with(default: u32, source_file: &'static str) -> TestRunner {
    knob::runner(default, source_file)
}

/// Runs `check` on `cases` random cases of `strategy` (failing seeds saved beside
/// `source_file`: pass `file!()`): each case gives `(got, want)` or `None` to skip it, and
/// `got` must equal `want`. Returns how many cases wanted `true` and how many `false`.
pub fn tally<S: Strategy>(
    cases: u32,
    source_file: &'static str,
    strategy: S,
    check: impl Fn(S::Value) -> Option<(bool, bool)>,
) -> (usize, usize)
where
    S::Value: std::fmt::Debug,
{
    let counts = [std::cell::Cell::new(0usize), std::cell::Cell::new(0usize)];
    runner_with(cases, source_file)
        .run(&strategy, |case| {
            let text = format!("{case:?}");
            if let Some((got, want)) = check(case) {
                prop_assert_eq!(got, want, "{}", text);
                counts[usize::from(want)].set(counts[usize::from(want)].get() + 1);
            }
            Ok(())
        })
        .unwrap();
    let [apart, touching] = counts.map(std::cell::Cell::into_inner);
    println!("{touching} touching, {apart} apart");
    (touching, apart)
}

/// `x` moved one ulp away from zero (the value's own ulp): the smallest step out of an exact
/// contact.
pub fn up(x: f64) -> f64 {
    if x >= 0.0 {
        x.next_up()
    } else {
        x.next_down()
    }
}

/// The proptest configuration used by every suite.
pub fn config() -> ProptestConfig {
    config_with(2000)
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
/// The rotation of the quaternion `q` (normalised), or the identity when `|q| < 1e-3`.
pub fn quaternion_rotation(q: [f64; 4]) -> Matrix3<f64> {
    let q = nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]);
    if q.norm() < 1e-3 {
        return Matrix3::identity();
    }
    nalgebra::UnitQuaternion::from_quaternion(q)
        .to_rotation_matrix()
        .into_inner()
}
pub fn obb() -> impl Strategy<Value = Obb> {
    (point(), rotation(), half_extents()).prop_map(|(center, axes, half_extents)| Obb {
        center,
        axes,
        half_extents,
    })
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
    Obb {
        center: nalgebra::center(&aabb.mins, &aabb.maxs),
        axes: Matrix3::identity(),
        half_extents: (aabb.maxs - aabb.mins) * 0.5,
    }
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
    (
        pose(&obb.axes, &obb.center),
        parry3d_f64::shape::Cuboid::new(pv(&obb.half_extents)),
    )
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

/// A random perspective view-projection matrix `P·V` and its frustum corners (world space).
pub fn view_projection() -> impl Strategy<Value = (nalgebra::Matrix4<f64>, [Point; 8])> {
    (
        point(),
        vector(),
        0.3..2.5f64,
        0.5..2.0f64,
        0.1..2.0f64,
        3.0..20.0f64,
    )
        .prop_filter_map("degenerate view", |(eye, look, fovy, aspect, near, far)| {
            let target = eye + look;
            let up = if look.cross(&Vector::y()).norm() > 1e-3 * look.norm() {
                Vector::y()
            } else {
                Vector::x()
            };
            (look.norm() > 1e-3).then(|| {
                let view = nalgebra::Isometry3::look_at_rh(&eye, &target, &up).to_homogeneous();
                let m = nalgebra::Perspective3::new(aspect, fovy, near, near + far)
                    .to_homogeneous()
                    * view;
                let inv = m.try_inverse().unwrap();
                let corners = std::array::from_fn(|i| {
                    let ndc = nalgebra::Vector4::new(
                        if i & 1 == 0 { -1.0 } else { 1.0 },
                        if i & 2 == 0 { -1.0 } else { 1.0 },
                        if i & 4 == 0 { -1.0 } else { 1.0 },
                        1.0,
                    );
                    let w = inv * ndc;
                    Point::new(w.x / w.w, w.y / w.w, w.z / w.w)
                });
                (m, corners)
            })
        })
}

/// parry convex hull of points (a convex polyhedron).
pub fn hull(points: &[Point]) -> parry3d_f64::shape::ConvexPolyhedron {
    let pts: Vec<PVec> = points.iter().map(pp).collect();
    parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&pts).expect("hull")
}

/// parry distance between a convex hull (at the identity) and an OBB.
pub fn hull_obb_distance(h: &parry3d_f64::shape::ConvexPolyhedron, obb: &Obb) -> f64 {
    let (pose, cub) = obb_pose(obb);
    parry3d_f64::query::distance(&Pose::identity(), h, &pose, &cub)
        .unwrap()
        .distance
}

/// Signed distance from a point to a convex hull (negative inside).
pub fn hull_signed_distance(h: &parry3d_f64::shape::ConvexPolyhedron, p: &Point) -> f64 {
    use parry3d_f64::query::PointQuery;
    // (`contains_local_point` of parry's ConvexPolyhedron disagreed with its own projection
    // on elongated frusta; the projection's `is_inside` is consistent.)
    let proj = h.project_local_point(pp(p), false);
    let d = (proj.point - pp(p)).length();
    if proj.is_inside {
        -d
    } else {
        d
    }
}

/// Oracle for dynamic tests: first `t ∈ [0, 1]` with `gap(t) <= 0` for a gap function that is
/// convex in `t` (a distance between convex sets moving linearly, minus radii): ternary
/// search for the minimum, then bisection before it. `Err(())` when the minimum is within
/// `tol` of zero (grazing: either answer is acceptable).
pub fn first_contact(gap: impl Fn(f64) -> f64, tol: f64) -> Result<Option<f64>, ()> {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..80 {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if gap(a) <= gap(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let t_min = if gap(0.0) <= gap(lo) { 0.0 } else { lo };
    let g = gap(t_min);
    if g.abs() <= tol || gap(0.0).abs() <= tol {
        return Err(());
    }
    if g > 0.0 {
        return Ok(None);
    }
    if gap(0.0) <= 0.0 {
        return Ok(Some(0.0));
    }
    let (mut a, mut b) = (0.0, t_min);
    for _ in 0..60 {
        let m = 0.5 * (a + b);
        if gap(m) <= 0.0 {
            b = m;
        } else {
            a = m;
        }
    }
    Ok(Some(b))
}

/// Compares a dynamic test's answer with [`first_contact`]: same hit/miss, and equal times
/// (measured by the gap at the reported time when the approach is slow).
pub fn check_contact(
    got: Option<f64>,
    gap: impl Fn(f64) -> f64,
    tol: f64,
) -> Result<(), TestCaseError> {
    match first_contact(&gap, tol) {
        Err(()) => {}
        Ok(want) => {
            prop_assert_eq!(
                got.is_some(),
                want.is_some(),
                "got {:?} want {:?}",
                got,
                want
            );
            if let (Some(g), Some(w)) = (got, want) {
                prop_assert!((0.0..=1.0).contains(&g));
                prop_assert!(
                    (g - w).abs() < 1e-6 || gap(g).abs() < 10.0 * tol,
                    "got {} want {} gap {}",
                    g,
                    w,
                    gap(g)
                );
            }
        }
    }
    Ok(())
}
