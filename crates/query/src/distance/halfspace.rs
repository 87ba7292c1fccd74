//! Distance between a halfspace and any model. A halfspace `{p : n·p <= d}` meets a solid or a
//! surface exactly when the exact collision test says so; otherwise the model lies wholly
//! above the plane and its distance to the halfspace is the height of its lowest point,
//! `(n·p − d) / |n|`, reached at a vertex of a mesh (a linear function's least value over a
//! triangle is at a vertex) or at a placed shape's support point along `−n` (the centre, a
//! segment end or a cap's rim point moved by the radius, a polytope's vertex; van den Bergen,
//! *Collision Detection in Interactive 3D Environments* (2003) §4.3, support mappings). Two
//! halfspaces that do not meet are parallel and face away: their distance is the gap between
//! the planes.
//!
//! The halfspace is placed the way the collision test places it (into the mesh's frame, or by
//! its own pose against a shape), so "touching" and the distance speak of the same plane. The
//! height is computed in `f64` with a bound on its rounding, which makes the certified
//! interval; the error is a few units of rounding of the coordinates involved, within the
//! distance guarantee `|d − d*| <= 1e-12·(d* + L)`. A pair names the mesh's triangle at the
//! lowest vertex, or feature 0 of a shape; the closest points are the lowest point and its
//! projection on the plane, in the world frame.
//!
//! Margins are exact: a model is within `m` of the halfspace when it touches it or a point
//! whose height decides (a mesh's vertex, a sphere's centre, a capsule's segment ends, a
//! polytope's vertices) has `n·p − d <= (m + radius)·|n|`, decided exactly by comparing
//! squares ([`halfspace_sphere`], Ericson (2005) §5.2.2), with `m + radius` rounded up when it
//! is not a float (as `shape.rs` documents). Proximity pairs are the mesh's triangles with a
//! vertex within `m` (a triangle's lowest point is a vertex). A cylinder (whose rim's height
//! is irrational) and a second halfspace are decided from the certified interval of the
//! distance, as `cylinder.rs` decides a cylinder's margins.

use super::shape::{reach, touching_then_near};
use super::{DistanceRequest, DistanceResult};
use crate::collide::{collide, CollisionRequest, Containment, Mode, PosedOverlap};
use crate::error::{Operand, QueryError};
use crate::model::{Form, MeshModel, Model};
use obbtree_bv::shape::{halfspace_sphere, PlacedShape, Shape};
use obbtree_bv::{Aabb, Point, Pose, Vector};

/// A placed halfspace `{p : normal·p <= offset}`.
#[derive(Clone, Copy)]
struct Plane {
    normal: Vector,
    offset: f64,
}

/// The lowest point of a model above a plane, with its height's numerator `n·p − d` and the
/// triangle (or feature) it belongs to, in the frame the plane was placed in.
struct Lowest {
    point: Point,
    height: f64,
    feature: u32,
    /// Bound on the largest coordinate magnitude involved (point, radius), for the rounding
    /// bound.
    magnitude: f64,
}

/// [`distance`](super::distance) when `a` or `b` is a halfspace (the other anything).
pub(super) fn distance_to_halfspace<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    _request: &DistanceRequest,
) -> Result<DistanceResult, QueryError> {
    let touching = collide(a, pose_a, b, pose_b, &CollisionRequest::new(Mode::First))?;
    let facing = Facing::of(a, pose_a, b, pose_b)?;
    let (plane, plane_first) = (facing.plane, facing.plane_first);
    let (lowest, frame) = match &facing.other {
        Other::Mesh(mesh, pose) => (lowest_vertex(mesh, &plane), **pose),
        Other::Shape(placed) => (lowest_of_shape(placed, &plane), Pose::identity()),
    };
    let mut result = answer(&plane, &lowest, &frame, touching.intersects);
    if touching.intersects {
        result.pair = touching.pairs[0];
    } else {
        result.pair = if plane_first {
            [0, lowest.feature]
        } else {
            [lowest.feature, 0]
        };
    }
    if !plane_first {
        std::mem::swap(&mut result.point_a, &mut result.point_b);
    }
    Ok(result)
}

