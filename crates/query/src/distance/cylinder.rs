//! Distances and margins when a model is a cylinder (the other a mesh or any shape but a
//! halfspace, which `halfspace.rs` measures). A cylinder is no swept sphere, so it has no core
//! (see `shape.rs`); it is measured as a convex set by its support mapping instead.
//!
//! * **Against a shape.** Both are placed by their own poses; a sphere or capsule is measured
//!   by its core (centre, segment) less its radius (Ericson, *Real-Time Collision Detection*
//!   (2005) §4.5.1), a box or convex shape by its vertices' hull, another cylinder as itself,
//!   each through [`obbtree_bv::distance::certified`]: GJK on the cylinder's closed-form support
//!   (Gilbert, Johnson & Keerthi 1988) gives the points, the supporting planes along their
//!   direction certify the interval.
//! * **Against a mesh.** The cylinder is placed in the mesh's frame (as collision places it)
//!   and the mesh's tree is searched best first ([`obbtree_tree::Bvh::branch_and_bound`]), a
//!   node's key the larger of two lower bounds: the gap between its box and the cylinder's
//!   box, and the distance from its box's centre to the cylinder's axis less the radius and the
//!   box's half diagonal (the cylinder lies in the capsule of its axis and radius); each triangle
//!   is measured as the hull of its corners.
//! * **Distance.** Solids that touch (the exact, conservative collision test of
//!   [`obbtree_bv::shape`]) are at distance 0 with the collision's witness pair and, for both
//!   points, the cylinder's point found nearest the witness. Otherwise the distance, its points
//!   and the interval are the search's. The interval always holds (`lower <= d* <= upper`);
//!   the guarantee `|d − d*| <= 1e-12·(d* + L)` holds whenever the search settles (its aim is
//!   a tenth of that width). A search that does not settle is reported with its honest,
//!   wider interval: over 40,000 random cases per kind (the bv crate's
//!   `tests/cylinder_distance.rs`) about one in 8,000 against segments and triangles ends
//!   wider than the guarantee, none against points, boxes and cylinders (see
//!   `obbtree_bv::distance::certified`).
//! * **Margins.** Decided from the certified interval: within `m` when the solids touch or the
//!   lower bound is at most `m`. So the answer is never "no" for a gap within `m`, and may be
//!   "yes" for a gap above `m` by at most the interval's width (at most `1e-12·(d* + L)` when
//!   the search settles); an exact decision would be algebraic of high degree (the rim is a
//!   circle).

use super::shape::touching_then_near;
use super::{DistanceRequest, DistanceResult};
use crate::collide::{collide, CollisionRequest, Containment, Mode, PosedOverlap};
use crate::error::{check_tolerance, Operand, QueryError};
use crate::kernel::descent::best_first::box_gap_squared;
use crate::model::{Form, MeshModel, Model};
use obbtree_bv::distance::certified::Certified;
use obbtree_bv::distance::cylinder_cylinder::cylinder_cylinder;
use obbtree_bv::distance::cylinder_hull::cylinder_hull;
use obbtree_bv::distance::point_segment::closest_point;
use obbtree_bv::distance::support::{Cylinder, SUPPORT_ROUNDING};
use obbtree_bv::shape::{PlacedShape, Shape};
use obbtree_bv::{Aabb, Point, Pose};

/// Whether either model is a cylinder.
pub(super) fn involves_cylinder<V>(a: &Model<V>, b: &Model<V>) -> bool {
    let cylinder = |m: &Model<V>| matches!(m.as_shape(), Some(Shape::Cylinder(_)));
    cylinder(a) || cylinder(b)
}

/// What a cylinder is measured against, placed: a hull of points swept by a radius (a sphere's
/// centre, a capsule's segment, a polytope's vertices with radius 0), or a cylinder.
enum Other {
    Swept(Vec<Point>, f64),
    Cylinder(Cylinder),
}

impl Other {
    fn of(placed: PlacedShape) -> Self {
        match placed {
            PlacedShape::Sphere { center, radius } => Other::Swept(vec![center], radius),
            PlacedShape::Capsule { a, b, radius } => Other::Swept(vec![a, b], radius),
            PlacedShape::Polytope(p) => Other::Swept(p.vertices().to_vec(), 0.0),
            PlacedShape::Cylinder { a, b, radius } => Other::Cylinder(Cylinder { a, b, radius }),
            PlacedShape::Halfspace { .. } => unreachable!("a halfspace is measured by its plane"),
        }
    }

