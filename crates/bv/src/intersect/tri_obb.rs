//! Triangle–OBB overlap.

use super::tri_aabb;
use crate::{Obb, Triangle};

/// Whether a closed triangle and a closed OBB overlap: the triangle is expressed in the box frame
/// (seed 000 eq. 9.21) and the 13-axis triangle–AABB test is applied there (seed 000 §9.2.5;
/// seed 004: "对OBB需要先变换").
///
/// Conservative, like [`tri_aabb::overlaps`]: the rounding bound used to grow the box also
/// covers the frame change.
pub fn overlaps(tri: &Triangle, obb: &Obb) -> bool {
    tri_aabb::overlaps_local(
        tri.vertices().map(|p| obb.axes.tr_mul(&(p - obb.center))),
        &obb.half_extents,
    )
}
