//! The simultaneous descent of two hierarchies ordered by lower bounds: the walk every distance
//! query shares, with what it does at a pair of leaves and when it prunes left to a
//! [`Visitor`].

use super::volume::{aabb_support, DistanceVolume};
use crate::collide::leaf::{Leaf, LeafTest};
use crate::collide::traverse::with_placed;
use obbtree_bv::{Aabb, Vector};
use obbtree_tree::{Bvh, MAX_DEPTH};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// What a query does with the node pairs the walk reaches.
pub(crate) trait Visitor {
    /// Whether a node pair whose distance is at least `bound` can be left out.
    fn prunes(&self, bound: f64) -> bool;

    /// Notes that a part of the two meshes at least `bound` apart was left out.
    fn pruned(&mut self, bound: f64);

    /// Visits the triangle pairs of leaf `a` of A and leaf `b` of B; `Break` ends the walk.
    fn leaves(&mut self, test: &mut LeafTest, a: Leaf, b: Leaf) -> ControlFlow<()>;

    /// A direction along which the gap between two volumes' projections is worth measuring as
    /// a further lower bound.
    fn slab(&self) -> Option<Slab> {
        None
    }
}

/// A unit direction `n` in A's frame and the same in B's frame (`Rᵀ n`), with `t·n`: the gap
/// between the projections of a volume of A and a volume of B on it bounds their distance.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    pub n: Vector,
    pub n_b: Vector,
    pub offset: f64,
    /// Pairs at least this far apart are pruned: no other bound is needed for them.
    pub cutoff: f64,
}

impl Slab {
    /// The gap between the intervals `a` and `b` (B's, offset), less a bound on the rounding.
    #[inline(always)]
    pub fn gap(&self, a: [f64; 2], b: [f64; 2]) -> f64 {
        let (b_lo, b_hi) = (b[0] + self.offset, b[1] + self.offset);
        let gap = larger(b_lo - a[1], a[0] - b_hi);
        let magnitude = a[0].abs() + a[1].abs() + b[0].abs() + b[1].abs() + self.offset.abs();
        gap - 64.0 * f64::EPSILON * magnitude
    }
}

/// A node pair waiting to be visited, with a lower bound on its distance.
type Pending = (u32, u32, f64);

/// Pending pairs: each step pops one pair and pushes at most one (it goes on with the nearer
/// child pair at once), so the stack holds at most `MAX_DEPTH + 1` pairs per tree.
type Stack = SmallVec<[Pending; 2 * (MAX_DEPTH + 1)]>;

/// The two trees and their distance volumes (by node index), B's placed by `rel`.
pub(crate) struct Trees<'m, V, B: DistanceVolume, FA, FB> {
    pub a: &'m Bvh<V>,
    pub b: &'m Bvh<V>,
    pub a_volume: FA,
    pub b_volume: FB,
    pub rel: &'m B::Relative,
}

