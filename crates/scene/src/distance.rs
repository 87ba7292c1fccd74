//! Distance queries on a scene: every admitted object pair within a margin, and the closest
//! admitted object pair. Both take their candidates from the broad phase's boxes, which are
//! lower bounds for the meshes' distance, and answer each candidate with the exact two-mesh
//! queries ([`obbtree_query::within_margin`], [`obbtree_query::distance`]).
//!
//! The closest pair walks object pairs in increasing order of the gap between their boxes and
//! stops as soon as the gap exceeds the best distance found (the best-first search of
//! Hjaltason & Samet, "Distance browsing in spatial databases" (1999), on the dynamic tree), so
//! far-apart objects are never measured.

use crate::bounds::{meet, world_box};
use crate::coherence::{Answered, PairRecord};
use crate::driver::{answer_all, closest_of, PairQuery};
use crate::object::Object;
use crate::scene::{ordered, QueryStats, Scene};
use crate::{ObjectId, SceneError};
use obbtree_bv::{Aabb, Point, Pose, Vector};
use obbtree_query::{
    distance, within_margin, DistanceRequest, DistanceResult, Model, PosedOverlap, QueryError,
};

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

impl ObjectDistance {
    /// Objects `a` and `b` at the two-model answer `result` (`a` as A).
    fn of(a: ObjectId, b: ObjectId, result: &DistanceResult) -> Self {
        Self {
            a,
            b,
            distance: result.distance,
            pair: result.pair,
            point_a: result.point_a,
            point_b: result.point_b,
        }
    }
}

/// What the distance queries learnt about an object pair, at the pose stamps it holds for:
/// while neither object moves, the answers themselves; after a motion, the closest triangle
/// pair as the next measurement's hint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DistanceRecord {
    stamps: [u64; 2],
    /// The pair's distance, closest triangles and points at these stamps, if measured.
    measured: Option<ObjectDistance>,
    /// The last margin decided at these stamps, and whether the pair was within it.
    decided: Option<(f64, bool)>,
    /// The closest triangle pair last measured, at these stamps or earlier ones.
    hint: Option<[u32; 2]>,
}

impl DistanceRecord {
    /// The record carried to the stamps `stamps`: the answers only if neither object moved,
    /// the hint in any case.
    fn at(record: Option<&DistanceRecord>, stamps: [u64; 2]) -> DistanceRecord {
        match record {
            Some(r) if r.stamps == stamps => *r,
            _ => DistanceRecord {
                stamps,
                measured: None,
                decided: None,
                hint: record.and_then(|r| r.hint),
            },
        }
    }
}

/// The answer of the last [`Scene::min_distance_within`] walk, and the scene's change count and
/// the limit it was found at: while nothing in the scene changes (no object moved, came or
/// went, and no filter or allowed pair changed), the same limit has the same answer, and an
/// idle frame need not walk the broad phase again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LastClosest {
    changes: u64,
    limit: f64,
    found: Option<ObjectDistance>,
    stats: QueryStats,
}

impl LastClosest {
    /// Whether this answer holds for a walk at `limit` after `changes` changes.
    fn holds(&self, changes: u64, limit: f64) -> bool {
        self.changes == changes && self.limit.to_bits() == limit.to_bits()
    }
}

/// A pair's answer and what to remember of it.
type Learnt<T> = (T, DistanceRecord, Answered);

/// The exact margin decision on a pair of the scene's objects, then its measurement
/// ([`Scene::within_margin_all`]).
struct WithinMargin(f64);

impl<V: PosedOverlap> PairQuery<V> for WithinMargin {
    type Answer = Option<ObjectDistance>;
    type Part = DistanceRecord;

    fn part(record: &PairRecord) -> Option<&DistanceRecord> {
        record.distance.as_ref()
    }

    fn part_mut(record: &mut PairRecord) -> &mut Option<DistanceRecord> {
        &mut record.distance
    }

    const FORGETS_UNCHECKED: bool = false;

    fn is_current(&self, part: &DistanceRecord, a: &Object<V>, b: &Object<V>) -> bool {
        part.stamps == [a.stamp, b.stamp] && part.decided.is_some_and(|(m, _)| m == self.0)
    }

    fn answer(
        &self,
        scene: &Scene<V>,
        (a, b): (ObjectId, ObjectId),
        part: Option<&DistanceRecord>,
    ) -> Result<(Option<ObjectDistance>, Answered, DistanceRecord), SceneError> {
        let (found, record, how) = scene.pair_within_from(a, b, self.0, part)?;
        Ok((found, how, record))
    }

