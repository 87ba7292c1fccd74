//! Split rules: how a node's triangles are divided between its two children.

use crate::MAX_DEPTH;
use obbtree_bv::{Aabb, BoundingVolume, Point, Vector};
use serde::{Deserialize, Serialize};

/// How the builder divides a node's triangles between its two children. Every rule works on the
/// triangle centroids projected onto the node's split axes ([`BoundingVolume::split_axes`], or the
/// coordinate axes ordered by the centroids' spread), and falls back to [`SplitRule::Median`]
/// when it cannot separate the triangles or when its split would let the tree grow deeper than
/// [`MAX_DEPTH`](crate::MAX_DEPTH).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SplitRule {
    /// Gottschalk, Lin & Manocha, "OBBTree" (SIGGRAPH 1996), §4: cut across the longest axis at
    /// the mean of the centroids' projections; if a side would be empty, try the next axis.
    #[default]
    Gottschalk,
    /// Equal counts: the lower half of the centroids' projections on the longest axis (ties broken
    /// by triangle index).
    Median,
    /// Binned surface-area heuristic (Wald, "On fast construction of SAH-based bounding volume
    /// hierarchies", 2007): [`SAH_BINS`] bins per split axis, cost
    /// `area(AABB left) · n_left + area(AABB right) · n_right`, lowest cost wins.
    Sah,
}

/// Bins per axis of [`SplitRule::Sah`].
pub const SAH_BINS: usize = 16;

/// A node's share of the build's working arrays: the triangles' vertices (so volumes are fitted
/// from one contiguous slice) and their mesh indices, permuted together.
pub(crate) struct Work<'a> {
    pub tris: &'a mut [[Point; 3]],
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
        let (lo, ro) = self.order.split_at_mut(mid);
        (
            Work {
                tris: lt,
                order: lo,
                first: self.first,
            },
            Work {
                tris: rt,
                order: ro,
                first: self.first + mid as u32,
            },
        )
    }

    /// Moves the triangles for which `left` holds to the front (keeping the arrays in step) and
    /// returns how many there are.
    fn partition(&mut self, mut left: impl FnMut(&[Point; 3], u32) -> bool) -> usize {
        let mut mid = 0;
        for i in 0..self.len() {
            if left(&self.tris[i], self.order[i]) {
                self.tris.swap(i, mid);
                self.order.swap(i, mid);
                mid += 1;
            }
        }
        mid
    }
}

/// Centroid of a triangle, summed as thirds so that huge finite coordinates do not overflow.
pub(crate) fn centroid(t: &[Point; 3]) -> Point {
    Point::from(t[0].coords / 3.0 + t[1].coords / 3.0 + t[2].coords / 3.0)
}

/// `⌈log2 n⌉` for `n ≥ 1`: the depth below which median splits reduce `n` triangles to one.
fn ceil_log2(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize
}

/// Reorders `work` (at least 2 triangles) into two non-empty runs and returns the length of the
/// first, by `rule` along `bv`'s split axes.
///
/// Depth guarantee: the caller keeps `depth + ⌈log2 n⌉ ≤ MAX_DEPTH` for every node (true at the
/// root since `n ≤ 2^32`). A rule's split is accepted only if its larger side keeps that true one
/// level down; otherwise the median split is used, whose halves keep it by construction.
pub(crate) fn split<V: BoundingVolume>(
    rule: SplitRule,
    bv: &V,
    work: &mut Work,
    depth: usize,
) -> usize {
    let n = work.len();
    let axes = bv
        .split_axes()
        .unwrap_or_else(|| centroid_spread_axes(work.tris));
    let mid = match rule {
        SplitRule::Gottschalk => axes.iter().find_map(|axis| mean_split(work, axis)),
        SplitRule::Median => None,
        SplitRule::Sah => sah_split(work, &axes),
    };
    match mid {
        Some(mid) if depth + 1 + ceil_log2(mid.max(n - mid)) <= MAX_DEPTH => mid,
        _ => median_split(work, &axes[0]),
    }
}

/// The coordinate axes, ordered by the extent of the centroids along them (largest first).
fn centroid_spread_axes(tris: &[[Point; 3]]) -> [Vector; 3] {
    let (lo, hi) = tris.iter().map(centroid).fold(
        (
            Point::from(Vector::repeat(f64::INFINITY)),
            Point::from(Vector::repeat(f64::NEG_INFINITY)),
        ),
        |(lo, hi), c| (lo.inf(&c), hi.sup(&c)),
    );
    let extent = hi - lo;
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| extent[b].total_cmp(&extent[a]));
    order.map(|i| Vector::ith(i, 1.0))
}

