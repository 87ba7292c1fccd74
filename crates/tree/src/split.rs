//! Split rules: how a node's triangles are divided between its two children.

use crate::MAX_DEPTH;
use obbtree_bv::fit::covariance::TriangleMoments;
use obbtree_bv::{Point, Vector};
use serde::{Deserialize, Serialize};

/// How the builder divides a node's triangles between its two children. Every rule works on the
/// triangle centroids projected onto the node's split axes
/// ([`BoundingVolume::split_axes_for`](obbtree_bv::BoundingVolume::split_axes_for), or the
/// coordinate axes ordered by the centroids' spread), and falls back to [`SplitRule::Median`] when
/// it cannot separate the triangles or when its split would let the tree grow deeper than
/// [`MAX_DEPTH`](crate::MAX_DEPTH).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SplitRule {
    /// Gottschalk, Lin & Manocha, "OBBTree" (SIGGRAPH 1996), §4: cut across the longest axis at
    /// the mean of the centroids' projections; if a side would be empty, try the next axis.
    Gottschalk,
    /// Equal counts: the lower half of the centroids' projections on the longest axis (ties broken
    /// by triangle index).
    Median,
    /// Binned surface-area heuristic (Wald, "On fast construction of SAH-based bounding volume
    /// hierarchies", 2007): [`SAH_BINS`] bins per split axis, cost
    /// `area(AABB left) · n_left + area(AABB right) · n_right`, lowest cost wins. The default:
    /// the cheapest trees to query on the bundled meshes (see `docs/performance.md`).
    ///
    /// A volume with its own split axes (an OBB's longest axis, the triangles' principal
    /// direction) is binned along that axis alone, the other two only if the centroids do not
    /// spread along it: this builds the OBBTree faster for the same query cost (see
    /// `docs/performance.md`). The coordinate axes of the other volumes are all binned.
    #[default]
    Sah,
}

/// Bins per axis of [`SplitRule::Sah`].
pub const SAH_BINS: usize = 16;

/// A node's share of the build's working arrays, permuted together: the triangles' vertices (so
/// volumes are fitted from one contiguous slice), their moments (centroid, area, second moment)
/// and their mesh indices.
pub(crate) struct Work<'a> {
    pub tris: &'a mut [[Point; 3]],
    pub moments: &'a mut [TriangleMoments],
    pub order: &'a mut [u32],
    /// Position of `order[0]` in the whole tree's triangle order.
    pub first: u32,
}

impl<'a> Work<'a> {
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// The first `mid` triangles and the rest.
    pub fn split_at(self, mid: usize) -> (Work<'a>, Work<'a>) {
        let (lt, rt) = self.tris.split_at_mut(mid);
        let (lc, rc) = self.moments.split_at_mut(mid);
        let (lo, ro) = self.order.split_at_mut(mid);
        let right_first = self.first + mid as u32;
        (
            Work {
                tris: lt,
                moments: lc,
                order: lo,
                first: self.first,
            },
            Work {
                tris: rt,
                moments: rc,
                order: ro,
                first: right_first,
            },
        )
    }

    /// Moves the triangles whose key (`keys[k]` for triangle `k`, permuted with them) satisfies
    /// `left` to the front, keeping the arrays in step, and returns how many there are.
    ///
    /// Hoare's scheme (only misplaced pairs are swapped) in blocks, after Edelkamp & Weiß,
    /// "BlockQuicksort: Avoiding Branch Mispredictions in Quicksort" (ESA 2016): the misplaced
    /// keys of a block at each end are found first, without branches on the keys, then swapped
    /// pairwise. What is left between the blocks goes through the plain scheme.
    fn partition<T>(&mut self, keys: &mut [T], left: impl Fn(&T) -> bool) -> usize {
        debug_assert_eq!(keys.len(), self.len());
        let (mut lo, mut hi) = (0, self.len()); // [0, lo) is left, [hi, n) right
        let mut left_block = MisplacedInBlock::default();
        let mut right_block = MisplacedInBlock::default();
        while hi - lo >= 2 * PARTITION_BLOCK {
            if left_block.is_done() {
                left_block.find(|i| !left(&keys[lo + i]));
            }
            if right_block.is_done() {
                right_block.find(|i| left(&keys[hi - 1 - i]));
            }
            for _ in 0..left_block.remaining().min(right_block.remaining()) {
                let (i, j) = (lo + left_block.next(), hi - 1 - right_block.next());
                self.swap(keys, i, j);
            }
            if left_block.is_done() {
                lo += PARTITION_BLOCK;
            }
            if right_block.is_done() {
                hi -= PARTITION_BLOCK;
            }
        }
        lo + self.partition_plain(keys, lo, hi, left)
    }

