//! Mesh–mesh collision by simultaneous descent of two bounding-volume hierarchies, with exact
//! triangle–triangle tests at the leaves.
//!
//! * [`collide`] / [`collide_into`]: do two posed meshes touch, and which triangle pairs
//!   intersect ([`Mode::First`] for a witness, [`Mode::All`] for every pair).
//! * [`self_collide`]: intersecting pairs of one mesh's triangles that share no vertex.
//! * [`contains_point`]: point in a closed mesh by exact ray parity; with
//!   [`CollisionRequest::containment`] a query tells "disjoint" from "one inside the other".
//! * [`collide_many`]: one mesh pair under many poses, in parallel.
//! * [`brute_force`]: every triangle pair through the exact predicate, for small meshes.
//!
//! # Poses and exactness
//!
//! A [`Pose`] maps a mesh's vertices into the world frame. The query works in A's frame: the
//! pose of B relative to A is computed once (`pose_a⁻¹ · pose_b`, which is exactly `pose_b` when
//! `pose_a` is the identity), and each vertex `p` of B is placed by [`Pose::transform_point`], `R·p + t`
//! in `f64` with `R` the rotation matrix, the same arithmetic on every path (traversal, oracle,
//! containment). A query first checks that B placed this way stays within the coordinate
//! range of meshes ([`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE)), in which the exact
//! predicates cannot overflow, and refuses the query otherwise
//! ([`QueryError::OutOfRange`]). Answers are exact for the placed triangles: the leaf test is the exact
//! orientation-predicate test [`tri_tri_exact`](obbtree_bv::intersect::tri_tri_exact), behind
//! a float filter (triangle bounding boxes compared exactly) that only rejects pairs whose boxes
//! are disjoint, and the bounding-volume tests are conservative ([`PosedOverlap`]), so rounding never
//! changes an answer. Touching triangles intersect (closed sets).

mod brute;
pub(crate) mod containment;
mod many;
mod request;
mod self_collide;
mod shape;

pub use brute::{brute_force, brute_force_self};
pub(crate) use containment::{clear_radius, contains_after, Known};
pub use containment::{contains_point, Containment};
pub use many::collide_many;
pub use request::{CollisionRequest, CollisionResult, Mode};
pub use self_collide::self_collide;

use crate::error::{check_placed, Operand, QueryError};
use crate::kernel::descent::depth_first::{self, ChildOrder};
use crate::kernel::leaf::{self, Leaf, LeafTest};
pub use crate::kernel::posed::PosedOverlap;
use crate::model::{Form, MeshModel, Model};
use obbtree_bv::intersect::tri_tri_segment;
use obbtree_bv::Pose;

/// Frees the calling thread's query caches: the placed triangles and placed volumes of B that
/// the two-model queries ([`collide`], [`self_collide`], the distance and margin queries) keep
/// between queries so that queries allocate nothing in the steady state. They grow with what
/// the thread's queries use and never shrink by themselves: 152 bytes per triangle that one
/// query placed (at most B's triangle count) plus, per node of the largest tree B queried, a
/// twice-stamped box (64 bytes) and one placed volume and stamp (136 bytes for an OBB); and the boxes
/// of both models' nodes in one frame that [`distance`](crate::distance) keeps for meshes apart
/// (56 bytes per node). The next query on this thread allocates them again. [`collide_many`]
/// and [`distance_many`](crate::distance_many) run on rayon's threads: release theirs with
/// `rayon::broadcast(|_| release_caches())`.
pub fn release_caches() {
    crate::kernel::release();
    crate::distance::release_screen();
}

/// Do the meshes of `a` (posed by `pose_a`) and `b` (posed by `pose_b`) touch, and where?
/// See the module docs for the exactness guarantee. An error when B, placed in A's frame,
/// would leave the coordinate range in which the answer is exact ([`QueryError::OutOfRange`]).
pub fn collide<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &CollisionRequest,
) -> Result<CollisionResult, QueryError> {
    let mut result = CollisionResult::default();
    collide_into(a, pose_a, b, pose_b, request, &mut result)?;
    Ok(result)
}