/// Walks the node pairs of the two trees depth first, nearer child pair first (PQP's order,
/// Larsen, Gottschalk, Lin & Manocha 1999), skipping every pair the visitor prunes by its lower
/// bound, until the visitor breaks.
///
/// A pair whose node of B is internal is bounded by the distance volumes
/// ([`DistanceVolume::lower_bound`], B's volume placed once per query); a pair with a leaf of B
/// by the gap between the box around A's node's triangles and the box around B's placed leaf
/// triangles (B's leaf triangles are placed for the leaf test anyway, and the gap is exact up
/// to rounding). The larger node of a pair is split (A's when B's is a leaf).
pub(crate) fn walk<'m, V: 'static, B, FA, FB>(
    trees: &Trees<'m, V, B, FA, FB>,
    leaves: &mut LeafTest,
    visitor: &mut impl Visitor,
) -> ControlFlow<()>
where
    B: DistanceVolume,
    FA: Fn(usize) -> &'m B,
    FB: Fn(usize) -> &'m B,
{
    let (na, nb) = (trees.a.nodes(), trees.b.nodes());
    let place = |j: usize| B::place((trees.b_volume)(j), trees.rel);
    with_placed(nb.len(), place(0), |placed| {
        let (_, a_bounds) = leaves.a_side();
        let use_slab = flag("SLAB");
        let mut bound = |leaves: &mut LeafTest, slab: Option<Slab>, i: usize, j: usize| -> f64 {
            super::counters::bump(&super::counters::BOUNDS);
            let slab = slab.filter(|_| use_slab);
            if nb[j].is_leaf() {
                let (_, around) = leaves.placed(&Leaf::of(trees.b, j));
                let gap = box_gap(&a_bounds[i], &around);
                match slab {
                    Some(s) => larger(gap, s.gap(aabb_support(&a_bounds[i], &s.n), {
                        let [lo, hi] = aabb_support(&around, &s.n);
                        [lo - s.offset, hi - s.offset]
                    })),
                    None => gap,
                }
            } else {
                super::counters::bump(&super::counters::TRI_BOX);
                let va = (trees.a_volume)(i);
                let mut along = f64::NEG_INFINITY;
                if let Some(s) = slab {
                    along = s.gap(va.support(&s.n), (trees.b_volume)(j).support(&s.n_b));
                    if along >= s.cutoff { return along; }
                }
                let pb = placed.get(j as u32, || place(j));
                let rss = larger(along, B::lower_bound(va, pb, trees.rel));
                if flag("MAXOBB") {
                    if let (Some(ta), Some(tb)) = ((trees.a as &dyn std::any::Any).downcast_ref::<Bvh<obbtree_bv::Obb>>(), (trees.b as &dyn std::any::Any).downcast_ref::<Bvh<obbtree_bv::Obb>>()) {
                        let rel = obbtree_bv::Pose::identity();
                        let _ = rel;
                        let pose = *OBB_POSE.with(|p| p.get());
                        let placed = obbtree_bv::distance::obb_obb::PlacedObb::new(tb.nodes()[j].bv(), pose.rotation(), pose.translation());
                        return larger(rss, obbtree_bv::distance::obb_obb::lower_bound(ta.nodes()[i].bv(), &placed));
                    }
                }
                rss
            }
        };
        if flag("BEST_FIRST") {
            return best_first(trees, leaves, visitor, &mut bound);
        }
        let mut stack = Stack::new();
        let mut next = Some((0, 0, bound(leaves, visitor.slab(), 0, 0)));
        while let Some((i, j, lower)) = next.take().or_else(|| stack.pop()) {
            if visitor.prunes(lower) {
                visitor.pruned(lower);
                continue;
            }
            let (i, j) = (i as usize, j as usize);
            super::counters::bump(&super::counters::NODE_PAIRS);
            let (x, y) = (&na[i], &nb[j]);
            super::counters::bump(&super::counters::KINDS[usize::from(x.is_leaf()) * 2 + usize::from(y.is_leaf())]);
            {
                let size = |t: &Bvh<V>, k: usize| { let mut k = k; let mut n = 0; let mut stack = vec![k]; while let Some(q) = stack.pop() { k = q; match t.nodes()[k].children() { Some([l, r]) => { stack.push(l); stack.push(r); } None => n += t.nodes()[k].triangle_range().unwrap().len() } } n };
                if flag("LEVELS") {
                    let s = size(trees.a, i) + size(trees.b, j);
                    super::counters::bump(&super::counters::LEVELS[(usize::BITS - s.leading_zeros()) as usize]);
                }
            }
            let split_a =
                y.is_leaf() || (!x.is_leaf() && (trees.a_volume)(i).size() >= (trees.b_volume)(j).size());
            let children = match (x.children(), y.children()) {
                (Some([l, r]), _) if split_a => [(l, j), (r, j)],
                (_, Some([l, r])) => [(i, l), (i, r)],
                _ => {
                    super::counters::bump(&super::counters::LEAF_PAIRS);
                    visitor.leaves(leaves, Leaf::of(trees.a, i), Leaf::of(trees.b, j))?;
                    continue;
                }
            };
            let [c, d] = children.map(|(i, j)| (i as u32, j as u32, bound(leaves, visitor.slab(), i, j)));
            let (near, far) = if d.2 < c.2 { (d, c) } else { (c, d) };
            if visitor.prunes(far.2) {
                visitor.pruned(far.2);
            } else {
                stack.push(far);
            }
            next = Some(near);
        }
        ControlFlow::Continue(())
    })
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

/// The larger of two finite numbers (one instruction).
#[inline(always)]
fn larger(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

thread_local! {
    static HEAP: std::cell::RefCell<std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32, u32)>>> = Default::default();
}

fn best_first<'m, V, B, FA, FB>(
    trees: &Trees<'m, V, B, FA, FB>,
    leaves: &mut LeafTest,
    visitor: &mut impl Visitor,
    bound: &mut impl FnMut(&mut LeafTest, Option<Slab>, usize, usize) -> f64,
) -> ControlFlow<()>
where
    B: DistanceVolume,
    FA: Fn(usize) -> &'m B,
    FB: Fn(usize) -> &'m B,
{
    use std::cmp::Reverse;
    let (na, nb) = (trees.a.nodes(), trees.b.nodes());
    let key = |lb: f64| larger(lb, 0.0).to_bits();
    HEAP.with(|heap| {
        let heap = &mut *heap.borrow_mut();
        heap.clear();
        if flag("DIVE") {
            // Greedy dive: the nearer child pair down to a pair of leaves.
            let (mut i, mut j) = (0usize, 0usize);
            loop {
                let (x, y) = (&na[i], &nb[j]);
                let split_a =
                    y.is_leaf() || (!x.is_leaf() && (trees.a_volume)(i).size() >= (trees.b_volume)(j).size());
                let children = match (x.children(), y.children()) {
                    (Some([l, r]), _) if split_a => [(l, j), (r, j)],
                    (_, Some([l, r])) => [(i, l), (i, r)],
                    _ => break,
                };
                let [c, d] = children.map(|(i, j)| (i, j, bound(leaves, None, i, j)));
                (i, j) = if d.2 < c.2 { (d.0, d.1) } else { (c.0, c.1) };
            }
            if visitor.leaves(leaves, Leaf::of(trees.a, i), Leaf::of(trees.b, j)).is_break() {
                return ControlFlow::Break(());
            }
        }
        heap.push(Reverse((key(bound(leaves, visitor.slab(), 0, 0)), 0, 0)));
        while let Some(Reverse((k, i, j))) = heap.pop() {
            let lower = f64::from_bits(k);
            if visitor.prunes(lower) {
                visitor.pruned(lower);
                break;
            }
            let (i, j) = (i as usize, j as usize);
            super::counters::bump(&super::counters::NODE_PAIRS);
            let (x, y) = (&na[i], &nb[j]);
            super::counters::bump(&super::counters::KINDS[usize::from(x.is_leaf()) * 2 + usize::from(y.is_leaf())]);
            {
                let size = |t: &Bvh<V>, k: usize| { let mut k = k; let mut n = 0; let mut stack = vec![k]; while let Some(q) = stack.pop() { k = q; match t.nodes()[k].children() { Some([l, r]) => { stack.push(l); stack.push(r); } None => n += t.nodes()[k].triangle_range().unwrap().len() } } n };
                if flag("LEVELS") {
                    let s = size(trees.a, i) + size(trees.b, j);
                    super::counters::bump(&super::counters::LEVELS[(usize::BITS - s.leading_zeros()) as usize]);
                }
            }
            let split_a =
                y.is_leaf() || (!x.is_leaf() && (trees.a_volume)(i).size() >= (trees.b_volume)(j).size());
            let children = match (x.children(), y.children()) {
                (Some([l, r]), _) if split_a => [(l, j), (r, j)],
                (_, Some([l, r])) => [(i, l), (i, r)],
                _ => {
                    super::counters::bump(&super::counters::LEAF_PAIRS);
                    if visitor.leaves(leaves, Leaf::of(trees.a, i), Leaf::of(trees.b, j)).is_break() {
                        return ControlFlow::Break(());
                    }
                    continue;
                }
            };
            for (ci, cj) in children {
                let lb = bound(leaves, visitor.slab(), ci, cj);
                if visitor.prunes(lb) {
                    if !nb[cj].is_leaf() { super::counters::bump(&super::counters::TRI_PAIRS); }
                    visitor.pruned(lb);
                } else {
                    heap.push(Reverse((key(lb), ci as u32, cj as u32)));
                }
            }
        }
        ControlFlow::Continue(())
    })
}