    fn reports(&self, found: &Option<ObjectDistance>) -> bool {
        found.is_some()
    }
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
    ///
    /// Coherence: a pair neither of whose objects moved since it was last decided at the same
    /// margin, or measured, takes that answer; a moved pair's distance is measured from its
    /// last closest triangle pair ([`DistanceRequest::hint`]). The decisions are exact either
    /// way; the distances meet the guarantee of [`obbtree_query::distance`] either way.
    pub fn within_margin_all(&mut self, margin: f64) -> Result<Vec<ObjectDistance>, SceneError> {
        check_margin(margin)?;
        let candidates = self.candidates_within(margin);
        let found = self.query_pairs(&WithinMargin(margin), candidates)?;
        Ok(found.into_iter().filter_map(|(.., found)| found).collect())
    }

    /// The closest admitted pair of objects (filters as in
    /// [`within_margin_all`](Self::within_margin_all)), with its distance, closest triangles and
    /// points; among pairs at the same distance, the first by names. `None` when no pair is
    /// admitted. Pairs are measured in increasing order of the gap between their bounds, and
    /// the walk stops when the gap exceeds the best distance found.
    ///
    /// Once a distance is known (the last closest pair, measured first, or the best so far),
    /// every further pair is first decided exactly against it ([`obbtree_query::within_margin`]),
    /// which prunes far more than a distance query does before it has found the distance, and
    /// measured only if it is as close.
    ///
    /// Coherence: the walk starts from the last closest pair, so that it skips every pair
    /// whose gap exceeds that distance; pairs measured or decided before take their answer if
    /// neither object moved, and start from their last closest triangle pair otherwise (see
    /// [`within_margin_all`](Self::within_margin_all)).
    pub fn min_distance(&mut self) -> Result<Option<ObjectDistance>, SceneError> {
        self.min_distance_within(f64::INFINITY)
    }

    /// [`min_distance`](Self::min_distance) among the pairs at most `limit` apart: the closest
    /// admitted pair if its distance is at most `limit`, else `None`. Pairs whose bounds are
    /// further apart than `limit` are never measured, so a small limit is cheap. An error
    /// ([`QueryError::InvalidMargin`]) when `limit` is negative or NaN (it may be infinite).
    pub fn min_distance_within(
        &mut self,
        limit: f64,
    ) -> Result<Option<ObjectDistance>, SceneError> {
        check_limit(limit)?;
        if let Some(last) = self
            .last_closest
            .filter(|last| last.holds(self.changes, limit))
        {
            // Nothing changed since the last walk at this limit: its answer stands.
            self.stats = QueryStats {
                candidates: last.stats.candidates,
                reused: last.stats.candidates,
                ..QueryStats::default()
            };
            return Ok(last.found);
        }
        let start = self.measure_last_closest(limit);
        let mut learnt = Vec::new();
        let initial = start.as_ref().map(|(found, ..)| *found);
        let best = closest_of(
            |bound, visit| self.tree.nearest_pairs(bound, |a, b, _| visit((a, b))),
            limit,
            initial,
            |(a, b), bound| {
                let Some((a, b)) = self.admitted(ObjectId(a), ObjectId(b)) else {
                    return Ok(None);
                };
                if initial.is_some_and(|d| (d.a, d.b) == (a, b)) {
                    return Ok(None);
                }
                let (found, record, how) = self.measure_within(a, b, bound)?;
                learnt.push(((a, b), record, how));
                Ok(found)
            },
            |found| found.distance,
            |x, y| self.nearer(x, y),
        )?;
        let mut stats = QueryStats::default();
        for (pair, record, how) in start
            .map(|(found, r, how)| ((found.a, found.b), r, how))
            .into_iter()
            .chain(learnt)
        {
            stats.count(how);
            self.remember_distance(pair, record);
        }
        self.stats = stats;
        self.closest = best.map(|d| (d.a, d.b));
        self.last_closest = Some(LastClosest {
            changes: self.changes,
            limit,
            found: best,
            stats,
        });
        Ok(best)
    }

    /// The last closest pair measured again, if it is still admitted and at most `limit`
    /// apart; a pair that fails is left to the walk, which reports the failure if it reaches
    /// the pair.
    fn measure_last_closest(&self, limit: f64) -> Option<Learnt<ObjectDistance>> {
        let (a, b) = self.closest?;
        let (a, b) = self.admitted(a, b)?;
        let (found, record, how) = self.measure_within(a, b, limit).ok()?;
        Some((found?, record, how))
    }

