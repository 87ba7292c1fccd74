//! Rays.

use crate::{Point, Vector};
use serde::{Deserialize, Serialize};

/// Half-line `origin + t·dir`, `t >= 0`. `dir` need not be unit length; hit parameters `t`
/// are in units of `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ray {
    /// Start point.
    pub origin: Point,
    /// Direction (non-zero).
    pub dir: Vector,
}

impl Ray {
    /// Ray from `origin` along `dir`.
    pub fn new(origin: Point, dir: Vector) -> Self {
        Self { origin, dir }
    }

    /// The point at parameter `t`.
    pub fn point_at(&self, t: f64) -> Point {
        self.origin + self.dir * t
    }
}
