//! Containment of closed meshes: point in a closed mesh by exact ray parity, through the tree.
//!
//! parry and FCL treat meshes as hollow shells; for two *closed* meshes whose surfaces do not
//! meet, this tells "disjoint" from "one solid inside the other". Shapes are solids already: a
//! point is in a shape when the ball of radius 0 about it touches the shape (the exact tests of
//! [`obbtree_bv::shape`]), and [`mesh_and_shape`] tells where a mesh and a shape lie.

use super::shape::place as place_shape;
use super::PosedOverlap;
use crate::error::{check_placed, check_point, Operand, QueryError};
use crate::kernel::place;
use crate::kernel::posed::grown_segment_box;
use crate::model::Form;
use crate::pick::Stack;
use crate::MeshModel;
use crate::Model;
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::pose::ORTHONORMAL_TOLERANCE;
use obbtree_bv::predicates::{orient2d as exact_orient2d, orient3d, orient3d_pair};
use obbtree_bv::shape::{touches, PlacedShape};
use obbtree_bv::{Aabb, BoundingVolume, Point, Pose, Triangle, Vector};
use obbtree_tree::wide::{Child, Node as WideNode, WideTree, WIDTH};
use rand::{Rng, SeedableRng};
use robust::{orient2d, Coord};
use std::ops::ControlFlow;

pub use super::request::Containment;

/// Directions tried before giving up on a point whose every ray grazes an edge (never seen:
/// a random direction grazes with probability zero).
const MAX_RAYS: usize = 256;

/// How far the segment culling may be off, in the mesh frame, from the world segment and the
/// placed triangles the crossings are decided on: the rounding of moving the point into the mesh
/// frame and of placing the far end and the triangles (a few ulps of the world coordinates and
/// the translation: 64 of them), and the deviation of `Rᵀ` from `R⁻¹` for a rotation that is
/// orthonormal only to [`ORTHONORMAL_TOLERANCE`] (`Rᵀ` moves the point, `R` places the mesh),
/// a few times the tolerance of the point's distance from the mesh's origin.
fn segment_pad(pose: &Pose, p: &Point, far: &Point, local: &Point, far_local: &Point) -> f64 {
    let world = p.coords.abs().sum() + far.coords.abs().sum() + pose.translation().abs().sum();
    let mesh = local.coords.abs().sum() + far_local.coords.abs().sum();
    64.0 * f64::EPSILON * (world + mesh) + 4.0 * ORTHONORMAL_TOLERANCE * local.coords.abs().sum()
}

/// For meshes whose surfaces do not meet (the caller has checked), whether one solid lies
/// inside the other: [`Containment::OpenMesh`] when a mesh is not closed. B is placed in A's frame
/// by `b_in_a`. A component whose surface meets no triangle of the other mesh lies wholly inside
/// or wholly outside the other solid, so one vertex of each decides it. B's solid lies inside
/// A's exactly when every component of B does and no component of A lies inside B's solid (a
/// shell of B inside the wall of a hollow A still encloses A's cavity); the solids overlap
/// without containment when some component of either lies inside the other.
pub(crate) fn between<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
) -> Containment {
    if !a.is_closed() || !b.is_closed() {
        return Containment::OpenMesh;
    }
    let identity = Pose::identity();
    let inside =
        |m: &MeshModel<V>, pose: &Pose, other: &MeshModel<V>, other_pose: &Pose| -> Vec<bool> {
            m.component_seeds()
                .iter()
                .map(|&v| place(pose, &m.mesh().vertices()[v as usize]))
                .map(|p| contains_local(other, other_pose, &p))
                .collect()
        };
    let b_in_a_parts = inside(b, b_in_a, a, &identity);
    let a_in_b_parts = inside(a, &identity, b, b_in_a);
    let (all, any) = (
        |v: &[bool]| v.iter().all(|&x| x),
        |v: &[bool]| v.iter().any(|&x| x),
    );
    match (
        any(&b_in_a_parts),
        all(&b_in_a_parts),
        any(&a_in_b_parts),
        all(&a_in_b_parts),
    ) {
        (_, true, false, _) => Containment::BInA,
        (false, _, _, true) => Containment::AInB,
        (false, _, false, _) => Containment::Disjoint,
        _ => Containment::Overlapping,
    }
}

