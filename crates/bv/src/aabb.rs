//! Axis-aligned bounding box.

use crate::Point;
use serde::{Deserialize, Serialize};

/// Axis-aligned box `{p : mins <= p <= maxs}` (closed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// Lowest corner.
    pub mins: Point,
    /// Highest corner.
    pub maxs: Point,
}

impl Aabb {
    /// Box with the given corners (`mins <= maxs` componentwise).
    pub fn new(mins: Point, maxs: Point) -> Self {
        Self { mins, maxs }
    }

    /// Smallest box containing `points` (which must be non-empty).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point>) -> Self {
        let mut it = points.into_iter();
        let first = *it
            .next()
            .expect("Aabb::from_points needs at least one point");
        it.fold(Self::new(first, first), |b, p| {
            Self::new(b.mins.inf(p), b.maxs.sup(p))
        })
    }

    /// The largest absolute coordinate of the box's points: the magnitude that rounding errors
    /// of computations on points in the box are bounded by.
    ///
    /// ```
    /// use obbtree_bv::{Aabb, Point};
    /// let b = Aabb::new(Point::new(-3.0, 0.5, 1.0), Point::new(2.0, 1.0, 2.5));
    /// assert_eq!(b.largest_coordinate(), 3.0);
    /// ```
    #[inline]
    pub fn largest_coordinate(&self) -> f64 {
        self.mins.coords.amax().max(self.maxs.coords.amax())
    }

    /// The squared distance from `p` to the box (0 inside or on it): the sum over the axes of
    /// the squared gap beyond the box (Ericson, *Real-Time Collision Detection* (2005)
    /// §5.1.3.1). In floating point, within a few ulps of the exact value.
    ///
    /// ```
    /// use obbtree_bv::{Aabb, Point};
    /// let b = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    /// assert_eq!(b.distance_squared(&Point::new(3.0, 0.5, -2.0)), 8.0);
    /// assert_eq!(b.distance_squared(&Point::new(0.5, 0.5, 0.5)), 0.0);
    /// ```
    #[inline]
    pub fn distance_squared(&self, p: &Point) -> f64 {
        (0..3)
            .map(|k| {
                let gap = (self.mins[k] - p[k]).max(p[k] - self.maxs[k]).max(0.0);
                gap * gap
            })
            .sum()
    }

    /// The eight corners: corner `i` takes `maxs` on axis `k` when bit `k` of `i` is set,
    /// `mins` otherwise.
    pub fn corners(&self) -> [Point; 8] {
        std::array::from_fn(|i| {
            let pick = |k: usize| {
                if i >> k & 1 == 0 {
                    self.mins[k]
                } else {
                    self.maxs[k]
                }
            };
            Point::new(pick(0), pick(1), pick(2))
        })
    }
}

impl crate::BoundingVolume for Aabb {
    /// An AABB has one fit: the coordinate extremes.
    type Method = ();

    fn fit_points(points: &[Point], _: ()) -> Self {
        Self::from_points(points)
    }

    fn fit_triangles(triangles: &[[Point; 3]], _: ()) -> Self {
        Self::from_points(triangles.as_flattened())
    }

    #[inline]
    fn merge(&self, other: &Self) -> Self {
        Self::new(self.mins.inf(&other.mins), self.maxs.sup(&other.maxs))
    }

    /// Re-bounds the moved box: half-extents become `|R| h` (Arvo's method).
    fn transformed(&self, motion: &crate::Pose) -> Self {
        let center = motion.transform_point(&nalgebra::center(&self.mins, &self.maxs));
        let half = (self.maxs - self.mins) * 0.5;
        let r = motion.rotation().abs() * half;
        Self::new(center - r, center + r)
    }

    fn contains_point(&self, p: &Point, tolerance: f64) -> bool {
        (0..3).all(|i| p[i] >= self.mins[i] - tolerance && p[i] <= self.maxs[i] + tolerance)
    }

    fn volume(&self) -> f64 {
        (self.maxs - self.mins).product()
    }

    fn surface_area(&self) -> f64 {
        let d = self.maxs - self.mins;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    fn center(&self) -> Point {
        nalgebra::center(&self.mins, &self.maxs)
    }
}
