//! The depth-first driver of the dual descent: a stack of node pairs, each pair either left out
//! by the volumes' conservative overlap test or split ([`split`]); what collision, self-collision
//! and the margin queries walk with.

use super::{split, Split};
use crate::kernel::leaf::{Leaf, LeafTest};
use crate::kernel::placed_nodes::with_placed;
use crate::kernel::posed::PosedOverlap;
use obbtree_tree::{Bvh, MAX_DEPTH};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// Pending node pairs: each step pops one pair and pushes at most two, and one index of the
/// pushed pairs goes one level deeper, so the stack never holds more than
/// `2 · (MAX_DEPTH + 1)` pairs and never leaves the call stack (self-collision pushes three
/// pairs at a node paired with itself and may exceed that; the vector then spills to the heap).
pub(crate) type Stack = SmallVec<[(u32, u32); 2 * (MAX_DEPTH + 1)]>;

/// Calls `visit(leaves, leaf of a, leaf of b)` for every pair of leaves whose ancestors
/// overlap (under `rel`) and that `meets_leaf` accepts, until `visit` breaks. Returns whether
/// it broke.
///
/// With `itself` (`a` and `b` the same tree, for self-collision), each unordered pair of nodes is
/// visited once: a node paired with itself is not tested but expands to its children paired with
/// themselves and with each other, and a leaf paired with itself is visited (`i == j`).
///
/// A pair whose node of B is internal is tested by [`PosedOverlap::overlaps`]; a pair with a
/// leaf of B first by `meets_leaf(leaves, node of a, leaf of b)`, for collision the boxes
/// around the triangles ([`LeafTest::meets_leaf`]: exact, and much cheaper than a box–box
/// test), then, if that passes, by [`PosedOverlap::overlaps`] as well. Each test rejects pairs
/// the other passes: the axis-aligned boxes are exact but loose around a patch that is tilted
/// in A's frame, the volumes are fitted to each patch (an OBB's thin axis) but padded; two
/// patches facing each other across a narrow gap, the common case of links that nearly touch,
/// pass the boxes and fail the volumes (counts in `docs/performance.md`).
///
/// At each overlapping pair of internal nodes the larger volume ([`PosedOverlap::size`]) is
/// split ([`split`]).
pub(crate) fn leaf_pairs<V: PosedOverlap>(
    a: &Bvh<V>,
    b: &Bvh<V>,
    rel: &V::Relative,
    itself: bool,
    leaves: &mut LeafTest,
    meets_leaf: impl Fn(&mut LeafTest, usize, &Leaf) -> bool,
    mut visit: impl FnMut(&mut LeafTest, usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (na, nb) = (a.nodes(), b.nodes());
    let place = |j: u32| V::place(nb[j as usize].bv(), rel);
    with_placed(nb.len(), place(0), |placed| {
        let mut stack = Stack::new();
        // The pair in hand: a split pushes one child pair and goes on with the other at once.
        let mut next = Some((0, 0));
        while let Some((i, j)) = next.take().or_else(|| stack.pop()) {
            let (x, y) = (&na[i as usize], &nb[j as usize]);
            if itself && i == j {
                match x.children() {
                    Some([l, r]) => {
                        let (l, r) = (l as u32, r as u32);
                        stack.extend([(l, r), (r, r)]);
                        next = Some((l, l));
                    }
                    None => visit(leaves, i as usize, j as usize)?,
                }
                continue;
            }
            let overlap = if y.is_leaf() {
                meets_leaf(leaves, i as usize, &Leaf::of(b, j as usize))
                    && V::overlaps(x.bv(), placed.get(j, || place(j)), rel)
            } else {
                V::overlaps(x.bv(), placed.get(j, || place(j)), rel)
            };
            if !overlap {
                continue;
            }
            // The two children are asked for at once: the pushed one is tested later, out of
            // the cache.
            match split(x, y, || x.bv().size() >= y.bv().size()) {
                Split::A([l, r]) => {
                    crate::prefetch::lines(&na[l..=r]);
                    stack.push((r as u32, j));
                    next = Some((l as u32, j));
                }
                Split::B([l, r]) => {
                    crate::prefetch::lines(&nb[l..=r]);
                    // A leaf child's triangles are placed on its first test: ask for them now.
                    for k in [l, r] {
                        if nb[k].is_leaf() {
                            leaves.prefetch_leaf(&Leaf::of(b, k));
                        }
                    }
                    stack.push((i, r as u32));
                    next = Some((i, l as u32));
                }
                Split::Leaves => visit(leaves, i as usize, j as usize)?,
            }
        }
        ControlFlow::Continue(())
    })
}