/// Whether `p` lies in the closed solid bounded by the model's mesh placed by `pose` (points on
/// the surface count as inside). The mesh should be closed ([`Model::is_closed`]); for an open
/// mesh the answer is the parity of one ray's crossings, which means little.
///
/// Exact: a segment from `p` to a point beyond the mesh crosses the placed triangles, each
/// crossing decided by the signs of `orient3d` (Shewchuk's adaptive predicate). When the segment
/// passes exactly through an edge or a vertex, or lies in a triangle's plane, another direction
/// is drawn (from a fixed-seed generator, so answers are reproducible). The tree culls triangles
/// with [`PosedOverlap::meets_segment`], conservative, on the segment moved into the mesh frame
/// and padded for the rounding of that move.
///
/// A shape is a closed solid: `p` is in it when it lies in the placed shape or on its surface,
/// decided exactly (the shape's touch test against the point as a sphere of radius 0).
///
/// An error when `p` is not finite or beyond [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE),
/// or when the mesh placed by `pose` would be, or the shape cannot be placed by it
/// ([`QueryError`]).
pub fn contains_point<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    p: &Point,
) -> Result<bool, QueryError> {
    check_point(p)?;
    match model.form() {
        Form::Mesh(mesh) => {
            check_placed(mesh, pose, Operand::Model)?;
            Ok(contains_local(mesh, pose, p))
        }
        Form::Shape(shape) => Ok(shape_contains(
            &place_shape(shape, pose, Operand::Model)?,
            p,
        )),
    }
}

/// Whether the closed solid `placed` holds `p`: the ball of radius 0 about `p` touches it,
/// which each exact test of [`touches`] decides as a squared distance compared with 0 or a
/// point against exact face planes (Ericson, *Real-Time Collision Detection* (2005) §5.2).
pub(crate) fn shape_contains(placed: &PlacedShape, p: &Point) -> bool {
    touches(
        &PlacedShape::Sphere {
            center: *p,
            radius: 0.0,
        },
        placed,
    )
}

/// Where a mesh and a shape (placed in the mesh's frame) lie, given whether they touch; the
/// mesh is A when `mesh_is_a`. Shapes are solids, so:
///
/// * Touching: if every vertex of the mesh lies in the shape (a convex solid, so every
///   triangle does too), the mesh lies in the shape ([`Containment::OpenMesh`] for an open
///   mesh, which bounds no solid); otherwise the mesh's surface crosses the shape's
///   ([`Containment::SurfacesIntersect`]).
/// * Not touching: the shape meets no triangle, so it lies wholly inside or wholly outside the
///   closed mesh's solid, and one of its points decides which ([`contains_local`]). A halfspace
///   is unbounded: it is never inside.
pub(crate) fn mesh_and_shape<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    placed: &PlacedShape,
    touching: bool,
    mesh_is_a: bool,
) -> Containment {
    let (mesh_inside, shape_inside) = if mesh_is_a {
        (Containment::AInB, Containment::BInA)
    } else {
        (Containment::BInA, Containment::AInB)
    };
    if touching {
        let vertices = mesh.mesh().vertices();
        return if !vertices.iter().all(|v| shape_contains(placed, v)) {
            Containment::SurfacesIntersect
        } else if mesh.is_closed() {
            mesh_inside
        } else {
            Containment::OpenMesh
        };
    }
    if !mesh.is_closed() {
        return Containment::OpenMesh;
    }
    match shape_point(placed) {
        Some(p) if contains_local(mesh, &Pose::identity(), &p) => shape_inside,
        _ => Containment::Disjoint,
    }
}

/// A point of a bounded placed shape (a centre, an axis end, a corner); `None` for a halfspace.
fn shape_point(placed: &PlacedShape) -> Option<Point> {
    match placed {
        PlacedShape::Sphere { center, .. } => Some(*center),
        PlacedShape::Capsule { a, .. } | PlacedShape::Cylinder { a, .. } => Some(*a),
        PlacedShape::Polytope(p) => p.vertices().first().copied(),
        PlacedShape::Halfspace { .. } => None,
    }
}

