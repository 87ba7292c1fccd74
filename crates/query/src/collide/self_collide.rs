//! Self-collision: intersecting pairs of one mesh's triangles that share no vertex.

use super::{CollisionRequest, CollisionResult, Mode, PosedOverlap};
use crate::error::{check_placed, Operand, QueryError};
use crate::kernel::descent::depth_first;
use crate::kernel::leaf::{with_leaf_test, Leaf, LeafTest};
use crate::Model;
use obbtree_bv::{Pose, TriMesh};

/// Whether triangles `i` and `j` of `mesh` have a vertex index in common.
pub(crate) fn share_vertex(mesh: &TriMesh, i: u32, j: u32) -> bool {
    let (p, q) = (mesh.triangles()[i as usize], mesh.triangles()[j as usize]);
    p.iter().any(|v| q.contains(v))
}

/// Pairs `[i, j]` (`i < j`, sorted) of triangles of the model's mesh that intersect and share
/// no vertex index (neighbours always touch, so they are left out; triangles that meet only at
/// a duplicated vertex position with different indices are reported). Exact, like
/// [`collide`](super::collide); the request's `containment` is ignored.
///
/// The mesh is placed by `pose`, as in every one-model query; a rigid placement changes no
/// pair, so the pairs are decided on the mesh's own coordinates, and `pose` is only checked: an
/// error when it would carry the mesh out of the exact range ([`QueryError::OutOfRange`]).
///
/// The tree is descended against itself (each unordered node pair once).
pub fn self_collide<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    request: &CollisionRequest,
) -> Result<CollisionResult, QueryError> {
    let model = model.mesh_for(Operand::Model, "self-collision")?;
    check_placed(model, pose, Operand::Model)?;
    let (mesh, tree) = (model.mesh(), model.tree());
    let identity = Pose::identity();
    let limit = request.limit();
    let mut result = CollisionResult::default();
    let pairs = &mut result.pairs;
    let done = with_leaf_test(model, model, &identity, |leaves| {
        depth_first::leaf_pairs(
            tree,
            tree,
            &V::relative(&identity),
            true,
            super::witness_order(request.mode),
            leaves,
            |leaves: &mut LeafTest, i, b: &Leaf| leaves.meets_leaf(i, b),
            |leaves, i, j| {
                leaves.test(
                    Leaf::of(tree, i),
                    Leaf::of(tree, j),
                    |p, q| (i != j || p < q) && !share_vertex(mesh, p, q),
                    |p, q| [p.min(q), p.max(q)],
                    pairs,
                    limit,
                )
            },
        )
    });
    result.truncated = done.is_break() && request.mode == Mode::All;
    result.sort_pairs();
    result.intersects = !result.pairs.is_empty();
    Ok(result)
}
