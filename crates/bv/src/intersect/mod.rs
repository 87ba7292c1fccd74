//! Primitive intersection tests, one pair per file, each named after the pair
//! (`obb_obb::overlaps`, `tri_tri_exact::intersects`, ...).
//!
//! # Policy for touching and near-degenerate inputs
//!
//! Every volume and primitive is a closed set, so touching counts as intersecting.
//!
//! * **Bounding-volume tests** (`aabb_aabb`, `sphere_*`, `kdop_kdop`, `obb_obb`, `obb2d_obb2d`,
//!   `tri_aabb`, `tri_obb`) are *conservative*: they never report two overlapping volumes as
//!   separated, even when rounding gets in the way, and may report overlap for volumes that are
//!   apart by no more than a few units of rounding error (relative to the coordinates involved).
//!   A hierarchy traversal built on them therefore never misses a contact.
//! * **`tri_tri_exact`** is exact: the answer is the true answer for the triangles given by their
//!   `f64` coordinates, including touching, coplanar and zero-area (segment or point) triangles.
//! * **`tri_tri_moller`** and **`tri_tri_erit`** are the classic floating-point methods. They are
//!   fast on generic input but may misclassify configurations within rounding distance of touching
//!   (tested: never farther than `1e-9` of the triangles' size plus 64 ulps of the coordinates).
//!   A triangle within `COPLANAR_TOL` (relative) of the other's plane goes to the 2D test;
//!   zero-area triangles and slivers (normal zero up to rounding) go to `tri_tri_exact`.
//! * **`tri_tri_segment`** classifies exactly (disjoint / segment / coplanar / degenerate) and
//!   computes the segment's end points in floating point.
//! * Inputs are assumed finite (meshes and volumes are validated where they are built); NaN
//!   input gives an unspecified boolean, never a panic.

pub mod aabb_aabb;
pub mod kdop_kdop;
pub mod obb2d_obb2d;
pub mod obb_obb;
pub mod sphere_aabb;
pub mod sphere_obb;
pub mod sphere_sphere;
pub mod tri_aabb;
pub mod tri_obb;
pub mod tri_tri_erit;
pub mod tri_tri_exact;
pub mod tri_tri_moller;
pub mod tri_tri_segment;
