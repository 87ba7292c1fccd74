//! Distance along a sequence of nearby poses: a query that starts where the last one stopped.

use super::closest::{Closest, Measured};
use super::shape::distance_shapes;
use super::{answer, check_request, offer_pair, search, DistanceRequest, DistanceResult};
use crate::collide::{checked_relative_pose, PosedOverlap};
use crate::error::QueryError;
use crate::kernel::descent::best_first::{Settled, Start};
use crate::MeshModel;
use crate::Model;
use obbtree_bv::Pose;
use obbtree_tree::TreeVolume;

/// How far the pairs a tracked walk starts from may outgrow those of the last walk from the
/// roots before the tracker starts from the roots again: each tracked walk refines the pairs
/// near the closest ones and never coarsens them, so a pair of meshes moving a long way would
/// otherwise carry ever more pairs.
const GROWTH: usize = 4;

/// [`distance`](super::distance) for one pair of models along a sequence of poses, each query
/// starting where the last one stopped (temporal coherence, as in PQP's `last_tri` and in
/// Lin & Canny's incremental closest features, 1991, here for whole hierarchies).
///
/// A walk ends with a set of node pairs that cover every triangle pair of the two meshes, each
/// with a lower bound on its distance: the pairs it left out, and the leaf pairs it measured.
/// The next query measures the last closest pair first, then walks from those pairs rather than
/// from the roots, each bound lowered by how far any point of B can have moved since (the change
/// of B's placement in A's frame, times the largest distance of B's vertices from its origin,
/// plus the shift and the placements' rounding): distances between triangles change by no more
/// than their points move, so the lowered bounds still hold, and a pair whose lowered bound
/// prunes costs one comparison. The triangle pairs the walk measured are kept the same way: a
/// leaf pair visited again skips those whose lowered distance still prunes. The answer meets
/// the guarantee of [`distance`](super::distance) whatever the poses; nearby poses make it
/// cheaper.
///
/// A tracker follows one pair of models: given other models (not clones of them), it starts
/// from the roots.
///
/// ```
/// use obbtree_bv::{Point, Pose, TriMesh};
/// use obbtree_query::{DistanceRequest, DistanceTracker, Model};
///
/// let mesh = TriMesh::new(
///     vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)],
///     vec![[0, 1, 2]],
/// )?;
/// let model: Model = Model::new(mesh)?;
/// let mut tracker = DistanceTracker::new();
/// for k in 1..=3 {
///     let above = Pose::from_translation([0.0, 0.0, 0.25 * f64::from(k)])?;
///     let r = tracker.distance(&model, &Pose::identity(), &model, &above, &DistanceRequest::default())?;
///     assert_eq!(r.distance, 0.25 * f64::from(k));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct DistanceTracker {
    last: Option<LastQuery>,
    /// The storage of the next walk's settled pairs (kept to save allocations).
    spare: Vec<Settled>,
}

/// What a tracker remembers of its last query.
#[derive(Clone, Debug)]
struct LastQuery {
    /// The models' identities.
    models: [u64; 2],
    /// The closest pair found.
    pair: [u32; 2],
    /// The last complete walk (none when every query so far ended at an intersecting pair).
    walk: Option<LastWalk>,
}

/// The pairs a complete walk settled and where it settled them.
#[derive(Clone, Debug)]
struct LastWalk {
    /// B's placement in A's frame, at which the bounds of `settled` hold.
    b_in_a: Pose,
    settled: Vec<Settled>,
    /// The triangle pairs it measured, with their lower bounds.
    measured: Vec<Measured>,
    /// How many pairs the last walk from the roots settled.
    from_roots: usize,
}

impl DistanceTracker {
    /// A tracker that remembers nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the last query: the next starts from the roots.
    pub fn forget(&mut self) {
        self.last = None;
    }

