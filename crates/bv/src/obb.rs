//! Oriented bounding box.

use crate::{Point, Vector};
use nalgebra::Matrix3;
use serde::{Deserialize, Serialize};

/// Oriented box: `center + Σ s_i axes.column(i)` with `|s_i| <= half_extents[i]` (closed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Obb {
    /// Centre of the box.
    pub center: Point,
    /// Orthonormal, right-handed axes as the columns of a rotation matrix.
    pub axes: Matrix3<f64>,
    /// Non-negative half-lengths along each axis.
    pub half_extents: Vector,
}
