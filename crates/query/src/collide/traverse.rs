//! The simultaneous descent of two hierarchies (the bounding-volume test tree).

use super::PosedOverlap;
use obbtree_tree::{Bvh, MAX_DEPTH};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// Pending node pairs: each step pops one pair and pushes at most two, and one index of the
/// pushed pairs goes one level deeper, so the stack never holds more than
/// `2 · (MAX_DEPTH + 1)` pairs and never leaves the call stack (self-collision pushes three
/// pairs at a node paired with itself and may exceed that; the vector then spills to the heap).
pub(crate) type Stack<P> = SmallVec<[(u32, u32, P); 2 * (MAX_DEPTH + 1)]>;

/// Calls `visit(leaf of a, leaf of b)` for every pair of leaves whose volumes overlap and whose
/// ancestors' volumes all overlap (under `rel`), until `visit` breaks. Returns whether it broke.
///
/// With `itself` (`a` and `b` the same tree, for self-collision), each unordered pair of nodes is
/// visited once: a node paired with itself is not tested but expands to its children paired with
/// themselves and with each other, and a leaf paired with itself is visited (`i == j`).
///
/// Pairs with an internal node are tested by [`PosedOverlap::overlaps_coarse`], pairs of leaves
/// by [`PosedOverlap::overlaps`].
///
/// At each overlapping pair of internal nodes the larger volume ([`PosedOverlap::size`]) is
/// split, which keeps the two volumes of a pair of similar size (Gottschalk, Lin & Manocha 1996,
/// §5: "descend the larger box").
pub(crate) fn leaf_pairs<V: PosedOverlap>(
    a: &Bvh<V>,
    b: &Bvh<V>,
    rel: &V::Relative,
    itself: bool,
    mut visit: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (na, nb) = (a.nodes(), b.nodes());
    let placed = |j: usize| V::place(nb[j].bv(), rel);
    let mut stack = Stack::<V::Placed>::new();
    // The pair in hand: a split pushes one child pair and goes on with the other at once.
    let mut next = Some((0, 0, placed(0)));
    while let Some((i, j, pj)) = next.take().or_else(|| stack.pop()) {
        let (x, y) = (&na[i as usize], &nb[j as usize]);
        if itself && i == j {
            match x.children() {
                Some([l, r]) => {
                    stack.extend([
                        (l as u32, r as u32, placed(r)),
                        (r as u32, r as u32, placed(r)),
                    ]);
                    next = Some((l as u32, l as u32, placed(l)));
                }
                None => visit(i as usize, j as usize)?,
            }
            continue;
        }
        let overlap = if x.is_leaf() && y.is_leaf() {
            V::overlaps(x.bv(), &pj, rel)
        } else {
            V::overlaps_coarse(x.bv(), &pj, rel)
        };
        if !overlap {
            continue;
        }
        // Split A when B is a leaf or A's volume is the larger; otherwise split B.
        let split_a = y.is_leaf() || x.bv().size() >= y.bv().size();
        if let Some([l, r]) = x.children().filter(|_| split_a) {
            stack.push((r as u32, j, pj));
            next = Some((l as u32, j, pj));
        } else if let Some([l, r]) = y.children() {
            stack.push((i, r as u32, placed(r)));
            next = Some((i, l as u32, placed(l)));
        } else {
            visit(i as usize, j as usize)?;
        }
    }
    ControlFlow::Continue(())
}
