//! Triangle–OBB overlap.

use super::tri_aabb;
use crate::{Obb, Triangle};

/// Whether a closed triangle and a closed OBB overlap: the triangle is expressed in the box frame
/// and the 13-axis triangle–AABB test is applied there (Akenine-Möller 2001; *Real-Time
/// Rendering*, 3rd ed. (2008), §16.12).
///
/// Conservative, like [`tri_aabb::overlaps`]: the rounding bound used to grow the box also
/// covers the frame change.
pub fn overlaps(tri: &Triangle, obb: &Obb) -> bool {
    tri_aabb::overlaps_local(
        tri.vertices().map(|p| obb.axes.tr_mul(&(p - obb.center))),
        &obb.half_extents,
    )
}
