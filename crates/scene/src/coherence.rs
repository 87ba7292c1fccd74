//! Temporal coherence: what a query learnt about an object pair, and how the next query uses
//! it.
//!
//! Each record is keyed by the pose stamps of its two objects (a stamp changes whenever an
//! object's pose does), so it can only be used as the answer while neither object has moved:
//! then the answer is reused outright, which is where a frame in which most objects stand
//! still wins (a manager that re-tests every touching pair re-tests them all). For a moved
//! pair, a [`Mode::First`] query first tests the last witness triangle pair again, exactly: a
//! touching pair usually stays touching at the same triangles over a small motion (Lin &
//! Canny's "coherence" of closest features, 1991, applied to the witness of intersection). A
//! moved pair found disjoint last time first checks the plane that separated it then
//! ([`separation`](obbtree_query::separation)): still separating, the pair is still disjoint.
//!
//! Every shortcut gives the answer the full query would give: reuse is keyed on the exact
//! poses, and the witness is tested by the exact triangle test on the triangles placed the
//! way the query places them (B in A's frame by `pose_a⁻¹ · pose_b`), after the same range
//! check. The one freedom is which witness a [`Mode::First`] answer names (any intersecting
//! pair is a witness; the full query names the first its traversal meets).
//!
//! The collision query of all pairs is a [`PairQuery`], run by the scene's driver of every
//! candidate (`driver.rs`). Each object pair has one [`PairRecord`], holding what the
//! collision queries and the distance queries learnt about it: the collision part is replaced
//! by every query of all pairs (which keeps only the pairs it checked), the distance part
//! (`distance.rs`) outlives it, since the closest-pair walk measures pairs best first and stops
//! early rather than answering every candidate.

use crate::distance::DistanceRecord;
use crate::driver::PairQuery;
use crate::object::Object;
use crate::scene::Scene;
use crate::{ObjectId, SceneError};
use obbtree_bv::intersect::{tri_tri_exact, tri_tri_segment};
use obbtree_bv::{Aabb, Point, Pose, Triangle, Vector, MAX_COORDINATE};
use obbtree_query::separation::{separates, separating_normal};
use obbtree_query::{
    collide, CollisionRequest, CollisionResult, Containment, Mode, Model, PosedOverlap, QueryError,
};

/// Everything the scene's queries learnt about one object pair, in one record of one map
/// ([`Scene::records`](crate::Scene)): what the last collision query of all pairs learnt, and
/// what the distance queries learnt. A record with neither is dropped.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairRecord {
    /// The last [`collide_all`](crate::Scene::collide_all)'s answer on the pair, if that query
    /// checked it.
    pub(crate) collision: Option<CollisionRecord>,
    /// The distance queries' answers and hint.
    pub(crate) distance: Option<DistanceRecord>,
}

impl PairRecord {
    /// Whether the record holds nothing any more.
    pub(crate) fn is_empty(&self) -> bool {
        self.collision.is_none() && self.distance.is_none()
    }
}

/// What a collision query learnt about a pair, with the pose stamps it holds for.
#[derive(Clone, Debug)]
pub(crate) struct CollisionRecord {
    pub(crate) stamps: [u64; 2],
    pub(crate) learnt: Learnt,
}

impl CollisionRecord {
    /// Whether the record was made at the objects' current poses (neither has moved since).
    pub(crate) fn is_current<V>(&self, a: &Object<V>, b: &Object<V>) -> bool {
        self.stamps == [a.stamp, b.stamp]
    }
}

/// The answers a pair record can hold: one kind per query of all pairs.
#[derive(Clone, Debug)]
pub(crate) enum Learnt {
    /// A collision query's request and answer, and for a disjoint pair what is known of a
    /// separating plane.
    Collision {
        request: CollisionRequest,
        result: CollisionResult,
        separation: Separation,
    },
}

/// A separating plane's normal (in A's frame) for a disjoint pair, or how many more full
/// queries to run before looking for one again.
///
/// A search costs about as much as the full query it follows (the convex hulls' GJK against
/// the descent), and a plane repays it only by answering queries in place of the descent. A
/// search is therefore wasted when it fails (the hulls overlap) and when the plane it finds
/// fails before it has answered [`Separation::PAYING_HOLDS`] queries (the objects moved too far
/// between queries: random configurations, not a motion). After either the pair waits 1, 3, 7,
/// then 15 full queries before the next search; a plane that answers that many queries ends
/// the waiting. So the search pays where motion is coherent and costs a sixteenth of itself
/// where it is not.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Separation {
    normal: Option<Vector>,
    /// Queries the plane has answered since the search found it (saturating).
    holds: u8,
    /// Full queries to skip the search for.
    wait: u8,
    /// The wait after the last wasted search (doubles after each, up to 15).
    backoff: u8,
}

