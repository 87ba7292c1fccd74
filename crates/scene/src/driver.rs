//! The drivers every scene query runs through, each taking its candidates from a source.
//!
//! There are two, as there are two descents in the two-model kernel:
//! - **every candidate** ([`Scene::query_pairs`], [`answer_all`]): each candidate answered, in
//!   parallel, the reported ones kept in order. The queries of the scene's own pairs
//!   (collision and margins) remember what they learn in the pair's record ([`PairQuery`]);
//!   the queries of an external model or another scene remember nothing.
//! - **closest first** ([`closest_of`]): candidates visited nearest box first while their box
//!   gap is below the best distance found.
//!
//! The candidate sources are the broad phase's (`broad.rs`): the overlapping fat boxes
//! ([`Scene::candidates`]), boxes grown by a margin, the dynamic tree's nearest pairs, the
//! objects near an external model's box, and the pairs across two scenes.

use crate::coherence::{Answered, PairRecord};
use crate::object::Object;
use crate::scene::{QueryStats, Scene};
use crate::{ObjectId, SceneError};
use rayon::prelude::*;

/// How many candidate pairs must need a query (not reuse their record) before a query of the
/// scene's pairs runs them on rayon's pool. Handing work to the pool from a thread outside it
/// and waiting for it costs more than a few dozen pair queries of small meshes in a frame where
/// few objects moved (see `docs/performance.md`).
const PARALLEL_PAIRS: usize = 64;

/// An exact query on one pair of the scene's objects, answered from what its part of the
/// pair's record holds.
pub(crate) trait PairQuery<V>: Sync {
    /// The answer on one pair.
    type Answer: Send;
    /// What the query keeps about a pair, in the pair's [`PairRecord`].
    type Part: Send + Sync;

    /// The query's part of `record`.
    fn part(record: &PairRecord) -> Option<&Self::Part>;

    /// The query's part of `record`, to replace.
    fn part_mut(record: &mut PairRecord) -> &mut Option<Self::Part>;

    /// Whether a query drops its parts of the pairs it did not check (their answers could only
    /// mislead the next query: the collision records), or keeps them (the distance records,
    /// which the closest-pair walk reads without checking every pair).
    const FORGETS_UNCHECKED: bool;

    /// Whether `part` answers this query at the objects' current poses.
    fn is_current(&self, part: &Self::Part, a: &Object<V>, b: &Object<V>) -> bool;

    /// The answer on the pair `(a, b)`, how it was found, and the part to keep.
    fn answer(
        &self,
        scene: &Scene<V>,
        pair: (ObjectId, ObjectId),
        part: Option<&Self::Part>,
    ) -> Result<(Self::Answer, Answered, Self::Part), SceneError>;

    /// Whether the answer is reported (the pair touches, or is within the margin).
    fn reports(&self, answer: &Self::Answer) -> bool;
}

