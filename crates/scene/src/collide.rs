//! Collision queries on a scene: all object pairs, one external object against the scene, and
//! two scenes against each other. Object pairs whose world bounds meet reach the exact query
//! ([`obbtree_query::collide`]), through the scene's drivers (`driver.rs`).

use crate::bounds::world_box;
use crate::coherence::Collide;
use crate::driver::answer_all;
use crate::scene::Scene;
use crate::{ObjectId, SceneError};
use obbtree_bv::Pose;
use obbtree_query::{collide, CollisionRequest, CollisionResult, Model, PosedOverlap};

/// Two objects of a scene that touch (or of two scenes, [`Scene::collide_scenes`]), with the
/// exact query's answer: `pairs` are `[triangle of a, triangle of b]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectContact {
    /// The first object: before `b` by name within one scene; of the scene queried in
    /// [`Scene::collide_scenes`].
    pub a: ObjectId,
    /// The second object.
    pub b: ObjectId,
    /// The query's answer on the pair (its `intersects` is true).
    pub result: CollisionResult,
}

/// An object of the scene that an external model touches ([`Scene::collide_with`]): `pairs`
/// are `[triangle of the external model, triangle of the object]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalContact {
    /// The object touched.
    pub object: ObjectId,
    /// The query's answer on the pair (its `intersects` is true).
    pub result: CollisionResult,
}

impl<V: PosedOverlap> Scene<V> {
    /// Every pair of objects that touch, each once as `(a, b)` with `a` before `b` by name,
    /// sorted by names, with its triangle pairs ([`Mode::All`](obbtree_query::Mode::All)) or a
    /// witness ([`Mode::First`](obbtree_query::Mode::First)). A pair is checked when its world
    /// bounds meet, the groups admit it ([`CollisionFilter`](crate::CollisionFilter)), it is
    /// not allowed ([`allow`](Self::allow)) and the pair filter does not veto it.
    ///
    /// Pairs neither of whose objects moved since the last call with the same request take
    /// the last answer; in `First` mode a moved pair first tests its last witness again (see
    /// the crate docs). The answers are those of the exact query on each pair, except which
    /// witness a `First` answer names.
    pub fn collide_all(
        &mut self,
        request: &CollisionRequest,
    ) -> Result<Vec<ObjectContact>, SceneError> {
        let candidates = self.candidates();
        let found = self.query_pairs(&Collide(request), candidates)?;
        Ok(found
            .into_iter()
            .map(|(a, b, result)| ObjectContact { a, b, result })
            .collect())
    }

    /// A frame: moves the objects (`updates`, every id checked first: on an unknown id nothing
    /// moves), then [`collide_all`](Self::collide_all).
    pub fn frame(
        &mut self,
        updates: &[(ObjectId, Pose)],
        request: &CollisionRequest,
    ) -> Result<Vec<ObjectContact>, SceneError> {
        self.set_poses(updates)?;
        self.collide_all(request)
    }

    /// The objects that `model` at `pose` touches, sorted by name; the groups, allowed list
    /// and pair filter do not apply (the model is not an object of the scene). Nothing is
    /// remembered between calls.
    pub fn collide_with(
        &self,
        model: &Model<V>,
        pose: &Pose,
        request: &CollisionRequest,
    ) -> Result<Vec<ExternalContact>, SceneError> {
        let touched = self.objects_meeting(&world_box(model, pose));
        answer_all(&touched, |&id| {
            let object = self.object(id)?;
            collide(model, pose, &object.model, &object.pose, request)
                .map(|result| {
                    let touches = result.intersects;
                    touches.then_some(ExternalContact { object: id, result })
                })
                .map_err(|source| SceneError::Object {
                    name: object.name.clone(),
                    source,
                })
        })
    }

    /// The pairs of an object of this scene (`a`) and an object of `other` (`b`) that touch,
    /// sorted by (name of `a`, name of `b`). The groups apply across the scenes; the allowed
    /// lists and pair filters (which name objects of one scene) do not. Nothing is remembered
    /// between calls.
    pub fn collide_scenes(
        &self,
        other: &Scene<V>,
        request: &CollisionRequest,
    ) -> Result<Vec<ObjectContact>, SceneError> {
        let candidates = self.pairs_across(other, 0.0);
        answer_all(&candidates, |&(a, b)| {
            let (oa, ob) = (self.object(a)?, other.object(b)?);
            collide(&oa.model, &oa.pose, &ob.model, &ob.pose, request)
                .map(|result| {
                    let touches = result.intersects;
                    touches.then_some(ObjectContact { a, b, result })
                })
                .map_err(|source| SceneError::Pair {
                    a: oa.name.clone(),
                    b: ob.name.clone(),
                    source,
                })
        })
    }
}