/// [`contains_point`] on checked input.
fn contains_local<V: PosedOverlap>(model: &MeshModel<V>, pose: &Pose, p: &Point) -> bool {
    match ray_crossings(model, pose, p) {
        RayCrossings::OnSurface => true,
        RayCrossings::Through { count, .. } => count % 2 == 1,
    }
}

/// A point off the surface of a closed mesh (world frame), its winding number, and the radius
/// of an open ball about it that no point of the placed surface enters (0 when not known).
#[derive(Clone, Copy, Debug)]
struct Decided {
    point: Point,
    winding: i64,
    clear: f64,
}

/// How many points lately decided off the surface [`Known`] keeps.
const RECENT: usize = 4;

/// The points lately decided off the surface of a closed mesh, from which a batch decides the
/// next point's winding number (see [`winding_after`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Known {
    /// The latest first.
    recent: [Option<Decided>; RECENT],
}

impl Known {
    /// The point decided last.
    fn push(&mut self, decided: Decided) {
        self.recent.rotate_right(1);
        self.recent[0] = Some(decided);
    }

    /// The kept points, the latest first.
    fn points(&self) -> impl Iterator<Item = &Decided> {
        self.recent.iter().map_while(Option::as_ref)
    }

    /// A kept point whose segment to `p` lies in the two clear balls ([`in_clear_balls`]), or
    /// else the one whose segment leaves least of its length outside them.
    fn nearest(&self, p: &Point, clear: f64) -> Option<&Decided> {
        let gap = |d: &Decided| (p - d.point).norm() - d.clear - clear;
        self.points()
            .find(|d| in_clear_balls(d, p, clear))
            .or_else(|| self.points().min_by(|x, y| gap(x).total_cmp(&gap(y))))
    }
}

/// The radius of an open ball about `p` (world frame) that no point of the closed mesh placed
/// by `pose` enters, given `lower`, a certified lower bound on the distance from `local` (`p`
/// moved into the mesh's frame) to the mesh; 0 when none is known. `lower` shrinks by what
/// separates the mesh frame from the world frame the crossings are decided in: the rounding of
/// moving `p` and of placing the triangles (a few ulps of the coordinates, the translation and
/// the mesh's largest coordinate: 64 of them), and a rotation orthonormal only to
/// [`ORTHONORMAL_TOLERANCE`], which stretches distances by up to that relative amount and
/// maps `local` back to within that fraction of `|local|` of `p`.
pub(crate) fn clear_radius<V>(
    model: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    local: &Point,
    lower: f64,
) -> f64 {
    let size = 3.0 * model.bounds().largest_coordinate();
    let magnitudes =
        p.coords.abs().sum() + local.coords.abs().sum() + pose.translation().abs().sum();
    let pad = 64.0 * f64::EPSILON * (magnitudes + size)
        + 4.0 * ORTHONORMAL_TOLERANCE * (local.coords.abs().sum() + lower);
    (lower - pad).max(0.0)
}

/// [`contains_point`] for the closed mesh placed by `pose` (in the exact range) and a checked
/// point `p`, given `known`, the points lately decided off the surface, and `clear`, the radius of
/// a ball about `p` that the surface does not enter (see [`winding_after`]): an odd winding
/// number, or a point on the surface.
pub(crate) fn contains_after<V: PosedOverlap>(
    model: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    clear: f64,
    known: &mut Known,
) -> bool {
    winding_after(model, pose, p, clear, known).is_none_or(|w| w.rem_euclid(2) == 1)
}

