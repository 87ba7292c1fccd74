//! Ritter's near-optimal sphere (Ritter 1990, "An efficient bounding sphere", Graphics Gems;
//! seed 004 "包围球体的创建").

use crate::sphere::distance;
use crate::{Point, Sphere};

/// Among the point pairs extreme along x, y and z, the farthest-apart pair gives the initial
/// sphere; every point outside grows it to just reach the point (centre moved `(d - r)/2` towards
/// it, radius `(d + r)/2`). A last pass sets the radius to the farthest point from the final
/// centre, which in exact arithmetic is at most the grown radius and makes containment exact.
pub fn ritter_sphere(points: &[Point]) -> Sphere {
    let extreme = |axis: usize, max: bool| {
        points
            .iter()
            .copied()
            .reduce(|a, b| {
                if (b[axis] > a[axis]) == max && b[axis] != a[axis] {
                    b
                } else {
                    a
                }
            })
            .expect("non-empty")
    };
    let (a, b) = (0..3)
        .map(|axis| (extreme(axis, false), extreme(axis, true)))
        .max_by(|(a0, b0), (a1, b1)| {
            (b0 - a0)
                .norm_squared()
                .total_cmp(&(b1 - a1).norm_squared())
        })
        .expect("three axes");
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
