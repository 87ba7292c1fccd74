//! Many rays at once, in parallel on rayon's thread pool.

use super::{cast_ray, PickError, RayHit, RayVolume};
use obbtree_bv::{Isometry, Ray, TriMesh};
use obbtree_tree::Bvh;
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
pub fn cast_rays<V: RayVolume + Sync>(
    mesh: &TriMesh,
    tree: &Bvh<V>,
    pose: &Isometry,
    rays: &[Ray],
    max_t: f64,
) -> Result<Vec<Option<RayHit>>, BatchError> {
    let cast = |(index, ray): (usize, &Ray)| {
        cast_ray(mesh, tree, pose, ray, max_t).map_err(|source| BatchError { index, source })
    };
    if let Some(error) = rays.iter().enumerate().find_map(|r| cast_check(r, max_t)) {
        return Err(error);
    }
    rays.par_iter().enumerate().map(cast).collect()
}

/// The validation of [`super::prepare`] that does not need the tree, as a batch error.
fn cast_check((index, ray): (usize, &Ray), max_t: f64) -> Option<BatchError> {
    let source = if !super::ray::is_valid(ray) {
        PickError::InvalidRay {
            origin: ray.origin.coords.into(),
            dir: ray.dir.into(),
        }
    } else if !(max_t >= 0.0) {
        PickError::InvalidMaxT(max_t)
    } else {
        return None;
    };
    Some(BatchError { index, source })
}
