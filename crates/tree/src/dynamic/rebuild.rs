//! Full rebuild, top down by binned SAH (Wald, "On fast construction of SAH-based bounding
//! volume hierarchies", 2007) under a height plan that keeps every node AVL-balanced, so that
//! the incremental operations may follow a rebuild.
//!
//! Each node is split across the longest axis of its leaves' centroids: between 16 bins, or
//! between the sorted centroids when it has at most 16 leaves. Binning all three axes lowers
//! the surface-area cost only slightly, for a markedly slower rebuild (see
//! `docs/performance.md`).
//!
//! Each subtree is built to an exact target height `h`. A subtree of `n` leaves can be
//! AVL-balanced with height `h` iff `F(h + 2) <= n <= 2^h` (the fewest leaves are those of a
//! Fibonacci tree; every count in between is reachable). A split into `k` and `n - k` leaves is
//! admissible iff the children can take heights `(h-1, h-1)`, `(h-1, h-2)` or `(h-2, h-1)`.
//! The SAH chooses among the admissible splits; the children's heights are then chosen as far
//! from the ends of their ranges as possible, which leaves the most splits admissible below.

use super::{DynamicTree, Node, ProxyId, NULL};
use obbtree_bv::{Aabb, BoundingVolume, Point};

/// Bins of the SAH sweep; nodes of at most this many leaves sweep their sorted centroids.
const BINS: usize = 16;

/// `MIN_LEAVES[h]`: the fewest leaves of an AVL-balanced tree of height `h`, `F(h + 2)`.
const MIN_LEAVES: [u64; 64] = {
    let mut table = [1u64; 64];
    table[1] = 2;
    let mut h = 2;
    while h < 64 {
        table[h] = table[h - 1] + table[h - 2];
        h += 1;
    }
    table
};

/// A leaf to place: its proxy, fat box and centroid.
struct Item {
    proxy: ProxyId,
    aabb: Aabb,
    centroid: Point,
}

impl<T> DynamicTree<T> {
    /// Rebuilds the tree from the proxies' fat boxes (kept as they are), top down by binned
    /// SAH: lower surface-area cost than the same boxes inserted one by one, in O(n log n).
    /// Proxy ids, payloads and moved marks are kept; node indices change.
    pub fn rebuild(&mut self) {
        let mut items: Vec<Item> = self
            .proxies
            .iter()
            .map(|(proxy, p)| {
                let aabb = self.nodes[p.leaf].aabb;
                Item {
                    proxy,
                    aabb,
                    centroid: aabb.center(),
                }
            })
            .collect();
        self.nodes.clear();
        self.root = NULL;
        if !items.is_empty() {
            let height = planned_height(items.len());
            self.root = self.build_subtree(&mut items, height, NULL);
        }
    }

    /// Builds the subtree of `items` with height exactly `height` and returns its root.
    fn build_subtree(&mut self, items: &mut [Item], height: u32, parent: u32) -> u32 {
        if let [item] = items {
            let leaf = self.nodes.alloc(Node::leaf(item.aabb, item.proxy, parent));
            self.proxies[item.proxy].leaf = leaf;
            return leaf;
        }
        let (k, (left_height, right_height)) = split(items, height);
        let index = self
            .nodes
            .alloc(Node::internal(items[0].aabb, [NULL; 2], height, parent));
        let (left, right) = items.split_at_mut(k);
        let children = [
            self.build_subtree(left, left_height, index),
            self.build_subtree(right, right_height, index),
        ];
        let aabb = self.nodes[children[0]]
            .aabb
            .merge(&self.nodes[children[1]].aabb);
        self.nodes[index] = Node::internal(aabb, children, height, parent);
        index
    }
}

/// Reorders `items` so that the first `k` form the left subtree; returns `k` and the children's
/// target heights. Along the longest axis of the centroids: the admissible split of least SAH
/// cost between the items sorted by centroid (at most [`BINS`] items) or between bins, or else
/// the admissible split nearest the median.
fn split(items: &mut [Item], height: u32) -> (usize, (u32, u32)) {
    let n = items.len();
    let bounds = Aabb::from_points(items.iter().map(|item| &item.centroid));
    let axis = (bounds.maxs - bounds.mins).imax();
    let by_centroid = |a: &Item, b: &Item| a.centroid[axis].total_cmp(&b.centroid[axis]);
    let k = if n <= BINS {
        items.sort_unstable_by(by_centroid);
        let groups = items.iter().map(|item| (item.aabb, 1));
        best_boundary(groups, n, height)
    } else {
        binned_split(items, &bounds, axis, height)
    };
    let k = k.unwrap_or_else(|| {
        let k = median_split(n, height);
        items.select_nth_unstable_by(k, by_centroid);
        k
    });
    (
        k,
        child_heights(k, n - k, height).expect("admissible split"),
    )
}

