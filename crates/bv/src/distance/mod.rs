//! Distance queries, one pair per file: closest points of primitives (`point_segment.rs`,
//! `segment_segment.rs`, `point_triangle.rs`, `tri_tri.rs`, and of two convex hulls, `gjk.rs`),
//! distances of a solid cylinder with certified intervals (`cylinder_hull.rs`,
//! `cylinder_cylinder.rs`, over the support mappings of `support.rs` and the certified search
//! of `certified.rs`) and lower bounds on the distance
//! between bounding volumes, one volume placed by a relative pose (`rss_rss.rs`, `obb_obb.rs`,
//! ...).
//!
//! # Policy
//!
//! * **Closed sets.** Touching counts as distance 0.
//! * **Triangles** are decided with the same standard as collision: intersecting triangles are
//!   at distance exactly 0 by [`crate::intersect::tri_tri_exact`]; the float distance of
//!   disjoint ones comes with a tested bound on its error ([`tri_tri::DISTANCE_ERROR`]), and
//!   [`tri_tri::within`] decides `distance <= d` exactly.
//! * **Volume lower bounds** (`lower_bound` in each volume pair's file, on a volume of B
//!   placed once by the pose of B's frame in A's frame, a rotation matrix and a translation,
//!   then measured against many volumes of A) are conservative: never above the true distance between any two
//!   points of the two volumes, whatever the rounding (each subtracts a bound on its own
//!   rounding and on that of placing the second volume, and of placing its triangles' vertices
//!   `R·p + t` in floating point, which is what the leaf tests see). They may be below the
//!   true distance by the looseness of each test, described where it is defined. A negative
//!   value means "possibly overlapping".

pub mod aabb_aabb;
pub mod certified;
pub mod cylinder_cylinder;
pub mod cylinder_hull;
pub(crate) mod exact;
pub mod gjk;
pub mod kdop_kdop;
pub mod obb_obb;
pub mod point_segment;
pub mod point_triangle;
pub mod rss_rss;
pub mod segment_segment;
pub mod sphere_sphere;
pub mod support;
pub mod tri_tri;

/// Rotations and volume axes are taken as orthonormal to within this (about `1e-10` in
/// practice); the bounds give it up on sizes and offsets, as the overlap tests do.
pub use crate::intersect::obb_obb::PARALLEL_EPS;

/// Relative bound on the rounding of placing and measuring positions: many times the few ulps
/// each step costs, applied to the magnitudes involved (as the posed overlap tests do).
pub const SLACK: f64 = 64.0 * f64::EPSILON;

/// The larger of `a` and `b`, for finite numbers: one instruction, where `f64::max`'s NaN
/// handling costs several in the inner loops of these tests.
#[inline(always)]
pub(crate) fn larger(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of `a` and `b`, for finite numbers (see [`larger`]).
#[inline(always)]
pub(crate) fn smaller(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// `x` clamped to `[low, high]` (`low <= high`); NaN gives `low`.
#[inline(always)]
pub(crate) fn clamped(x: f64, low: f64, high: f64) -> f64 {
    smaller(larger(x, low), high)
}
