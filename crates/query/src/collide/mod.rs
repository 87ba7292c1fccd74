//! Mesh–mesh collision by simultaneous descent of two bounding-volume hierarchies, with exact
//! triangle–triangle tests at the leaves.
//!
//! * [`collide`] / [`collide_with`]: do two posed meshes touch, and which triangle pairs
//!   intersect ([`Mode::First`] for a witness, [`Mode::All`] for every pair).
//! * [`self_collide`]: intersecting pairs of one mesh's triangles that share no vertex.
//! * [`containment`]: point in a closed mesh by exact ray parity; with
//!   [`CollisionRequest::containment`] a query tells "disjoint" from "one inside the other".
//! * [`collide_many`]: one mesh pair under many poses, in parallel.
//! * [`brute_force`]: the exact oracle (every triangle pair), for tests.
//!
//! # Poses and exactness
//!
//! A [`Pose`] maps a mesh's vertices into the world frame. The query works in A's frame: the
//! pose of B relative to A is computed once (`pose_a⁻¹ · pose_b`, which is exactly `pose_b` when
//! `pose_a` is the identity), and each vertex `p` of B is placed by [`place`], `R·p + t` in
//! `f64` with `R` the rotation matrix, the same arithmetic on every path (traversal, oracle,
//! containment). Answers are exact for the placed triangles: the leaf test is the exact
//! orientation-predicate test [`tri_tri_exact`](obbtree_bv::intersect::tri_tri_exact), behind
//! a float filter (triangle bounding boxes compared exactly) that only rejects pairs whose boxes
//! are disjoint, and the bounding-volume tests are conservative ([`posed`]), so rounding never
//! changes an answer. Touching triangles intersect (closed sets).

pub mod brute;
pub mod containment;
mod leaf;
pub mod many;
mod model;
pub mod posed;
mod request;
pub mod self_collide;
mod traverse;

pub use brute::brute_force;
pub use containment::Containment;
use leaf::Leaf;
pub use many::collide_many;
pub use model::Model;
pub use posed::PosedOverlap;
pub use request::{CollisionRequest, CollisionResult, Mode};
pub use self_collide::self_collide;

use obbtree_bv::intersect::tri_tri_segment;
use obbtree_bv::{Point, Vector};

/// A rigid motion as a rotation matrix and a translation: `p ↦ R·p + t`.
pub type Pose = nalgebra::IsometryMatrix3<f64>;

/// The pose with rotation vector `rotation` (axis × angle in radians, nalgebra's
/// `Rotation3::new`) and translation `translation`: the pose format of the command line.
pub fn pose_from_rotation_vector(translation: [f64; 3], rotation: [f64; 3]) -> Pose {
    Pose::from_parts(
        nalgebra::Translation3::from(Vector::from(translation)),
        nalgebra::Rotation3::new(Vector::from(rotation)),
    )
}

/// Frees the calling thread's collision caches: the placed triangles and placed volumes of B
/// that [`collide`] and [`self_collide`] keep between queries so that queries allocate nothing
/// in the steady state. They grow to the largest mesh B queried on the thread (they are sized
/// by B's triangle and node counts and never shrink by themselves): about 152 bytes per
/// triangle of B plus, per node of B's tree, a stamped box (56 bytes) and one placed volume and
/// stamp (136 bytes for an OBB), about 10 MB for dragon_res3 (48k triangles). The next query
/// on this thread allocates them again. [`collide_many`] runs on rayon's threads: release
/// theirs with `rayon::broadcast(|_| release_caches())`.
pub fn release_caches() {
    leaf::release();
    traverse::release();
}

/// `pose · p = R·p + t` in `f64`: the one placement every path uses.
#[inline]
pub fn place(pose: &Pose, p: &Point) -> Point {
    pose * p
}

/// Do the meshes of `a` (posed by `pose_a`) and `b` (posed by `pose_b`) touch, and where?
/// See the module docs for the exactness guarantee.
pub fn collide<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &CollisionRequest,
) -> CollisionResult {
    let mut result = CollisionResult::default();
    collide_with(a, pose_a, b, pose_b, request, &mut result);
    result
}

/// [`collide`] into `result`, reusing its memory: in the steady state a query allocates nothing.
pub fn collide_with<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &CollisionRequest,
    result: &mut CollisionResult,
) {
    result.clear();
    let b_in_a = pose_a.inv_mul(pose_b);
    let rel = V::relative(&b_in_a);
    let limit = request.limit();
    let pairs = &mut result.pairs;
    let done = leaf::with_leaf_test(a, b, &b_in_a, |leaves| {
        traverse::leaf_pairs(a.tree(), b.tree(), &rel, false, leaves, |leaves, i, j| {
            leaves.test(
                Leaf::of(a.tree(), i),
                Leaf::of(b.tree(), j),
                |_, _| true,
                |ia, ib| [ia, ib],
                pairs,
                limit,
            )
        })
    });
    result.truncated = done.is_break() && request.mode == Mode::All;
    result.sort_pairs();
    result.intersects = !result.pairs.is_empty();
    if request.contacts {
        result.contacts = result
            .pairs
            .iter()
            .map(|&[i, j]| {
                tri_tri_segment::intersection(
                    &a.mesh().triangle(i as usize),
                    &leaf::placed_triangle(b.mesh(), j as usize, &b_in_a),
                )
            })
            .collect();
    }
    if request.containment && !result.intersects {
        result.contained = containment::between(a, b, &b_in_a);
    }
}