/// The winding number of the closed mesh placed by `pose` (in the exact range) about a checked
/// point `p`, exactly, or `None` when `p` lies on the surface; `known` holds the points lately
/// decided off the surface with their winding numbers, and takes `p` when `p` lies off the
/// surface.
///
/// A path between two points off a closed surface changes the winding number by one for each
/// crossing of a triangle's interior, +1 where it passes to the triangle's back (the degree
/// argument behind ray parity, with signs: O'Rourke, *Computational Geometry in C* (1998)
/// §7.4), so the short segment from a recent point decides `p` from the few triangles near it,
/// with the same exact orientations as a ray. When the segment grazes an edge or a vertex, runs
/// in a triangle's plane or ends on the surface, a ray from `p` decides.
///
/// `clear` is the radius of an open ball about `p` that the surface does not enter (0 when not
/// known; see [`clear_radius`]). When a segment is shorter than the two points' radii
/// together, each of its points lies in one of the two balls, so it crosses nothing and `p`
/// takes the known point's winding number without a look at the tree. Otherwise only the part
/// of the segment between the balls is crossed (from the recent point that leaves the least
/// of it), since every point of a clear ball has its centre's winding number.
pub(crate) fn winding_after<V: PosedOverlap>(
    model: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    clear: f64,
    known: &mut Known,
) -> Option<i64> {
    let across = known.nearest(p, clear).and_then(|known| {
        if in_clear_balls(known, p, clear) {
            Some(known.winding)
        } else {
            let from = into_clear_ball(p, &known.point, clear);
            let to = into_clear_ball(&known.point, p, known.clear);
            winding_across(model, pose, known.winding, &from, &to)
        }
    });
    let winding = match across {
        Some(winding) => winding,
        None => match ray_crossings(model, pose, p) {
            RayCrossings::OnSurface => return None,
            RayCrossings::Through { winding, .. } => winding,
        },
    };
    known.push(Decided {
        point: *p,
        winding,
        clear,
    });
    Some(winding)
}

/// Whether the segment from the known point to `p` lies in the union of the open balls of
/// radii `known.clear` and `clear` about its ends: its length, rounded up, is below the sum of
/// the radii, rounded down.
fn in_clear_balls(known: &Decided, p: &Point, clear: f64) -> bool {
    let length = (p - known.point).norm() * (1.0 + 4.0 * f64::EPSILON);
    length < (known.clear + clear) * (1.0 - 2.0 * f64::EPSILON)
}

/// A point of the open ball of radius `clear` about `from`, on the segment towards `to` (at
/// 0.99 of the radius, further than `to` is not: the caller's segment is longer than the
/// radius), or `from` itself when the ball is too small for the rounding of that step (16 ulps
/// of the two points' coordinates, against the 1% of the radius left to spare).
fn into_clear_ball(from: &Point, to: &Point, clear: f64) -> Point {
    let rounding = 16.0 * f64::EPSILON * (from.coords.abs().sum() + to.coords.abs().sum());
    if rounding >= 0.01 * clear {
        return *from;
    }
    let along = to - from;
    from + along * (0.99 * clear / along.norm())
}

/// The winding number about `p` from `winding`, the known point's, and the crossings of the
/// segment between them (each counted with `p`'s side of the triangle: +1 when `p` lies
/// behind it); `None` unless every crossing is a clean pass through a triangle's interior and
/// `p` lies off the surface.
pub(crate) fn winding_across<V: PosedOverlap>(
    model: &MeshModel<V>,
    pose: &Pose,
    winding: i64,
    p: &Point,
    known: &Point,
) -> Option<i64> {
    let (local, known_local) = (
        pose.inverse_transform_point(p),
        pose.inverse_transform_point(known),
    );
    let pad = segment_pad(pose, p, known, &local, &known_local);
    let mut change = 0;
    let segment = [*p, *known, local, known_local];
    match crossings(model, pose, &segment, pad, |_, side| {
        change += i64::from(side)
    }) {
        Crossings::Clear => Some(winding + change),
        Crossings::OnSurface | Crossings::Graze => None,
    }
}

/// What a ray from a point meets.
enum RayCrossings {
    /// The point lies on a triangle.
    OnSurface,
    /// The ray crosses this many triangle interiors, with this signed sum.
    Through { count: usize, winding: i64 },
}