/// The admissible split nearest the middle.
fn median_split(n: usize, height: u32) -> usize {
    (0..n)
        .flat_map(|d| [(n / 2).checked_sub(d), Some(n / 2 + d)])
        .flatten()
        .find(|&k| (1..n).contains(&k) && child_heights(k, n - k, height).is_some())
        .expect("a subtree of admissible height has an admissible split")
}

/// The best admissible split between [`BINS`] bins of the centroids along `axis`: the items
/// are partitioned by bin and the left count returned; `None` if no bin boundary is
/// admissible.
fn binned_split(items: &mut [Item], bounds: &Aabb, axis: usize, height: u32) -> Option<usize> {
    let extent = bounds.maxs[axis] - bounds.mins[axis];
    if extent <= 0.0 {
        return None;
    }
    let low = bounds.mins[axis];
    let scale = BINS as f64 / extent;
    // Saturating casts: NaN (0 × ∞ for a tiny extent) gives bin 0, overflow the last bin.
    let bin = |item: &Item| (((item.centroid[axis] - low) * scale) as usize).min(BINS - 1);
    // Empty bins are inverted boxes (+∞, −∞), which merging ignores.
    let empty = Aabb::new(
        Point::from([f64::INFINITY; 3]),
        Point::from([f64::NEG_INFINITY; 3]),
    );
    let mut bins = [(empty, 0usize); BINS];
    for item in items.iter() {
        let (aabb, count) = &mut bins[bin(item)];
        *aabb = aabb.merge(&item.aabb);
        *count += 1;
    }
    let k = best_boundary(bins.into_iter(), items.len(), height)?;
    items.select_nth_unstable_by_key(k, bin);
    Some(k)
}

/// Over groups of items in order (a box and a count each, at most [`BINS`], `n` items in all),
/// the left count of the boundary between groups of least SAH cost (left area × left count +
/// right area × right count; MacDonald & Booth 1990) among the admissible ones.
fn best_boundary(
    groups: impl ExactSizeIterator<Item = (Aabb, usize)>,
    n: usize,
    height: u32,
) -> Option<usize> {
    let len = groups.len();
    let mut group_boxes = [(Aabb::new(Point::origin(), Point::origin()), 0); BINS];
    for (slot, group) in group_boxes.iter_mut().zip(groups) {
        *slot = group;
    }
    let groups = &group_boxes[..len];
    // right_area[i]: the union of the groups after group i.
    let mut right_area = [0.0; BINS];
    let mut right = groups[len - 1].0;
    for i in (0..len - 1).rev() {
        right_area[i] = right.surface_area();
        right = right.merge(&groups[i].0);
    }
    let (mut left, mut left_count) = (groups[0].0, 0);
    let mut best: Option<(f64, usize)> = None;
    for (i, (aabb, count)) in groups[..len - 1].iter().enumerate() {
        left = left.merge(aabb);
        left_count += count;
        if left_count == 0 || left_count == n {
            continue;
        }
        let cost =
            left.surface_area() * left_count as f64 + right_area[i] * (n - left_count) as f64;
        let better = best.is_none_or(|(c, _)| cost < c);
        if better && child_heights(left_count, n - left_count, height).is_some() {
            best = Some((cost, left_count));
        }
    }
    best.map(|(_, k)| k)
}

/// Whether `n` leaves can form an AVL-balanced tree of height `h`.
fn admits(n: usize, h: u32) -> bool {
    let n = n as u64;
    (h as usize) < MIN_LEAVES.len() && MIN_LEAVES[h as usize] <= n && n <= 1u64 << h
}

/// The lowest and highest heights an AVL-balanced tree of `n >= 1` leaves can have.
fn height_range(n: usize) -> (u32, u32) {
    let lowest = usize::BITS - (n - 1).leading_zeros();
    let highest = MIN_LEAVES.partition_point(|&m| m <= n as u64) as u32 - 1;
    (lowest, highest)
}

/// The middle of the height range of `n` leaves: the root's target.
fn planned_height(n: usize) -> u32 {
    let (lowest, highest) = height_range(n);
    (lowest + highest) / 2
}

/// How far `h` lies from the ends of the height range of `n` leaves.
fn slack(n: usize, h: u32) -> u32 {
    let (lowest, highest) = height_range(n);
    (h - lowest).min(highest - h)
}

/// Target heights for children of `k` and `m` leaves under a node of height `h`, if any pair
/// is admissible: the pair with the most slack.
fn child_heights(k: usize, m: usize, h: u32) -> Option<(u32, u32)> {
    let taller = h.checked_sub(1)?;
    let shorter = taller.saturating_sub(1);
    [(taller, taller), (taller, shorter), (shorter, taller)]
        .into_iter()
        .filter(|&(a, b)| admits(k, a) && admits(m, b))
        .max_by_key(|&(a, b)| slack(k, a).min(slack(m, b)))
}
