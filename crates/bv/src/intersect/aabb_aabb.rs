//! AABB–AABB overlap.

use crate::Aabb;

/// Whether two closed AABBs share a point: the boxes overlap iff their intervals overlap on all
/// three coordinate axes (seed 004, "AABB/AABB相交测试"; Ericson, *Real-Time Collision
/// Detection*, §4.2.1).
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
