//! Many rays at once, in parallel on rayon's thread pool.

use super::{cast_ray, RayHit, RayVolume};
use crate::error::{check_each, check_max_t, check_ray, BatchError};
use crate::Model;
use obbtree_bv::{Pose, Ray};
use rayon::prelude::*;

/// [`cast_ray`] for every ray of `rays`, in parallel (rayon), results in the order of `rays`.
/// Every ray is checked before any is cast: the first invalid one (lowest index) is the error.
pub fn cast_rays<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    rays: &[Ray],
    max_t: f64,
) -> Result<Vec<Option<RayHit>>, BatchError> {
    check_each(rays, |ray| {
        check_ray(ray)?;
        check_max_t(max_t)
    })?;
    model.prepare_rays();
    rays.par_iter()
        .enumerate()
        .map(|(index, ray)| {
            cast_ray(model, pose, ray, max_t).map_err(|source| BatchError { index, source })
        })
        .collect()
}
