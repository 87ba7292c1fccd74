//! The scene itself: objects in a dynamic tree over their world bounds, names, filters, and
//! what the queries remember.

use crate::bounds::world_box;
use crate::coherence::{Answered, PairRecord};
use crate::distance::LastClosest;
use crate::object::{Candidate, CollisionFilter, Object, ObjectId};
use crate::SceneError;
use obbtree_bv::{Aabb, BoundingVolume, Obb, Pose};
use obbtree_query::Model;
use obbtree_tree::{DynamicOptions, DynamicTree};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashMap;
use std::sync::Arc;

/// A user's veto on object pairs: called for every pair whose bounds meet and that the groups
/// and the allowed list let through; `false` skips the pair.
pub type PairFilter = Arc<dyn Fn(&Candidate<'_>) -> bool + Send + Sync>;

/// Scenes of at most this many objects move their objects' boxes in the broad phase's tree in
/// place ([`DynamicTree::update_in_place`]) and take the candidates of a query of all pairs
/// by testing the world boxes of every admitted pair, listed once per change of objects,
/// filters or allowed pairs. A robot's links, all moving between configurations, are such a
/// scene: there reinsertion and the moved-pair search cost more than testing a few hundred
/// pairs of boxes. Larger scenes keep the incremental pair set (`broad.rs`).
pub const SMALL_SCENE: usize = 64;

/// Many posed meshes, queried together. See the [crate documentation](crate).
#[derive(Clone)]
pub struct Scene<V = Obb> {
    /// The broad phase; each proxy's payload is its object, its tight box the world bounds.
    pub(crate) tree: DynamicTree<Object<V>>,
    names: HashMap<String, ObjectId>,
    /// Pairs never checked, each as (smaller id, larger id). The maps keyed by ids use
    /// rustc's Fx hash: ids are handed out by the scene, not chosen by users, so a keyed hash
    /// (std's SipHash, several times slower on a pair of integers) protects nothing.
    allowed: FxHashSet<(ObjectId, ObjectId)>,
    pair_filter: Option<PairFilter>,
    /// Every pair of objects whose fat boxes overlap, as (smaller id, larger id), kept up to
    /// date from the tree's moved proxies when a query needs it.
    pub(crate) overlapping: FxHashSet<(ObjectId, ObjectId)>,
    /// Whether `overlapping` fell behind the tree while the scene was small (see
    /// [`SMALL_SCENE`]): the next query of a large scene recomputes it.
    pub(crate) overlapping_stale: bool,
    /// The pairs the groups and the allowed list let through, ordered by name and sorted by
    /// ids, with the value of `topology` they were listed at: a small scene's candidates.
    pub(crate) admitted_pairs: Option<(u64, Vec<(ObjectId, ObjectId)>)>,
    /// Counts the changes that can change which pairs are admitted: an object inserted or
    /// removed, a filter or an allowed pair set.
    pub(crate) topology: u64,
    /// What the queries learnt about each object pair, one record per pair (the last
    /// [`collide_all`](Scene::collide_all)'s answer, the distance queries' answers and hint),
    /// keyed (first by name, second by name).
    pub(crate) records: FxHashMap<(ObjectId, ObjectId), PairRecord>,
    /// The closest pair the last [`min_distance`](Scene::min_distance) found.
    pub(crate) closest: Option<(ObjectId, ObjectId)>,
    /// The last closest-pair walk's answer, reused while nothing changes.
    pub(crate) last_closest: Option<LastClosest>,
    /// Counts the changes that can change a query of all pairs' answer: a move, an object
    /// inserted or removed, a filter, an allowed pair or the pair filter set.
    pub(crate) changes: u64,
    next_stamp: u64,
    pub(crate) stats: QueryStats,
}

/// How the last query of all pairs ([`Scene::collide_all`], [`Scene::within_margin_all`],
/// [`Scene::min_distance`]) answered its pairs: for tuning and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Object pairs whose world bounds met and that the filters let through.
    pub candidates: usize,
    /// Pairs answered by the previous answer outright (neither object moved).
    pub reused: usize,
    /// Distances measured from the pair's last closest triangle pair
    /// ([`DistanceRequest::hint`](obbtree_query::DistanceRequest::hint)).
    pub hinted: usize,
    /// Pairs answered by their last witness triangle pair, tested again
    /// ([`Mode::First`](obbtree_query::Mode::First)).
    pub witnessed: usize,
    /// Disjoint pairs answered by their last separating plane, checked again.
    pub separated: usize,
    /// Pairs that ran the full exact query.
    pub queried: usize,
}

