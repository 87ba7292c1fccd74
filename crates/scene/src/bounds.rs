//! An object's world bounds: the box the broad phase keeps for it.
//!
//! The box must contain the mesh wherever a query places it, rounding included: a pair whose
//! boxes are disjoint is never queried, so the box must be as conservative as the exact query
//! is exact. The query places B in A's frame by `pose_a⁻¹ · pose_b` and `R·p + t` in `f64`
//! ([`Pose::transform_point`]); those placed vertices differ from the exact rigid motion of the
//! mesh by a few units of rounding of `|p| + |t_a| + |t_b|`. Each box is therefore padded by
//! [`PAD`] times `(largest local coordinate + largest translation component)`: two disjoint
//! padded boxes leave a gap between the exact meshes larger than what the rounding of either
//! placement can close, so the query would have found them disjoint too.

use nalgebra::Matrix3;
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::shape::Shape;
use obbtree_bv::{Aabb, Point, Pose, Vector, MAX_COORDINATE};
use obbtree_query::Model;
use obbtree_tree::TreeVolume;

/// Relative padding of world boxes: hundreds of units of rounding, far above the few dozen
/// that placing a point (`R·p + t`, three products and three sums per coordinate) and
/// composing two poses cost, and far below any size that matters to the broad phase.
const PAD: f64 = 512.0 * f64::EPSILON;

/// A box that contains `model` placed by `pose`, rounding included (see the module docs): the
/// model's own box placed, intersected, for trees of oriented boxes, with the root box placed
/// ([`TreeVolume::as_obb`]). A halfspace gets the box of the whole exact range
/// (`±MAX_COORDINATE`) as it is: it holds every model a query accepts, and placing or padding
/// it would carry it out of the range the broad phase takes.
pub(crate) fn world_box<V: TreeVolume>(model: &Model<V>, pose: &Pose) -> Aabb {
    if let Some(Shape::Halfspace(_)) = model.as_shape() {
        let all = Vector::repeat(MAX_COORDINATE);
        return Aabb::new((-all).into(), all.into());
    }
    let bounds = model.bounds();
    let half = (bounds.maxs - bounds.mins) / 2.0;
    let by_bounds = placed_box(
        &nalgebra::center(&bounds.mins, &bounds.maxs),
        &Matrix3::from_diagonal(&half),
        pose,
    );
    let root = model.as_mesh().and_then(|m| m.tree().root().bv().as_obb());
    match root {
        Some(obb) => {
            let half_axes = obb.axes * Matrix3::from_diagonal(&obb.half_extents);
            intersection(&by_bounds, &placed_box(&obb.center, &half_axes, pose))
        }
        None => by_bounds,
    }
}

/// The box around the parallelepiped `center ± half_axes·[±1, ±1, ±1]` (a local box holding
/// the mesh, its columns the half edges) placed by `pose`, padded by [`PAD`] as the module
/// docs say: the placed centre `R·c + t`, and along world axis `i` the half width
/// `Σ_k |(R·half_axes)_ik|`, the extent of the placed box's corners (Ericson, *Real-Time
/// Collision Detection* (2005) §4.2.6, the box of a rotated box). Both round by a few units
/// of `reach`, which the pad covers.
fn placed_box(center: &Point, half_axes: &Matrix3<f64>, pose: &Pose) -> Aabb {
    let reach = center.coords.amax()
        + half_axes.column_iter().map(|c| c.amax()).sum::<f64>()
        + pose.translation().amax();
    let placed_center = pose.transform_point(center);
    let half_width = (pose.rotation() * half_axes).abs() * Vector::repeat(1.0);
    let pad = Vector::repeat(PAD * reach);
    let reach_out = half_width + pad;
    Aabb::new(placed_center - reach_out, placed_center + reach_out)
}

/// The common part of two boxes that both contain the mesh (so they meet).
fn intersection(a: &Aabb, b: &Aabb) -> Aabb {
    Aabb::new(a.mins.sup(&b.mins), a.maxs.inf(&b.maxs))
}

/// Whether the closed boxes share a point ([`aabb_aabb::overlaps`]: the six comparisons
/// without a branch, since the all-pairs pass of a small scene meets and misses in no
/// predictable order).
pub(crate) fn meet(a: &Aabb, b: &Aabb) -> bool {
    aabb_aabb::overlaps(a, b)
}
