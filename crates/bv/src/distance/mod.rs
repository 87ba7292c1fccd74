//! Distance queries, one pair per file: closest points of primitives (`point_segment.rs`,
//! `segment_segment.rs`, `point_triangle.rs`, `tri_tri.rs`) and lower bounds on the distance
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
//! * **Volume lower bounds** are conservative: never above the true distance between any two
//!   points of the two volumes, whatever the rounding (each subtracts a bound on its own
//!   rounding and on that of placing the second volume, and of placing its triangles' vertices
//!   `R·p + t` in floating point, which is what the leaf tests see). They may be below the
//!   true distance by the looseness of each test, described where it is defined. A negative
//!   value means "possibly overlapping".

pub(crate) mod exact;
pub mod point_segment;
pub mod point_triangle;
pub mod segment_segment;
pub mod tri_tri;
