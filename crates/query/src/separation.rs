//! Separating planes: certificates that two placed models are disjoint, cheap to check again
//! after a small motion.
//!
//! Two meshes whose convex hulls lie strictly on the two sides of a plane do not touch. A plane
//! found for one pair of poses usually still separates the meshes after a small motion (Lin &
//! Canny's coherence of separating features, 1991; Ericson, *Real-Time Collision Detection*
//! (2005) §9.1 on caching separating axes). Checking a plane costs a few hundred dot products
//! over the hulls' vertices, where a query walks two trees. Scenes keep the plane of each pair
//! found disjoint and check it first.
//!
//! # Exactness
//!
//! A plane of normal `n` (in A's frame) is accepted when `max_{a ∈ A} n·a < min_{b ∈ B} n·b`, B
//! placed in A's frame as the exact queries place it (by `pose_a⁻¹ · pose_b`, computed by the
//! same call), with a slack that covers rounding. The points are the vertices of each model's
//! convex hull from the exact QuickHull, a complete support set (the model's hull index), so
//! the support of these points along any direction is the support of all mesh vertices.
//!
//! The rounding is bounded as follows. Each placed coordinate `fl(R·p + t)` is within
//! `4ε(3·max|p| + |t|∞)` of `R·p + t` (three products and three sums, `|R_ij| <= 1 + 1e-10`).
//! The dot products are within `4ε·|n|₁·(magnitude)` of their exact values. The plane is
//! accepted only if the computed gap exceeds `256ε` times `|n|₁ · (max|a| + 3·max|b| +
//! |t|∞)`, many times the sum of those bounds. Then every placed vertex of B is strictly beyond
//! the plane from every vertex of A. No triangle of A meets a triangle of B, and the exact query
//! would find none: "disjoint" is the query's answer.
//!
//! # Finding a plane
//!
//! GJK over the hulls' samples ([`gjk::separating_direction`], the same GJK as the distance
//! query's), stopped at the first direction that separates the samples; that direction is then
//! checked against the complete sets as above. Failing to find a plane only means the full
//! query runs.

use crate::kernel::place;
use crate::model::index::hull::Hull;
use crate::model::index::support::farthest;
use crate::Model;
use obbtree_bv::distance::gjk;
use obbtree_bv::{BoundingVolume, Pose, Vector};
use obbtree_tree::TreeVolume;

/// Relative slack of the separation test, in units of `ε·|n|₁·magnitude` (the rounding of
/// placing a point and of the dot products is below 20 such units).
const SLACK: f64 = 256.0 * f64::EPSILON;

/// Whether the plane of normal `n` (in A's frame, pointing from A towards B) certifies that
/// `a` at `pose_a` and `b` at `pose_b` are disjoint (see the module docs). `false` when a model
/// has no complete hull (a big flat mesh), and for a shape (for now).
pub fn separates<V: TreeVolume>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    n: &Vector,
) -> bool {
    let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
        return false;
    };
    hulls_separated(a.hull(), b.hull(), &pose_a.inv_mul(pose_b), n)
}

/// A normal (in A's frame, pointing from A towards B) that [`separates`] `a` at `pose_a` and
/// `b` at `pose_b`: `hint` if it does, else the one GJK finds; `None` when none is found (the
/// hulls meet, or a model has no complete hull).
pub fn separating_normal<V: TreeVolume>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    hint: Option<&Vector>,
) -> Option<Vector> {
    let (a, b) = (a.as_mesh()?, b.as_mesh()?);
    let b_in_a = pose_a.inv_mul(pose_b);
    let (hull_a, hull_b) = (a.hull(), b.hull());
    if let Some(n) = hint.filter(|n| hulls_separated(hull_a, hull_b, &b_in_a, n)) {
        return Some(*n);
    }
    let rotation = b_in_a.rotation();
    // GJK on B − A: a direction that puts B beyond A.
    let support_b = |d: &Vector| {
        place(
            &b_in_a,
            &farthest(&hull_b.sample, &rotation.tr_mul(d)).vertex,
        )
    };
    let support_a = |d: &Vector| farthest(&hull_a.sample, d).vertex;
    let guess = place(&b_in_a, &b.bounds().center()) - a.bounds().center();
    let n = gjk::separating_direction(support_b, support_a, &guess)?.try_normalize(0.0)?;
    hulls_separated(hull_a, hull_b, &b_in_a, &n).then_some(n)
}

/// Whether `n` separates the complete hulls of A and of B placed by `b_in_a`, with the slack of
/// the module docs.
fn hulls_separated(a: &Hull, b: &Hull, b_in_a: &Pose, n: &Vector) -> bool {
    let (Some(points_a), Some(points_b)) = (&a.vertices, &b.vertices) else {
        return false;
    };
    let (r, t) = (b_in_a.rotation(), b_in_a.translation());
    let max_a = farthest(points_a, n).projection;
    let min_b = -farthest(points_b, &-(r.tr_mul(n))).projection + n.dot(t);
    let magnitude = a.reach + 3.0 * b.reach + t.amax();
    let slack = SLACK * n.lp_norm(1) * magnitude;
    min_b - max_a > slack
}
