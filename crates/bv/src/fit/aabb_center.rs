//! Spheres centred on the AABB: the constant-time sphere and its one-pass improvement
//! (*Real-Time Rendering*, 3rd ed. (2008), §16.3).

use crate::{Aabb, Point, Sphere};

/// Constant time after the AABB: its centre and half its diagonal. The radius is padded by a few
/// ulps of the coordinates so that the corners (and so every point) pass
/// [`contains_point`](crate::BoundingVolume::contains_point) with zero tolerance despite rounding.
pub fn aabb_sphere(points: &[Point]) -> Sphere {
    let aabb = Aabb::from_points(points);
    let center = nalgebra::center(&aabb.mins, &aabb.maxs);
    let radius = 0.5 * (aabb.maxs - aabb.mins).norm();
    Sphere::new(
        center,
        radius + 8.0 * f64::EPSILON * (center.coords.amax() + radius),
    )
}

/// The improved variant: same centre, radius the distance to the farthest point (one more pass),
/// never larger than [`aabb_sphere`] (up to the padding).
pub fn improved_aabb_sphere(points: &[Point]) -> Sphere {
    let aabb = Aabb::from_points(points);
    Sphere::around(nalgebra::center(&aabb.mins, &aabb.maxs), points)
}