impl QueryStats {
    /// Counts one pair answered `how` (and as a candidate).
    pub(crate) fn count(&mut self, how: Answered) {
        self.candidates += 1;
        *match how {
            Answered::Reused => &mut self.reused,
            Answered::Witnessed => &mut self.witnessed,
            Answered::Separated => &mut self.separated,
            Answered::Hinted => &mut self.hinted,
            Answered::Queried => &mut self.queried,
        } += 1;
    }
}

impl<V> std::fmt::Debug for Scene<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("objects", &self.tree.len())
            .field("allowed", &self.allowed.len())
            .field("pair_filter", &self.pair_filter.is_some())
            .field("overlapping", &self.overlapping.len())
            .finish()
    }
}

impl<V> Default for Scene<V> {
    fn default() -> Self {
        Self::with_options(DynamicOptions::default())
    }
}

impl<V> Scene<V> {
    /// An empty scene whose broad phase fattens boxes by the default margin (a tenth of each
    /// box's largest side; see [`DynamicOptions`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty scene whose broad phase fattens boxes as `options` say. Panics if an option is
    /// negative or not finite.
    pub fn with_options(options: DynamicOptions) -> Self {
        Self {
            tree: DynamicTree::with_options(options),
            names: HashMap::new(),
            allowed: FxHashSet::default(),
            pair_filter: None,
            overlapping: FxHashSet::default(),
            overlapping_stale: false,
            admitted_pairs: None,
            topology: 0,
            records: FxHashMap::default(),
            closest: None,
            last_closest: None,
            changes: 0,
            next_stamp: 0,
            stats: QueryStats::default(),
        }
    }

    /// Whether the scene is small enough for the broad phase of [`SMALL_SCENE`].
    pub(crate) fn is_small(&self) -> bool {
        self.len() <= SMALL_SCENE
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// Whether the scene holds no object.
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    /// The object, or `None` if `id` names no object of this scene.
    pub fn get(&self, id: ObjectId) -> Option<&Object<V>> {
        self.tree.payload(id.0)
    }

    /// The object, or [`SceneError::UnknownObject`].
    pub(crate) fn object(&self, id: ObjectId) -> Result<&Object<V>, SceneError> {
        self.get(id).ok_or(SceneError::UnknownObject(id))
    }

    /// The object's name (`""` for an id of no object).
    pub fn name(&self, id: ObjectId) -> &str {
        self.get(id).map_or("", |o| &o.name)
    }

    /// The object with this name.
    pub fn id(&self, name: &str) -> Option<ObjectId> {
        self.names.get(name).copied()
    }

    /// The object with this name, or [`SceneError::UnknownName`].
    pub fn lookup(&self, name: &str) -> Result<ObjectId, SceneError> {
        self.id(name)
            .ok_or_else(|| SceneError::UnknownName(name.to_string()))
    }

    /// Every object with its id, in no particular order.
    pub fn objects(&self) -> impl Iterator<Item = (ObjectId, &Object<V>)> + '_ {
        self.tree.iter().map(|(proxy, o)| (ObjectId(proxy), o))
    }

    /// The object's world bounds (the box the broad phase tests; it contains the placed mesh).
    pub fn bounds(&self, id: ObjectId) -> Option<&Aabb> {
        self.tree.tight_aabb(id.0)
    }

