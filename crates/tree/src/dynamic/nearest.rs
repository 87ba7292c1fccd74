//! Proxies and proxy pairs by increasing distance between fat boxes: for "the closest object"
//! and "the closest pair of objects".

use super::best_first::best_first_pairs;
use super::{DynamicTree, ProxyId};
use obbtree_bv::{Aabb, Point};

impl<T> DynamicTree<T> {
    /// Visits the proxies whose fat box is within `max_distance` of `point`, nearest box first;
    /// `visit(proxy, box distance)` returns the new limit (see
    /// [`nearest_to_aabb`](Self::nearest_to_aabb)).
    pub fn nearest_to_point(
        &self,
        point: &Point,
        max_distance: f64,
        visit: impl FnMut(ProxyId, f64) -> f64,
    ) {
        self.nearest_to_aabb(&Aabb::new(*point, *point), max_distance, visit);
    }

    /// Visits the proxies whose fat box is within `max_distance` of `aabb` (Euclidean distance
    /// between the closed boxes, 0 when they overlap), nearest first. `visit(proxy, distance)`
    /// returns the new limit: `max_distance` to go on, the exact distance to the object found
    /// so far to see only proxies that could be nearer, a negative value to stop. The box
    /// distance is a lower bound for the objects' distance.
    pub fn nearest_to_aabb(
        &self,
        aabb: &Aabb,
        max_distance: f64,
        visit: impl FnMut(ProxyId, f64) -> f64,
    ) {
        self.nearest_by(|node| Some(aabb_distance(aabb, node)), max_distance, visit);
    }
}

impl<T> DynamicTree<T> {
    /// Visits the unordered pairs of distinct proxies whose fat boxes are within
    /// `max_distance` of each other, each once, nearest first (distance 0 for overlapping
    /// boxes). `visit(a, b, distance)` returns the new limit: `max_distance` to go on, the
    /// exact distance of the closest objects found so far to see only pairs that could be
    /// nearer, a negative value to stop.
    pub fn nearest_pairs(
        &self,
        max_distance: f64,
        visit: impl FnMut(ProxyId, ProxyId, f64) -> f64,
    ) {
        let root = (self.root, self.root);
        best_first_pairs(
            &self.nodes,
            &self.nodes,
            root,
            true,
            aabb_distance,
            max_distance,
            visit,
        );
    }

    /// [`nearest_pairs`](Self::nearest_pairs) between the proxies of this tree (first in each
    /// pair) and those of `other`.
    pub fn nearest_pairs_with<U>(
        &self,
        other: &DynamicTree<U>,
        max_distance: f64,
        visit: impl FnMut(ProxyId, ProxyId, f64) -> f64,
    ) {
        let roots = (self.root, other.root);
        best_first_pairs(
            &self.nodes,
            &other.nodes,
            roots,
            false,
            aabb_distance,
            max_distance,
            visit,
        );
    }
}

/// Distance between two closed boxes: the norm of the per-axis gaps (Ericson, *Real-Time
/// Collision Detection* (2005) §5.1.3, the point–AABB distance by axis, with an interval for
/// the point). Every rounded step is monotone in the box's sides, so a box inside another is
/// never nearer.
fn aabb_distance(a: &Aabb, b: &Aabb) -> f64 {
    let gap = |i: usize| (b.mins[i] - a.maxs[i]).max(a.mins[i] - b.maxs[i]).max(0.0);
    (0..3).map(|i| gap(i) * gap(i)).sum::<f64>().sqrt()
}
