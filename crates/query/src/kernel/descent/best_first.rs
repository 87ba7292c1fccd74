//! The best-first driver of the dual descent, ordered by lower bounds: the walk every distance
//! query shares, with what it does at a pair of leaves and when it prunes left to a
//! [`Visitor`], and an optional extra bound per node pair left to a [`PairScreen`].

use super::{split, Split};
use crate::kernel::leaf::{Leaf, LeafTest};
use crate::kernel::placed_nodes::with_placed;
use obbtree_bv::distance::rss_rss::{self, PlacedRss};
use obbtree_bv::{Aabb, Pose, Rss};
use obbtree_tree::{Bvh, TreeVolume};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

/// What a query does with the node pairs the walk reaches.
pub(crate) trait Visitor {
    /// Whether a node pair whose distance is at least `bound` can be left out.
    fn prunes(&self, bound: f64) -> bool;

    /// A distance beyond which a node pair's largest bound is not needed: any bound above it
    /// prunes the pair (the closest-pair query's cutoff), so the bound may stop at the first
    /// direction that exceeds it ([`rss_rss::lower_bound_or_above`]).
    fn enough(&self) -> f64;

    /// Notes that a part of the two meshes at least `bound` apart was left out.
    fn pruned(&mut self, bound: f64);

    /// Visits the triangle pairs of leaf `a` of A and leaf `b` of B: a lower bound on their
    /// distance as the visitor left them (at least the pair's own), or `Break` to end the walk.
    fn leaves(&mut self, test: &mut LeafTest, a: Leaf, b: Leaf) -> ControlFlow<(), f64>;
}

/// A second lower bound on the distance between two nodes' triangles (node `i` of A, `j` of B),
/// taken with the volumes' own: the walk bounds a pair by the larger of the two, and skips the
/// volumes' bound when this one already prunes.
pub(crate) trait PairScreen {
    /// A lower bound on the distance between the triangles of node `i` of A and node `j` of B
    /// (`−∞` when it knows none).
    fn gap(&mut self, i: usize, j: usize) -> f64;
}

/// The two trees with the rectangle swept sphere around each node's triangles (by node
/// index), B placed in A's frame by `b_in_a`.
pub(crate) struct Trees<'m, V> {
    pub a: &'m Bvh<V>,
    pub b: &'m Bvh<V>,
    pub a_volumes: &'m [Rss],
    pub b_volumes: &'m [Rss],
    pub b_in_a: &'m Pose,
}

/// A node pair a walk left out (or a leaf pair it measured) and a lower bound on the distance
/// between its triangles at the walk's placement: together, the pairs a walk settles cover
/// every triangle pair of the two meshes, so a later walk may start from them instead of the
/// roots ([`Start::Settled`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settled {
    pub a: u32,
    pub b: u32,
    pub lower: f64,
}

/// Where a walk starts.
#[derive(Clone, Copy)]
pub(crate) enum Start<'s> {
    /// The pair of roots.
    Roots,
    /// The pairs an earlier walk settled, each bound lowered by `moved`, a bound on how far any
    /// point of B moved since: no triangle pair came nearer by more than that, so the lowered
    /// bounds still hold (they are computed afresh when one is too low to prune).
    Settled { pairs: &'s [Settled], moved: f64 },
}

/// Marks a pending pair whose bound is an earlier walk's, lowered (in the node index of B:
/// trees hold fewer than 2^31 nodes).
const STALE: u32 = 1 << 31;

