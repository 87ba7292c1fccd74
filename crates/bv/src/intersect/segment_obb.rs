//! Segment–OBB overlap by separating axes.

use super::segment_aabb::overlaps_centered;
use crate::{Obb, Point};

/// Whether the closed segment `p0 p1` meets the closed box (Gregory et al., "H-COLLIDE", IEEE
/// Virtual Reality 1999; Ericson, *Real-Time Collision Detection* (2005), §5.3.3): express the
/// endpoints in the box frame, `P' = (u_0·(P - C), u_1·(P - C), u_2·(P - C))`, then test the
/// three box axes and the three cross products with the segment direction
/// ([`overlaps_centered`]).
pub fn overlaps(p0: &Point, p1: &Point, obb: &Obb) -> bool {
    let q0 = obb.axes.tr_mul(&(p0 - obb.center));
    let q1 = obb.axes.tr_mul(&(p1 - obb.center));
    overlaps_centered(&((q0 + q1) * 0.5), &((q1 - q0) * 0.5), &obb.half_extents)
}
