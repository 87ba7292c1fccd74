//! Fitting methods: how each volume is fitted around points or triangles.
//!
//! One file per method, each citing its source:
//! * [`covariance`]: triangle area-weighted covariance (seed 000 eq. 9.1) and vertex covariance;
//! * [`eigen3`]: the closed-form eigenvectors of a symmetric 3×3 matrix the covariance frames use;
//! * [`hull`]: QuickHull and the hull-triangle covariance (Gottschalk's OBBTree frame);
//! * [`eberly`]: iterative minimum-volume refinement ([`min_rect`] is its planar step);
//! * [`aabb_center`], [`ritter`], [`welzl`]: spheres.
//!
//! AABBs and k-DOPs have a single fit, the extremes along each slab normal (seed 004), in
//! [`crate::aabb`] and [`crate::kdop`].
//!
//! **Containment guarantee.** Every fit ends with a pass that measures each input point exactly
//! as `contains_point` does and widens the volume to it, so every input point satisfies
//! `contains_point(p, 0.0)`: the documented tolerance is zero. (`Sphere`'s AABB fit instead pads
//! its radius by a few ulps, which the tests check the same way.)
//!
//! **Degenerate input.** Fits need at least one point and finite coordinates. One point gives a
//! zero-size volume; repeated, collinear and coplanar points give flat boxes (zero half-lengths
//! along the missing directions) and never NaN. Triangle covariance with zero total area and a
//! hull of a flat set fall back to the vertex covariance, which finds the line or plane exactly.
//!
//! **Tightness** on the bundled meshes is tabulated in the crate docs ([`crate`]).

pub mod aabb_center;
pub mod covariance;
pub mod eberly;
pub mod eigen3;
pub mod hull;
pub mod min_rect;
pub mod ritter;
pub mod welzl;

use crate::{Obb, Point, Sphere};
use nalgebra::Matrix3;
use serde::{Deserialize, Serialize};

/// How an [`Obb`] is fitted (its [`BoundingVolume::Method`](crate::BoundingVolume::Method)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObbFit {
    /// Eigenvectors of the triangles' area-weighted covariance (seed 000 eq. 9.1–9.3). From plain
    /// points, or when every triangle has zero area, this is [`ObbFit::VertexCovariance`].
    ///
    /// The default: it is the seed's method, costs one pass over the triangles (~5 M triangle
    /// vertices/s, `benches/fit.rs`), and on the bundled meshes (`tightness.md`) it is as tight as
    /// the hull covariance (tighter on 8 of 13 meshes) at a tenth of the cost. Hierarchies fit
    /// every node, so a default 10× slower would dominate build time; choose
    /// [`ObbFit::MinVolume`] for static meshes where boxes up to 25 % smaller are worth that.
    #[default]
    TriangleCovariance,
    /// Eigenvectors of the convex hull's triangle covariance (Gottschalk, seed 004): insensitive
    /// to tessellation and interior detail (tighter than the triangle covariance on the bunny and
    /// the dragons), but one QuickHull per fit (~0.5 M points/s).
    HullCovariance,
    /// Eigenvectors of the plain vertex covariance (what PQP and FCL do): the cheapest baseline.
    /// From triangles, each corner counts once per triangle it belongs to.
    VertexCovariance,
    /// Eberly's iterative minimum-volume box ([`eberly::min_volume`]) started from the hull,
    /// vertex and (given triangles) triangle covariance frames, the coordinate axes and sampled
    /// orientations: never larger than any of those starts. The tightest fit by far (up to 10 %
    /// smaller than the best of 10,000 sampled orientations on the bundled meshes, never larger,
    /// while the covariance fits reach 1.2–1.6× that best), at about the cost of the hull covariance
    /// (the refinement runs on the hull's vertices only).
    MinVolume,
}

impl ObbFit {
    /// Every method, cheapest first.
    pub const ALL: [ObbFit; 4] = [
        ObbFit::TriangleCovariance,
        ObbFit::HullCovariance,
        ObbFit::VertexCovariance,
        ObbFit::MinVolume,
    ];
}

/// How a [`Sphere`] is fitted (its [`BoundingVolume::Method`](crate::BoundingVolume::Method)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SphereFit {
    /// AABB centre and half diagonal: one pass ([`aabb_center::aabb_sphere`]).
    AabbCenter,
    /// AABB centre, farthest point: two passes ([`aabb_center::improved_aabb_sphere`]).
    ImprovedAabbCenter,
    /// Ritter's growing sphere: three passes ([`ritter::ritter_sphere`]).
    Ritter,
    /// Welzl's exact minimum sphere with the fixed seed [`welzl::DEFAULT_SEED`]. The default:
    /// it is optimal (up to 40 % less volume than Ritter's on the bundled meshes) at 15–25 M
    /// points/s, a fifth to a quarter of Ritter's speed (`benches/fit.rs`): cheap next to the OBB fits
    /// a hierarchy also runs, and paid once at build time for tighter nodes at every query.
    #[default]
    Welzl,
}

