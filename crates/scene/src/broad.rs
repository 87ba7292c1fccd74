//! The broad phase's pair set: every pair of objects whose fat boxes overlap, kept up to date
//! frame by frame from the moved proxies alone (Box2D's `b2BroadPhase::UpdatePairs` scheme):
//! add the pairs of moved proxies, drop the pairs of moved (or removed) proxies whose fat
//! boxes no longer meet, then start the next frame. A frame in which 10% of the objects move
//! costs O(moved · log n + pairs), not O(n log n).
//!
//! The pair set holds pairs whose fat boxes meet; a query of pairs within a distance `d`
//! cannot use it for `d` beyond the fat margins, and takes its candidates from box queries
//! grown by `d` (`DynamicTree::overlapping`, for `Scene::within_margin_all`) or from the
//! tree's nearest pairs (`DynamicTree::nearest_pairs`, for `Scene::min_distance`) instead.
//! Every query takes its candidates from one of these sources into one of the drivers of
//! `driver.rs`.

use crate::bounds::meet;
use crate::distance::grow;
use crate::scene::{ordered, Scene};
use crate::ObjectId;
use obbtree_bv::Aabb;
use std::ops::ControlFlow;

impl<V> Scene<V> {
    /// Brings [`Scene::overlapping`] up to date with the objects moved, inserted and removed
    /// since the last call.
    pub(crate) fn refresh_overlapping(&mut self) {
        if std::mem::take(&mut self.overlapping_stale) {
            self.overlapping = self
                .tree
                .pairs()
                .into_iter()
                .map(|(a, b)| ordered(ObjectId(a), ObjectId(b)))
                .collect();
            self.tree.clear_moved();
            return;
        }
        let tree = &self.tree;
        self.overlapping.retain(|&(a, b)| {
            let alive = tree.contains(a.0) && tree.contains(b.0);
            let moved = tree.is_moved(a.0) || tree.is_moved(b.0);
            alive
                && (!moved
                    || match (tree.fat_aabb(a.0), tree.fat_aabb(b.0)) {
                        (Some(fa), Some(fb)) => meet(fa, fb),
                        _ => false,
                    })
        });
        let overlapping = &mut self.overlapping;
        let _ = tree.for_each_moved_pair(|a, b| {
            overlapping.insert(ordered(ObjectId(a), ObjectId(b)));
            ControlFlow::Continue(())
        });
        self.tree.clear_moved();
    }