/// The crossings of a ray from `p` (world frame) with the mesh placed by `pose`, the ray drawn
/// again while it grazes an edge or a vertex or runs in a triangle's plane.
fn ray_crossings<V: PosedOverlap>(model: &MeshModel<V>, pose: &Pose, p: &Point) -> RayCrossings {
    let local = pose.inverse_transform_point(p);
    let reach = reach(model, &local);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(0x0bb7_4ee5);
    let mut dir = Vector::new(0.5773, 0.5967, 0.5571);
    let mut last = RayCrossings::Through {
        count: 0,
        winding: 0,
    };
    for _ in 0..MAX_RAYS {
        let far_local = local + dir.normalize() * reach;
        let far = far_point(&place(pose, &far_local));
        let pad = segment_pad(pose, p, &far, &local, &far_local);
        let (mut count, mut winding) = (0, 0);
        let segment = [*p, far, local, far_local];
        let outcome = crossings(model, pose, &segment, pad, |_, side| {
            count += 1;
            // orient3d is positive behind a triangle (Shewchuk's "below").
            winding += i64::from(side);
        });
        match outcome {
            Crossings::Clear => return RayCrossings::Through { count, winding },
            Crossings::OnSurface => return RayCrossings::OnSurface,
            Crossings::Graze => last = RayCrossings::Through { count, winding },
        }
        dir = loop {
            let d = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0));
            if (0.01..=1.0).contains(&d.norm_squared()) {
                break d;
            }
        };
    }
    last
}

/// A length that takes a segment from `local` (mesh frame) beyond the mesh's box, with room.
fn reach<V>(model: &MeshModel<V>, local: &Point) -> f64 {
    let bounds = model.bounds();
    2.0 * ((bounds.maxs - bounds.mins).norm() + (local - bounds.center()).norm()) + 1.0
}

/// Whether the closed solid of `model` (in its own frame) holds each point of `row`: points on
/// one line, in order from `row[0]`. One segment from `row[0]` along the line to beyond the
/// mesh decides them all: a triangle it crosses lies beyond a point exactly when the point is
/// on `row[0]`'s side of the triangle's plane (exact orientations), and a point holds the
/// parity of the crossings beyond it (a point in a crossed triangle's plane is that crossing,
/// on the surface). When the segment grazes an edge or a vertex, or starts on the surface,
/// each point is decided alone ([`contains_point`]'s rays).
pub(crate) fn row_inside<V: PosedOverlap>(model: &MeshModel<V>, row: &[Point]) -> Vec<bool> {
    let (Some(first), Some(last)) = (row.first(), row.last()) else {
        return Vec::new();
    };
    let identity = Pose::identity();
    let along = last - first;
    let direction = if along.norm() > 0.0 {
        along.normalize()
    } else {
        Vector::z()
    };
    let far = far_point(&(first + direction * reach(model, first)));
    let pad = segment_pad(&identity, first, &far, first, &far);
    let mut crossed = Vec::new();
    let segment = [*first, far, *first, far];
    let outcome = crossings(model, &identity, &segment, pad, |t, side| {
        crossed.push((model.mesh().triangle(t as usize).vertices(), side));
    });
    if !matches!(outcome, Crossings::Clear) {
        return row
            .iter()
            .map(|p| contains_local(model, &identity, p))
            .collect();
    }
    row.iter()
        .map(|p| {
            let mut beyond = 0;
            for ([a, b, c], side) in &crossed {
                match orient3d(a, b, c, p) {
                    0 => return true,
                    s if s == *side => beyond += 1,
                    _ => {}
                }
            }
            beyond % 2 == 1
        })
        .collect()
}

/// `q` with coordinates too small for the exact predicates set to 0: a far point moves by less
/// than `1e-70`, and stays far beyond the mesh (at least 1 from its box), so the parity it gives
/// is the same; every coordinate of the segment then lies in the exact range.
fn far_point(q: &Point) -> Point {
    q.map(|c| {
        if c.abs() < obbtree_bv::MIN_NONZERO_COORDINATE {
            0.0
        } else {
            c
        }
    })
}

enum Crossings {
    /// The segment crosses triangle interiors only, and touches no edge.
    Clear,
    /// The start point lies on a triangle.
    OnSurface,
    /// The segment meets an edge or a vertex, or lies in the plane of a triangle whose box it
    /// meets.
    Graze,
}