    /// The pair's distance if it is at most `bound`: with a finite bound, decided first by
    /// the exact margin query, which prunes far more than a distance query can before it
    /// has found the distance (so a pair beyond the bound costs little); measured then.
    fn measure_within(
        &self,
        a: ObjectId,
        b: ObjectId,
        bound: f64,
    ) -> Result<Learnt<Option<ObjectDistance>>, SceneError> {
        match bound.is_finite() {
            true => self.pair_within(a, b, bound),
            false => self
                .measure(a, b)
                .map(|(found, record, how)| (Some(found), record, how)),
        }
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

    /// The pair's distance if it is at most `margin`, decided exactly: the last decision at
    /// this margin if neither object moved, else the exact margin query; then measured.
    fn pair_within(
        &self,
        a: ObjectId,
        b: ObjectId,
        margin: f64,
    ) -> Result<Learnt<Option<ObjectDistance>>, SceneError> {
        self.pair_within_from(a, b, margin, self.distance_record(a, b))
    }

    /// [`pair_within`](Self::pair_within) from the pair's distance record `known`.
    fn pair_within_from(
        &self,
        a: ObjectId,
        b: ObjectId,
        margin: f64,
        known: Option<&DistanceRecord>,
    ) -> Result<Learnt<Option<ObjectDistance>>, SceneError> {
        let (oa, ob) = (self.object(a)?, self.object(b)?);
        let mut record = DistanceRecord::at(known, [oa.stamp, ob.stamp]);
        let decided = record
            .decided
            .filter(|&(m, _)| m == margin)
            .map(|(_, within)| within);
        let (within, decided_how) = match decided {
            Some(within) => (within, Answered::Reused),
            None => {
                let witness = within_margin(&oa.model, &oa.pose, &ob.model, &ob.pose, margin)
                    .map_err(|source| self.pair_error(a, b, source))?;
                (witness.is_some(), Answered::Queried)
            }
        };
        record.decided = Some((margin, within));
        if !within {
            return Ok((None, record, decided_how));
        }
        let (found, measured, how) = self.measure_from(a, b, record)?;
        // A pair decided afresh but measured before counts as queried; one measured now counts
        // as its measurement does (hinted or queried).
        let how = match (decided_how, how) {
            (Answered::Queried, Answered::Reused) => Answered::Queried,
            (_, how) => how,
        };
        Ok((Some(found), measured, how))
    }

    /// The pair's distance, closest triangles and points, from its record.
    fn measure(&self, a: ObjectId, b: ObjectId) -> Result<Learnt<ObjectDistance>, SceneError> {
        let (oa, ob) = (self.object(a)?, self.object(b)?);
        let record = DistanceRecord::at(self.distance_record(a, b), [oa.stamp, ob.stamp]);
        self.measure_from(a, b, record)
    }

    /// The pair's distance: the record's if it has one at the current stamps, else the exact
    /// query seeded with the record's hint.
    fn measure_from(
        &self,
        a: ObjectId,
        b: ObjectId,
        record: DistanceRecord,
    ) -> Result<Learnt<ObjectDistance>, SceneError> {
        if let Some(found) = record.measured {
            return Ok((found, record, Answered::Reused));
        }
        let (oa, ob) = (self.object(a)?, self.object(b)?);
        let request = DistanceRequest::default().with_hint(record.hint);
        let result = distance(&oa.model, &oa.pose, &ob.model, &ob.pose, &request)
            .map_err(|source| self.pair_error(a, b, source))?;
        let found = ObjectDistance::of(a, b, &result);
        let how = match record.hint {
            Some(_) => Answered::Hinted,
            None => Answered::Queried,
        };
        let record = DistanceRecord {
            measured: Some(found),
            hint: Some(found.pair),
            ..record
        };
        Ok((found, record, how))
    }

    /// What the distance queries learnt about the pair `(a, b)` (ordered by name), if anything.
    fn distance_record(&self, a: ObjectId, b: ObjectId) -> Option<&DistanceRecord> {
        self.records.get(&(a, b)).and_then(|r| r.distance.as_ref())
    }

    /// Keeps `record` as what the distance queries learnt about `pair`.
    fn remember_distance(&mut self, pair: (ObjectId, ObjectId), record: DistanceRecord) {
        self.records.entry(pair).or_default().distance = Some(record);
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

impl<V: PosedOverlap> Scene<V> {
    /// The object nearest `model` at `pose`, if one is at most `limit` away (`f64::INFINITY`:
    /// any), with the two-model answer (the model as A, the object as B); among objects at the
    /// same distance, the first by name. The groups, allowed list and pair filter do not apply
    /// (the model is not an object of the scene), as in [`collide_with`](Self::collide_with).
    /// Objects are measured in increasing order of the gap between their bounds and the model's,
    /// through the same closest-pair driver as [`min_distance`](Self::min_distance). Nothing is
    /// remembered between calls. An error ([`QueryError::InvalidMargin`]) when `limit` is
    /// negative or NaN; otherwise the first failing object's.
    pub fn min_distance_to(
        &self,
        model: &Model<V>,
        pose: &Pose,
        limit: f64,
    ) -> Result<Option<ExternalDistance>, SceneError> {
        check_limit(limit)?;
        let bounds = world_box(model, pose);
        closest_of(
            |bound, visit| {
                self.tree
                    .nearest_to_aabb(&bounds, bound, |id, _| visit(ObjectId(id)))
            },
            limit,
            None,
            |id, bound| self.external_within(model, pose, id, bound),
            |found| found.result.distance,
            |x, y| {
                (x.result.distance, self.name(x.object)) < (y.result.distance, self.name(y.object))
            },
        )
    }

    /// The object nearest the scene's object `id`, if one is at most `limit` away, as the
    /// ordered pair (first by name) with its distance, closest triangles and points; the
    /// filters apply as in [`min_distance`](Self::min_distance) (groups, allowed pairs, the
    /// pair filter). Among objects at the same distance, the first pair by names. Through the
    /// same closest-pair driver, over the objects nearest `id`'s bounds; each pair is measured
    /// as [`min_distance`](Self::min_distance) measures it (its recorded answer while neither
    /// object moved, else from its last closest triangles), and nothing new is remembered.
    pub fn min_distance_from(
        &self,
        id: ObjectId,
        limit: f64,
    ) -> Result<Option<ObjectDistance>, SceneError> {
        check_limit(limit)?;
        self.object(id)?;
        let bounds = *self.bounds(id).ok_or(SceneError::UnknownObject(id))?;
        closest_of(
            |bound, visit| {
                self.tree
                    .nearest_to_aabb(&bounds, bound, |other, _| visit(ObjectId(other)))
            },
            limit,
            None,
            |other, bound| match (other != id).then(|| self.admitted(id, other)).flatten() {
                Some((a, b)) => self.measure_within(a, b, bound).map(|(found, ..)| found),
                None => Ok(None),
            },
            |found| found.distance,
            |x, y| self.nearer(x, y),
        )
    }

    /// Every object at most `margin` from `model` at `pose`, sorted by name, with the two-model
    /// answer (the model as A). Decided exactly ([`obbtree_query::within_margin`]), then
    /// measured. Filters and memory as in [`min_distance_to`](Self::min_distance_to).
    pub fn within_margin_of(
        &self,
        model: &Model<V>,
        pose: &Pose,
        margin: f64,
    ) -> Result<Vec<ExternalDistance>, SceneError> {
        check_margin(margin)?;
        let near = self.objects_meeting(&grow(&world_box(model, pose), margin));
        answer_all(&near, |&id| self.external_within(model, pose, id, margin))
    }

    /// The closest pair of an object of this scene (`a`) and an object of `other` (`b`), if one
    /// is at most `limit` apart; among pairs at the same distance, the first by (name of `a`,
    /// name of `b`). The groups apply across the scenes; the allowed lists and pair filters do
    /// not, as in [`collide_scenes`](Self::collide_scenes). Points are in the world frame.
    /// Nothing is remembered between calls.
    pub fn min_distance_scenes(
        &self,
        other: &Scene<V>,
        limit: f64,
    ) -> Result<Option<ObjectDistance>, SceneError> {
        check_limit(limit)?;
        closest_of(
            |bound, visit| {
                self.tree.nearest_pairs_with(&other.tree, bound, |a, b, _| {
                    visit((ObjectId(a), ObjectId(b)))
                })
            },
            limit,
            None,
            |(a, b), bound| self.across(other, a, b, bound),
            |found| found.distance,
            |x, y| {
                let key = |d: &ObjectDistance| (d.distance, self.name(d.a), other.name(d.b));
                key(x) < key(y)
            },
        )
    }

    /// Every pair of an object of this scene and an object of `other` at most `margin` apart,
    /// sorted by (name of `a`, name of `b`). Filters as in
    /// [`min_distance_scenes`](Self::min_distance_scenes).
    pub fn within_margin_scenes(
        &self,
        other: &Scene<V>,
        margin: f64,
    ) -> Result<Vec<ObjectDistance>, SceneError> {
        check_margin(margin)?;
        let near = self.pairs_across(other, margin);
        answer_all(&near, |&(a, b)| self.across(other, a, b, margin))
    }

    /// The distance between `model` at `pose` and the object `id` if it is at most `bound`.
    fn external_within(
        &self,
        model: &Model<V>,
        pose: &Pose,
        id: ObjectId,
        bound: f64,
    ) -> Result<Option<ExternalDistance>, SceneError> {
        let object = self.object(id)?;
        distance_within((model, pose), (&object.model, &object.pose), bound, None)
            .map(|found| found.map(|result| ExternalDistance { object: id, result }))
            .map_err(|source| SceneError::Object {
                name: object.name.clone(),
                source,
            })
    }

    /// The distance between object `a` of this scene and `b` of `other` if their groups admit
    /// the pair and it is at most `bound`.
    fn across(
        &self,
        other: &Scene<V>,
        a: ObjectId,
        b: ObjectId,
        bound: f64,
    ) -> Result<Option<ObjectDistance>, SceneError> {
        let (oa, ob) = (self.object(a)?, other.object(b)?);
        if !oa.filter.admits(&ob.filter) {
            return Ok(None);
        }
        let found = distance_within((&oa.model, &oa.pose), (&ob.model, &ob.pose), bound, None)
            .map_err(|source| SceneError::Pair {
                a: oa.name.clone(),
                b: ob.name.clone(),
                source,
            })?;
        Ok(found.map(|r| ObjectDistance::of(a, b, &r)))
    }
}

/// An object of a scene and its distance to a model outside it ([`Scene::min_distance_to`],
/// [`Scene::within_margin_of`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalDistance {
    /// The object.
    pub object: ObjectId,
    /// The two-model answer with the external model as A and the object as B: the distance,
    /// the closest triangle pair `[triangle of the model, triangle of the object]` and the
    /// closest points in the world frame.
    pub result: DistanceResult,
}

/// A limit of a closest-pair query: non-negative, possibly infinite; else
/// [`QueryError::InvalidMargin`].
fn check_limit(limit: f64) -> Result<(), SceneError> {
    match limit.is_nan() || limit < 0.0 {
        true => Err(QueryError::InvalidMargin(limit).into()),
        false => Ok(()),
    }
}

/// A margin of a query of the pairs within it: non-negative and finite; else
/// [`QueryError::InvalidMargin`].
fn check_margin(margin: f64) -> Result<(), SceneError> {
    match margin.is_finite() && margin >= 0.0 {
        true => Ok(()),
        false => Err(QueryError::InvalidMargin(margin).into()),
    }
}

/// The distance between two posed models if it is at most `bound`: with a finite bound,
/// decided first by the exact margin query, which prunes far more than a distance query can
/// before it has found the distance; measured then (from `hint`, a triangle pair).
fn distance_within<V: PosedOverlap>(
    (a, pose_a): (&Model<V>, &Pose),
    (b, pose_b): (&Model<V>, &Pose),
    bound: f64,
    hint: Option<[u32; 2]>,
) -> Result<Option<DistanceResult>, QueryError> {
    if bound.is_finite() && within_margin(a, pose_a, b, pose_b, bound)?.is_none() {
        return Ok(None);
    }
    let request = DistanceRequest::default().with_hint(hint);
    distance(a, pose_a, b, pose_b, &request).map(Some)
}

/// `bounds` grown by `margin` on every side, rounded outwards: the margin is enlarged by a few
/// units of its own rounding (the coordinates' rounding is covered by the bounds' padding,
/// `bounds.rs`), so a mesh within `margin` of the object lies inside.
pub(crate) fn grow(bounds: &Aabb, margin: f64) -> Aabb {
    let pad = Vector::repeat(margin * (1.0 + 4.0 * f64::EPSILON));
    Aabb::new(bounds.mins - pad, bounds.maxs + pad)
}