    /// How the last query of all pairs answered its pairs.
    pub fn last_stats(&self) -> QueryStats {
        self.stats
    }

    /// Forgets what the queries learnt about pairs: the next query answers every pair with the
    /// full exact query (for measuring what the records save, or to free their memory).
    pub fn clear_records(&mut self) {
        self.records.clear();
        self.closest = None;
        self.last_closest = None;
    }

    /// Removes the object and returns it; its allowed pairs go with it.
    pub fn remove(&mut self, id: ObjectId) -> Result<Object<V>, SceneError> {
        let object = self
            .tree
            .remove(id.0)
            .ok_or(SceneError::UnknownObject(id))?;
        self.names.remove(&object.name);
        self.allowed.retain(|&(a, b)| a != id && b != id);
        self.changes += 1;
        self.topology += 1;
        self.forget(id);
        Ok(object)
    }

    /// Sets the object's collision filter (see [`CollisionFilter`]).
    pub fn set_filter(&mut self, id: ObjectId, filter: CollisionFilter) -> Result<(), SceneError> {
        let object = self
            .tree
            .payload_mut(id.0)
            .ok_or(SceneError::UnknownObject(id))?;
        object.filter = filter;
        self.changes += 1;
        self.topology += 1;
        Ok(())
    }

    /// Never check the pair `a`, `b` (an allowed collision: parts that touch by design).
    pub fn allow(&mut self, a: ObjectId, b: ObjectId) -> Result<(), SceneError> {
        self.object(a)?;
        self.object(b)?;
        self.allowed.insert(ordered(a, b));
        self.changes += 1;
        self.topology += 1;
        Ok(())
    }

    /// [`allow`](Self::allow) by names; an error names the first unknown name.
    pub fn allow_names(&mut self, a: &str, b: &str) -> Result<(), SceneError> {
        let (a, b) = (self.lookup(a)?, self.lookup(b)?);
        self.allow(a, b)
    }

    /// Check the pair `a`, `b` again (undoes [`allow`](Self::allow)).
    pub fn disallow(&mut self, a: ObjectId, b: ObjectId) {
        self.allowed.remove(&ordered(a, b));
        self.changes += 1;
        self.topology += 1;
    }

    /// Whether the pair is on the allowed list.
    pub fn is_allowed(&self, a: ObjectId, b: ObjectId) -> bool {
        self.allowed.contains(&ordered(a, b))
    }

    /// Sets (or with `None` removes) the user's veto on pairs ([`PairFilter`]).
    pub fn set_pair_filter(&mut self, filter: Option<PairFilter>) {
        self.pair_filter = filter;
        self.changes += 1;
    }

    /// Whether the pair of distinct objects `a`, `b` passes the groups, the allowed list and
    /// the user's filter; `None` if either is gone. The pair comes back ordered by name.
    pub(crate) fn admitted(&self, a: ObjectId, b: ObjectId) -> Option<(ObjectId, ObjectId)> {
        self.admitted_by_lists(a, b)
            .filter(|&(a, b)| !self.vetoed(a, b))
    }

    /// Whether the groups and the allowed list let the pair of distinct objects through (the
    /// pair filter aside); `None` if either is gone. The pair comes back ordered by name.
    pub(crate) fn admitted_by_lists(
        &self,
        a: ObjectId,
        b: ObjectId,
    ) -> Option<(ObjectId, ObjectId)> {
        let (oa, ob) = (self.get(a)?, self.get(b)?);
        if !oa.filter.admits(&ob.filter) || self.is_allowed(a, b) {
            return None;
        }
        Some(if oa.name <= ob.name { (a, b) } else { (b, a) })
    }

