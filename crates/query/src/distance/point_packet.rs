//! The point walk over the binary tree, each node bounded by its box and then its rectangle
//! swept sphere, for a packet of nearby points at once (four neighbours on a grid's row or
//! along a batch's Morton curve; a single point is a packet of one): each node is bounded for
//! each point still in need of it, so the nodes the points share are fetched, stacked and
//! opened once instead of once per point (the packets of Wald, Slusallek, Benthin & Wagner,
//! "Interactive rendering with coherent ray tracing", 2001, applied to closest points).
//!
//! Each point keeps its own best triangle and its own bounds: a node is left out for a point
//! exactly when a walk for that point alone would leave it out at the same best distance, and a
//! leaf's triangles are measured for each point that still needs the leaf. A node's bound, less
//! a pad far above its rounding, is at least the best float distance, so nothing left out is
//! nearer but by a tie (`point.rs`): each point ends with the least float distance over the
//! mesh up to a tie, whichever points share its packet, and its answer is certified as a single
//! point's. Points near the surface take the wide tree's walk one by one, as they would alone.

use super::point::{
    certified, lower_bounds, measure, pad, scan_leaf, search, start_triangle, within_limit, Best,
    Packing, PointDistance, BOX_ROUNDING,
};
use crate::model::MeshModel;
use obbtree_bv::{Point, Rss};
use obbtree_tree::TreeVolume;

/// Points per packet.
pub(crate) const LANES: usize = 4;

/// The distance from each point of `packet` (in the mesh's frame) to `mesh`, each walk first
/// measuring the triangle `hint` if any; with `max = Some(m)`, `None` exactly for the points
/// farther than `m`. Each answer is a single point's: see
/// [`point_distance`](super::point_distance). `size` is the largest coordinate magnitude of
/// the mesh; `packing` says how the points lie (the walks' choice, speed only).
pub(crate) fn point_distances<V: TreeVolume, const N: usize>(
    mesh: &MeshModel<V>,
    packet: &[Point; N],
    hint: Option<u32>,
    max: Option<f64>,
    size: f64,
    packing: Packing,
) -> [Option<PointDistance>; N] {
    let pads = packet.map(|q| pad(&q, size, max));
    let caps = pads.map(|pad| max.map_or(f64::INFINITY, |max| max + pad));
    let bests = bests(mesh, packet, hint, caps, packing);
    std::array::from_fn(|k| {
        let (q, pad) = (&packet[k], pads[k]);
        within_limit(mesh, q, bests[k], max, pad).map(|best| certified(mesh, q, best, pad))
    })
}

/// Each point's best triangle (its least float distance up to a tie, or one beyond its cap),
/// from the triangle `hint` on: one walk over the binary tree for the packet when every point
/// is far enough from the surface to share it (`packing`), else each point's own walk
/// (`point.rs`, `search`) in turn, each from the best triangle of the point before when the
/// first point is too near already.
fn bests<V: TreeVolume, const N: usize>(
    mesh: &MeshModel<V>,
    packet: &[Point; N],
    hint: Option<u32>,
    caps: [f64; N],
    packing: Packing,
) -> [Best; N] {
    let start = hint.unwrap_or_else(|| start_triangle(mesh));
    let first = measure(mesh, &packet[0], start);
    if N == 1 || packing.walks_alone(mesh, &first) {
        let mut bests = [first; N];
        for k in 0..N {
            let first = if k == 0 {
                first
            } else {
                measure(mesh, &packet[k], bests[k - 1].triangle)
            };
            bests[k] = search(mesh, &packet[k], first, caps[k]);
        }
        return bests;
    }
    let firsts: [Best; N] = std::array::from_fn(|k| {
        if k == 0 {
            first
        } else {
            measure(mesh, &packet[k], start)
        }
    });
    if firsts.iter().any(|first| packing.walks_alone(mesh, first)) {
        std::array::from_fn(|k| search(mesh, &packet[k], firsts[k], caps[k]))
    } else {
        walk_packet(mesh, packet, firsts, caps)
    }
}

/// The depth-first walk from `best` for every point of `packet`, leaving out for each point
/// the nodes whose bound reaches its best float distance found or its cap: a node's children
/// are bounded for each point when it is opened, and stacked so that the nearer (by the least
/// of its bounds over the points) is opened first; a node's bound for a point is infinite once
/// that point no longer needs it.
pub(super) fn walk_packet<V: TreeVolume, const N: usize>(
    mesh: &MeshModel<V>,
    packet: &[Point; N],
    mut best: [Best; N],
    caps: [f64; N],
) -> [Best; N] {
    let rss = &mesh.distance_index().rss;
    let mut pending: Vec<(usize, [f64; N])> = Vec::with_capacity(64);
    pending.push((0, [0.0; N]));
    while let Some((node, bounds)) = pending.pop() {
        let limits: [f64; N] = std::array::from_fn(|k| best[k].distance.min(caps[k]));
        let needs: [bool; N] = std::array::from_fn(|k| bounds[k] < limits[k]);
        if !needs.contains(&true) {
            continue;
        }
        match mesh.tree().node(node).children() {
            Some(children) => {
                let bounded = children.map(|child| {
                    (
                        child,
                        child_bounds(mesh, &rss[child], child, packet, limits, needs),
                    )
                });
                stack_nearer_on_top(&mut pending, bounded);
            }
            None => scan_leaf(mesh, packet, node, &mut best, needs),
        }
    }
    best
}

/// Pushes the two `children` (each with its bounds) that some point still needs, the one with
/// the lesser least bound last, so that it is opened first.
fn stack_nearer_on_top<const N: usize>(
    pending: &mut Vec<(usize, [f64; N])>,
    children: [(usize, [f64; N]); 2],
) {
    let least =
        |(_, bounds): &(usize, [f64; N])| bounds.iter().copied().fold(f64::INFINITY, f64::min);
    let [near, far] = if least(&children[0]) <= least(&children[1]) {
        children
    } else {
        [children[1], children[0]]
    };
    for child in [far, near] {
        if least(&child).is_finite() {
            pending.push(child);
        }
    }
}

/// The bound of node `child` (inside `rss`) for each point of `packet` that `needs` it and
/// whose limit it is below, infinite for the others: the node's box first (cheaper, and often
/// enough to leave the node out), then its RSS.
fn child_bounds<V: TreeVolume, const N: usize>(
    mesh: &MeshModel<V>,
    rss: &Rss,
    child: usize,
    packet: &[Point; N],
    limits: [f64; N],
    needs: [bool; N],
) -> [f64; N] {
    let boxed = &mesh.node_bounds()[child];
    let open: [bool; N] = std::array::from_fn(|k| {
        needs[k]
            && boxed.distance_squared(&packet[k]) * (1.0 - BOX_ROUNDING) < limits[k] * limits[k]
    });
    if !open.contains(&true) {
        return [f64::INFINITY; N];
    }
    let bounds = lower_bounds(rss, packet);
    std::array::from_fn(|k| {
        if open[k] && bounds[k] < limits[k] {
            bounds[k]
        } else {
            f64::INFINITY
        }
    })
}
