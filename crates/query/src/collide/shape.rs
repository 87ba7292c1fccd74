//! Collision of a shape with a mesh or with another shape: the shape is placed exactly
//! ([`Shape::place`]) and every yes/no is one of the exact tests of
//! [`obbtree_bv::shape`].
//!
//! * Mesh and shape: the shape is placed in the mesh's frame (`pose_mesh⁻¹ · pose_shape`, as B
//!   is placed in A's frame for two meshes), the mesh's tree is searched with the placed
//!   shape's box (or, for a halfspace, its plane), and each candidate triangle is decided by
//!   [`touches_triangle`]. A pair is `[triangle, 0]` (or `[0, triangle]` when the shape is A):
//!   a shape's one feature is 0.
//! * Two shapes: each is placed by its own pose and [`touches`] decides; the pair is `[0, 0]`.
//!
//! Shapes are solids and meshes surfaces: a triangle wholly inside a shape touches it.
//! Containment, when asked for, is told for a mesh and a shape
//! ([`mesh_and_shape`](super::containment::mesh_and_shape): the shape inside a closed mesh's
//! solid, or the mesh inside the shape); for two shapes it is not checked (two solids that
//! touch may or may not nest, and the question has no cheap exact answer for every pair).

use super::containment::mesh_and_shape;
use super::{CollisionRequest, CollisionResult, Containment, Mode, PosedOverlap};
use crate::error::{Operand, QueryError};
use crate::model::{Form, MeshModel, Model, ShapeModel};
use obbtree_bv::shape::{touches, touches_triangle, PlacedShape};
use obbtree_bv::{Aabb, Pose};

/// The collision query when at least one model is a shape (the caller has cleared `result`).
pub(super) fn collide_shapes<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &CollisionRequest,
    result: &mut CollisionResult,
) -> Result<(), QueryError> {
    let mesh_and_placed = match (a.form(), b.form()) {
        (Form::Mesh(mesh), Form::Shape(shape)) => {
            let placed = place(shape, &pose_a.inv_mul(pose_b), Operand::B)?;
            mesh_shape(mesh, &placed, request, |t| [t, 0], result);
            Some((mesh, placed, true))
        }
        (Form::Shape(shape), Form::Mesh(mesh)) => {
            let placed = place(shape, &pose_b.inv_mul(pose_a), Operand::A)?;
            mesh_shape(mesh, &placed, request, |t| [0, t], result);
            Some((mesh, placed, false))
        }
        (Form::Shape(sa), Form::Shape(sb)) => {
            let (pa, pb) = (
                place(sa, pose_a, Operand::A)?,
                place(sb, pose_b, Operand::B)?,
            );
            if touches(&pa, &pb) {
                result.pairs.push([0, 0]);
            }
            None
        }
        (Form::Mesh(_), Form::Mesh(_)) => unreachable!("two meshes go through the kernel"),
    };
    result.intersects = !result.pairs.is_empty();
    result.contained = match mesh_and_placed {
        Some((mesh, placed, mesh_is_a)) if request.containment => {
            mesh_and_shape(mesh, &placed, result.intersects, mesh_is_a)
        }
        _ => Containment::NotChecked,
    };
    Ok(())
}

/// The shape placed by `pose`, or why it cannot be placed exactly.
pub(crate) fn place<V>(
    shape: &ShapeModel<V>,
    pose: &Pose,
    which: Operand,
) -> Result<PlacedShape, QueryError> {
    shape
        .shape()
        .place(pose)
        .map_err(|source| QueryError::ShapePlacement { which, source })
}

/// The triangles of `mesh` that touch `placed` (in the mesh's frame), as pairs made by `pair`,
/// sorted, up to the request's limit.
fn mesh_shape<V>(
    mesh: &MeshModel<V>,
    placed: &PlacedShape,
    request: &CollisionRequest,
    pair: impl Fn(u32) -> [u32; 2],
    result: &mut CollisionResult,
) {
    let limit = request.limit();
    let region = Region::of(placed);
    let (tree, order, boxed) = (mesh.tree(), mesh.tree().triangle_order(), mesh.boxed());
    let node_bounds = mesh.node_bounds();
    let mut stopped = false;
    tree.branch_and_bound(
        |node| {
            if region.may_meet(&node_bounds[node]) {
                0.0
            } else {
                f64::INFINITY
            }
        },
        |range| {
            for position in range {
                let triangle = order[position];
                if region.may_meet(&boxed[position].bounds)
                    && touches_triangle(placed, &mesh.mesh().triangle(triangle as usize))
                {
                    result.pairs.push(pair(triangle));
                    if result.pairs.len() >= limit {
                        stopped = true;
                        return f64::NEG_INFINITY;
                    }
                }
            }
            f64::INFINITY
        },
    );
    result.pairs.sort_unstable();
    result.truncated = stopped && request.mode == Mode::All;
}

/// What a box must meet to hold a triangle that may touch the shape: the shape's box, or a
/// halfspace's plane. A conservative filter in front of the exact test.
enum Region {
    Box(Aabb),
    Below {
        normal: obbtree_bv::Vector,
        offset: f64,
    },
}

impl Region {
    fn of(placed: &PlacedShape) -> Self {
        match (placed.aabb(), placed) {
            (Some(bounds), _) => Region::Box(bounds),
            (None, PlacedShape::Halfspace { normal, offset }) => Region::Below {
                normal: *normal,
                offset: *offset,
            },
            (None, _) => unreachable!("only a halfspace is unbounded"),
        }
    }

    /// Whether `bounds` may hold a point of the region: exact for a box (closed comparisons);
    /// for a halfspace, the box's lowest corner along the normal computed in `f64` and compared
    /// with a pad that covers the rounding of a three-term dot product and the offset (Higham,
    /// *Accuracy and Stability of Numerical Algorithms* (2002) §3.1: `|error| <= γ₃ Σ|nᵢxᵢ|`).
    fn may_meet(&self, bounds: &Aabb) -> bool {
        match self {
            Region::Box(b) => {
                (0..3).all(|i| b.mins[i] <= bounds.maxs[i] && bounds.mins[i] <= b.maxs[i])
            }
            Region::Below { normal, offset } => {
                let lowest = |i: usize| {
                    if normal[i] >= 0.0 {
                        bounds.mins[i]
                    } else {
                        bounds.maxs[i]
                    }
                };
                let terms = [0, 1, 2].map(|i| normal[i] * lowest(i));
                let sum: f64 = terms.iter().sum();
                let size: f64 = terms.iter().map(|t| t.abs()).sum::<f64>() + offset.abs();
                sum - 4.0 * f64::EPSILON * size <= *offset
            }
        }
    }
}