impl Separation {
    /// A pair met for the first time waits three full queries before the search: a pair whose
    /// boxes meet for a frame or two (an object set down elsewhere, then moved on; a pair of
    /// links that random configurations bring near now and then) never pays for it, and a
    /// pair that stays near is searched from its fourth query on. A pair whose boxes part
    /// loses its record, waiting included, so this is also the wait of pairs that meet again.
    const FIRST_SIGHT: Self = Self {
        normal: None,
        holds: 0,
        wait: 3,
        backoff: 0,
    };

    /// Queries a plane must answer to repay its search (see the type's docs).
    const PAYING_HOLDS: u8 = 2;

    /// The plane answered a query; once it has answered enough to repay its search, the
    /// waiting ends.
    fn held(self) -> Self {
        let holds = self.holds.saturating_add(1);
        Self {
            holds,
            backoff: if holds >= Self::PAYING_HOLDS {
                0
            } else {
                self.backoff
            },
            ..self
        }
    }

    /// The pair touches: no plane, the waiting unchanged.
    fn touching(self) -> Self {
        Self {
            normal: None,
            holds: 0,
            ..self
        }
    }

    /// Before the search that follows a full query of a disjoint pair: a plane that failed
    /// before repaying its search counts as a wasted search.
    fn after_full_query(self) -> Self {
        match self.normal {
            Some(_) if self.holds < Self::PAYING_HOLDS => self.wasted(),
            _ => self,
        }
    }

    /// A wasted search: no plane, and a longer wait.
    fn wasted(self) -> Self {
        let backoff = (self.backoff * 2 + 1).min(15);
        Self {
            normal: None,
            holds: 0,
            wait: backoff,
            backoff,
        }
    }
}

/// How a pair was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answered {
    /// The last answer, neither object having moved.
    Reused,
    /// The last witness, tested again.
    Witnessed,
    /// The last separating plane, checked again.
    Separated,
    /// The distance query, seeded with the last closest triangle pair.
    Hinted,
    /// The full exact query.
    Queried,
}

/// [`collide`] on an object pair.
pub(crate) struct Collide<'a>(pub(crate) &'a CollisionRequest);

impl<V: PosedOverlap> PairQuery<V> for Collide<'_> {
    type Answer = CollisionResult;
    type Part = CollisionRecord;

    fn part(record: &PairRecord) -> Option<&CollisionRecord> {
        record.collision.as_ref()
    }

    fn part_mut(record: &mut PairRecord) -> &mut Option<CollisionRecord> {
        &mut record.collision
    }

    const FORGETS_UNCHECKED: bool = true;

    fn is_current(&self, part: &CollisionRecord, a: &Object<V>, b: &Object<V>) -> bool {
        part.is_current(a, b)
    }

    /// Reuse, shortcut or full query, in that order.
    fn answer(
        &self,
        scene: &Scene<V>,
        (a, b): (ObjectId, ObjectId),
        part: Option<&CollisionRecord>,
    ) -> Result<(CollisionResult, Answered, CollisionRecord), SceneError> {
        let (oa, ob) = (scene.object(a)?, scene.object(b)?);
        let (answer, how) = self
            .reuse_or_shortcut(oa, ob, part)
            .map_or_else(|| self.run(oa, ob).map(|r| (r, Answered::Queried)), Ok)
            .map_err(|source| SceneError::Pair {
                a: oa.name.clone(),
                b: ob.name.clone(),
                source,
            })?;
        let learnt = self.learn(oa, ob, &answer, how, part.map(|r| &r.learnt));
        let stamps = [oa.stamp, ob.stamp];
        Ok((answer, how, CollisionRecord { stamps, learnt }))
    }

    fn reports(&self, answer: &CollisionResult) -> bool {
        answer.intersects
    }
}

impl Collide<'_> {
    /// The record's answer if neither object moved, else a shortcut's, if either applies.
    fn reuse_or_shortcut<V: PosedOverlap>(
        &self,
        a: &Object<V>,
        b: &Object<V>,
        record: Option<&CollisionRecord>,
    ) -> Option<(CollisionResult, Answered)> {
        let record = record?;
        let reused = record
            .is_current(a, b)
            .then(|| self.reuse(&record.learnt))
            .flatten();
        match reused {
            Some(answer) => Some((answer, Answered::Reused)),
            None => self.shortcut(a, b, &record.learnt),
        }
    }

    /// The last answer, if it answers this request (neither object moved since).
    fn reuse(&self, learnt: &Learnt) -> Option<CollisionResult> {
        let Learnt::Collision {
            request, result, ..
        } = learnt;
        (request == self.0).then(|| result.clone())
    }

    /// An answer from the last one for objects that moved, if a cheap exact test gives it,
    /// and which test it was.
    fn shortcut<V: PosedOverlap>(
        &self,
        a: &Object<V>,
        b: &Object<V>,
        learnt: &Learnt,
    ) -> Option<(CollisionResult, Answered)> {
        let Learnt::Collision {
            result, separation, ..
        } = learnt;
        if !result.intersects {
            return still_separated(self.0, a, b, separation.normal.as_ref()?)
                .map(|answer| (answer, Answered::Separated));
        }
        if self.0.mode != Mode::First {
            return None;
        }
        let witness = *result.pairs.first()?;
        witness_holds(&a.model, &a.pose, &b.model, &b.pose, witness)
            .map(|witness| (witness_result(self.0, witness), Answered::Witnessed))
    }

    /// The full exact query.
    fn run<V: PosedOverlap>(
        &self,
        a: &Object<V>,
        b: &Object<V>,
    ) -> Result<CollisionResult, QueryError> {
        collide(&a.model, &a.pose, &b.model, &b.pose, self.0)
    }

    /// What to keep of an answer for the next query, given how it was answered and what was
    /// known before.
    fn learn<V: PosedOverlap>(
        &self,
        a: &Object<V>,
        b: &Object<V>,
        answer: &CollisionResult,
        how: Answered,
        before: Option<&Learnt>,
    ) -> Learnt {
        let known = before.map_or(
            Separation::FIRST_SIGHT,
            |Learnt::Collision { separation, .. }| *separation,
        );
        let separation = match how {
            Answered::Queried if !answer.intersects && !self.0.containment => {
                search_separation(a, b, known.after_full_query())
            }
            Answered::Queried | Answered::Witnessed if answer.intersects => known.touching(),
            Answered::Separated => known.held(),
            _ => known,
        };
        Learnt::Collision {
            request: *self.0,
            result: answer.clone(),
            separation,
        }
    }
}

