//! One pair of meshes under many poses, in parallel.

use super::{checked_relative_pose, run, CollisionRequest, CollisionResult, PosedOverlap};
use crate::error::{check_each, BatchError};
use crate::parallel::map_each;
use crate::{MeshModel, Model};
use obbtree_bv::Pose;

/// [`collide`](super::collide) of `a` at `pose_a` with `b` at each of `poses_b`, on rayon's
/// thread pool; results in the order of `poses_b`. Every pose is checked before any query
/// runs: the error is the first pose that fails, with its position. On one thread the poses
/// run in a plain loop on the calling thread (no hand-off to the pool).
pub fn collide_many<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    poses_b: &[Pose],
    request: &CollisionRequest,
) -> Result<Vec<CollisionResult>, BatchError> {
    match (a.as_mesh(), b.as_mesh()) {
        (Some(a), Some(b)) => meshes_many(a, pose_a, b, poses_b, request),
        _ => each_pose(poses_b, |pose_b| {
            super::collide(a, pose_a, b, pose_b, request)
        }),
    }
}

/// Two meshes under many poses: every pose checked first, then the kernel on each.
fn meshes_many<V: PosedOverlap>(
    a: &MeshModel<V>,
    pose_a: &Pose,
    b: &MeshModel<V>,
    poses_b: &[Pose],
    request: &CollisionRequest,
) -> Result<Vec<CollisionResult>, BatchError> {
    check_each(poses_b, |pose_b| {
        checked_relative_pose(pose_a, b, pose_b).map(drop)
    })?;
    let one = |pose_b: &Pose| {
        let mut result = CollisionResult::default();
        run(a, b, &pose_a.inv_mul(pose_b), request, &mut result);
        result
    };
    Ok(map_each(poses_b, one))
}

/// `query` on each pose (on rayon's pool unless it has one thread); the first failure by
/// position is the error.
fn each_pose<T: Send>(
    poses: &[Pose],
    query: impl Fn(&Pose) -> Result<T, crate::QueryError> + Sync,
) -> Result<Vec<T>, BatchError> {
    map_each(poses, query)
        .into_iter()
        .enumerate()
        .map(|(index, answer)| answer.map_err(|source| BatchError { index, source }))
        .collect()
}
