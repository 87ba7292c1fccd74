//! Moving sphere vs. plane: time of first contact.

use super::plane::Plane;
use crate::{Sphere, Vector};

/// Time `t ∈ [0, 1]` at which the sphere, translated by `t·motion`, first touches the plane
/// (either side), or `None` (*Real-Time Rendering*, 3rd ed. (2008), §16.18; Ericson, *Real-Time
/// Collision Detection* (2005), §5.5.3): with signed distances `s_c`, `s_e` of the centre at
/// the start and end, no contact if both are beyond `r` on the same side; otherwise
/// `t = (s_c - r) / (s_c - s_e)` (or `(s_c + r)/…` from the negative side). Touching at the
/// start gives `t = 0`. The plane's normal must be non-zero.
pub fn time_of_contact(sphere: &Sphere, motion: &Vector, plane: &Plane) -> Option<f64> {
    let len = plane.normal.norm();
    let s_c = plane.eval(&sphere.center) / len;
    let s_e = plane.eval(&(sphere.center + motion)) / len;
    let r = sphere.radius;
    if s_c.abs() <= r {
        return Some(0.0);
    }
    if s_c * s_e > 0.0 && s_e.abs() > r {
        return None;
    }
    let toward = if s_c > 0.0 { s_c - r } else { s_c + r };
    Some((toward / (s_c - s_e)).clamp(0.0, 1.0))
}
