//! Distances and margins when a model is a shape: the shape is measured by its core (a mesh
//! and a radius: a sphere's centre, a capsule's segment, a box's or convex hull's boundary
//! triangles with radius 0; see `model::Core`) through the mesh–mesh queries, after an exact
//! collision test has said the solids do not touch.
//!
//! * **Distance.** Solids that touch are at distance 0 (the pair is the collision's witness).
//!   Otherwise the distance between the solids is the core distance less the radii (Ericson,
//!   *Real-Time Collision Detection* (2005) §4.5.1, a sphere-swept volume's distance is its
//!   core's less the radius; a convex solid that does not meet a surface is as far from it as
//!   its boundary is). So `|d − d*| ≤ 1e-12·(d* + L)` holds with `L` counting the radii, and
//!   the certified interval is the core's less the radii, rounded outward. The closest points
//!   are the core's, each moved by its radius towards the other. A pair names the shape's
//!   feature 0.
//! * **Margins.** Touching solids are within any margin. Otherwise a shape is within `m` when
//!   its core is within `m + radius`, decided exactly by the mesh–mesh margin test; when
//!   `m + radius` is not a float the sum is rounded up (so the answer may be "yes" for a gap
//!   above `m` by at most one rounding of the sum, never "no" for a gap within it).
//! * **Solids.** With [`DistanceRequest::solids`], a shape wholly inside a closed mesh's solid
//!   is at distance 0, and [`DistanceResult::contained`] says where the two lie (as
//!   [`collide`] with containment tells it: for a mesh and a shape; two shapes are not
//!   checked). Shapes are solids with or without it.
//! * Hints are dropped (they would name core triangles). A halfspace, which has no core, is
//!   measured by its plane (`halfspace.rs`: distances and margins against any model); a
//!   cylinder, which has none either, as a convex set by its support mapping (`cylinder.rs`:
//!   against any model but a halfspace).

use super::cylinder::{distance_cylinder, involves_cylinder, margin_cylinder};
use super::halfspace::{distance_to_halfspace, is_halfspace, margin_to_halfspace};
use super::margin::Margin;
use super::{check_request, run, search_margin, DistanceRequest, DistanceResult};
use crate::collide::{
    checked_relative_pose, collide, CollisionRequest, Containment, Mode, PosedOverlap,
};
use crate::error::{Operand, QueryError};
use crate::model::{Form, MeshModel, Model};
use obbtree_bv::Point;
use obbtree_bv::Pose;

/// A model as the distance queries measure it: a mesh, the radius around it, and whether it
/// stands for a shape (whose one feature is 0).
struct Measured<'m, V> {
    mesh: &'m MeshModel<V>,
    radius: f64,
    shape: bool,
}

impl<'m, V: PosedOverlap> Measured<'m, V> {
    fn of(model: &'m Model<V>, which: Operand, query: &'static str) -> Result<Self, QueryError> {
        match model.form() {
            Form::Mesh(mesh) => Ok(Self {
                mesh,
                radius: 0.0,
                shape: false,
            }),
            Form::Shape(shape) => shape
                .core()
                .map(|core| Self {
                    mesh: &core.mesh,
                    radius: core.radius,
                    shape: true,
                })
                .ok_or(QueryError::NotAMesh { which, query }),
        }
    }

    /// A pair index of this model: the triangle, or the shape's feature 0.
    fn feature(&self, triangle: u32) -> u32 {
        if self.shape {
            0
        } else {
            triangle
        }
    }
}

/// [`distance`](super::distance) when `a` or `b` is a shape (see the module docs).
pub(super) fn distance_shapes<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &DistanceRequest,
) -> Result<DistanceResult, QueryError> {
    let result = if is_halfspace(a) || is_halfspace(b) {
        distance_to_halfspace(a, pose_a, b, pose_b, request)?
    } else if involves_cylinder(a, b) {
        distance_cylinder(a, pose_a, b, pose_b, request)?
    } else {
        distance_by_cores(a, pose_a, b, pose_b, request)?
    };
    if request.solids {
        with_containment(a, pose_a, b, pose_b, result)
    } else {
        Ok(result)
    }
}

/// `result` with, for solids, where the two lie ([`DistanceResult::contained`], as the
/// collision query with containment tells it: for a mesh and a shape only) and distance 0 when
/// a shape lies inside a closed mesh's solid. A mesh inside a shape already touches it.
fn with_containment<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    mut result: DistanceResult,
) -> Result<DistanceResult, QueryError> {
    let request = CollisionRequest {
        containment: true,
        ..CollisionRequest::new(Mode::First)
    };
    result.contained = collide(a, pose_a, b, pose_b, &request)?.contained;
    if matches!(result.contained, Containment::AInB | Containment::BInA) {
        (result.distance, result.lower, result.upper) = (0.0, 0.0, 0.0);
    }
    Ok(result)
}

