//! Moving sphere vs. moving sphere: time of first contact.

use super::ray_sphere;
use crate::{Ray, Sphere, Vector};

/// Time `t ∈ [0, 1]` at which `a` translated by `t·motion_a` first touches `b` translated by
/// `t·motion_b`, or `None` (*Real-Time Rendering*, 3rd ed. (2008), §16.18; Ericson, *Real-Time
/// Collision Detection* (2005), §5.5.5): in `b`'s frame `a`'s centre moves along the ray
/// `c_a + t (v_a - v_b)`, which must meet the ball of radius `r_a + r_b` around `c_b`
/// ([`ray_sphere::cast`]). Touching at the start gives `t = 0`.
pub fn time_of_contact(
    a: &Sphere,
    motion_a: &Vector,
    b: &Sphere,
    motion_b: &Vector,
) -> Option<f64> {
    let ray = Ray::new(a.center, motion_a - motion_b);
    let grown = Sphere {
        center: b.center,
        radius: a.radius + b.radius,
    };
    ray_sphere::cast(&ray, &grown)
        .map(|hit| hit.t)
        .filter(|&t| t <= 1.0)
}
