//! Rays against a scene of meshes and shapes: the first object and triangle (a shape's
//! feature 0) hit, objects visited nearest box
//! first with the search limit shrinking to each hit found; and every hit.

use crate::{ObjectId, Scene, SceneError};
use obbtree_bv::{Ray, Vector, MAX_COORDINATE};
use obbtree_query::{cast_ray, cast_ray_all, QueryError, RayHit, RayVolume};

/// A ray's hit on an object of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneHit {
    /// The object hit.
    pub object: ObjectId,
    /// The hit on its model (triangle index into the object's mesh, or 0 for a shape; `t`
    /// along the ray, point and normal in the world frame). A shape is hit on its surface
    /// ([`obbtree_query::cast_ray`]): entering, or leaving from inside.
    pub hit: RayHit,
}

impl<V: RayVolume> Scene<V> {
    /// The first hit of the segment `ray.origin + t·ray.dir`, `0 <= t <= max_t`, over all
    /// objects: the smallest `t`, ties going to the object first by name (and within a mesh
    /// broken as [`obbtree_query::cast_ray`] breaks them). Objects are
    /// visited in order of where the ray enters their broad-phase box, and the search stops
    /// at boxes entered beyond the best hit so far.
    pub fn cast_ray(&self, ray: &Ray, max_t: f64) -> Result<Option<SceneHit>, SceneError> {
        check_ray(ray, max_t)?;
        let mut best: Option<SceneHit> = None;
        let mut failure = None;
        self.tree.cast_ray(ray, max_t, |proxy, _| {
            let id = ObjectId(proxy);
            let limit = best.as_ref().map_or(max_t, |b| b.hit.t);
            let Some(object) = self.get(id) else {
                return limit;
            };
            match cast_ray(&object.model, &object.pose, ray, limit) {
                Ok(Some(hit)) if self.is_better(&hit, id, best.as_ref()) => {
                    let t = hit.t;
                    best = Some(SceneHit { object: id, hit });
                    t
                }
                Ok(_) => limit,
                Err(source) => {
                    failure = Some(SceneError::Object {
                        name: object.name.clone(),
                        source,
                    });
                    -1.0
                }
            }
        });
        failure.map_or(Ok(best), Err)
    }

    /// Every hit of the segment on every object, sorted by `t`, then object name, then
    /// triangle.
    pub fn cast_ray_all(&self, ray: &Ray, max_t: f64) -> Result<Vec<SceneHit>, SceneError> {
        check_ray(ray, max_t)?;
        let mut hits = Vec::new();
        let mut failure = None;
        self.tree.cast_ray(ray, max_t, |proxy, _| {
            let id = ObjectId(proxy);
            let Some(object) = self.get(id) else {
                return max_t;
            };
            match cast_ray_all(&object.model, &object.pose, ray, max_t) {
                Ok(found) => {
                    hits.extend(found.into_iter().map(|hit| SceneHit { object: id, hit }));
                    max_t
                }
                Err(source) => {
                    failure = Some(SceneError::Object {
                        name: object.name.clone(),
                        source,
                    });
                    -1.0
                }
            }
        });
        if let Some(failure) = failure {
            return Err(failure);
        }
        hits.sort_by(|x, y| {
            x.hit
                .t
                .total_cmp(&y.hit.t)
                .then_with(|| self.name(x.object).cmp(self.name(y.object)))
                .then(x.hit.triangle.cmp(&y.hit.triangle))
        });
        Ok(hits)
    }

    /// Whether `hit` on object `id` beats `best`: nearer, or as near on an object first by
    /// name.
    fn is_better(&self, hit: &RayHit, id: ObjectId, best: Option<&SceneHit>) -> bool {
        best.is_none_or(|b| {
            hit.t < b.hit.t || (hit.t == b.hit.t && self.name(id) < self.name(b.object))
        })
    }
}

/// The checks every ray query makes on its own input (before any object is visited, so that
/// an empty scene refuses a bad ray too): an origin within [`MAX_COORDINATE`], a finite
/// non-zero direction, a non-negative `max_t`.
fn check_ray(ray: &Ray, max_t: f64) -> Result<(), QueryError> {
    let valid = ray.origin.iter().all(|c| c.abs() <= MAX_COORDINATE)
        && ray.dir.iter().all(|c| c.is_finite())
        && ray.dir != Vector::zeros();
    if !valid {
        return Err(QueryError::InvalidRay {
            origin: ray.origin.coords.into(),
            dir: ray.dir.into(),
        });
    }
    if max_t.is_nan() || max_t < 0.0 {
        return Err(QueryError::InvalidMaxT(max_t));
    }
    Ok(())
}
