//! Ray–sphere, the optimised test with early outs.

use super::hit::RayHit;
use crate::{Ray, Sphere};

/// Whether the ray meets the closed ball, with the early outs of the optimised ray/sphere test
/// (*Real-Time Rendering*, 3rd ed. (2008), §16.6; Ericson, *Real-Time Collision Detection*
/// (2005), §5.3.2): origin inside (`l² <= r²`) → hit; sphere behind the origin (`s <= 0`) →
/// miss; squared distance `m²` from the centre to the ray's line against `r²`.
pub fn intersects(ray: &Ray, sphere: &Sphere) -> bool {
    approach(ray, sphere).is_some()
}

/// First point of the ray in the closed ball (`t = 0` if the origin is inside), by the same
/// early outs, then `t = s/|d|² - sqrt((r² - m²)/|d|²)`.
pub fn cast(ray: &Ray, sphere: &Sphere) -> Option<RayHit> {
    let t = match approach(ray, sphere)? {
        Approach::Inside => 0.0,
        Approach::Passes { t_closest, m2 } => {
            let half_chord = ((sphere.radius * sphere.radius - m2) / ray.dir.norm_squared()).sqrt();
            (t_closest - half_chord).max(0.0)
        }
    };
    Some(RayHit::at(ray, t))
}

/// How a ray that meets the ball does so.
enum Approach {
    /// The origin lies in the ball.
    Inside,
    /// The ray comes within `sqrt(m2) <= r` of the centre at parameter `t_closest > 0`.
    Passes { t_closest: f64, m2: f64 },
}

/// The early outs shared by [`intersects`] and [`cast`] (`None` on a miss). `m²` is computed
/// from the perpendicular vector rather than as `l² - s²`, which cancels catastrophically for
/// distant spheres.
fn approach(ray: &Ray, sphere: &Sphere) -> Option<Approach> {
    let l = sphere.center - ray.origin;
    let r2 = sphere.radius * sphere.radius;
    if l.norm_squared() <= r2 {
        return Some(Approach::Inside);
    }
    let s = l.dot(&ray.dir);
    if s <= 0.0 {
        return None;
    }
    let t_closest = s / ray.dir.norm_squared();
    let m2 = (l - ray.dir * t_closest).norm_squared();
    (m2 <= r2).then_some(Approach::Passes { t_closest, m2 })
}