/// Whether the model is a halfspace.
pub(super) fn is_halfspace<V>(model: &Model<V>) -> bool {
    matches!(model.as_shape(), Some(Shape::Halfspace(_)))
}

/// The halfspace's plane and the other model, placed the way the collision test places them:
/// the plane into a mesh's frame, or, against a shape, each by its own pose.
struct Facing<'m, V> {
    plane: Plane,
    /// Whether the halfspace is A.
    plane_first: bool,
    other: Other<'m, V>,
}

/// The model facing the halfspace: a mesh with its pose (the frame the plane was placed in),
/// or a shape placed in the world.
enum Other<'m, V> {
    Mesh(&'m MeshModel<V>, &'m Pose),
    Shape(PlacedShape),
}

impl<'m, V> Facing<'m, V> {
    /// `a` and `b`, one of them a halfspace, placed; an error names the operand that cannot
    /// be placed.
    fn of(
        a: &'m Model<V>,
        pose_a: &'m Pose,
        b: &'m Model<V>,
        pose_b: &'m Pose,
    ) -> Result<Self, QueryError> {
        let plane_first = is_halfspace(a);
        let ((half, pose_half), (other, pose_other)) = if plane_first {
            ((a, pose_a), (b, pose_b))
        } else {
            ((b, pose_b), (a, pose_a))
        };
        let [which, other_which] = if plane_first {
            [Operand::A, Operand::B]
        } else {
            [Operand::B, Operand::A]
        };
        let halfspace = half.as_shape().expect("a halfspace model");
        Ok(match other.form() {
            Form::Mesh(mesh) => Self {
                plane: place_plane(halfspace, &pose_other.inv_mul(pose_half), which)?,
                plane_first,
                other: Other::Mesh(mesh, pose_other),
            },
            Form::Shape(shape) => Self {
                plane: place_plane(halfspace, pose_half, which)?,
                plane_first,
                other: Other::Shape(shape.shape().place(pose_other).map_err(|source| {
                    QueryError::ShapePlacement {
                        which: other_which,
                        source,
                    }
                })?),
            },
        })
    }
}

/// The halfspace placed by `pose` as the collision test places it.
fn place_plane(shape: &Shape, pose: &Pose, which: Operand) -> Result<Plane, QueryError> {
    match shape.place(pose) {
        Ok(PlacedShape::Halfspace { normal, offset }) => Ok(Plane { normal, offset }),
        Ok(_) => unreachable!("a halfspace places as a halfspace"),
        Err(source) => Err(QueryError::ShapePlacement { which, source }),
    }
}

/// The answer (points in the world frame, `frame` taking the plane's frame there): the plane's
/// side first, the model's second; `pair` is set by the caller.
fn answer(plane: &Plane, lowest: &Lowest, frame: &Pose, touching: bool) -> DistanceResult {
    let length = plane.normal.norm();
    let point = frame.transform_point(&lowest.point);
    if touching {
        return DistanceResult {
            distance: 0.0,
            lower: 0.0,
            upper: 0.0,
            intersects: true,
            pair: [0, 0],
            point_a: point,
            point_b: point,
            contained: Containment::NotChecked,
        };
    }
    let distance = (lowest.height / length).max(0.0);
    let error = rounding_bound(plane, lowest.magnitude) / length;
    let foot = lowest.point - plane.normal * (lowest.height / (length * length));
    DistanceResult {
        distance,
        lower: (distance - error).max(0.0),
        upper: distance + error,
        intersects: false,
        pair: [0, 0],
        point_a: frame.transform_point(&foot),
        point_b: point,
        contained: Containment::NotChecked,
    }
}

/// A bound on the rounding of `n·p − d` (and of the division by `|n|`, relative): a dot product
/// of three terms and a subtraction err by at most `γ₄` times the sum of the magnitudes
/// (Higham, *Accuracy and Stability of Numerical Algorithms* (2002) §3.1), and a support point
/// made by a few operations on coordinates of at most `magnitude` errs by a few units of it;
/// 64 units cover both with room. Subnormal terms err absolutely: `MIN_POSITIVE` covers them.
fn rounding_bound(plane: &Plane, magnitude: f64) -> f64 {
    let scale = plane.normal.abs().sum() * magnitude + plane.offset.abs();
    64.0 * f64::EPSILON * scale + f64::MIN_POSITIVE
}