/// Walks the node pairs of the two trees best first: the pending pair with the least lower
/// bound next (ties to the smaller pair, which goes deeper), skipping every pair the visitor
/// prunes by its lower bound, until the least pending bound prunes or the visitor breaks.
/// With `settled`, every pair left out and every leaf pair visited is added to it with its
/// bound (complete unless the walk breaks).
///
/// A pair whose node of B is internal is bounded by the rectangle swept spheres
/// ([`rss_rss::lower_bound`], B's placed once per query); a pair with a leaf of B first by the
/// gap between the box around A's node's triangles and the box around B's placed leaf
/// triangles (B's leaf triangles are placed for the leaf test anyway, and the gap is exact up
/// to rounding), then, when that gap does not prune, by the larger of it and the rectangle
/// swept spheres' bound: axis-aligned boxes around patches tilted in A's frame are loose, and
/// on meshes of long thin triangles the gap alone left most leaf pairs near a near miss
/// unpruned (counts in `docs/performance.md`). Pairs are split by the descents' one rule
/// ([`split`]), the larger measured by the rectangle swept spheres.
pub(crate) fn walk<V: TreeVolume, W: Visitor, S: PairScreen>(
    trees: &Trees<'_, V>,
    leaves: &mut LeafTest,
    visitor: &mut W,
    start: Start<'_>,
    mut settled: Option<&mut Vec<Settled>>,
    mut screen: Option<&mut S>,
) -> ControlFlow<()> {
    let (na, nb) = (trees.a.nodes(), trees.b.nodes());
    let (rotation, translation) = (trees.b_in_a.rotation(), trees.b_in_a.translation());
    let place = |j: usize| PlacedRss::new(&trees.b_volumes[j], rotation, translation);
    // A walk whose settled pairs are kept computes their bounds whole: the next walk's lowered
    // bounds then prune more.
    let tracked = settled.is_some();
    let mut settle = |i: usize, j: usize, lower: f64| {
        if let Some(settled) = settled.as_deref_mut() {
            settled.push(Settled {
                a: i as u32,
                b: j as u32,
                lower,
            });
        }
    };
    with_placed(nb.len(), place(0), |placed| {
        let a_bounds = leaves.a_side().1;
        let mut bound = |leaves: &mut LeafTest, enough: f64, i: usize, j: usize| -> f64 {
            let slab = screen
                .as_deref_mut()
                .map_or(f64::NEG_INFINITY, |screen| screen.gap(i, j));
            if slab >= enough {
                return slab;
            }
            let mut swept = || {
                let b = placed.get(j as u32, || place(j));
                rss_rss::lower_bound_or_above(&trees.a_volumes[i], b, enough)
            };
            let volumes = if nb[j].is_leaf() {
                let around = leaves.placed_bounds(&Leaf::of(trees.b, j));
                let gap = box_gap(&a_bounds[i], &around);
                if gap >= enough {
                    gap
                } else {
                    gap.max(swept())
                }
            } else {
                swept()
            };
            volumes.max(slab)
        };
        let enough = |visitor: &W| {
            if tracked {
                f64::INFINITY
            } else {
                visitor.enough()
            }
        };
        let mut queue = BinaryHeap::new();
        let pending = |i: usize, j: usize, lower: f64, stale: bool| {
            let size = size(&trees.a_volumes[i]) + size(&trees.b_volumes[j]);
            let mark = if stale { STALE } else { 0 };
            Reverse((
                lower.max(0.0).to_bits(),
                size.to_bits(),
                i as u32,
                j as u32 | mark,
            ))
        };
        match start {
            Start::Roots => queue.push(pending(0, 0, bound(leaves, enough(visitor), 0, 0), false)),
            Start::Settled { pairs, moved } => {
                // The least bound left out is told once.
                let mut least = f64::INFINITY;
                for s in pairs {
                    let lower = lowered(s.lower, moved);
                    let (i, j) = (s.a as usize, s.b as usize);
                    if visitor.prunes(lower) {
                        least = smaller(least, lower);
                        settle(i, j, lower);
                    } else {
                        queue.push(pending(i, j, lower, true));
                    }
                }
                if least < f64::INFINITY {
                    visitor.pruned(least);
                }
            }
        }
        while let Some(Reverse((lower, _, i, j))) = queue.pop() {
            let lower = f64::from_bits(lower);
            let (i, j, stale) = (i as usize, (j & !STALE) as usize, j & STALE != 0);
            if visitor.prunes(lower) {
                // Every pair left is at least as far.
                visitor.pruned(lower);
                settle(i, j, lower);
                for Reverse((lower, _, i, j)) in queue.drain() {
                    settle(i as usize, (j & !STALE) as usize, f64::from_bits(lower));
                }
                break;
            }
            let (x, y) = (&na[i], &nb[j]);
            let a_is_larger = || size(&trees.a_volumes[i]) >= size(&trees.b_volumes[j]);
            // A stale pair is bounded afresh (left out, or pending with its own bound); any
            // other is split into its children, or its leaves are visited.
            let pairs = match (stale, split(x, y, a_is_larger)) {
                (true, _) => [Some((i, j)), None],
                (_, Split::A([l, r])) => [Some((l, j)), Some((r, j))],
                (_, Split::B([l, r])) => [Some((i, l)), Some((i, r))],
                (_, Split::Leaves) => {
                    let left =
                        visitor.leaves(leaves, Leaf::of(trees.a, i), Leaf::of(trees.b, j))?;
                    settle(i, j, lower.max(left));
                    continue;
                }
            };
            for (i, j) in pairs.into_iter().flatten() {
                let lower = bound(leaves, enough(visitor), i, j);
                if visitor.prunes(lower) {
                    visitor.pruned(lower);
                    settle(i, j, lower);
                } else {
                    queue.push(pending(i, j, lower, false));
                }
            }
        }
        ControlFlow::Continue(())
    })
}

/// An earlier bound `lower` lowered by `moved`, rounded down (the difference rounds by at most
/// `ε` of itself).
#[inline]
pub(crate) fn lowered(lower: f64, moved: f64) -> f64 {
    (lower - moved) * (1.0 - 2.0 * f64::EPSILON)
}

/// The size of a rectangle swept sphere that decides which node of a pair the walk splits
/// (the larger): its rectangle's side lengths plus its diameter.
#[inline]
fn size(rss: &Rss) -> f64 {
    rss.lengths[0] + rss.lengths[1] + 2.0 * rss.radius
}

/// The distance between two boxes, a lower bound on the distance between any of their points
/// up to a relative `4ε` (the rounding of the gaps, their squares and the square root).
#[inline]
pub(crate) fn box_gap(a: &Aabb, b: &Aabb) -> f64 {
    box_gap_squared(a, b).sqrt()
}

/// The squared distance between two boxes, up to a relative `3ε`; 0 exactly when they meet
/// (or are apart by less than the square root of the smallest positive number).
#[inline(always)]
pub(crate) fn box_gap_squared(a: &Aabb, b: &Aabb) -> f64 {
    let mut sum = 0.0;
    for k in 0..3 {
        let gap = larger(larger(b.mins[k] - a.maxs[k], a.mins[k] - b.maxs[k]), 0.0);
        sum += gap * gap;
    }
    sum
}

/// The smaller of two finite numbers (one instruction).
#[inline(always)]
fn smaller(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The larger of two finite numbers (one instruction).
#[inline(always)]
fn larger(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}