    /// [`Self::partition`] of the triangles in `[lo, hi)` one pair at a time; returns how many
    /// of them satisfy `left`.
    fn partition_plain<T>(
        &mut self,
        keys: &mut [T],
        lo: usize,
        hi: usize,
        left: impl Fn(&T) -> bool,
    ) -> usize {
        let (mut i, mut j) = (lo, hi);
        loop {
            while i < j && left(&keys[i]) {
                i += 1;
            }
            while i < j && !left(&keys[j - 1]) {
                j -= 1;
            }
            if i == j {
                return i - lo;
            }
            self.swap(keys, i, j - 1);
            i += 1;
            j -= 1;
        }
    }

    /// Swaps triangles `i` and `j` in every array.
    #[inline]
    fn swap<T>(&mut self, keys: &mut [T], i: usize, j: usize) {
        keys.swap(i, j);
        self.tris.swap(i, j);
        self.moments.swap(i, j);
        self.order.swap(i, j);
    }
}

/// Keys examined at a time at each end of [`Work::partition`].
const PARTITION_BLOCK: usize = 64;

/// The offsets, within one block of [`PARTITION_BLOCK`] keys, of the keys on the wrong side,
/// and how many of them have been swapped.
struct MisplacedInBlock {
    offsets: [u8; PARTITION_BLOCK],
    count: usize,
    taken: usize,
}

impl Default for MisplacedInBlock {
    fn default() -> Self {
        Self {
            offsets: [0; PARTITION_BLOCK],
            count: 0,
            taken: 0,
        }
    }
}

impl MisplacedInBlock {
    /// Records the offsets `i` of the block for which `misplaced(i)`, without branching on it.
    #[inline]
    fn find(&mut self, misplaced: impl Fn(usize) -> bool) {
        self.count = 0;
        self.taken = 0;
        for i in 0..PARTITION_BLOCK {
            self.offsets[self.count] = i as u8;
            self.count += usize::from(misplaced(i));
        }
    }

    fn is_done(&self) -> bool {
        self.taken == self.count
    }

    fn remaining(&self) -> usize {
        self.count - self.taken
    }

    /// The next misplaced offset.
    fn next(&mut self) -> usize {
        let offset = self.offsets[self.taken];
        self.taken += 1;
        usize::from(offset)
    }
}

/// `⌈log2 n⌉` for `n ≥ 1`: the depth below which median splits reduce `n` triangles to one.
fn ceil_log2(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize
}

/// Reorders `work` (at least 2 triangles) into two non-empty runs and returns the length of the
/// first, by `rule` along the node's own split axes `own_axes`
/// ([`BoundingVolume::split_axes_for`](obbtree_bv::BoundingVolume::split_axes_for)), or, if it has
/// none, the coordinate axes ordered by the centroids' spread.
///
/// Depth guarantee: the caller keeps `depth + ⌈log2 n⌉ ≤ MAX_DEPTH` for every node (true at the
/// root since `n ≤ 2^32`). A rule's split is accepted only if its larger side keeps that true one
/// level down; otherwise the median split is used, whose halves keep it by construction.
pub(crate) fn split(
    rule: SplitRule,
    own_axes: Option<[Vector; 3]>,
    work: &mut Work,
    depth: usize,
) -> usize {
    let n = work.len();
    let axes = own_axes.unwrap_or_else(|| centroid_spread_axes(work.moments));
    let mid = match rule {
        SplitRule::Gottschalk => axes.iter().find_map(|axis| mean_split(work, axis)),
        SplitRule::Median => None,
        SplitRule::Sah => own_axes
            .and_then(|_| sah_split(work, &[axes[0]]))
            .or_else(|| sah_split(work, &axes)),
    };
    match mid {
        Some(mid) if depth + 1 + ceil_log2(mid.max(n - mid)) <= MAX_DEPTH => mid,
        _ => median_split(work, &axes[0]),
    }
}

