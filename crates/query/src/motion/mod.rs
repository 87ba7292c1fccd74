//! Continuous collision: the first time two models touch while B follows a rigid [`Motion`]
//! over `t ∈ [0, 1]` (the translation interpolated linearly, the rotation at constant angular
//! velocity about a fixed axis; A stays at its pose).
//!
//! # What is guaranteed
//!
//! * **Two meshes under a pure translation** (the two rotations of the motion the same
//!   matrix) are decided exactly, touching counting: every vertex of B moves on a straight
//!   line from where the start pose places it to where the end pose does (in A's frame), so
//!   the first contact is the earliest vertex–face or edge–edge contact of a triangle pair that
//!   does not touch at the start, which the exact primitives of [`obbtree_bv::ccd`] decide. The
//!   reported `[lo, hi]` contains the first contact time and is at most `10⁻¹²` wide.
//! * **Every other motion** (a rotation, or a shape on either side) never misses a contact. A
//!   hit is reported only where the models come within the distance tolerance `δ` of each
//!   other, decided exactly at some time in `[lo, hi]`; no contact occurs before `lo`. `δ`
//!   defaults to `10⁻⁹` of the larger model's box diagonal and is never below `4·10⁻¹³` of the
//!   largest coordinate the models reach during the motion, the resolution of the float
//!   distances the bounds use ([`MotionResult::tolerance`] says which `δ` was used). Meshes
//!   bracket the time within [`MotionRequest::time_tolerance`] (`10⁻⁹` by default); shapes
//!   report the time `[t, t]` at which conservative advancement reached `δ`.
//! * **Contact at the start** is `[0, 0]`, exactly.
//!
//! # How
//!
//! Two meshes go through the kernel's descent over time ([`in_time`]): node pairs over dyadic
//! intervals of time, earliest first, each bounded by the volumes with B placed at the
//! interval's middle and grown by how far any of its points can move in half the interval
//! ([`Motion::speed_bound`]: the translation's speed plus the angular speed times the reach
//! from the axis). Under a translation a pair of leaves is decided once, exactly, over the
//! whole motion, and the descent stops at the first interval that starts after the earliest
//! contact found. Under a rotation a pair of leaves is bounded over its interval by the float
//! triangle distance at the middle less the triangles' motion and the distance's error bound,
//! and halved until it is free or it is at most the time tolerance wide and exactly within
//! `δ` ([`tri_tri::within`]). A shape goes by conservative advancement (Mirtich 1996; Zhang,
//! Redon, Lee & Kim 2006): the certified lower bound of the distance divided by the speed
//! bound is a time step with no contact, repeated until the models are exactly within `δ`.
//!
//! [`in_time`]: crate::kernel::descent::in_time
//! [`tri_tri::within`]: obbtree_bv::distance::tri_tri::within

mod advancement;
mod meshes;
mod request;

pub use request::{MotionRequest, MotionResult, DEFAULT_TIME_TOLERANCE};

use crate::error::QueryError;
use crate::kernel::posed::PosedOverlap;
use crate::model::{Form, Model};
use obbtree_bv::{Aabb, Motion, Pose};

/// The share of the larger model's box diagonal that the distance tolerance is by default.
const DEFAULT_RELATIVE_TOLERANCE: f64 = 1e-9;

/// The rounding the float bounds allow for, relative to the largest coordinate reached: far
/// above the triangle distance's error (`DISTANCE_ERROR`, `3.6·10⁻¹⁵`) and the rounding of
/// computing an intermediate pose and placing a vertex by it (a few ulps).
const RELATIVE_SLACK: f64 = 1e-13;

/// Does `b`, following `motion_b` (its pose in the world over `t ∈ [0, 1]`), touch `a` (at
/// `pose_a`), and when first? See the module docs for the guarantee.
///
/// ```
/// use obbtree_bv::{Motion, Pose, TriMesh, Point};
/// use obbtree_query::{collide_motion, Model, MotionRequest};
///
/// let slab = TriMesh::cuboid(Point::new(-0.01, -5.0, -5.0), Point::new(0.01, 5.0, 5.0))?;
/// let wall: Model = Model::new(slab)?;
/// let bullet: Model = Model::new(TriMesh::cuboid(Point::new(0.0, -0.5, -0.5), Point::new(1.0, 0.5, 0.5))?)?;
/// // From x = -10 to x = +10 in one step: the sampled ends miss the wall, the motion does not.
/// let motion = Motion::new(Pose::from_translation([-10.0, 0.0, 0.0])?,
///                          Pose::from_translation([10.0, 0.0, 0.0])?);
/// let result = collide_motion(&wall, &Pose::identity(), &bullet, &motion, &MotionRequest::default())?;
/// let [lo, hi] = result.toi.unwrap();
/// // The bullet's front face (x = 1 in its frame) reaches the wall's back (x = -0.01) at t = 0.4495.
/// assert!(result.exact && lo <= 0.4495 && 0.4495 <= hi && hi - lo <= 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn collide_motion<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    motion_b: &Motion,
    request: &MotionRequest,
) -> Result<MotionResult, QueryError> {
    request.check()?;
    let motion = motion_b.seen_from(pose_a);
    let slack = RELATIVE_SLACK * reach(a, b, &motion);
    let tolerance = tolerance(request, a, b, slack);
    match (a.form(), b.form()) {
        (Form::Mesh(a), Form::Mesh(b)) => {
            meshes::first_contact(a, b, &motion, request, tolerance, slack)
        }
        _ => advancement::first_contact(a, b, &motion, tolerance, slack),
    }
}

/// The distance tolerance: the request's, or the default share of the larger bounded model's
/// box diagonal, raised to the floor `4 · slack`.
fn tolerance<V>(request: &MotionRequest, a: &Model<V>, b: &Model<V>, slack: f64) -> f64 {
    let size = |m: &Model<V>| bounded(m).map_or(0.0, |b| (b.maxs - b.mins).norm());
    let chosen = request
        .tolerance
        .unwrap_or(DEFAULT_RELATIVE_TOLERANCE * size(a).max(size(b)));
    chosen.max(4.0 * slack)
}

/// The model's box, `None` for a halfspace (whose box is the whole range).
fn bounded<V>(model: &Model<V>) -> Option<&Aabb> {
    let bounds = model.bounds();
    (bounds.largest_coordinate() < obbtree_bv::MAX_COORDINATE).then_some(bounds)
}

/// A bound on every coordinate (in A's frame) of the bounded models along the motion: A's
/// largest, B's farthest corner from its origin plus the larger translation.
fn reach<V>(a: &Model<V>, b: &Model<V>, motion: &Motion) -> f64 {
    let a_reach = bounded(a).map_or(0.0, Aabb::largest_coordinate);
    let b_radius = bounded(b).map_or(0.0, |b| {
        b.corners()
            .iter()
            .map(|c| c.coords.norm())
            .fold(0.0, f64::max)
    });
    let shift = motion
        .start()
        .translation()
        .norm()
        .max(motion.end().translation().norm());
    a_reach.max(b_radius + shift)
}