/// [`distance_shapes`] for shapes with a core (sphere, capsule, box, convex) and meshes.
fn distance_by_cores<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &DistanceRequest,
) -> Result<DistanceResult, QueryError> {
    let ma = Measured::of(a, Operand::A, "distance")?;
    let mb = Measured::of(b, Operand::B, "distance")?;
    let request = request.with_hint(None);
    let request = DistanceRequest {
        solids: false,
        ..request
    };
    check_request(ma.mesh, mb.mesh, &request)?;
    let touching = collide(a, pose_a, b, pose_b, &CollisionRequest::new(Mode::First))?;
    let b_in_a = checked_relative_pose(pose_a, mb.mesh, pose_b)?;
    let core = run(ma.mesh, pose_a, mb.mesh, &b_in_a, &request);
    let pair = [ma.feature(core.pair[0]), mb.feature(core.pair[1])];
    let radii = [ma.radius, mb.radius];
    Ok(if touching.intersects {
        touching_result(touching.pairs[0], &core, radii)
    } else {
        apart_result(pair, &core, radii)
    })
}

/// The answer for solids that touch: distance 0, the collision's witness pair, and one point
/// of A's closest triangle that lies in B.
fn touching_result(pair: [u32; 2], core: &DistanceResult, [ra, _]: [f64; 2]) -> DistanceResult {
    let point = toward(&core.point_a, &core.point_b, ra);
    DistanceResult {
        distance: 0.0,
        lower: 0.0,
        upper: 0.0,
        intersects: true,
        pair,
        point_a: point,
        point_b: point,
        contained: Containment::NotChecked,
    }
}

/// The answer for solids apart: the core's, less the radii (see the module docs).
fn apart_result(pair: [u32; 2], core: &DistanceResult, [ra, rb]: [f64; 2]) -> DistanceResult {
    let less = |x: f64| x - ra - rb;
    DistanceResult {
        distance: less(core.distance).max(0.0),
        lower: less(core.lower).next_down().next_down().max(0.0),
        upper: less(core.upper).next_up().next_up(),
        intersects: false,
        pair,
        point_a: toward(&core.point_a, &core.point_b, ra),
        point_b: toward(&core.point_b, &core.point_a, rb),
        contained: Containment::NotChecked,
    }
}

/// `from` moved by `step` towards `to` (unchanged when `step` is 0 or the points coincide).
fn toward(from: &Point, to: &Point, step: f64) -> Point {
    let gap = to - from;
    let length = gap.norm();
    if step == 0.0 || length == 0.0 {
        *from
    } else {
        from + gap * (step.min(length) / length)
    }
}

/// The pairs within `margin` when `a` or `b` is a shape: every touching pair, and (if
/// `first_only` found none) the core pairs within the margin plus the radii.
pub(super) fn margin_shapes<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    margin: f64,
    first_only: bool,
) -> Result<Vec<[u32; 2]>, QueryError> {
    if is_halfspace(a) || is_halfspace(b) {
        return margin_to_halfspace(a, pose_a, b, pose_b, margin, first_only);
    }
    if involves_cylinder(a, b) {
        return margin_cylinder(a, pose_a, b, pose_b, margin, first_only);
    }
    let query = if first_only { "a margin" } else { "proximity" };
    let ma = Measured::of(a, Operand::A, query)?;
    let mb = Measured::of(b, Operand::B, query)?;
    touching_then_near(a, pose_a, b, pose_b, first_only, || {
        let b_in_a = checked_relative_pose(pose_a, mb.mesh, pose_b)?;
        let mut visitor = Margin::new(reach(margin, ma.radius, mb.radius), first_only);
        search_margin(ma.mesh, mb.mesh, &b_in_a, &mut visitor);
        Ok(visitor
            .pairs
            .iter()
            .map(|&[i, j]| [ma.feature(i), mb.feature(j)])
            .collect())
    })
}

/// The margin queries' answer when a model is a shape: every touching pair (the exact
/// collision query), and, unless `first_only` found one, the pairs `near` finds within the
/// margin; sorted, each once, and only the first if `first_only`.
pub(super) fn touching_then_near<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    first_only: bool,
    near: impl FnOnce() -> Result<Vec<[u32; 2]>, QueryError>,
) -> Result<Vec<[u32; 2]>, QueryError> {
    let mode = if first_only { Mode::First } else { Mode::All };
    let touching = collide(a, pose_a, b, pose_b, &CollisionRequest::new(mode))?;
    if first_only && touching.intersects {
        return Ok(touching.pairs);
    }
    let mut pairs = touching.pairs;
    pairs.extend(near()?);
    pairs.sort_unstable();
    pairs.dedup();
    if first_only {
        pairs.truncate(1);
    }
    Ok(pairs)
}

/// `margin + ra + rb`, exact when the sums are floats (Knuth's two-sum: no rounding error),
/// else rounded up.
pub(super) fn reach(margin: f64, ra: f64, rb: f64) -> f64 {
    let (once, exact_once) = sum(margin, ra);
    let (twice, exact_twice) = sum(once, rb);
    if exact_once && exact_twice {
        twice
    } else {
        twice.next_up().next_up()
    }
}

/// `x + y` rounded, and whether it is exact (Knuth, *TAOCP* vol. 2 §4.2.2, TwoSum).
fn sum(x: f64, y: f64) -> (f64, bool) {
    let s = x + y;
    let y_part = s - x;
    let error = (x - (s - y_part)) + (y - y_part);
    (s, error == 0.0)
}
