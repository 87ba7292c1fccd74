//! k-DOP–k-DOP overlap.

use crate::Kdop;

/// Whether two closed k-DOPs of the same type overlap: every pair of slabs along the shared axes
/// must overlap (seed 004, "k-DOP/k-DOP相交测试"; Klosowski et al. 1998).
///
/// Exact: only comparisons are involved. Like the seed, this is the slab test, which is also
/// what makes k-DOPs cheap: two k-DOPs whose slabs all overlap may still be disjoint polytopes
/// (a separating plane need not be one of the slab normals), so a `true` answer is conservative,
/// while `false` is always right.
#[inline]
pub fn overlaps<const A: usize>(a: &Kdop<A>, b: &Kdop<A>) -> bool {
    (0..A).all(|i| a.min[i] <= b.max[i] && b.min[i] <= a.max[i])
}