/// The lowest vertex of `mesh` above `plane` (in the mesh's frame), by branch and bound over
/// the tree: a node's key is the least height its box can reach, rounded down by the bound of
/// [`rounding_bound`].
fn lowest_vertex<V>(mesh: &MeshModel<V>, plane: &Plane) -> Lowest {
    let (tree, order, node_bounds) = (
        mesh.tree(),
        mesh.tree().triangle_order(),
        mesh.node_bounds(),
    );
    let triangles = mesh.mesh();
    let mut best = Lowest {
        point: Point::origin(),
        height: f64::INFINITY,
        feature: 0,
        magnitude: 0.0,
    };
    tree.branch_and_bound(
        |node| least_height(&node_bounds[node], plane),
        |range| {
            for position in range {
                let triangle = order[position];
                for v in triangles.triangle(triangle as usize).vertices() {
                    let height = plane.normal.dot(&v.coords) - plane.offset;
                    if height < best.height {
                        best = Lowest {
                            point: v,
                            height,
                            feature: triangle,
                            magnitude: v.coords.amax(),
                        };
                    }
                }
            }
            best.height
        },
    );
    best.magnitude = best.magnitude.max(mesh.bounds().largest_coordinate());
    best
}

/// The least height `n·x − d` over the box, rounded down (a lower bound of the exact value).
fn least_height(bounds: &Aabb, plane: &Plane) -> f64 {
    let lowest = Point::from(Vector::from_fn(|i, _| {
        if plane.normal[i] >= 0.0 {
            bounds.mins[i]
        } else {
            bounds.maxs[i]
        }
    }));
    let height = plane.normal.dot(&lowest.coords) - plane.offset;
    height - rounding_bound(plane, lowest.coords.amax())
}

/// The lowest point of a placed shape above `plane` (its support point along `−n`).
fn lowest_of_shape(shape: &PlacedShape, plane: &Plane) -> Lowest {
    let down = -plane.normal / plane.normal.norm();
    let (point, radius) = match shape {
        PlacedShape::Sphere { center, radius } => (*center + down * *radius, *radius),
        PlacedShape::Capsule { a, b, radius } => (lower_of(plane, a, b) + down * *radius, *radius),
        PlacedShape::Cylinder { a, b, radius } => (rim_point(plane, a, b, *radius), *radius),
        PlacedShape::Polytope(p) => {
            let lowest = p
                .vertices()
                .iter()
                .min_by(|x, y| height(plane, x).total_cmp(&height(plane, y)))
                .expect("a polytope has vertices");
            (*lowest, 0.0)
        }
        PlacedShape::Halfspace { normal, offset } => {
            // Apart only when parallel and facing away: any point of its plane.
            (Point::from(normal * (*offset / normal.norm_squared())), 0.0)
        }
    };
    Lowest {
        point,
        height: height(plane, &point),
        feature: 0,
        magnitude: point.coords.amax() + radius,
    }
}

/// `n·p − d`, in `f64`.
fn height(plane: &Plane, p: &Point) -> f64 {
    plane.normal.dot(&p.coords) - plane.offset
}

/// The lower of two points.
fn lower_of(plane: &Plane, a: &Point, b: &Point) -> Point {
    if height(plane, a) <= height(plane, b) {
        *a
    } else {
        *b
    }
}

/// A cylinder's lowest point: on the rim of its lower cap, `radius` along the plane's downward
/// direction with the axis component removed (the cap's centre itself when the axis is along
/// the normal).
fn rim_point(plane: &Plane, a: &Point, b: &Point, radius: f64) -> Point {
    let end = lower_of(plane, a, b);
    let axis = (b - a).normalize();
    let down = -plane.normal / plane.normal.norm();
    let across = down - axis * axis.dot(&down);
    let length = across.norm();
    if length == 0.0 {
        end
    } else {
        end + across * (radius / length)
    }
}

