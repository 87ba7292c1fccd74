//! Many rays at once, in parallel on rayon's thread pool.

use super::{cast_ray, PickError, RayHit, RayTree};
use obbtree_bv::{Isometry, Ray, TriMesh};
use rayon::prelude::*;

/// A ray of a batch that could not be cast.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("ray {index}: {source}")]
pub struct BatchError {
    /// Position of the ray in the batch.
    pub index: usize,
    /// Why.
    pub source: PickError,
}

/// [`cast_ray`] for every ray of `rays`, in parallel (rayon), results in the order of `rays`.
/// Every ray is checked before any is cast: the first invalid one (lowest index) is the error.
pub fn cast_rays(
    mesh: &TriMesh,
    tree: &(impl RayTree + Sync),
    pose: &Isometry,
    rays: &[Ray],
    max_t: f64,
) -> Result<Vec<Option<RayHit>>, BatchError> {
    let cast = |(index, ray): (usize, &Ray)| {
        cast_ray(mesh, tree, pose, ray, max_t).map_err(|source| BatchError { index, source })
    };
    for (index, ray) in rays.iter().enumerate() {
        super::validate(ray, max_t).map_err(|source| BatchError { index, source })?;
    }
    rays.par_iter().enumerate().map(cast).collect()
}