/// Crossings of the segment `p q` (query frame) with the model's triangles placed by `pose`,
/// `segment = [p, q, lp, lq]`: `crossed(t, side)` hears of each triangle whose interior it
/// crosses, with `p`'s side of it (`orient3d`'s sign). `lp lq` is the segment in the mesh frame,
/// used for culling only, within `pad` of the segment `p q` seen from there ([`segment_pad`]);
/// a triangle whose box misses the segment's (exact: [`aabb_aabb::overlaps`]) is left out
/// before its orientations. The candidates come from the picking tree when point queries have
/// built it (four boxes a step, each leaf's vertices stored together), else from the model's
/// own tree; either culls conservatively, so both hear of the same crossings.
fn crossings<V: PosedOverlap>(
    model: &MeshModel<V>,
    pose: &Pose,
    [p, q, lp, lq]: &[Point; 4],
    pad: f64,
    mut crossed: impl FnMut(u32, i8),
) -> Crossings {
    let reach = Aabb::from_points([p, q]);
    let mut visit = |t: u32, triangle: &Triangle| {
        let vertices = triangle.vertices().map(|v| place(pose, &v));
        if !aabb_aabb::overlaps(&Aabb::from_points(&vertices), &reach) {
            return ControlFlow::Continue(());
        }
        match crossing(&vertices, p, q) {
            Crossing::None => ControlFlow::Continue(()),
            Crossing::Through(side) => {
                crossed(t, side);
                ControlFlow::Continue(())
            }
            Crossing::Stop(stop) => ControlFlow::Break(stop),
        }
    };
    let walked = match model.built_pick_tree() {
        Some(wide) => wide_candidates(wide, [lp, lq], pad, &mut visit),
        None => binary_candidates(model, [lp, lq], pad, &mut visit),
    };
    match walked {
        ControlFlow::Continue(()) => Crossings::Clear,
        ControlFlow::Break(stop) => stop,
    }
}

/// Each triangle of the model's own tree in a leaf whose volume may meet the segment `lp lq`
/// grown by `pad` (mesh frame), handed to `visit` (unplaced) until it breaks.
fn binary_candidates<V: PosedOverlap>(
    model: &MeshModel<V>,
    [lp, lq]: [&Point; 2],
    pad: f64,
    visit: &mut impl FnMut(u32, &Triangle) -> ControlFlow<Crossings>,
) -> ControlFlow<Crossings> {
    let tree = model.tree();
    for node in tree.descend(|bv| bv.meets_segment(lp, lq, pad)) {
        for &t in tree.leaf_triangles(node) {
            visit(t, &model.mesh().triangle(t as usize))?;
        }
    }
    ControlFlow::Continue(())
}

