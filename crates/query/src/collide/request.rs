//! What a collision query asks for and what it answers.

use obbtree_bv::intersect::tri_tri_segment::Intersection;
use serde::{Deserialize, Serialize};

/// How many intersecting triangle pairs a query looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Stop at the first intersecting pair and return it as a witness (a yes/no query).
    First,
    /// Every intersecting pair (up to [`CollisionRequest::max_pairs`]).
    #[default]
    All,
}

/// A collision query's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollisionRequest {
    /// First witness or all pairs.
    pub mode: Mode,
    /// In [`Mode::All`], stop once this many pairs are found (`None`: no limit). The pairs
    /// returned are then the first ones met by the traversal (not the smallest indices), sorted,
    /// and [`CollisionResult::truncated`] is set.
    pub max_pairs: Option<usize>,
    /// When no triangle pair intersects and both meshes are closed, find out whether one solid
    /// lies inside the other ([`CollisionResult::contained`]).
    pub containment: bool,
    /// Also compute the intersection of each pair ([`CollisionResult::contacts`]).
    pub contacts: bool,
}

impl Default for CollisionRequest {
    fn default() -> Self {
        Self::new(Mode::All)
    }
}

impl CollisionRequest {
    /// A request in `mode` with no pair limit and no containment.
    pub fn new(mode: Mode) -> Self {
        Self {
            mode,
            max_pairs: None,
            containment: false,
            contacts: false,
        }
    }

    /// The same request with contact geometry on or off.
    pub fn with_contacts(self, contacts: bool) -> Self {
        Self { contacts, ..self }
    }

    /// The same request with containment on or off.
    pub fn with_containment(self, containment: bool) -> Self {
        Self {
            containment,
            ..self
        }
    }

    /// The same request with at most `max` pairs.
    pub fn with_max_pairs(self, max: usize) -> Self {
        Self {
            max_pairs: Some(max),
            ..self
        }
    }

    /// How many pairs the traversal may collect before it stops.
    pub(crate) fn limit(&self) -> usize {
        match self.mode {
            Mode::First => 1,
            Mode::All => self.max_pairs.unwrap_or(usize::MAX),
        }
    }
}

/// What a collision query found out about containment ([`CollisionRequest::containment`]):
/// for two closed meshes whose surfaces do not meet, whether one solid lies inside the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Containment {
    /// Not asked for ([`CollisionRequest::containment`] off).
    #[default]
    NotChecked,
    /// The surfaces intersect, so neither solid lies inside the other's interior alone.
    SurfacesIntersect,
    /// A mesh is open (see [`TriMesh::is_closed`](obbtree_bv::TriMesh::is_closed)): it bounds
    /// no solid.
    OpenMesh,
    /// Checked: the solids are disjoint.
    Disjoint,
    /// Checked: the solids overlap but neither lies wholly inside the other (a mesh with
    /// several components has some inside the other solid and some outside).
    Overlapping,
    /// Every point of A's solid is inside B's solid.
    AInB,
    /// Every point of B's solid is inside A's solid.
    BInA,
}

/// The answer to a collision query.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CollisionResult {
    /// Some triangle of A and some triangle of B share a point (touching counts).
    pub intersects: bool,
    /// Intersecting pairs `[triangle of A, triangle of B]` as indices into the meshes' triangle
    /// lists, sorted and without duplicates; at most one in [`Mode::First`].
    pub pairs: Vec<[u32; 2]>,
    /// The pair limit stopped the search (more pairs may intersect).
    pub truncated: bool,
    /// Whether one solid lies inside the other, or why that was not decided.
    pub contained: Containment,
    /// With [`CollisionRequest::contacts`]: the intersection of each pair of
    /// [`CollisionResult::pairs`] (same order), in A's frame (see
    /// [`obbtree_bv::intersect::tri_tri_segment::intersection`] for its accuracy).
    #[serde(skip)]
    pub contacts: Vec<Intersection>,
}

impl CollisionResult {
    /// Empties the result, keeping the pair buffer's memory for the next query.
    pub fn clear(&mut self) {
        self.intersects = false;
        self.pairs.clear();
        self.truncated = false;
        self.contained = Containment::NotChecked;
        self.contacts.clear();
    }

    /// Sorts [`CollisionResult::pairs`], each compared as one 64-bit key (A's index in the high
    /// half): a branch-free comparison, where the lexicographic one of `[u32; 2]` branches on
    /// the first halves (its share of a query is in `docs/performance.md`).
    pub(crate) fn sort_pairs(&mut self) {
        self.pairs
            .sort_unstable_by_key(|&[a, b]| u64::from(a) << 32 | u64::from(b));
    }
}
