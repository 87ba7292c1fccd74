//! The point walk over the wide tree (`obbtree_tree::WideTree`, the picking layout): four
//! children's boxes side by side in `f32` rounded outwards, leaf triangles' vertices stored
//! together, so each step reads one record and bounds four children at once (the layout of
//! Wald et al., "Embree: a kernel framework for efficient CPU ray tracing", 2014, used for
//! the closest-point walk as Embree's point queries do).
//!
//! A box that contains its triangles gives a lower bound on their distance; the stored boxes
//! contain the exact ones, so the walk leaves out only what its best float distance already
//! beats, up to the rounding of the squared box distance ([`BOX_ROUNDING`]). A leaf whose box
//! comes nearer is bounded again, by the rectangle swept sphere around its triangles
//! (`model/index/wide_leaves.rs`) with the binary walk's [`lower_bound`] and pad, and its
//! triangles are measured after their prisms ([`nearer`]).

use super::point::{lower_bound, nearer, Best, BOX_ROUNDING};
use crate::model::index::wide_leaves::WideLeafBounds;
use crate::pick::Pending;
use crate::wide_order::nearest_child;
use obbtree_bv::{Point, Prism};
use obbtree_tree::wide::{Child, LeafTriangle, Leaves, WideTree, WIDTH};

/// The best of `first` and every triangle of `tree` whose box may be nearer than the best
/// found, or than `cap`, by a depth-first walk, nearest children first; `prisms` holds the
/// prism around each of its leaf triangles, in order, and `leaf_bounds` the RSS around each
/// leaf.
pub(crate) fn walk_wide(
    tree: &WideTree,
    prisms: &[Prism],
    leaf_bounds: &WideLeafBounds,
    q: &Point,
    first: Best,
    cap: f64,
) -> Best {
    let bounds = (prisms, leaf_bounds);
    match &tree.triangles {
        Leaves::Single(triangles) => walk_over(tree, triangles, bounds, q, first, cap),
        Leaves::Double(triangles) => walk_over(tree, triangles, bounds, q, first, cap),
    }
}

fn walk_over<T: Copy + Into<f64>>(
    tree: &WideTree,
    triangles: &[LeafTriangle<T>],
    (prisms, leaf_bounds): (&[Prism], &WideLeafBounds),
    q: &Point,
    mut best: Best,
    cap: f64,
) -> Best {
    let limit = |best: &Best| {
        let d = best.distance.min(cap);
        d * d
    };
    let mut pending = Pending::<Child>::new();
    let mut next = Some((tree.root, 0.0));
    while let Some((child, squared)) = next.take().or_else(|| pending.pop()) {
        if squared * (1.0 - BOX_ROUNDING) >= limit(&best) {
            continue;
        }
        if child.count > 0 {
            if lower_bound(leaf_bounds.of_leaf(&child), q) >= best.distance.min(cap) {
                continue;
            }
            let range = child.start as usize..(child.start + child.count) as usize;
            let leaf = &triangles[range.clone()];
            for (t, prism) in leaf.iter().zip(&prisms[range]) {
                let triangle = t.triangle();
                best = nearer(q, best, t.index, &triangle, prism);
            }
            continue;
        }
        let node = &tree.nodes[child.start as usize];
        let gaps = box_distances_squared(&node.lo, &node.hi, q);
        let limit = limit(&best);
        let open = gaps.map(|gap| gap * (1.0 - BOX_ROUNDING) < limit);
        next = nearest_child(node, gaps, open, |entry| pending.push(entry));
    }
    best
}

/// The squared distances from `q` to the four boxes: infinite for an empty slot, whose box
/// (`lo = +∞`, `hi = −∞`) is infinitely far on every axis. No branch, so the four run as one.
#[inline]
fn box_distances_squared(
    lo: &[[f32; WIDTH]; 3],
    hi: &[[f32; WIDTH]; 3],
    q: &Point,
) -> [f64; WIDTH] {
    let mut out = [0.0; WIDTH];
    for axis in 0..3 {
        for (k, slot) in out.iter_mut().enumerate() {
            let (l, h) = (f64::from(lo[axis][k]), f64::from(hi[axis][k]));
            let gap = (l - q[axis]).max(q[axis] - h).max(0.0);
            *slot += gap * gap;
        }
    }
    out
}
