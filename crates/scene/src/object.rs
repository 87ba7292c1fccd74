//! The objects of a scene: a shared model, a pose, a name, and a collision filter.

use obbtree_bv::{Aabb, Pose};
use obbtree_query::Model;
use obbtree_tree::ProxyId;

/// Handle of an object in a [`Scene`](crate::Scene): stable while the object lives, never
/// reused for another object (a removed object's id names nothing afterwards). Ordered, so
/// that lists of ids can be sorted; the order is not the order of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId(pub(crate) ProxyId);

/// Which objects an object is checked against, as bit sets (Bullet's collision filter groups
/// and masks): objects `a` and `b` are checked iff `a.group & b.mask != 0` and
/// `b.group & a.mask != 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    /// The groups the object belongs to.
    pub group: u32,
    /// The groups the object is checked against.
    pub mask: u32,
}

impl Default for CollisionFilter {
    /// Group 1, checked against every group (Bullet's default filter).
    fn default() -> Self {
        Self {
            group: 1,
            mask: u32::MAX,
        }
    }
}

impl CollisionFilter {
    /// The filter with these bits.
    pub fn new(group: u32, mask: u32) -> Self {
        Self { group, mask }
    }

    /// Whether objects with filters `self` and `other` are checked against each other.
    pub fn admits(&self, other: &CollisionFilter) -> bool {
        self.group & other.mask != 0 && other.group & self.mask != 0
    }
}

/// An object of a scene, as [`Scene::get`](crate::Scene::get) shows it.
#[derive(Clone, Debug)]
pub struct Object<V> {
    pub(crate) name: String,
    pub(crate) model: Model<V>,
    pub(crate) pose: Pose,
    pub(crate) filter: CollisionFilter,
    /// Changes whenever the pose does (a scene-wide counter): what the pair records are keyed
    /// on.
    pub(crate) stamp: u64,
}

impl<V> Object<V> {
    /// The object's unique name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The model (shared with every object made from the same model).
    pub fn model(&self) -> &Model<V> {
        &self.model
    }

    /// Where the model is: a mesh vertex `p` is at `pose · p` in the world.
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// The collision filter.
    pub fn filter(&self) -> CollisionFilter {
        self.filter
    }
}

/// The object pair `(a, b)` a pair filter is asked about
/// ([`Scene::set_pair_filter`](crate::Scene::set_pair_filter)), `a` before `b` by name.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// The first object.
    pub a: ObjectId,
    /// Its name.
    pub name_a: &'a str,
    /// The second object.
    pub b: ObjectId,
    /// Its name.
    pub name_b: &'a str,
    /// The first object's world bounds.
    pub bounds_a: &'a Aabb,
    /// The second object's world bounds.
    pub bounds_b: &'a Aabb,
}