impl SphereFit {
    /// Every method, cheapest first.
    pub const ALL: [SphereFit; 4] = [
        SphereFit::AabbCenter,
        SphereFit::ImprovedAabbCenter,
        SphereFit::Ritter,
        SphereFit::Welzl,
    ];
}

/// Fits an OBB around `points` (non-empty), using `triangles` (their vertices are `points`)
/// where the method needs them.
///
/// The frame is chosen on a [`predicate_safe`] copy of the points when they leave
/// `[2^-200, 2^200]` (coordinates of 1e300 or 1e-300): every method's frame is invariant under
/// the exact power-of-two scaling, and the copy neither overflows the covariances nor leaves the
/// range where the hull's exact predicates are exact. The box is fitted to the original points.
pub fn obb(points: &[Point], triangles: Option<&[[Point; 3]]>, method: ObbFit) -> Obb {
    let axes = match predicate_safe(points) {
        Some(s) => {
            let safe: Vec<Point> = points.iter().map(&s).collect();
            let safe_triangles: Option<Vec<[Point; 3]>> =
                triangles.map(|ts| ts.iter().map(|t| t.map(|p| s(&p))).collect());
            frame(&safe, safe_triangles.as_deref(), method)
        }
        None => frame(points, triangles, method),
    };
    Obb::from_axes(axes, points)
}

/// Bound on the magnitude of non-zero coordinates within which the fits' arithmetic is safe:
/// covariances cannot overflow, and orientation predicates (cubic in the coordinates) neither
/// overflow nor underflow, so they stay exact.
pub const SAFE_EXPONENT: i32 = 200;

/// `None` when every non-zero coordinate of `points` lies within `[2^-200, 2^200]`; otherwise
/// the map to apply: multiply by the power of two that brings the largest coordinate to
/// `[0.5, 1)` (exact), then flush coordinates below `2^-200` to zero. Finite input only.
pub fn predicate_safe(points: &[Point]) -> Option<impl Fn(&Point) -> Point> {
    let safe = |c: f64| c == 0.0 || (c.abs().log2().abs() <= f64::from(SAFE_EXPONENT));
    if points.iter().flat_map(|p| p.iter()).all(|&c| safe(c)) {
        return None;
    }
    let max = points
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |m, c| m.max(c.abs()));
    let scale = (-max.log2().floor() - 1.0).exp2();
    let tiny = f64::from(-SAFE_EXPONENT).exp2();
    Some(move |p: &Point| {
        p.map(|c| {
            let c = c * scale;
            if c.abs() < tiny {
                0.0
            } else {
                c
            }
        })
    })
}

/// The axes of the OBB of `points` by `method` (see [`obb`]).
fn frame(points: &[Point], triangles: Option<&[[Point; 3]]>, method: ObbFit) -> Matrix3<f64> {
    let vertex_frame = || covariance::eigen_frame(&covariance::vertex_covariance(points));
    let triangle_frame = || {
        triangles
            .and_then(covariance::triangle_covariance)
            .map(|c| covariance::eigen_frame(&c))
    };
    match method {
        ObbFit::VertexCovariance => vertex_frame(),
        ObbFit::TriangleCovariance => triangle_frame().unwrap_or_else(vertex_frame),
        ObbFit::HullCovariance => hull::convex_hull(points)
            .and_then(|h| hull::hull_frame(points, &h))
            .unwrap_or_else(vertex_frame),
        ObbFit::MinVolume => {
            let hull = hull::convex_hull(points);
            let support: Vec<Point> = match &hull {
                Some(h) => h.vertices.iter().map(|&i| points[i as usize]).collect(),
                None => points.to_vec(),
            };
            let starts: Vec<Matrix3<f64>> = [
                hull.as_ref().and_then(|h| hull::hull_frame(points, h)),
                Some(vertex_frame()),
                triangle_frame(),
                Some(Matrix3::identity()),
            ]
            .into_iter()
            .flatten()
            .collect();
            eberly::min_volume(&support, &starts).axes
        }
    }
}

/// Fits a sphere around `points` (non-empty).
pub fn sphere(points: &[Point], method: SphereFit) -> Sphere {
    match method {
        SphereFit::AabbCenter => aabb_center::aabb_sphere(points),
        SphereFit::ImprovedAabbCenter => aabb_center::improved_aabb_sphere(points),
        SphereFit::Ritter => ritter::ritter_sphere(points),
        SphereFit::Welzl => welzl::minimum_sphere(points, welzl::DEFAULT_SEED),
    }
}