impl<V> Scene<V> {
    /// Runs `query` on every candidate pair (from one of the broad phase's sources), in
    /// parallel when enough need a query ([`PARALLEL_PAIRS`]), each answered from its record
    /// where possible; keeps the new record parts and returns the reported pairs sorted by
    /// names, with the query's counts in [`Scene::last_stats`]. On error, the error of the
    /// failing pair first by names, and the records stay as they were.
    pub(crate) fn query_pairs<Q: PairQuery<V>>(
        &mut self,
        query: &Q,
        candidates: Vec<(ObjectId, ObjectId)>,
    ) -> Result<Vec<(ObjectId, ObjectId, Q::Answer)>, SceneError>
    where
        V: Send + Sync,
    {
        let answer_pair = |&pair: &(ObjectId, ObjectId)| {
            let part = self.records.get(&pair).and_then(Q::part);
            query.answer(self, pair, part)
        };
        let answers = map_on_pool_if(
            self.worth_threads(query, &candidates),
            &candidates,
            answer_pair,
        );
        let answers = self.first_error_by_names(&candidates, answers)?;
        if Q::FORGETS_UNCHECKED {
            for record in self.records.values_mut() {
                *Q::part_mut(record) = None;
            }
        }
        let mut stats = QueryStats::default();
        let mut found = Vec::new();
        for ((a, b), (answer, how, part)) in candidates.into_iter().zip(answers) {
            stats.count(how);
            *Q::part_mut(self.records.entry((a, b)).or_default()) = Some(part);
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
    /// handing to rayon's pool ([`PARALLEL_PAIRS`]), and the pool has more than one thread (a
    /// pool of one would only add the hand-over and the wait).
    fn worth_threads<Q: PairQuery<V>>(
        &self,
        query: &Q,
        candidates: &[(ObjectId, ObjectId)],
    ) -> bool {
        let stale = |&&(a, b): &&(ObjectId, ObjectId)| match (
            self.get(a),
            self.get(b),
            self.records.get(&(a, b)).and_then(Q::part),
        ) {
            (Some(oa), Some(ob), Some(part)) => !query.is_current(part, oa, ob),
            _ => true,
        };
        rayon::current_num_threads() > 1
            && candidates.iter().filter(stale).count() >= PARALLEL_PAIRS
    }
}

/// `f` of each item in order: on rayon's pool when `parallel`, else on the calling thread.
fn map_on_pool_if<P: Sync, T: Send>(
    parallel: bool,
    items: &[P],
    f: impl Fn(&P) -> T + Sync + Send,
) -> Vec<T> {
    if parallel {
        items.par_iter().map(f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// The driver of the queries of many candidates that keep nothing between calls (an external
/// model against the scene, two scenes, and their margin forms): each candidate (already in
/// report order) answered in parallel by `answer`, the answers that report something kept in
/// that order; the first failing candidate's error in that order.
pub(crate) fn answer_all<P: Sync, T: Send>(
    candidates: &[P],
    answer: impl Fn(&P) -> Result<Option<T>, SceneError> + Sync + Send,
) -> Result<Vec<T>, SceneError> {
    let answers = map_on_pool_if(rayon::current_num_threads() > 1, candidates, answer);
    let mut found = Vec::new();
    for answer in answers {
        found.extend(answer?);
    }
    Ok(found)
}

/// The closest-pair driver every closest-pair query of a scene runs: `source(bound, visit)`
/// visits candidates nearest box first while their box gap is at most the bound `visit`
/// returns; each is answered by `measure(candidate, bound)` (its answer if it is at most
/// `bound` apart, exactly decided), and the bound shrinks to the best distance found (the
/// best-first search of Hjaltason & Samet, "Distance browsing in spatial databases", 1999).
/// `initial` is a best answer known beforehand; `nearer` breaks ties. The first error stops the
/// walk and is returned.
pub(crate) fn closest_of<P: Copy, T>(
    source: impl FnOnce(f64, &mut dyn FnMut(P) -> f64),
    limit: f64,
    initial: Option<T>,
    mut measure: impl FnMut(P, f64) -> Result<Option<T>, SceneError>,
    distance_of: impl Fn(&T) -> f64,
    nearer: impl Fn(&T, &T) -> bool,
) -> Result<Option<T>, SceneError> {
    let mut best = initial;
    let mut failure = None;
    let bound = |best: &Option<T>| best.as_ref().map_or(limit, &distance_of);
    source(
        bound(&best),
        &mut |candidate| match measure(candidate, bound(&best)) {
            Ok(found) => {
                if let Some(found) = found {
                    if best.as_ref().is_none_or(|b| nearer(&found, b)) {
                        best = Some(found);
                    }
                }
                bound(&best)
            }
            Err(error) => {
                failure = Some(error);
                -1.0
            }
        },
    );
    match failure {
        Some(error) => Err(error),
        None => Ok(best),
    }
}