    /// The certified distance from `cylinder` (A) to this (B).
    fn measure(&self, cylinder: &Cylinder) -> Certified {
        match self {
            Other::Swept(points, radius) => less_radius(cylinder_hull(cylinder, points), *radius),
            Other::Cylinder(other) => cylinder_cylinder(cylinder, other),
        }
    }
}

/// The certificate for B's hull swept by `radius`: distances less the radius (rounded
/// outward), B's point moved by it towards A's.
fn less_radius(found: Certified, radius: f64) -> Certified {
    if radius == 0.0 {
        return found;
    }
    let gap = found.point_a - found.point_b;
    let length = gap.norm();
    let point_b = if length == 0.0 {
        found.point_b
    } else {
        found.point_b + gap * (radius.min(length) / length)
    };
    Certified {
        point_b,
        distance: (found.distance - radius).max(0.0),
        lower: (found.lower - radius).next_down().max(0.0),
        upper: (found.upper - radius).next_up().max(0.0),
        ..found
    }
}

/// A placed cylinder as the support mapping sees it.
fn cylinder_of(placed: PlacedShape) -> Cylinder {
    match placed {
        PlacedShape::Cylinder { a, b, radius } => Cylinder { a, b, radius },
        _ => unreachable!("a cylinder places as a cylinder"),
    }
}

/// Which side the cylinder is on, and the two models as (cylinder, other).
struct Sides<'m, V> {
    cylinder_is_a: bool,
    cylinder: (&'m Model<V>, &'m Pose),
    other: (&'m Model<V>, &'m Pose),
}

impl<'m, V> Sides<'m, V> {
    fn of(a: &'m Model<V>, pose_a: &'m Pose, b: &'m Model<V>, pose_b: &'m Pose) -> Self {
        let cylinder_is_a = matches!(a.as_shape(), Some(Shape::Cylinder(_)));
        if cylinder_is_a {
            Sides {
                cylinder_is_a,
                cylinder: (a, pose_a),
                other: (b, pose_b),
            }
        } else {
            Sides {
                cylinder_is_a,
                cylinder: (b, pose_b),
                other: (a, pose_a),
            }
        }
    }

    fn operand(&self, cylinder: bool) -> Operand {
        if cylinder == self.cylinder_is_a {
            Operand::A
        } else {
            Operand::B
        }
    }

    /// `[feature of A, feature of B]` from the other model's feature (the cylinder's is 0).
    fn pair(&self, other: u32) -> [u32; 2] {
        if self.cylinder_is_a {
            [0, other]
        } else {
            [other, 0]
        }
    }

    /// A shape placed by `pose`, or why it cannot be.
    fn place(
        &self,
        model: &Model<V>,
        pose: &Pose,
        cylinder: bool,
    ) -> Result<PlacedShape, QueryError> {
        let shape = model.as_shape().expect("a shape");
        shape
            .place(pose)
            .map_err(|source| QueryError::ShapePlacement {
                which: self.operand(cylinder),
                source,
            })
    }
}

/// What the measurement found: the certificate (cylinder as A, in the frame `frame` takes to
/// the world) and the other model's feature.
struct Found {
    certified: Certified,
    feature: u32,
    frame: Pose,
}

