//! Bounding sphere.

use crate::fit::{self, SphereFit};
use crate::{Point, Pose};
use serde::{Deserialize, Serialize};

/// Closed ball `{p : |p - center| <= radius}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    /// Centre.
    pub center: Point,
    /// Non-negative radius.
    pub radius: f64,
}

impl Sphere {
    /// Ball with the given centre and radius.
    pub fn new(center: Point, radius: f64) -> Self {
        Self { center, radius }
    }

    /// The ball around `center` through the farthest of `points` (non-empty). Distances are
    /// computed exactly as [`contains_point`](crate::BoundingVolume::contains_point) computes them,
    /// so every point is contained with zero tolerance.
    pub fn around<'a>(center: Point, points: impl IntoIterator<Item = &'a Point>) -> Self {
        Self::new(
            center,
            points
                .into_iter()
                .fold(0.0, |r: f64, p| r.max(distance(&center, p))),
        )
    }
}

/// The one distance formula used for fitting and for containment.
pub(crate) fn distance(center: &Point, p: &Point) -> f64 {
    (p - center).norm()
}

impl crate::BoundingVolume for Sphere {
    type Method = SphereFit;

    fn fit_points(points: &[Point], method: SphereFit) -> Self {
        fit::sphere(points, method)
    }

    fn fit_triangles(triangles: &[[Point; 3]], method: SphereFit) -> Self {
        let points: Vec<Point> = triangles.iter().flatten().copied().collect();
        fit::sphere(&points, method)
    }

    /// The smallest ball containing both balls (exact for two balls), padded by a few ulps of
    /// the coordinates so that points inside either input stay inside despite rounding.
    fn merge(&self, other: &Self) -> Self {
        let d = other.center - self.center;
        let dist = d.norm();
        let pad =
            8.0 * f64::EPSILON * (self.center.coords.amax().max(other.center.coords.amax()) + dist);
        let merged = if dist + other.radius <= self.radius {
            *self
        } else if dist + self.radius <= other.radius {
            *other
        } else {
            let radius = 0.5 * (dist + self.radius + other.radius);
            Self::new(self.center + d * ((radius - self.radius) / dist), radius)
        };
        Self::new(merged.center, merged.radius + pad)
    }

    fn transformed(&self, motion: &Pose) -> Self {
        Self::new(motion.transform_point(&self.center), self.radius)
    }

    fn contains_point(&self, p: &Point, tolerance: f64) -> bool {
        distance(&self.center, p) <= self.radius + tolerance
    }

    fn volume(&self) -> f64 {
        4.0 / 3.0 * std::f64::consts::PI * self.radius.powi(3)
    }

    fn surface_area(&self) -> f64 {
        4.0 * std::f64::consts::PI * self.radius * self.radius
    }

    fn center(&self) -> Point {
        self.center
    }
}
