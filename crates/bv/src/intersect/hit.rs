//! The result of a ray cast.

use crate::{Point, Ray};

/// Where a ray first meets a shape: parameter `t` and the point `origin + t·dir`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit (`t >= 0`, in units of `ray.dir`).
    pub t: f64,
    /// The hit point `ray.point_at(t)`.
    pub point: Point,
}

impl RayHit {
    /// The hit of `ray` at parameter `t`.
    pub fn at(ray: &Ray, t: f64) -> Self {
        Self {
            t,
            point: ray.point_at(t),
        }
    }
}