/// The coordinate axes, ordered by the extent of the centroids along them (largest first).
fn centroid_spread_axes(moments: &[TriangleMoments]) -> [Vector; 3] {
    let (lo, hi) = moments.iter().map(|m| &m.centroid).fold(
        (
            Point::from(Vector::repeat(f64::INFINITY)),
            Point::from(Vector::repeat(f64::NEG_INFINITY)),
        ),
        |(lo, hi), c| (lo.inf(c), hi.sup(c)),
    );
    let extent = hi - lo;
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| extent[b].total_cmp(&extent[a]));
    order.map(|i| Vector::ith(i, 1.0))
}

/// Gottschalk's rule on one axis: centroids below the mean go left. `None` if a side is empty.
fn mean_split(work: &mut Work, axis: &Vector) -> Option<usize> {
    let n = work.len();
    let mut projections: Vec<f64> = work
        .moments
        .iter()
        .map(|m| m.centroid.coords.dot(axis))
        .collect();
    let mean = projections.iter().sum::<f64>() / n as f64;
    let mid = work.partition(&mut projections, |&p| p < mean);
    (mid > 0 && mid < n).then_some(mid)
}

/// Splits into `⌊n/2⌋` and `⌈n/2⌉` triangles by the key (projection, triangle index), a total
/// order, so ties (identical centroids) are split deterministically too.
fn median_split(work: &mut Work, axis: &Vector) -> usize {
    let cmp = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let mut keys: Vec<(f64, u32)> = work
        .moments
        .iter()
        .zip(work.order.iter())
        .map(|(m, &id)| (m.centroid.coords.dot(axis), id))
        .collect();
    let mut sorted = keys.clone();
    let (_, &mut pivot, _) = sorted.select_nth_unstable_by(work.len() / 2, cmp);
    work.partition(&mut keys, |k| cmp(k, &pivot).is_lt())
}

/// Binned SAH over `axes`; `None` if the centroids do not spread along any of them. One pass
/// projects the centroids on the axes (kept for the binning pass), one pass fills the bins of all
/// axes and records each triangle's bins, by which the partition then sorts.
fn sah_split<const K: usize>(work: &mut Work, axes: &[Vector; K]) -> Option<usize> {
    let mut lo = [f64::INFINITY; K];
    let mut hi = [f64::NEG_INFINITY; K];
    let projections: Vec<[f64; K]> = work
        .moments
        .iter()
        .map(|m| {
            let p = axes.each_ref().map(|axis| m.centroid.coords.dot(axis));
            for a in 0..K {
                lo[a] = min(lo[a], p[a]);
                hi[a] = max(hi[a], p[a]);
            }
            p
        })
        .collect();
    let binnings: [Option<Binning>; K] = std::array::from_fn(|a| Binning::new(lo[a], hi[a]));
    let mut bins = [[Bin::EMPTY; SAH_BINS]; K];
    let mut bin_ids: Vec<[u8; K]> = projections
        .iter()
        .zip(work.tris.iter())
        .map(|(p, t)| {
            let bounds = Bin::of(t);
            std::array::from_fn(|a| match &binnings[a] {
                Some(binning) => {
                    let id = binning.bin_of(p[a]);
                    bins[a][id].merge(&bounds);
                    id as u8
                }
                None => 0,
            })
        })
        .collect();
    drop(projections);
    let mut best: Option<(f64, usize, usize)> = None; // (cost, axis, last bin of the left side)
    for (a, bins) in bins
        .iter()
        .enumerate()
        .filter(|(a, _)| binnings[*a].is_some())
    {
        // Right-to-left suffixes, then a left-to-right sweep.
        let mut right = [Bin::EMPTY; SAH_BINS];
        let mut acc = Bin::EMPTY;
        for i in (1..SAH_BINS).rev() {
            acc.merge(&bins[i]);
            right[i] = acc;
        }
        let mut left = Bin::EMPTY;
        for i in 0..SAH_BINS - 1 {
            left.merge(&bins[i]);
            if left.count == 0 || right[i + 1].count == 0 {
                continue;
            }
            let cost = left.cost() + right[i + 1].cost();
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, a, i));
            }
        }
    }
    let (_, a, last) = best?;
    Some(work.partition(&mut bin_ids, |ids| usize::from(ids[a]) <= last))
}

