//! Primitive intersection tests, one pair per file (`ray_aabb.rs`, `plane_obb.rs`, ...).
//!
//! Each function is short, named after the pair (`ray_aabb::cast`, `segment_obb::overlaps`,
//! `plane_obb::classify`, ...) and cites its derivation (book and section, or paper) in its
//! doc comment; `docs/references.md` lists every source in full.
//!
//! # Policy
//!
//! * **Closed sets.** Every volume, polygon, triangle, segment and half-space is closed:
//!   touching (sharing a single boundary point) counts as intersecting, and comparisons that
//!   decide "separated" are strict (`>`), never `>=`.
//! * **Inputs** must be finite. Shapes with zero extent (flat boxes, zero radius, zero-length
//!   segments) are valid and behave as the closed point sets they are. Non-finite inputs give
//!   an unspecified answer but never panic.
//! * **Rays** are half-lines `origin + t·dir`, `t >= 0`, with `t` in units of `dir` (not
//!   normalised). Ray casts against volumes (boxes, spheres, k-DOPs) treat them as solid: a
//!   ray starting inside hits at `t = 0` (parry's `solid = true`); the exit parameter is
//!   available from the `interval` functions. A ray is parallel to a slab only when the
//!   projected direction is exactly `0.0`; it then hits iff its origin lies in the closed slab
//!   (a ray grazing a face hits).
//! * **Ray–triangle.** Triangles are two-sided and closed. A ray lying in the triangle's plane,
//!   and any ray against a zero-area triangle, misses: in [`ray_triangle::cast`] when the
//!   determinant is exactly zero, in [`ray_triangle::cast_watertight`] when the exact `n·d` is
//!   zero; in a closed mesh such a ray is caught by the neighbouring triangles.
//!   [`ray_triangle::cast_watertight`] decides every hit exactly (edge functions and the sign of
//!   `t` by exact predicates on the input coordinates), so a ray through a shared edge or vertex
//!   of a closed mesh hits every triangle around it whose closed projection contains it, never
//!   none, whatever the magnitudes (with finite `u`, `v` for coordinates in the exact range of
//!   [`range`](crate::range) and any direction). [`ray_triangle::cast`] (Möller–Trumbore) is faster but may
//!   let such a ray slip through.
//! * **Plane classification** ([`plane::PlaneSide`]): `Tangent` means the closest point of the
//!   volume is within [`plane::TANGENT_TOLERANCE`] × (the magnitude of the terms of `n·x + d`)
//!   of the plane, so the three classic methods (all vertices, the diagonal / n–p vertices, the
//!   projected radius) agree despite their different rounding.
//! * **Culling** (frustum, shaft) returns `Outside` only when the volume is provably outside
//!   one bounding plane (so it is conservative: a volume near an edge of the region may be
//!   reported `Intersecting` while being outside); `Inside` means contained in the closed
//!   region. No tolerance is applied: rounding of one dot product decides exact ties.
//! * **Near-degenerate inputs** (near-parallel planes, lines or edges) are computed with the
//!   same formulas; only exactly zero determinants are treated as parallel, except
//!   [`three_planes::point`], which rejects a relative determinant below `1e-12`.
//! * **Dynamic tests** take the displacement of each body over the time step and return the
//!   time of first contact in `[0, 1]`, `0` when the bodies already touch.
//!
//! ## Overlap tests (volumes and triangles)
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
pub mod containment;
pub mod frustum;
pub mod frustum_aabb;
pub mod frustum_obb;
pub mod frustum_sphere;
pub mod hit;
pub mod kdop_kdop;
pub mod line2d;
pub mod moving_obb_obb;
pub mod moving_sphere_plane;
pub mod moving_sphere_polygon;
pub mod moving_sphere_sphere;
pub mod obb2d_obb2d;
pub mod obb_obb;
pub mod plane;
pub mod plane_aabb;
pub mod plane_obb;
pub mod ray_aabb;
pub mod ray_kdop;
pub mod ray_obb;
pub mod ray_polygon;
pub mod ray_sphere;
pub mod ray_triangle;
pub mod segment2d;
pub mod segment_aabb;
pub mod segment_obb;
pub mod shaft;
pub mod slab;
pub mod sphere_aabb;
pub mod sphere_obb;
pub mod sphere_sphere;
pub mod three_planes;
pub mod tri_aabb;
pub mod tri_obb;
pub mod tri_tri_erit;
pub mod tri_tri_exact;
pub mod tri_tri_moller;
pub mod tri_tri_segment;
