//! What a distance query asks for and what it answers.

use crate::Containment;
use obbtree_bv::Point;
use serde::{Deserialize, Serialize};

/// A distance query's options. The default asks for the distance within the guarantee of the
/// [`distance`](crate::distance) (both tolerances 0), with no hint, between surfaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DistanceRequest {
    /// Relative tolerance (PQP's and FCL's `rel_err`): the answer may exceed the distance `d*`
    /// by a factor `1 + rel_err` (plus `abs_err`), for speed. Non-negative and finite.
    pub rel_err: f64,
    /// Absolute tolerance (`abs_err`): the answer may exceed `d*·(1 + rel_err)` by this much.
    /// Non-negative and finite.
    pub abs_err: f64,
    /// A triangle pair `[triangle of A, triangle of B]` likely to be close, usually
    /// [`DistanceResult::pair`] of the previous query at a nearby pose (PQP's `last_tri`): its
    /// distance is the first upper bound, so the walk prunes from the start.
    pub hint: Option<[u32; 2]>,
    /// Closed meshes count as solids: when neither surface meets the other but one solid lies
    /// inside the other, the distance is 0 ([`DistanceResult::contained`] says which). Needs
    /// both meshes closed; an open mesh leaves the surface distance
    /// ([`Containment::OpenMesh`]).
    pub solids: bool,
}

impl DistanceRequest {
    /// The same request with tolerances `rel_err` and `abs_err`.
    pub fn with_tolerances(self, rel_err: f64, abs_err: f64) -> Self {
        Self {
            rel_err,
            abs_err,
            ..self
        }
    }

    /// The same request seeded with the pair `hint`.
    pub fn with_hint(self, hint: Option<[u32; 2]>) -> Self {
        Self { hint, ..self }
    }

    /// The same request with solids on or off.
    pub fn with_solids(self, solids: bool) -> Self {
        Self { solids, ..self }
    }
}

/// The answer to a distance query.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistanceResult {
    /// The distance between the meshes: exactly 0 when they intersect (and, with
    /// [`DistanceRequest::solids`], when one solid lies inside the other).
    pub distance: f64,
    /// A certified interval: `lower <= d* <= upper` for the exact distance `d*` (with
    /// tolerances, `distance` may lie above `upper`'s guarantee only by them; the interval
    /// still holds).
    pub lower: f64,
    /// See [`DistanceResult::lower`].
    pub upper: f64,
    /// The surfaces share a point: `distance` is 0 and `pair` intersects.
    pub intersects: bool,
    /// The closest triangle pair of the surfaces, `[triangle of A, triangle of B]` (an
    /// intersecting pair when they intersect).
    pub pair: [u32; 2],
    /// The closest point of A's triangle `pair[0]`, in the world frame.
    pub point_a: Point,
    /// The closest point of B's triangle `pair[1]`, in the world frame.
    pub point_b: Point,
    /// With [`DistanceRequest::solids`]: whether one solid lies inside the other (then
    /// `distance` is 0 while `pair` and the points are the surfaces' closest); otherwise
    /// [`Containment::NotChecked`].
    pub contained: Containment,
}
