//! Ray picking through a bounding-volume hierarchy (seed 004, "基于层次包围盒的拾取方法").
//!
//! * [`cast_ray`]: the first hit (triangle, `t`, point, barycentrics, normal, front/back face).
//! * [`cast_ray_all`]: every hit, sorted by `t` (then by triangle index).
//! * [`any_hit`]: whether anything is hit (occlusion and shadow rays), stopping at the first.
//! * [`camera`]: the ray through a pixel from view and projection matrices, and [`camera::pick`].
//! * [`batch`]: many rays in parallel on rayon's pool.
//!
//! Every query works on a [`RayTree`]: a [`Bvh`](obbtree_tree::Bvh) of any volume type
//! ([`RayVolume`]: AABB, OBB, k-DOP, sphere), or the compact [`PickTree`] (the fastest),
//! built over the mesh in the mesh's own frame; the mesh is placed in the world by a rigid
//! `pose`, and the ray (given in the world) is moved into the mesh frame once per query: the
//! mesh is never transformed. Hits are reported in the world frame; since the pose is rigid,
//! `t` is the same parameter in both frames.
//!
//! # Policy
//!
//! * **Closed, two-sided triangles**; hits with `0 <= t <= max_t` count (`max_t` may be
//!   `f64::INFINITY`).
//! * **Watertight**: triangles are tested with
//!   [`cast_watertight`](obbtree_bv::intersect::ray_triangle::cast_watertight) (exact edge
//!   signs), and the volume tests only ever err towards accepting a node, so a ray through a
//!   shared edge or vertex of a closed mesh hits at least one of the triangles around it, never
//!   none. A ray in the plane of a triangle, or a zero-area triangle, is not hit by that
//!   triangle's own test.
//! * **Ties**: when several triangles are hit at the same `t` (a shared edge or vertex, or
//!   overlapping triangles), [`cast_ray`] returns the one with the lowest triangle index: the
//!   answer is deterministic and does not depend on the tree's shape or the volume type.
//!   [`cast_ray_all`] reports each of them.
//! * **Bad input** ([`PickError`]): an origin beyond ±1e100 (the meshes' coordinate range,
//!   within which the exact predicates cannot overflow) or not finite, a non-finite or zero
//!   direction, a pose that is not finite or translates beyond ±1e100, a negative or NaN
//!   `max_t`, or a tree whose triangle count differs from the mesh's. The tree
//!   must have been built for this mesh ([`Bvh::check_mesh`](obbtree_tree::Bvh::check_mesh)
//!   tells, at the cost of hashing the mesh, so the queries do not call it).

pub mod all_hits;
pub mod any_hit;
pub mod batch;
pub mod camera;
pub mod closest;
mod compact;
mod hit;
mod ray;
mod traverse;
mod volume;

pub use all_hits::cast_ray_all;
pub use any_hit::any_hit;
pub use closest::cast_ray;
pub use compact::PickTree;
pub use hit::RayHit;
pub use ray::MeshRay;
pub use traverse::RayTree;
pub use volume::RayVolume;

use obbtree_bv::{Isometry, Ray, TriMesh};

/// Why a ray query could not be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PickError {
    /// The ray's origin has a component beyond [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE)
    /// (or NaN), or its direction is not finite or zero.
    #[error("the ray is not valid (origin {origin:?}, direction {dir:?}): the origin must be within ±1e100 and the direction finite and non-zero")]
    InvalidRay {
        /// The origin as given.
        origin: [f64; 3],
        /// The direction as given.
        dir: [f64; 3],
    },
    /// The mesh's pose has a non-finite entry or a translation component beyond
    /// [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE): the ray moved into the mesh frame could
    /// then leave the range in which the exact predicates cannot overflow.
    #[error("the mesh pose is not valid (translation {translation:?}): it must be finite, with a translation within ±1e100")]
    InvalidPose {
        /// The pose's translation as given.
        translation: [f64; 3],
    },
    /// `max_t` is NaN or negative.
    #[error("max_t must be a non-negative number (or infinity), not {0}")]
    InvalidMaxT(f64),
    /// The tree indexes a different number of triangles than the mesh has.
    #[error("the tree has {tree} triangles but the mesh has {mesh}: build the tree for this mesh")]
    TreeMismatch {
        /// Triangles in the tree.
        tree: usize,
        /// Triangles in the mesh.
        mesh: usize,
    },
}

/// Checks a query's inputs and moves the ray into the mesh frame.
pub(crate) fn prepare(
    mesh: &TriMesh,
    tree: &impl RayTree,
    pose: &Isometry,
    ray: &Ray,
    max_t: f64,
) -> Result<MeshRay, PickError> {
    if tree.triangle_count() != mesh.triangles().len() {
        return Err(PickError::TreeMismatch {
            tree: tree.triangle_count(),
            mesh: mesh.triangles().len(),
        });
    }
    validate(ray, max_t)?;
    let t = pose.translation.vector;
    let finite = pose.rotation.coords.iter().all(|x| x.is_finite());
    if !finite
        || t.iter()
            .any(|x| x.is_nan() || x.abs() > obbtree_bv::MAX_COORDINATE)
    {
        return Err(PickError::InvalidPose {
            translation: t.into(),
        });
    }
    Ok(MeshRay::new(pose, ray))
}

/// The checks of a ray and a distance limit that do not need the mesh.
pub(crate) fn validate(ray: &Ray, max_t: f64) -> Result<(), PickError> {
    if !ray::is_valid(ray) {
        return Err(PickError::InvalidRay {
            origin: ray.origin.coords.into(),
            dir: ray.dir.into(),
        });
    }
    if max_t.is_nan() || max_t < 0.0 {
        return Err(PickError::InvalidMaxT(max_t));
    }
    Ok(())
}