/// Gottschalk's rule on one axis: centroids below the mean go left. `None` if a side is empty.
fn mean_split(work: &mut Work, axis: &Vector) -> Option<usize> {
    let n = work.len();
    let mean = work
        .tris
        .iter()
        .map(|t| centroid(t).coords.dot(axis))
        .sum::<f64>()
        / n as f64;
    let mid = work.partition(|t, _| centroid(t).coords.dot(axis) < mean);
    (mid > 0 && mid < n).then_some(mid)
}

/// Splits into `⌊n/2⌋` and `⌈n/2⌉` triangles by the key (projection, triangle index), a total
/// order, so ties (identical centroids) are split deterministically too.
fn median_split(work: &mut Work, axis: &Vector) -> usize {
    let key = |t: &[Point; 3], id: u32| (centroid(t).coords.dot(axis), id);
    let cmp = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let mut keys: Vec<_> = work
        .tris
        .iter()
        .zip(work.order.iter())
        .map(|(t, &id)| key(t, id))
        .collect();
    let half = work.len() / 2;
    let (_, &mut pivot, _) = keys.select_nth_unstable_by(half, cmp);
    work.partition(|t, id| cmp(&key(t, id), &pivot).is_lt())
}

/// Binned SAH over `axes`; `None` if the centroids do not spread along any of them.
fn sah_split(work: &mut Work, axes: &[Vector; 3]) -> Option<usize> {
    let mut best: Option<(f64, usize, usize)> = None; // (cost, axis, last bin of the left side)
    for (a, axis) in axes.iter().enumerate() {
        let Some(bin_of) = Binning::new(work.tris, axis) else {
            continue;
        };
        let mut bins: [(Option<Aabb>, usize); SAH_BINS] = [(None, 0); SAH_BINS];
        for t in work.tris.iter() {
            let (bounds, count) = &mut bins[bin_of.bin(t)];
            let tb = Aabb::from_points(t);
            *bounds = Some(bounds.map_or(tb, |b| b.merge(&tb)));
            *count += 1;
        }
        // Right-to-left suffix areas and counts, then a left-to-right sweep.
        let mut right = [(0.0, 0); SAH_BINS];
        let mut acc: (Option<Aabb>, usize) = (None, 0);
        for i in (1..SAH_BINS).rev() {
            acc = merge_bin(acc, &bins[i]);
            right[i] = (acc.0.map_or(0.0, |b| b.surface_area()), acc.1);
        }
        let mut acc: (Option<Aabb>, usize) = (None, 0);
        for i in 0..SAH_BINS - 1 {
            acc = merge_bin(acc, &bins[i]);
            let (right_area, right_count) = right[i + 1];
            if acc.1 == 0 || right_count == 0 {
                continue;
            }
            let cost = acc.0.map_or(0.0, |b| b.surface_area()) * acc.1 as f64
                + right_area * right_count as f64;
            if best.map_or(true, |(c, _, _)| cost < c) {
                best = Some((cost, a, i));
            }
        }
    }
    let (_, a, last) = best?;
    let bin_of = Binning::new(work.tris, &axes[a])?;
    Some(work.partition(|t, _| bin_of.bin(t) <= last))
}

fn merge_bin(acc: (Option<Aabb>, usize), bin: &(Option<Aabb>, usize)) -> (Option<Aabb>, usize) {
    let bounds = match (acc.0, bin.0) {
        (Some(a), Some(b)) => Some(a.merge(&b)),
        (a, b) => a.or(b),
    };
    (bounds, acc.1 + bin.1)
}

/// Maps a centroid's projection on an axis to one of [`SAH_BINS`] equal bins.
struct Binning<'a> {
    axis: &'a Vector,
    min: f64,
    scale: f64,
}

impl<'a> Binning<'a> {
    /// `None` unless the projections span a positive finite interval.
    fn new(tris: &[[Point; 3]], axis: &'a Vector) -> Option<Self> {
        let (min, max) = tris
            .iter()
            .map(|t| centroid(t).coords.dot(axis))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p), hi.max(p))
            });
        (max > min && (max - min).is_finite()).then(|| Self {
            axis,
            min,
            scale: SAH_BINS as f64 / (max - min),
        })
    }

    fn bin(&self, t: &[Point; 3]) -> usize {
        // `as` saturates (NaN → 0), so every value lands in a bin.
        (((centroid(t).coords.dot(self.axis) - self.min) * self.scale) as usize).min(SAH_BINS - 1)
    }
}
