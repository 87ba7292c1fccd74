//! AABB–AABB overlap.

use crate::Aabb;

/// Whether two closed AABBs share a point: the boxes overlap iff their intervals overlap on all
/// three coordinate axes (Ericson, *Real-Time Collision Detection* (2005), §4.2.1;
/// *Real-Time Rendering*, 3rd ed. (2008), §16.13).
///
/// Exact: only comparisons are involved. Touching boxes overlap. All six comparisons are made
/// and combined without branching: where the outcome is hard to predict (the collision leaf
/// test's triangle boxes), a branch per comparison mispredicts often.
#[inline]
pub fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (0..3).fold(true, |meet, i| {
        meet & (a.mins[i] <= b.maxs[i]) & (b.mins[i] <= a.maxs[i])
    })
}