/// [`collide`] into `result`, reusing its memory: in the steady state a query allocates nothing.
pub fn collide_into<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &CollisionRequest,
    result: &mut CollisionResult,
) -> Result<(), QueryError> {
    // Cleared first, so that a refused query leaves no earlier answer to be read by mistake.
    result.clear();
    match (a.form(), b.form()) {
        (Form::Mesh(a), Form::Mesh(b)) => {
            let b_in_a = checked_relative_pose(pose_a, b, pose_b)?;
            run(a, b, &b_in_a, request, result);
            Ok(())
        }
        _ => shape::collide_shapes(a, pose_a, b, pose_b, request, result),
    }
}

/// The pose of B in A's frame, `pose_a⁻¹ · pose_b`, once B placed by it is known to stay in
/// the exact range.
pub(crate) fn checked_relative_pose<V>(
    pose_a: &Pose,
    b: &MeshModel<V>,
    pose_b: &Pose,
) -> Result<Pose, QueryError> {
    let b_in_a = pose_a.inv_mul(pose_b);
    check_placed(b, &b_in_a, Operand::B)?;
    Ok(b_in_a)
}

/// The query on checked input, B placed in A's frame by `b_in_a`.
pub(crate) fn run<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    request: &CollisionRequest,
    result: &mut CollisionResult,
) {
    result.clear();
    find_pairs(a, b, b_in_a, request, result);
    result.sort_pairs();
    result.intersects = !result.pairs.is_empty();
    if request.contacts {
        result.contacts = contacts(a, b, b_in_a, &result.pairs);
    }
    result.contained = if !request.containment {
        Containment::NotChecked
    } else if result.intersects {
        Containment::SurfacesIntersect
    } else {
        containment::between(a, b, b_in_a)
    };
}

/// The dual-tree descent with the exact leaf test: the intersecting pairs into `result` (up to
/// the request's limit, marking it truncated when the limit stopped an `All` search).
fn find_pairs<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    request: &CollisionRequest,
    result: &mut CollisionResult,
) {
    let rel = V::relative(b_in_a);
    let limit = request.limit();
    let pairs = &mut result.pairs;
    let done = leaf::with_leaf_test(a, b, b_in_a, |leaves| {
        let meets_leaf = |leaves: &mut LeafTest, i, b: &Leaf| leaves.meets_leaf(i, b);
        depth_first::leaf_pairs(
            a.tree(),
            b.tree(),
            &rel,
            false,
            witness_order(request.mode),
            leaves,
            meets_leaf,
            |leaves, i, j| {
                leaves.test(
                    Leaf::of(a.tree(), i),
                    Leaf::of(b.tree(), j),
                    |_, _| true,
                    |ia, ib| [ia, ib],
                    pairs,
                    limit,
                )
            },
        )
    });
    result.truncated = done.is_break() && request.mode == Mode::All;
}

/// The order of the descent for `mode`: nearer children first when one pair is enough (in an
/// intersecting pose the nearer pair is the likelier to cross, so the witness comes sooner;
/// measurements in `docs/performance.md`), the stored order when every pair is wanted.
pub(crate) fn witness_order(mode: Mode) -> ChildOrder {
    ChildOrder::for_search(mode == Mode::First)
}

/// The intersection of each pair, in A's frame.
fn contacts<V>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    pairs: &[[u32; 2]],
) -> Vec<tri_tri_segment::Intersection> {
    pairs
        .iter()
        .map(|&[i, j]| {
            tri_tri_segment::intersection(
                &a.mesh().triangle(i as usize),
                &leaf::placed_triangle(b.mesh(), j as usize, b_in_a),
            )
        })
        .collect()
}
