//! One pair of meshes under many poses, in parallel.

use super::{collide_with, CollisionRequest, CollisionResult, Model, Pose, PosedOverlap};
use rayon::prelude::*;

/// [`collide`](super::collide) of `a` at `pose_a` with `b` at each of `poses_b`, on rayon's
/// thread pool; results in the order of `poses_b`.
pub fn collide_many<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    poses_b: &[Pose],
    request: &CollisionRequest,
) -> Vec<CollisionResult> {
    poses_b
        .par_iter()
        .map(|pose_b| {
            let mut result = CollisionResult::default();
            collide_with(a, pose_a, b, pose_b, request, &mut result);
            result
        })
        .collect()
}