/// The pairs within `margin` when `a` or `b` is a halfspace (the other anything): the touching
/// pairs, and (unless `first_only` found one) the mesh's triangles with a vertex within the
/// margin of the plane, or the shape's feature 0 when its lowest point is (see
/// [`shape_within`]).
pub(super) fn margin_to_halfspace<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    margin: f64,
    first_only: bool,
) -> Result<Vec<[u32; 2]>, QueryError> {
    touching_then_near(a, pose_a, b, pose_b, first_only, || {
        let facing = Facing::of(a, pose_a, b, pose_b)?;
        let (plane, plane_first) = (&facing.plane, facing.plane_first);
        let features = match &facing.other {
            Other::Mesh(mesh, _) => triangles_within(mesh, plane, margin, first_only),
            Other::Shape(placed) if shape_within(placed, plane, margin) => vec![0],
            Other::Shape(_) => Vec::new(),
        };
        Ok(features
            .into_iter()
            .map(|f| if plane_first { [0, f] } else { [f, 0] })
            .collect())
    })
}

/// Whether the point `p` swept by `radius` reaches within `margin` of the plane, exactly when
/// `margin + radius` is a float (else that sum rounded up, as `shape.rs` documents): the ball
/// of radius `margin + radius` about `p` meets the halfspace ([`halfspace_sphere`], exact).
fn point_within(plane: &Plane, p: &Point, margin: f64, radius: f64) -> bool {
    let reach = reach(margin, radius, 0.0);
    !reach.is_finite() || halfspace_sphere(&plane.normal, plane.offset, p, reach)
}

/// Whether a placed shape (apart from the halfspace) comes within `margin` of it: exactly for
/// a sphere (its centre), a capsule (its segment's ends) and a box or convex shape (its
/// vertices), by the certified interval for a cylinder (its rim's height is irrational) and a
/// halfspace (as the cylinder's margins are decided, see `cylinder.rs`).
fn shape_within(placed: &PlacedShape, plane: &Plane, margin: f64) -> bool {
    match placed {
        PlacedShape::Sphere { center, radius } => point_within(plane, center, margin, *radius),
        PlacedShape::Capsule { a, b, radius } => {
            point_within(plane, a, margin, *radius) || point_within(plane, b, margin, *radius)
        }
        PlacedShape::Polytope(p) => p
            .vertices()
            .iter()
            .any(|v| point_within(plane, v, margin, 0.0)),
        PlacedShape::Cylinder { .. } | PlacedShape::Halfspace { .. } => {
            let lowest = lowest_of_shape(placed, plane);
            answer(plane, &lowest, &Pose::identity(), false).lower <= margin
        }
    }
}

/// The triangles of `mesh` with a vertex within `margin` of `plane` (in the mesh's frame; the
/// first only, if `first_only`), each vertex decided exactly; nodes are left out when their
/// box's least height, rounded down, is above the margin.
fn triangles_within<V>(
    mesh: &MeshModel<V>,
    plane: &Plane,
    margin: f64,
    first_only: bool,
) -> Vec<u32> {
    let (tree, order, node_bounds) = (
        mesh.tree(),
        mesh.tree().triangle_order(),
        mesh.node_bounds(),
    );
    let reach = margin * plane.normal.norm() * (1.0 + 8.0 * f64::EPSILON);
    let triangles = mesh.mesh();
    let mut near = Vec::new();
    tree.branch_and_bound(
        |node| {
            if least_height(&node_bounds[node], plane) > reach {
                f64::INFINITY
            } else {
                0.0
            }
        },
        |range| {
            for position in range {
                let t = order[position];
                let vertices = triangles.triangle(t as usize).vertices();
                if vertices.iter().any(|v| point_within(plane, v, margin, 0.0)) {
                    near.push(t);
                    if first_only {
                        return f64::NEG_INFINITY;
                    }
                }
            }
            f64::INFINITY
        },
    );
    near
}
