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

/// The order in which a split's two children are descended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChildOrder {
    /// As stored (left, then right): the order of the node arrays, for a search that visits
    /// every overlapping pair anyway.
    Stored,
    /// The child whose centre lies nearer the other node's first ([`PosedOverlap::centre_gap`]),
    /// for a search that stops at its first leaf pair found (a witness).
    NearerFirst,
}

impl ChildOrder {
    /// The order for a search that stops at its first pair (`first_only`) or visits them all.
    pub(crate) fn for_search(first_only: bool) -> Self {
        if first_only {
            Self::NearerFirst
        } else {
            Self::Stored
        }
    }
}

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
/// split ([`split`]), its children descended in `order`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn leaf_pairs<V: PosedOverlap>(
    a: &Bvh<V>,
    b: &Bvh<V>,
    rel: &V::Relative,
    itself: bool,
    order: ChildOrder,
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
                    let [l, r] = match order {
                        ChildOrder::Stored => [l, r],
                        ChildOrder::NearerFirst => {
                            let y = placed.get(j, || place(j));
                            nearer_first([l, r], |k| V::centre_gap(na[k].bv(), y))
                        }
                    };
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
                    // Both children placed at once: each is tested soon, and the work of
                    // placing them overlaps the wait for their nodes and triangles.
                    for k in [l, r] {
                        placed.get(k as u32, || place(k as u32));
                    }
                    let [l, r] = match order {
                        ChildOrder::Stored => [l, r],
                        ChildOrder::NearerFirst => nearer_first([l, r], |k| {
                            V::centre_gap(x.bv(), placed.get(k as u32, || place(k as u32)))
                        }),
                    };
                    stack.push((i, r as u32));
                    next = Some((i, l as u32));
                }
                Split::Leaves => visit(leaves, i as usize, j as usize)?,
            }
        }
        ControlFlow::Continue(())
    })
}

/// The two children, the one whose centre lies nearer the other node's first (when the volumes
/// have centres to compare): in an intersecting pose the pair nearer to coinciding is the more
/// likely to hold a crossing, which a search for one witness then finds sooner.
#[inline]
fn nearer_first(children: [usize; 2], mut gap: impl FnMut(usize) -> Option<f64>) -> [usize; 2] {
    let [l, r] = children;
    let swap = matches!((gap(l), gap(r)), (Some(gl), Some(gr)) if gr < gl);
    // Chosen without a branch: which child is nearer is a coin toss to the predictor.
    let first = [l, r][usize::from(swap)];
    [first, l + r - first]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::leaf::with_leaf_test;
    use crate::model::MeshModel;
    use crate::test_meshes::wavy_field;
    use obbtree_bv::{Obb, Pose, Vector};

    /// The leaf pairs the descent visits in `order`, in the order visited.
    fn visited(
        a: &MeshModel<Obb>,
        b: &MeshModel<Obb>,
        pose: &Pose,
        order: ChildOrder,
    ) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        let rel = Obb::relative(pose);
        let _ = with_leaf_test(a, b, pose, |leaves| {
            leaf_pairs(
                a.tree(),
                b.tree(),
                &rel,
                false,
                order,
                leaves,
                |leaves: &mut LeafTest, i, leaf: &Leaf| leaves.meets_leaf(i, leaf),
                |_, i, j| {
                    pairs.push((i, j));
                    ControlFlow::Continue(())
                },
            )
        });
        pairs
    }

    /// The order changes when a pair is visited, never which pairs are: both orders visit the
    /// same leaf pairs, and they do visit them in different orders (the test would otherwise
    /// not tell the orders apart).
    #[test]
    fn both_orders_visit_the_same_leaf_pairs() {
        let a: MeshModel<Obb> = MeshModel::new(wavy_field(24)).unwrap();
        let b = a.clone();
        let pose = Pose::new(Vector::new(3.1, -2.7, 0.2), Vector::new(0.2, 0.1, 1.4)).unwrap();
        let stored = visited(&a, &b, &pose, ChildOrder::Stored);
        let nearer = visited(&a, &b, &pose, ChildOrder::NearerFirst);
        assert!(stored.len() > 50, "{} leaf pairs", stored.len());
        assert_ne!(stored, nearer);
        let sorted = |mut v: Vec<(usize, usize)>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(stored), sorted(nearer));
    }

    /// Nearer first: of two children, the one whose centre is nearer goes first, ties and
    /// volumes without centres keep the stored order.
    #[test]
    fn the_child_with_the_nearer_centre_goes_first() {
        assert_eq!(
            nearer_first([4, 5], |k| Some([0.0, 0.0, 0.0, 0.0, 2.0, 1.0][k])),
            [5, 4]
        );
        assert_eq!(
            nearer_first([4, 5], |k| Some([0.0, 0.0, 0.0, 0.0, 1.0, 2.0][k])),
            [4, 5]
        );
        assert_eq!(nearer_first([4, 5], |_| Some(1.0)), [4, 5]);
        assert_eq!(nearer_first([4, 5], |_| None), [4, 5]);
    }
}