/// [`distance`](super::distance) when a model is a cylinder and neither a halfspace (see the
/// module docs).
pub(super) fn distance_cylinder<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &DistanceRequest,
) -> Result<DistanceResult, QueryError> {
    check_tolerance("rel_err", request.rel_err)?;
    check_tolerance("abs_err", request.abs_err)?;
    let touching = collide(a, pose_a, b, pose_b, &CollisionRequest::new(Mode::First))?;
    let sides = Sides::of(a, pose_a, b, pose_b);
    let witness = touching.intersects.then(|| touching.pairs[0]);
    let found = measure(&sides, witness)?;
    let world = |p: &Point| found.frame.transform_point(p);
    let (cylinder_point, other_point) = (
        world(&found.certified.point_a),
        world(&found.certified.point_b),
    );
    let c = &found.certified;
    let mut result = match witness {
        Some(pair) => DistanceResult {
            distance: 0.0,
            lower: 0.0,
            upper: 0.0,
            intersects: true,
            pair,
            point_a: cylinder_point,
            point_b: cylinder_point,
            contained: Containment::NotChecked,
        },
        None => DistanceResult {
            distance: c.distance,
            lower: c.lower,
            upper: c.upper,
            intersects: false,
            pair: sides.pair(found.feature),
            point_a: cylinder_point,
            point_b: other_point,
            contained: Containment::NotChecked,
        },
    };
    if !sides.cylinder_is_a {
        std::mem::swap(&mut result.point_a, &mut result.point_b);
    }
    Ok(result)
}

/// The certified distance between the cylinder and the other model; with a touching `witness`
/// pair, that pair's.
fn measure<V>(sides: &Sides<'_, V>, witness: Option<[u32; 2]>) -> Result<Found, QueryError> {
    let ((cylinder, pose_c), (other, pose_o)) = (sides.cylinder, sides.other);
    match other.form() {
        Form::Mesh(mesh) => {
            let placed = sides.place(cylinder, &pose_o.inv_mul(pose_c), true)?;
            let cylinder = cylinder_of(placed);
            let (certified, feature) = match witness {
                Some([i, j]) => {
                    let t = if sides.cylinder_is_a { j } else { i };
                    (measure_triangle(mesh, &cylinder, t), t)
                }
                None => nearest_triangle(mesh, &cylinder),
            };
            Ok(Found {
                certified,
                feature,
                frame: *pose_o,
            })
        }
        Form::Shape(_) => {
            let cylinder = cylinder_of(sides.place(cylinder, pose_c, true)?);
            let placed = sides.place(other, pose_o, false)?;
            Ok(Found {
                certified: Other::of(placed).measure(&cylinder),
                feature: 0,
                frame: Pose::identity(),
            })
        }
    }
}

/// The certified distance from `cylinder` to triangle `t` of `mesh` (both in the mesh's frame).
fn measure_triangle<V>(mesh: &MeshModel<V>, cylinder: &Cylinder, t: u32) -> Certified {
    let triangle = mesh.mesh().triangle(t as usize);
    cylinder_hull(cylinder, &triangle.vertices())
}

/// A lower bound on the distance from `cylinder` to any point of `bounds`: the larger of the
/// gap between boxes and the capsule bound (see the module docs), each rounded down.
fn box_lower_bound(cylinder: &Cylinder, around: &Aabb, bounds: &Aabb) -> f64 {
    let gap_squared = box_gap_squared(around, bounds) * (1.0 - 4.0 * f64::EPSILON);
    let gap = gap_squared.sqrt() * (1.0 - 2.0 * f64::EPSILON);
    let centre = Point::from((bounds.mins.coords + bounds.maxs.coords) / 2.0);
    let half_diagonal = ((bounds.maxs - bounds.mins) / 2.0).norm() * (1.0 + 4.0 * f64::EPSILON);
    let on_axis = closest_point(&centre, &cylinder.a, &cylinder.b);
    let magnitude = bounds.largest_coordinate().max(around.largest_coordinate());
    let capsule =
        (centre - on_axis).norm() - cylinder.radius - half_diagonal - SUPPORT_ROUNDING * magnitude;
    gap.max(capsule).max(0.0)
}

/// The box around a placed cylinder (its capsule's).
fn around(cylinder: &Cylinder) -> Aabb {
    PlacedShape::Cylinder {
        a: cylinder.a,
        b: cylinder.b,
        radius: cylinder.radius,
    }
    .aabb()
    .expect("a cylinder is bounded")
}

/// A search of a mesh's tree (in the mesh's frame) around a cylinder: the lower bound of a
/// box of the tree, by node or by triangle position, and the triangle at a position.
struct TreeAround<'m, V> {
    mesh: &'m MeshModel<V>,
    cylinder: &'m Cylinder,
    around: Aabb,
}

impl<'m, V> TreeAround<'m, V> {
    fn new(mesh: &'m MeshModel<V>, cylinder: &'m Cylinder) -> Self {
        Self {
            mesh,
            cylinder,
            around: around(cylinder),
        }
    }

