//! k-DOP–k-DOP overlap.

use crate::Kdop;

/// Whether two closed k-DOPs of the same type overlap: every pair of slabs along the shared axes
/// must overlap (Klosowski, Held, Mitchell, Sowizral & Zikan, "Efficient collision detection
/// using bounding volume hierarchies of k-DOPs", IEEE TVCG 4(1), 1998; *Real-Time Rendering*,
/// 3rd ed. (2008), §16.13).
///
/// Exact: only comparisons are involved. As in Klosowski et al., this is the slab test, which
/// is also what makes k-DOPs cheap: two k-DOPs whose slabs all overlap may still be disjoint
/// polytopes (a separating plane need not be one of the slab normals), so a `true` answer is
/// conservative, while `false` is always right.
#[inline]
pub fn overlaps<const A: usize>(a: &Kdop<A>, b: &Kdop<A>) -> bool {
    (0..A).all(|i| a.min[i] <= b.max[i] && b.min[i] <= a.max[i])
}
