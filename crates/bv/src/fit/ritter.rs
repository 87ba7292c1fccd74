//! Ritter's near-optimal sphere (J. Ritter, "An efficient bounding sphere", Graphics Gems,
//! 1990; Ericson, *Real-Time Collision Detection* (2005), §4.3.2; *Real-Time Rendering*, 3rd
//! ed. (2008), §16.3).

use crate::sphere::distance;
use crate::{Point, Sphere};

/// Among the point pairs extreme along x, y and z, the farthest-apart pair gives the initial
/// sphere; every point outside grows it to just reach the point (centre moved `(d - r)/2` towards
/// it, radius `(d + r)/2`). A last pass sets the radius to the farthest point from the final
/// centre, which in exact arithmetic is at most the grown radius and makes containment exact.
pub fn ritter_sphere(points: &[Point]) -> Sphere {
    // One pass for the six axis extremes (lowest and highest point along x, y, z).
    let mut lo = [points[0]; 3];
    let mut hi = [points[0]; 3];
    for p in points {
        for axis in 0..3 {
            if p[axis] < lo[axis][axis] {
                lo[axis] = *p;
            }
            if p[axis] > hi[axis][axis] {
                hi[axis] = *p;
            }
        }
    }
    let axis = (0..3)
        .max_by(|&i, &j| {
            (hi[i] - lo[i])
                .norm_squared()
                .total_cmp(&(hi[j] - lo[j]).norm_squared())
        })
        .expect("three axes");
    let (a, b) = (lo[axis], hi[axis]);
    let mut center = nalgebra::center(&a, &b);
    let mut radius = 0.5 * distance(&a, &b);
    for p in points {
        let d = distance(&center, p);
        if d > radius {
            center += (p - center) * ((d - radius) / (2.0 * d));
            radius = 0.5 * (d + radius);
        }
    }
    Sphere::around(center, points)
}