/// `a.min(b)` / `a.max(b)` for the finite coordinates of a validated mesh, in one instruction
/// (the std versions also handle NaN).
#[inline]
fn min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

#[inline]
fn max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Bounds and count of the triangles in one SAH bin.
#[derive(Clone, Copy)]
struct Bin {
    mins: [f64; 3],
    maxs: [f64; 3],
    count: usize,
}

impl Bin {
    const EMPTY: Self = Self {
        mins: [f64::INFINITY; 3],
        maxs: [f64::NEG_INFINITY; 3],
        count: 0,
    };

    #[inline]
    fn of(t: &[Point; 3]) -> Self {
        Self {
            mins: std::array::from_fn(|i| min(min(t[0][i], t[1][i]), t[2][i])),
            maxs: std::array::from_fn(|i| max(max(t[0][i], t[1][i]), t[2][i])),
            count: 1,
        }
    }

    #[inline]
    fn merge(&mut self, other: &Self) {
        for i in 0..3 {
            self.mins[i] = min(self.mins[i], other.mins[i]);
            self.maxs[i] = max(self.maxs[i], other.maxs[i]);
        }
        self.count += other.count;
    }

    /// `area × count`, the SAH cost of one side (0 when empty).
    #[inline]
    fn cost(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let d: [f64; 3] = std::array::from_fn(|i| self.maxs[i] - self.mins[i]);
        2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]) * self.count as f64
    }
}

/// Maps a centroid's projection on an axis to one of [`SAH_BINS`] equal bins.
struct Binning {
    min: f64,
    scale: f64,
}

impl Binning {
    /// The bins over the projections' range `[min, max]`; `None` unless it is a positive finite
    /// interval.
    fn new(min: f64, max: f64) -> Option<Self> {
        (max > min && (max - min).is_finite()).then(|| Self {
            min,
            scale: SAH_BINS as f64 / (max - min),
        })
    }

    /// The bin of projection `p`.
    #[inline]
    fn bin_of(&self, p: f64) -> usize {
        // `as` saturates (NaN → 0), so every value lands in a bin; `u32` converts in fewer
        // instructions than `usize`.
        (((p - self.min) * self.scale) as u32).min(SAH_BINS as u32 - 1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A node of `n` triangles, triangle `k` marked by its coordinates, its moments' area and
    /// its index, all `k`.
    fn marked(n: usize) -> (Vec<[Point; 3]>, Vec<TriangleMoments>, Vec<u32>) {
        let tris = (0..n)
            .map(|k| [Point::new(k as f64, 0.0, 0.0); 3])
            .collect();
        let moments = (0..n)
            .map(|k| TriangleMoments {
                area: k as f64,
                centroid: Point::origin(),
                spread: [0.0; 6],
            })
            .collect();
        (tris, moments, (0..n as u32).collect())
    }

    proptest! {
        /// The partition puts exactly the keys that go left first, and moves every array with
        /// its key: lengths around and across the two blocks the block scheme needs, and
        /// shares of left keys from none to all (blocks with nothing to swap).
        #[test]
        fn partition_moves_the_left_keys_first_in_step(
            sides in (0.0..=1.0).prop_flat_map(|p| {
                prop::collection::vec(prop::bool::weighted(p), 0..700)
            }),
            first in 0u32..5,
        ) {
            let n = sides.len();
            let (mut tris, mut moments, mut order) = marked(n);
            let mut keys: Vec<(bool, u32)> = sides.iter().copied().zip(0..).collect();
            let mut work = Work {
                tris: &mut tris,
                moments: &mut moments,
                order: &mut order,
                first,
            };
            let mid = work.partition(&mut keys, |&(left, _)| left);
            prop_assert_eq!(mid, sides.iter().filter(|&&left| left).count());
            for (k, &(left, id)) in keys.iter().enumerate() {
                prop_assert_eq!(left, k < mid);
                prop_assert_eq!(order[k], id);
                prop_assert_eq!(tris[k][0].x, f64::from(id));
                prop_assert_eq!(moments[k].area, f64::from(id));
            }
            let mut ids: Vec<u32> = order.clone();
            ids.sort_unstable();
            prop_assert!(ids.iter().copied().eq(0..n as u32));
        }
    }
}