/// The empty answer of a pair that the plane of normal `n` still separates, if it does (and
/// the query asks nothing that needs more than "disjoint": containment would).
fn still_separated<V: PosedOverlap>(
    request: &CollisionRequest,
    a: &Object<V>,
    b: &Object<V>,
    n: &Vector,
) -> Option<CollisionResult> {
    let holds = !request.containment
        && placed_in_range(b.model.bounds(), &a.pose.inv_mul(&b.pose))
        && separates(&a.model, &a.pose, &b.model, &b.pose, n);
    holds.then(CollisionResult::default)
}

/// Looks for a separating plane of a pair just found disjoint, starting from the last one
/// known, unless the pair is still waiting (see [`Separation`]).
fn search_separation<V: PosedOverlap>(
    a: &Object<V>,
    b: &Object<V>,
    known: Separation,
) -> Separation {
    if known.wait > 0 {
        return Separation {
            normal: None,
            holds: 0,
            wait: known.wait - 1,
            ..known
        };
    }
    match separating_normal(&a.model, &a.pose, &b.model, &b.pose, known.normal.as_ref()) {
        Some(normal) => Separation {
            normal: Some(normal),
            holds: 0,
            ..known
        },
        None => known.wasted(),
    }
}

/// The witness pair `[i, j]` with A's triangle `i` and B's triangle `j` placed in A's frame,
/// if the two intersect (exactly) and B placed there stays in the range the query accepts
/// (else the full query is to say why not).
fn witness_holds<V>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    [i, j]: [u32; 2],
) -> Option<Witness> {
    let (a, b) = (a.mesh()?, b.as_mesh()?);
    let b_in_a = pose_a.inv_mul(pose_b);
    if !placed_in_range(b.bounds(), &b_in_a) {
        return None;
    }
    let ta = a.triangle(i as usize);
    let [p, q, r] = b
        .mesh()
        .triangle(j as usize)
        .vertices()
        .map(|v| b_in_a.transform_point(&v));
    let tb = Triangle::new(p, q, r);
    tri_tri_exact::intersects(&ta, &tb).then_some(Witness {
        pair: [i, j],
        triangles: (ta, tb),
    })
}

/// An intersecting triangle pair, its triangles as placed in A's frame.
struct Witness {
    pair: [u32; 2],
    triangles: (Triangle, Triangle),
}

/// The answer of a [`Mode::First`] query whose traversal met `witness` first: what
/// [`collide`] returns then.
fn witness_result(request: &CollisionRequest, witness: Witness) -> CollisionResult {
    let (ta, tb) = witness.triangles;
    CollisionResult {
        intersects: true,
        pairs: vec![witness.pair],
        truncated: false,
        contained: if request.containment {
            Containment::SurfacesIntersect
        } else {
            Containment::NotChecked
        },
        contacts: if request.contacts {
            vec![tri_tri_segment::intersection(&ta, &tb)]
        } else {
            Vec::new()
        },
    }
}

/// Whether `model` placed by `pose` stays within [`MAX_COORDINATE`]: the query's own range
/// check (its [`QueryError::OutOfRange`]), on the 8 corners of the mesh's box `bounds`.
fn placed_in_range(bounds: &Aabb, pose: &Pose) -> bool {
    let largest = (0..8)
        .map(|corner: usize| {
            let pick = |axis: usize| {
                if corner >> axis & 1 == 0 {
                    bounds.mins[axis]
                } else {
                    bounds.maxs[axis]
                }
            };
            pose.transform_point(&Point::new(pick(0), pick(1), pick(2)))
                .coords
                .amax()
        })
        .fold(0.0, f64::max);
    let magnitude = largest * (1.0 + 8.0 * f64::EPSILON);
    magnitude.is_finite() && magnitude <= MAX_COORDINATE
}