    /// Whether the user's pair filter vetoes the pair `(a, b)` (ordered by name).
    pub(crate) fn vetoed(&self, a: ObjectId, b: ObjectId) -> bool {
        let Some(veto) = &self.pair_filter else {
            return false;
        };
        let lookup = |id: ObjectId| Some((self.get(id)?, self.tree.tight_aabb(id.0)?));
        let (Some((oa, bounds_a)), Some((ob, bounds_b))) = (lookup(a), lookup(b)) else {
            return true;
        };
        let candidate = Candidate {
            a,
            name_a: &oa.name,
            b,
            name_b: &ob.name,
            bounds_a,
            bounds_b,
        };
        !veto(&candidate)
    }

    /// Drops what the queries learnt about the object's pairs: its id may be given to another
    /// object, whose triangles the old records would name.
    fn forget(&mut self, id: ObjectId) {
        self.records.retain(|&(a, b), _| a != id && b != id);
        if self.closest.is_some_and(|(a, b)| a == id || b == id) {
            self.closest = None;
        }
    }

    /// A fresh pose stamp.
    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }
}

impl<V: obbtree_tree::TreeVolume> Scene<V> {
    /// Adds an object named `name` (unique in the scene) made of `model` at `pose`, with the
    /// default [`CollisionFilter`]. Many objects may share one model. O(log n).
    pub fn insert(
        &mut self,
        name: impl Into<String>,
        model: Model<V>,
        pose: Pose,
    ) -> Result<ObjectId, SceneError> {
        let name = name.into();
        if self.names.contains_key(&name) {
            return Err(SceneError::DuplicateName(name));
        }
        let bounds = world_box(&model, &pose);
        // The separating planes need the hull: built now rather than in the first frame.
        model.prepare_hull();
        let stamp = self.stamp();
        let object = Object {
            name: name.clone(),
            model,
            pose,
            filter: CollisionFilter::default(),
            stamp,
        };
        let id = self
            .tree
            .insert(bounds, object)
            .map_err(|source| SceneError::Bounds {
                name: name.clone(),
                source,
            })?;
        let id = ObjectId(id);
        self.names.insert(name, id);
        self.changes += 1;
        self.topology += 1;
        if self.len() == SMALL_SCENE + 1 {
            // Moves refitted the tree in place while the scene was small: reshape it.
            self.tree.rebuild();
        }
        Ok(id)
    }

    /// Moves the object to `pose`. A pose equal to the current one changes nothing (the
    /// object does not count as moved); otherwise the object's pairs are queried afresh (or
    /// from their last witness) by the next query. O(1) when the new bounds still fit in the
    /// broad phase's fat box, O(log n) otherwise. On error the object stays where it was.
    pub fn set_pose(&mut self, id: ObjectId, pose: Pose) -> Result<(), SceneError> {
        let object = self.object(id)?;
        if object.pose == pose {
            return Ok(());
        }
        let bounds = world_box(&object.model, &pose);
        let old = self.tree.tight_aabb(id.0).copied().unwrap_or(bounds);
        let displacement = bounds.center() - old.center();
        let updated = if self.is_small() {
            self.tree.update_in_place(id.0, bounds)
        } else {
            self.tree
                .update_with_displacement(id.0, bounds, &displacement)
        };
        if let Err(source) = updated {
            let name = self.name(id).to_string();
            return Err(SceneError::Bounds { name, source });
        }
        let stamp = self.stamp();
        if let Some(object) = self.tree.payload_mut(id.0) {
            object.pose = pose;
            object.stamp = stamp;
        }
        self.changes += 1;
        Ok(())
    }

    /// [`set_pose`](Self::set_pose) for each update in order, every id checked first: on an
    /// unknown id nothing moves.
    pub fn set_poses(&mut self, updates: &[(ObjectId, Pose)]) -> Result<(), SceneError> {
        if let Some(&(id, _)) = updates.iter().find(|(id, _)| self.get(*id).is_none()) {
            return Err(SceneError::UnknownObject(id));
        }
        updates
            .iter()
            .try_for_each(|&(id, pose)| self.set_pose(id, pose))
    }
}

/// The pair as (smaller id, larger id).
pub(crate) fn ordered(a: ObjectId, b: ObjectId) -> (ObjectId, ObjectId) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}
