//! Bounding sphere.

use crate::Point;
use serde::{Deserialize, Serialize};

/// Closed ball `{p : |p - center| <= radius}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    /// Centre.
    pub center: Point,
    /// Non-negative radius.
    pub radius: f64,
}