    /// A lower bound on the distance from the cylinder to anything under node `node`.
    fn node_bound(&self, node: usize) -> f64 {
        box_lower_bound(self.cylinder, &self.around, &self.mesh.node_bounds()[node])
    }

    /// A lower bound on the distance from the cylinder to the triangle at `position` of the
    /// tree's order.
    fn triangle_bound(&self, position: usize) -> f64 {
        box_lower_bound(
            self.cylinder,
            &self.around,
            &self.mesh.boxed()[position].bounds,
        )
    }

    /// The mesh's index of the triangle at `position` of the tree's order.
    fn triangle(&self, position: usize) -> u32 {
        self.mesh.tree().triangle_order()[position]
    }

    fn measure(&self, t: u32) -> Certified {
        measure_triangle(self.mesh, self.cylinder, t)
    }
}

/// The triangle of `mesh` nearest `cylinder` (in the mesh's frame), best first over the tree;
/// the certificate's lower bound is the least over every triangle (measured, or left out by a
/// bound at least the distance found).
fn nearest_triangle<V>(mesh: &MeshModel<V>, cylinder: &Cylinder) -> (Certified, u32) {
    let search = TreeAround::new(mesh, cylinder);
    let mut best: Option<(Certified, u32)> = None;
    let mut lower = f64::INFINITY;
    mesh.tree().branch_and_bound(
        |node| search.node_bound(node),
        |range| {
            let mut enough = best.map_or(f64::INFINITY, |(c, _)| c.distance);
            for position in range {
                if search.triangle_bound(position) >= enough {
                    continue;
                }
                let t = search.triangle(position);
                let found = search.measure(t);
                lower = lower.min(found.lower);
                if found.distance < enough {
                    enough = found.distance;
                    best = Some((found, t));
                }
            }
            enough
        },
    );
    let (mut certified, t) = best.expect("a mesh has a triangle");
    certified.lower = lower.min(certified.distance).min(certified.lower);
    certified.upper = certified.upper.max(certified.lower);
    (certified, t)
}

/// The pairs within `margin` when a model is a cylinder and neither a halfspace: the touching
/// pairs, and (unless `first_only` found one) the pairs whose certified lower bound is at most
/// the margin (see the module docs).
pub(super) fn margin_cylinder<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    margin: f64,
    first_only: bool,
) -> Result<Vec<[u32; 2]>, QueryError> {
    touching_then_near(a, pose_a, b, pose_b, first_only, || {
        let sides = Sides::of(a, pose_a, b, pose_b);
        let ((cylinder, pose_c), (other, pose_o)) = (sides.cylinder, sides.other);
        Ok(match other.form() {
            Form::Mesh(mesh) => {
                let placed = sides.place(cylinder, &pose_o.inv_mul(pose_c), true)?;
                let near = triangles_within(mesh, &cylinder_of(placed), margin, first_only);
                near.into_iter().map(|t| sides.pair(t)).collect()
            }
            Form::Shape(_) => {
                let cylinder = cylinder_of(sides.place(cylinder, pose_c, true)?);
                let placed = sides.place(other, pose_o, false)?;
                if Other::of(placed).measure(&cylinder).lower <= margin {
                    vec![[0, 0]]
                } else {
                    Vec::new()
                }
            }
        })
    })
}

/// The triangles of `mesh` whose certified lower bound from `cylinder` is at most `margin`
/// (the first only, if `first_only`).
fn triangles_within<V>(
    mesh: &MeshModel<V>,
    cylinder: &Cylinder,
    margin: f64,
    first_only: bool,
) -> Vec<u32> {
    let search = TreeAround::new(mesh, cylinder);
    // Boxes beyond the margin are left out (an infinite key).
    let key = |bound: f64| if bound > margin { f64::INFINITY } else { bound };
    let mut near = Vec::new();
    mesh.tree().branch_and_bound(
        |node| key(search.node_bound(node)),
        |range| {
            for position in range {
                if key(search.triangle_bound(position)) == f64::INFINITY {
                    continue;
                }
                let t = search.triangle(position);
                if search.measure(t).lower <= margin {
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
