//! Many rays at once, in parallel on rayon's thread pool.

use super::closest::cast_prepared;
use super::shape::{crossings, hit, place_for_ray};
use super::{MeshRay, RayHit, RayVolume};
use crate::error::{
    check_direction_range, check_each, check_max_t, check_ray, check_translation, BatchError,
};
use crate::model::{Form, ShapeModel};
use crate::parallel::pool_is_parallel;
use crate::Model;
use obbtree_bv::{Pose, Ray};
use rayon::prelude::*;

/// Rays per rayon task: enough that splitting costs nothing next to the casts (the time per
/// ray is in `docs/performance.md`), few enough that the threads stay balanced.
const RAYS_PER_TASK: usize = 1024;

/// [`cast_ray`](super::cast_ray) for every ray of `rays`, in parallel (rayon), results in the
/// order of `rays`. Every ray is checked before any is cast: the first invalid one (lowest
/// index) is the error. On one thread the rays are cast in a plain loop.
pub fn cast_rays<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    rays: &[Ray],
    max_t: f64,
) -> Result<Vec<Option<RayHit>>, BatchError> {
    let mut hits = Vec::new();
    cast_rays_into(model, pose, rays, max_t, &mut hits)?;
    Ok(hits)
}

/// [`cast_rays`] into `hits` (cleared first), reusing its memory: a caller that casts batch
/// after batch through one buffer allocates nothing in the steady state and writes to memory
/// already in cache (a fresh result array costs its pages' first touch; measured in
/// `docs/performance.md`).
pub fn cast_rays_into<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    rays: &[Ray],
    max_t: f64,
    hits: &mut Vec<Option<RayHit>>,
) -> Result<(), BatchError> {
    hits.clear();
    let model = match model.form() {
        Form::Mesh(m) => m,
        Form::Shape(s) => return cast_shape_rays(s, pose, rays, max_t, hits),
    };
    check_each(rays, |ray| {
        check_ray(ray)?;
        check_max_t(max_t)?;
        check_translation(pose)?;
        check_direction_range(&pose.inverse_transform_vector(&ray.dir))
    })?;
    model.prepare_rays();
    let cast = |ray: &Ray| cast_prepared(model, pose, ray, &MeshRay::new(pose, ray), max_t);
    cast_each(rays, cast, hits);
    Ok(())
}

/// [`cast_rays_into`] for a shape: every ray checked first (the first invalid one is the
/// error), the shape placed once, then each ray's first crossing.
fn cast_shape_rays<V>(
    shape: &ShapeModel<V>,
    pose: &Pose,
    rays: &[Ray],
    max_t: f64,
    hits: &mut Vec<Option<RayHit>>,
) -> Result<(), BatchError> {
    check_each(rays, |ray| {
        check_ray(ray)?;
        check_direction_range(&ray.dir)
    })?;
    let Some(first) = rays.first() else {
        return Ok(());
    };
    let placed = place_for_ray(shape, pose, first, max_t)
        .map_err(|source| BatchError { index: 0, source })?;
    let cast = |ray: &Ray| crossings(&placed, ray, max_t).first().map(|c| hit(c, ray));
    cast_each(rays, cast, hits);
    Ok(())
}

/// `cast` on each ray into `hits`, in order: on the calling thread when rayon's pool has one
/// thread, else in tasks of at least [`RAYS_PER_TASK`] rays.
fn cast_each(
    rays: &[Ray],
    cast: impl Fn(&Ray) -> Option<RayHit> + Sync + Send,
    hits: &mut Vec<Option<RayHit>>,
) {
    if !pool_is_parallel() {
        hits.extend(rays.iter().map(cast));
    } else {
        rays.par_iter()
            .with_min_len(RAYS_PER_TASK)
            .map(cast)
            .collect_into_vec(hits);
    }
}