    /// The object pairs a query of all pairs checks: their world bounds meet and the groups,
    /// the allowed list and the user's filter let them through; each ordered by name, the
    /// list sorted by ids (cheaper than by names, which only the reported pairs need).
    pub(crate) fn candidates(&mut self) -> Vec<(ObjectId, ObjectId)> {
        if self.is_small() {
            return self.candidates_of_small_scene();
        }
        self.refresh_overlapping();
        let mut pairs: Vec<(ObjectId, ObjectId)> = self
            .overlapping
            .iter()
            .filter(|&&(a, b)| match (self.bounds(a), self.bounds(b)) {
                (Some(ba), Some(bb)) => meet(ba, bb),
                _ => false,
            })
            .filter_map(|&(a, b)| self.admitted(a, b))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// [`candidates`](Self::candidates) of a scene of at most [`SMALL_SCENE`](crate::SMALL_SCENE) objects: every
    /// admitted pair's world boxes tested. The incremental pair set is left behind (and
    /// recomputed if the scene grows).
    fn candidates_of_small_scene(&mut self) -> Vec<(ObjectId, ObjectId)> {
        self.tree.clear_moved();
        self.overlapping_stale = true;
        self.overlapping.clear();
        let listed = self.admitted_pairs.take();
        let pairs = match listed {
            Some((topology, pairs)) if topology == self.topology => pairs,
            _ => self.list_admitted_pairs(),
        };
        let candidates = pairs
            .iter()
            .copied()
            .filter(|&(a, b)| match (self.bounds(a), self.bounds(b)) {
                (Some(ba), Some(bb)) => meet(ba, bb),
                _ => false,
            })
            .filter(|&(a, b)| !self.vetoed(a, b))
            .collect();
        self.admitted_pairs = Some((self.topology, pairs));
        candidates
    }

    /// Every pair the groups and the allowed list admit, ordered by name, sorted by ids.
    fn list_admitted_pairs(&self) -> Vec<(ObjectId, ObjectId)> {
        let ids: Vec<ObjectId> = self.objects().map(|(id, _)| id).collect();
        let mut pairs: Vec<(ObjectId, ObjectId)> = ids
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| ids[i + 1..].iter().map(move |&b| (a, b)))
            .filter_map(|(a, b)| self.admitted_by_lists(a, b))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// The objects whose world bounds meet `bounds`, sorted by name: the candidates of a model
    /// outside the scene (`bounds` its placed box, grown by a margin for the margin queries).
    pub(crate) fn objects_meeting(&self, bounds: &Aabb) -> Vec<ObjectId> {
        let mut found: Vec<ObjectId> = self
            .tree
            .overlapping(bounds)
            .map(ObjectId)
            .filter(|&id| self.bounds(id).is_some_and(|b| meet(b, bounds)))
            .collect();
        found.sort_unstable_by(|&x, &y| self.name(x).cmp(self.name(y)));
        found
    }

    /// The pairs of an object of this scene (`a`) and one of `other` (`b`) whose groups admit
    /// each other and whose world bounds, `a`'s grown by `margin`, meet; sorted by (name of
    /// `a`, name of `b`). With no margin, from the two trees' overlapping fat boxes; with one,
    /// from a box query per object (the fat boxes' overlap misses pairs further apart).
    pub(crate) fn pairs_across(&self, other: &Scene<V>, margin: f64) -> Vec<(ObjectId, ObjectId)> {
        let admitted = |a: ObjectId, b: ObjectId| match (self.get(a), other.get(b)) {
            (Some(oa), Some(ob)) => oa.filter.admits(&ob.filter),
            _ => false,
        };
        let close = |a: ObjectId, b: ObjectId| match (self.bounds(a), other.bounds(b)) {
            (Some(ba), Some(bb)) => meet(&grow(ba, margin), bb),
            _ => false,
        };
        let mut pairs = Vec::new();
        if margin == 0.0 {
            let _ = self.tree.for_each_pair_with(&other.tree, |a, b| {
                pairs.push((ObjectId(a), ObjectId(b)));
                ControlFlow::Continue(())
            });
        } else {
            for (a, _) in self.objects() {
                let Some(grown) = self.bounds(a).map(|ba| grow(ba, margin)) else {
                    continue;
                };
                pairs.extend(other.tree.overlapping(&grown).map(|b| (a, ObjectId(b))));
            }
        }
        pairs.retain(|&(a, b)| admitted(a, b) && close(a, b));
        pairs.sort_unstable_by(|&(a, b), &(c, d)| {
            (self.name(a), other.name(b)).cmp(&(self.name(c), other.name(d)))
        });
        pairs
    }

    /// Orders two pairs by their names.
    pub(crate) fn by_names(
        &self,
        (a, b): (ObjectId, ObjectId),
        (c, d): (ObjectId, ObjectId),
    ) -> std::cmp::Ordering {
        (self.name(a), self.name(b)).cmp(&(self.name(c), self.name(d)))
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{ordered, Scene};
    use crate::{ObjectId, SMALL_SCENE};
    use obbtree_bv::{Obb, Point, Pose, TriMesh};
    use obbtree_query::Model;
    use std::collections::BTreeSet;

    /// The pair set is exactly the pairs of live objects whose fat boxes meet (the tree's own
    /// all-pairs query, which shares nothing with the frame-by-frame upkeep), after moves
    /// apart, moves together, removals and insertions: stale pairs do not pile up.
    #[test]
    fn the_pair_set_holds_exactly_the_meeting_fat_boxes() {
        let cube = TriMesh::cuboid(Point::origin(), Point::new(1.0, 1.0, 1.0)).unwrap();
        let model: Model<Obb> = Model::new(cube).unwrap();
        let at = |x: f64| Pose::from_translation([x, 0.0, 0.0]).unwrap();
        let mut scene: Scene<Obb> = Scene::new();
        let ids: Vec<ObjectId> = (0..SMALL_SCENE + 32)
            .map(|i| {
                let x = 0.75 * i as f64;
                scene
                    .insert(format!("cube {i}"), model.clone(), at(x))
                    .unwrap()
            })
            .collect();
        let check = |scene: &mut Scene<Obb>, when: &str| {
            scene.candidates();
            let want: BTreeSet<_> = scene
                .tree
                .pairs()
                .into_iter()
                .map(|(a, b)| ordered(ObjectId(a), ObjectId(b)))
                .collect();
            let held: BTreeSet<_> = scene.overlapping.iter().copied().collect();
            assert_eq!(held, want, "{when}");
        };
        check(&mut scene, "inserted");
        for (k, &id) in ids.iter().enumerate().step_by(3) {
            scene.set_pose(id, at(1e3 + 10.0 * k as f64)).unwrap();
        }
        check(&mut scene, "every third moved far apart");
        scene.set_pose(ids[0], at(0.75 * 5.0 + 0.5)).unwrap();
        check(&mut scene, "one moved back among the others");
        for &id in ids.iter().skip(1).step_by(8) {
            scene.remove(id).unwrap();
        }
        assert!(
            scene.len() > SMALL_SCENE,
            "the pair set is kept for large scenes only"
        );
        check(&mut scene, "every eighth removed");
        scene.insert("late", model.clone(), at(2.0)).unwrap();
        check(&mut scene, "one inserted");
    }
}
