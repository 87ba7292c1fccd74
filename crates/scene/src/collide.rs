//! Collision queries on a scene: all object pairs, one external object against the scene, and
//! two scenes against each other. Object pairs whose world bounds meet reach the exact query
//! ([`obbtree_query::collide`]); they run in parallel on rayon's pool, except that a query of
//! all pairs keeps them on the calling thread when fewer than `PARALLEL_PAIRS` need a query.

use crate::bounds::world_box;
use crate::coherence::{answer, Collide, CollisionRecord, PairQuery};
use crate::scene::{answer_all, QueryStats, Scene};
use crate::{ObjectId, SceneError};
use obbtree_bv::Pose;
use obbtree_query::{collide, CollisionRequest, CollisionResult, Model, PosedOverlap};
use rayon::prelude::*;

/// How many candidate pairs must need a query (not reuse their record) before a query of all
/// pairs runs them on rayon's pool. Handing work to the pool from a thread outside it and
/// waiting for it costs more than a few dozen pair queries of small meshes in a frame where
/// few objects moved (see `docs/performance.md`).
const PARALLEL_PAIRS: usize = 64;

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
        let found = self.query_all_pairs(&Collide(request))?;
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

    /// Runs `query` on every candidate pair ([`Scene::candidates`]), in parallel when enough
    /// need a query ([`PARALLEL_PAIRS`]), each answered from its record where possible; keeps
    /// the new records and returns the reported pairs sorted by names. On error, the error of
    /// the failing pair first by names, and the records stay as they were.
    pub(crate) fn query_all_pairs<Q: PairQuery<V>>(
        &mut self,
        query: &Q,
    ) -> Result<Vec<(ObjectId, ObjectId, Q::Answer)>, SceneError> {
        let candidates = self.candidates();
        let answer_pair = |&(a, b): &(ObjectId, ObjectId)| {
            let (oa, ob) = (self.object(a)?, self.object(b)?);
            let record = self.records.get(&(a, b)).and_then(|r| r.collision.as_ref());
            answer(query, oa, ob, record)
                .map(|(answer, how)| {
                    let before = record.map(|r| &r.learnt);
                    let learnt = query.learn(oa, ob, &answer, how, before);
                    (answer, how, [oa.stamp, ob.stamp], learnt)
                })
                .map_err(|source| SceneError::Pair {
                    a: oa.name.clone(),
                    b: ob.name.clone(),
                    source,
                })
        };
        let answers: Vec<_> = if self.worth_threads(&candidates) {
            candidates.par_iter().map(answer_pair).collect()
        } else {
            candidates.iter().map(answer_pair).collect()
        };
        let answers = self.first_error_by_names(&candidates, answers)?;
        let mut stats = QueryStats::default();
        let mut found = Vec::new();
        // The collision part of every record is replaced: the pairs checked now keep theirs.
        for record in self.records.values_mut() {
            record.collision = None;
        }
        for ((a, b), (answer, how, stamps, learnt)) in candidates.into_iter().zip(answers) {
            stats.count(how);
            let record = self.records.entry((a, b)).or_default();
            record.collision = Some(CollisionRecord { stamps, learnt });
            if query.reports(&answer) {
                found.push((a, b, answer));
            }
        }
        self.records.retain(|_, record| !record.is_empty());
        self.stats = stats;
        found.sort_unstable_by(|x, y| self.by_names((x.0, x.1), (y.0, y.1)));
        Ok(found)
    }

    /// The answers, or the error of the failing pair first by names.
    fn first_error_by_names<T>(
        &self,
        candidates: &[(ObjectId, ObjectId)],
        answers: Vec<Result<T, SceneError>>,
    ) -> Result<Vec<T>, SceneError> {
        if answers.iter().all(Result::is_ok) {
            return Ok(answers.into_iter().flatten().collect());
        }
        let (_, error) = candidates
            .iter()
            .zip(answers)
            .filter_map(|(&pair, answer)| answer.err().map(|error| (pair, error)))
            .min_by(|x, y| self.by_names(x.0, y.0))
            .expect("a failing pair");
        Err(error)
    }

    /// Whether enough candidate pairs need more than their record's answer to be worth
    /// handing to rayon's pool ([`PARALLEL_PAIRS`]).
    fn worth_threads(&self, candidates: &[(ObjectId, ObjectId)]) -> bool {
        let stale = |&&(a, b): &&(ObjectId, ObjectId)| match (
            self.get(a),
            self.get(b),
            self.records.get(&(a, b)).and_then(|r| r.collision.as_ref()),
        ) {
            (Some(oa), Some(ob), Some(record)) => !record.is_current(oa, ob),
            _ => true,
        };
        candidates.iter().filter(stale).count() >= PARALLEL_PAIRS
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