    /// [`distance`](super::distance) of `a` at `pose_a` and `b` at `pose_b`, starting from the
    /// last query's closest pair and walk when `a` and `b` are the models it was about (the
    /// request's hint, if any, is measured too). Errors as [`distance`](super::distance). A
    /// shape (either model) is measured as [`distance`](super::distance) measures it, from
    /// scratch each time: nothing is carried over to or from such a query.
    pub fn distance<V: PosedOverlap>(
        &mut self,
        a: &Model<V>,
        pose_a: &Pose,
        b: &Model<V>,
        pose_b: &Pose,
        request: &DistanceRequest,
    ) -> Result<DistanceResult, QueryError> {
        let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
            self.last = None;
            return distance_shapes(a, pose_a, b, pose_b, request);
        };
        check_request(a, b, request)?;
        let b_in_a = checked_relative_pose(pose_a, b, pose_b)?;
        let models = [a.id(), b.id()];
        let last = self.last.take().filter(|last| last.models == models);
        let mut closest = Closest::for_request(request, a);
        offer_pair(&mut closest, a, b, &b_in_a, request.hint);
        offer_pair(&mut closest, a, b, &b_in_a, last.as_ref().map(|l| l.pair));
        let mut walk = last.and_then(|l| l.walk);
        if !closest.done() {
            walk = self.walk(a, b, &b_in_a, &mut closest, walk);
        }
        let result = answer(a, pose_a, b, &b_in_a, request, &closest);
        self.last = Some(LastQuery {
            models,
            pair: result.pair,
            walk,
        });
        Ok(result)
    }

    /// Walks from `last`'s settled pairs (from the roots without them, or when they have grown
    /// too many): the walk to remember, the new one if it completed, else `last`.
    fn walk<V: TreeVolume>(
        &mut self,
        a: &MeshModel<V>,
        b: &MeshModel<V>,
        b_in_a: &Pose,
        closest: &mut Closest,
        last: Option<LastWalk>,
    ) -> Option<LastWalk> {
        let last = last.filter(|l| l.settled.len() <= GROWTH * l.from_roots.max(64));
        let start = match &last {
            Some(l) => {
                let moved = moved(&l.b_in_a, b_in_a, reach(b));
                // A copy: a walk that breaks keeps `last` as it was.
                closest.remember(l.measured.clone(), moved);
                Start::Settled {
                    pairs: &l.settled,
                    moved,
                }
            }
            None => {
                closest.remember(Vec::new(), 0.0);
                Start::Roots
            }
        };
        let mut settled = std::mem::take(&mut self.spare);
        settled.clear();
        settled.reserve(
            last.as_ref()
                .map_or(0, |l| l.settled.len() + l.settled.len() / 2),
        );
        if search(a, b, b_in_a, closest, start, Some(&mut settled), None).is_break() {
            self.spare = settled;
            return last;
        }
        let from_roots = last.as_ref().map_or(settled.len(), |l| l.from_roots);
        if let Some(l) = last {
            self.spare = l.settled;
        }
        Some(LastWalk {
            b_in_a: *b_in_a,
            settled,
            measured: closest.measured.take().unwrap_or_default(),
            from_roots,
        })
    }
}

/// The largest distance of `b`'s vertices from its origin, or more: the norm of the corner of
/// its bounds farthest on each axis.
fn reach<V>(b: &MeshModel<V>) -> f64 {
    let bounds = b.bounds();
    bounds
        .mins
        .coords
        .abs()
        .sup(&bounds.maxs.coords.abs())
        .norm()
}

/// A bound on how far any point of B's placed triangles moves when its placement in A's frame
/// goes from `from` to `to`, its vertices within `reach` of its origin: a vertex `p` moves by
/// `(R' − R)·p + (t' − t)`, at most `‖R' − R‖_F·reach + ‖t' − t‖`, plus the rounding of both
/// placements (each coordinate of `R·p + t` rounds by at most `4ε(reach + |t|)`; `16ε` per
/// placement covers the three of them and the norms), and a point of a triangle moves by a
/// weighted mean of its vertices' moves. The result is rounded up by a relative `1e-9`.
fn moved(from: &Pose, to: &Pose, reach: f64) -> f64 {
    let turn = (to.rotation() - from.rotation()).norm();
    let shift = (to.translation() - from.translation()).norm();
    let placements = 2.0 * reach + from.translation().norm() + to.translation().norm();
    (turn * reach + shift + 16.0 * f64::EPSILON * placements) * (1.0 + 1e-9)
}
