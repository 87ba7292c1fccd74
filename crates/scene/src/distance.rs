//! Distance queries on a scene: every admitted object pair within a margin, and the closest
//! admitted object pair. Both take their candidates from the broad phase's boxes, which are
//! lower bounds for the meshes' distance, and answer each candidate with the exact two-mesh
//! queries ([`obbtree_query::within_margin`], [`obbtree_query::distance`]).
//!
//! The closest pair walks object pairs in increasing order of the gap between their boxes and
//! stops as soon as the gap exceeds the best distance found (the best-first search of
//! Hjaltason & Samet, "Distance browsing in spatial databases" (1999), on the dynamic tree), so
//! far-apart objects are never measured.

use crate::bounds::meet;
use crate::scene::{ordered, Scene};
use crate::{ObjectId, SceneError};
use obbtree_bv::{Aabb, Point, Vector};
use obbtree_query::{distance, within_margin, DistanceRequest, PosedOverlap, QueryError};
use rayon::prelude::*;

/// Two objects of a scene and their distance ([`Scene::within_margin_all`],
/// [`Scene::min_distance`]): the closest triangle pair `[triangle of a, triangle of b]` and
/// its closest points, in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectDistance {
    /// The first object, before `b` by name.
    pub a: ObjectId,
    /// The second object.
    pub b: ObjectId,
    /// The distance between the meshes, within the guarantee of [`obbtree_query::distance`]
    /// (exactly 0 when they touch).
    pub distance: f64,
    /// The closest triangle pair, `[triangle of a, triangle of b]`.
    pub pair: [u32; 2],
    /// The closest point of `a`'s triangle `pair[0]`, in the world frame.
    pub point_a: Point,
    /// The closest point of `b`'s triangle `pair[1]`, in the world frame.
    pub point_b: Point,
}

impl<V: PosedOverlap> Scene<V> {
    /// Every admitted pair of objects at most `margin` apart, each once as `(a, b)` with `a`
    /// before `b` by name, sorted by names, with its distance, closest triangles and points.
    /// A pair is checked when its world bounds, one grown by `margin`, meet, the groups admit
    /// it, it is not allowed ([`allow`](Self::allow)) and the pair filter does not veto it,
    /// as in [`collide_all`](Self::collide_all); whether it is within the margin is decided
    /// exactly ([`obbtree_query::within_margin`]), its distance then measured
    /// ([`obbtree_query::distance`]). An error ([`QueryError::InvalidMargin`]) when `margin`
    /// is negative, NaN or infinite; otherwise the first failing pair's, by names.
    pub fn within_margin_all(&self, margin: f64) -> Result<Vec<ObjectDistance>, SceneError> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(QueryError::InvalidMargin(margin).into());
        }
        let candidates = self.candidates_within(margin);
        let answers: Vec<Result<Option<ObjectDistance>, SceneError>> = candidates
            .par_iter()
            .map(|&(a, b)| self.pair_within(a, b, margin))
            .collect();
        answers.into_iter().filter_map(Result::transpose).collect()
    }

    /// The closest admitted pair of objects (filters as in
    /// [`within_margin_all`](Self::within_margin_all)), with its distance, closest triangles and
    /// points; among pairs at the same distance, the first by names. `None` when no pair is
    /// admitted. Pairs are measured in increasing order of the gap between their bounds, and
    /// the walk stops when the gap exceeds the best distance found.
    pub fn min_distance(&self) -> Result<Option<ObjectDistance>, SceneError> {
        let mut best: Option<ObjectDistance> = None;
        let mut failure = None;
        self.tree.nearest_pairs(f64::INFINITY, |a, b, _gap| {
            let Some((a, b)) = self.admitted(ObjectId(a), ObjectId(b)) else {
                return best.map_or(f64::INFINITY, |d| d.distance);
            };
            match self.measure(a, b) {
                Ok(found) => {
                    if best.is_none_or(|d| self.nearer(&found, &d)) {
                        best = Some(found);
                    }
                }
                Err(error) => failure = Some(error),
            }
            match (&failure, best) {
                (Some(_), _) => -1.0,
                (None, best) => best.map_or(f64::INFINITY, |d| d.distance),
            }
        });
        failure.map_or(Ok(best), Err)
    }

    /// The admitted object pairs whose world bounds, one grown by `margin`, meet; each ordered
    /// by name, the list sorted by names.
    fn candidates_within(&self, margin: f64) -> Vec<(ObjectId, ObjectId)> {
        let mut pairs: Vec<(ObjectId, ObjectId)> = self
            .objects()
            .flat_map(|(a, _)| {
                let grown = self.bounds(a).map(|bounds| grow(bounds, margin));
                grown
                    .into_iter()
                    .flat_map(move |grown| {
                        self.tree
                            .overlapping(&grown)
                            .map(ObjectId)
                            .filter(move |&b| {
                                a < b && self.bounds(b).is_some_and(|bb| meet(bb, &grown))
                            })
                    })
                    .map(move |b| ordered(a, b))
            })
            .filter_map(|(a, b)| self.admitted(a, b))
            .collect();
        pairs.sort_unstable_by(|x, y| self.by_names(*x, *y));
        pairs
    }

    /// The pair's distance if it is at most `margin`, decided exactly.
    fn pair_within(
        &self,
        a: ObjectId,
        b: ObjectId,
        margin: f64,
    ) -> Result<Option<ObjectDistance>, SceneError> {
        let (oa, ob) = (self.object(a)?, self.object(b)?);
        let within = within_margin(&oa.model, &oa.pose, &ob.model, &ob.pose, margin)
            .map_err(|source| self.pair_error(a, b, source))?;
        within.map(|_| self.measure(a, b)).transpose()
    }

    /// The pair's distance, closest triangles and points.
    fn measure(&self, a: ObjectId, b: ObjectId) -> Result<ObjectDistance, SceneError> {
        let (oa, ob) = (self.object(a)?, self.object(b)?);
        let request = DistanceRequest::default();
        let result = distance(&oa.model, &oa.pose, &ob.model, &ob.pose, &request)
            .map_err(|source| self.pair_error(a, b, source))?;
        Ok(ObjectDistance {
            a,
            b,
            distance: result.distance,
            pair: result.pair,
            point_a: result.point_a,
            point_b: result.point_b,
        })
    }

    /// Whether `x` is nearer than `y`, ties broken by names.
    fn nearer(&self, x: &ObjectDistance, y: &ObjectDistance) -> bool {
        x.distance
            .total_cmp(&y.distance)
            .then_with(|| self.by_names((x.a, x.b), (y.a, y.b)))
            .is_lt()
    }

    /// [`SceneError::Pair`] naming the two objects.
    fn pair_error(&self, a: ObjectId, b: ObjectId, source: QueryError) -> SceneError {
        SceneError::Pair {
            a: self.name(a).to_string(),
            b: self.name(b).to_string(),
            source,
        }
    }
}

/// `bounds` grown by `margin` on every side, rounded outwards: the margin is enlarged by a few
/// units of its own rounding (the coordinates' rounding is covered by the bounds' padding,
/// `bounds.rs`), so a mesh within `margin` of the object lies inside.
fn grow(bounds: &Aabb, margin: f64) -> Aabb {
    let pad = Vector::repeat(margin * (1.0 + 4.0 * f64::EPSILON));
    Aabb::new(bounds.mins - pad, bounds.maxs + pad)
}
