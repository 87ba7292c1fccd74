//! Triangles.

use crate::{Point, Vector};
use serde::{Deserialize, Serialize};

/// A triangle by its three vertices (closed set: boundary included).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Triangle {
    /// Vertices in order; the geometric normal is `(b - a) × (c - a)`.
    pub a: Point,
    /// Second vertex.
    pub b: Point,
    /// Third vertex.
    pub c: Point,
}

impl Triangle {
    /// Triangle `a, b, c`.
    pub fn new(a: Point, b: Point, c: Point) -> Self {
        Self { a, b, c }
    }

    /// `(b - a) × (c - a)`: twice the area times the unit normal.
    pub fn scaled_normal(&self) -> Vector {
        (self.b - self.a).cross(&(self.c - self.a))
    }

    /// Area.
    pub fn area(&self) -> f64 {
        0.5 * self.scaled_normal().norm()
    }

    /// Centroid.
    pub fn centroid(&self) -> Point {
        Point::from((self.a.coords + self.b.coords + self.c.coords) / 3.0)
    }

    /// The vertices as an array.
    pub fn vertices(&self) -> [Point; 3] {
        [self.a, self.b, self.c]
    }
}
