//! The first contact of one object of a scene moving to a new pose: [`Scene::sweep`].

use crate::bounds::world_box;
use crate::driver::answer_all;
use crate::{ObjectId, Scene, SceneError};
use obbtree_bv::{Aabb, Motion, Pose, Vector};
use obbtree_query::{collide_motion, Model, MotionRequest, MotionResult, PosedOverlap};
use obbtree_tree::TreeVolume;

/// The first object a moving object meets ([`Scene::sweep`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepHit {
    /// The object met.
    pub object: ObjectId,
    /// The continuous query's answer on the pair: `toi`, the feature pair `[triangle of the
    /// object met, triangle of the moving object]`, exactness and tolerance.
    pub result: MotionResult,
}

impl<V: PosedOverlap + TreeVolume> Scene<V> {
    /// The first contact of object `id` moving from its pose to `to` (a [`Motion`]: linear
    /// translation, constant angular velocity) with the other objects, which stay put: the
    /// object met first, by the lower end of its contact interval (the first by name among
    /// equal ones), with [`collide_motion`]'s guarantees on each pair; `None` when the motion
    /// is free. The groups, the allowed list and the pair filter apply as in
    /// [`collide_all`](Self::collide_all). The scene does not change: move the object with
    /// [`set_pose`](Self::set_pose) to the pose you choose.
    ///
    /// The candidates are the objects whose world boxes meet the box swept by the moving
    /// object: its boxes at both ends, grown by how far a rotation can carry a point off the
    /// straight path between them (at most the angle times its distance from the object's
    /// origin).
    pub fn sweep(
        &self,
        id: ObjectId,
        to: &Pose,
        request: &MotionRequest,
    ) -> Result<Option<SweepHit>, SceneError> {
        let moving = self.object(id)?;
        let motion = Motion::new(moving.pose, *to);
        let swept = swept_box(&moving.model, &motion);
        let candidates: Vec<ObjectId> = self
            .objects_meeting(&swept)
            .into_iter()
            .filter(|&other| other != id && self.admitted(id, other).is_some())
            .collect();
        let hits = answer_all(&candidates, |&other| {
            let still = self.object(other)?;
            collide_motion(&still.model, &still.pose, &moving.model, &motion, request)
                .map(|result| {
                    result.hit.then_some(SweepHit {
                        object: other,
                        result,
                    })
                })
                .map_err(|source| SceneError::Pair {
                    a: still.name.clone(),
                    b: moving.name.clone(),
                    source,
                })
        })?;
        let lower = |hit: &SweepHit| hit.result.toi.map_or(f64::INFINITY, |[lo, _]| lo);
        Ok(hits
            .into_iter()
            .min_by(|x, y| lower(x).total_cmp(&lower(y))))
    }
}

/// A box around every place `model` takes along `motion`: its world boxes at both ends, whose
/// union holds the straight path between them, grown by `θ·r`, a bound on how far the
/// rotation carries a point at distance `r` from the origin off that path.
fn swept_box<V: TreeVolume>(model: &Model<V>, motion: &Motion) -> Aabb {
    let [start, end] = [motion.start(), motion.end()].map(|pose| world_box(model, pose));
    let union = Aabb::new(start.mins.inf(&end.mins), start.maxs.sup(&end.maxs));
    let bounds = model.bounds();
    let reach = bounds
        .corners()
        .iter()
        .map(|c| c.coords.norm())
        .fold(0.0, f64::max);
    let grow = Vector::repeat(motion.angle() * reach);
    Aabb::new(union.mins - grow, union.maxs + grow)
}