/// [`binary_candidates`] over the picking tree: a node's four boxes tested by the same
/// conservative segment test ([`PosedOverlap::meets_segment`] of [`Aabb`]), depth first.
fn wide_candidates(
    tree: &WideTree,
    [lp, lq]: [&Point; 2],
    pad: f64,
    visit: &mut impl FnMut(u32, &Triangle) -> ControlFlow<Crossings>,
) -> ControlFlow<Crossings> {
    // A triangle the caller's segment meets lies in a child's box, and that segment within
    // `pad` of `lp lq`, so the child's box comes within `pad` of `lp lq`'s box; the second
    // `pad` and the relative growth cover the rounding of the growth itself (an ulp of the
    // coordinates), so a child whose box misses this one holds no triangle the segment meets.
    let around = grown_segment_box(lp, lq, 2.0 * pad);
    let mut pending = Stack::<Child>::new();
    let mut next = Some(tree.root);
    while let Some(child) = next.take().or_else(|| pending.pop()) {
        if child.count > 0 {
            for position in child.start as usize..(child.start + child.count) as usize {
                let t = tree.triangles.index(position);
                visit(t, &tree.triangles.triangle(position))?;
            }
            continue;
        }
        let node = &tree.nodes[child.start as usize];
        let near = boxes_near(node, &around);
        for (slot, &kid) in node.children.iter().enumerate() {
            if near[slot] && wide_box(node, slot).is_some_and(|b| b.meets_segment(lp, lq, pad)) {
                match next {
                    None => next = Some(kid),
                    Some(_) => pending.push(kid),
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Which of a wide node's boxes overlap `around`, side by side (no branch; an empty slot, whose
/// box is inverted, overlaps nothing).
#[inline]
fn boxes_near(node: &WideNode, around: &Aabb) -> [bool; WIDTH] {
    let mut near = [true; WIDTH];
    for k in 0..3 {
        for (slot, near) in near.iter_mut().enumerate() {
            *near &= (f64::from(node.lo[k][slot]) <= around.maxs[k])
                & (around.mins[k] <= f64::from(node.hi[k][slot]));
        }
    }
    near
}

/// The box of a wide node's child in slot `slot` (in `f64`: its `f32` bounds exactly), or
/// `None` for an empty slot.
fn wide_box(node: &WideNode, slot: usize) -> Option<Aabb> {
    let corner =
        |bounds: &[[f32; WIDTH]; 3]| Point::from([0, 1, 2].map(|k| f64::from(bounds[k][slot])));
    let (lo, hi) = (corner(&node.lo), corner(&node.hi));
    (lo.x <= hi.x).then(|| Aabb::new(lo, hi))
}

/// How the segment `p q` meets one placed triangle.
enum Crossing {
    /// It does not cross the interior (or the triangle has no area).
    None,
    /// It crosses the interior, `p` on this side (`orient3d`'s sign).
    Through(i8),
    /// It starts on the triangle, or grazes it: the walk stops with this.
    Stop(Crossings),
}

/// [`Crossing`] of the segment `p q` with the placed triangle `vertices`, by exact
/// orientations (on a triangle whose box the segment's box meets: the few that the box test
/// in [`crossings`] leaves).
fn crossing(vertices: &[Point; 3], p: &Point, q: &Point) -> Crossing {
    let [a, b, c] = vertices;
    let [sp, sq] = orient3d_pair(a, b, c, p, q);
    if sp == 0 && sq == 0 {
        if in_plane_area(vertices) {
            return Crossing::Stop(Crossings::Graze);
        }
        return Crossing::None; // a zero-area triangle: nothing to cross
    }
    if sp == 0 {
        if holds_coplanar(vertices, p) {
            return Crossing::Stop(Crossings::OnSurface);
        }
        return Crossing::None; // the segment meets the plane only at p, outside the triangle
    }
    if sp * sq >= 0 {
        return Crossing::None; // both on one side, or q (outside the mesh's box) on the plane
    }
    let e = [(a, b), (b, c), (c, a)].map(|(u, v)| orient3d(p, q, u, v));
    if e.contains(&1) && e.contains(&-1) {
        return Crossing::None;
    }
    if e.contains(&0) {
        return Crossing::Stop(Crossings::Graze);
    }
    Crossing::Through(sp)
}

/// The 2D orientations of a triangle's three coordinate projections (its normal's components,
/// exactly in sign).
fn projected_areas(v: &[Point; 3]) -> [f64; 3] {
    let c2 = |p: &Point, k: usize| Coord {
        x: p[(k + 1) % 3],
        y: p[(k + 2) % 3],
    };
    [0, 1, 2].map(|k| orient2d(c2(&v[0], k), c2(&v[1], k), c2(&v[2], k)))
}

/// Whether the triangle has non-zero area (exactly).
fn in_plane_area(v: &[Point; 3]) -> bool {
    projected_areas(v).iter().any(|&o| o != 0.0)
}

/// Whether `p`, lying in the plane of the triangle `v`, lies in the closed triangle (exact, in
/// the coordinate plane where the triangle's projection is largest; a zero-area triangle holds
/// nothing, its neighbours decide).
fn holds_coplanar(v: &[Point; 3], p: &Point) -> bool {
    let areas = projected_areas(v);
    let Some(k) = (0..3)
        .filter(|&k| areas[k] != 0.0)
        .max_by(|&i, &j| areas[i].abs().total_cmp(&areas[j].abs()))
    else {
        return false;
    };
    let c2 = |p: &Point| Coord {
        x: p[(k + 1) % 3],
        y: p[(k + 2) % 3],
    };
    let o = [0, 1, 2].map(|i| exact_orient2d(&c2(&v[i]), &c2(&v[(i + 1) % 3]), &c2(p)));
    !(o.contains(&1) && o.contains(&-1))
}