pub(crate) fn flag(name: &'static str) -> bool {
    use std::sync::OnceLock;
    static FLAGS: OnceLock<[bool; 6]> = OnceLock::new();
    let names = ["SLAB", "BEST_FIRST", "DIVE", "OWN_BOUNDS", "MAXOBB", "LEVELS"];
    let f = FLAGS.get_or_init(|| names.map(|n| std::env::var_os(n).is_some()));
    f[names.iter().position(|n| *n == name).unwrap()]
}

pub(crate) fn split_rule() -> u32 {
    use std::sync::OnceLock;
    static RULE: OnceLock<u32> = OnceLock::new();
    *RULE.get_or_init(|| std::env::var("SPLIT").ok().and_then(|s| s.parse().ok()).unwrap_or(0))
}

thread_local! {
    pub(crate) static OBB_POSE: std::cell::Cell<&'static obbtree_bv::Pose> = std::cell::Cell::new(Box::leak(Box::new(obbtree_bv::Pose::identity())));
}

pub(crate) fn projections() -> u32 {
    use std::sync::OnceLock;
    static RULE: OnceLock<u32> = OnceLock::new();
    *RULE.get_or_init(|| std::env::var("PROJ").ok().and_then(|s| s.parse().ok()).unwrap_or(0))
}
