//! Planes and the classification of a volume against a plane.

use crate::{Point, Vector};

/// The plane `{x : normal · x + d = 0}`; its positive side is `normal · x + d > 0`.
/// `normal` must be non-zero; it need not be unit length (then "distances" are scaled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Normal (pointing to the positive side).
    pub normal: Vector,
    /// Offset.
    pub d: f64,
}

impl Plane {
    /// The plane `normal · x + d = 0`.
    pub fn new(normal: Vector, d: f64) -> Self {
        Self { normal, d }
    }

    /// The plane through `point` with the given normal.
    pub fn from_point_normal(point: &Point, normal: Vector) -> Self {
        Self {
            normal,
            d: -normal.dot(&point.coords),
        }
    }

    /// `normal · p + d` (the signed distance times `|normal|`).
    pub fn eval(&self, p: &Point) -> f64 {
        self.normal.dot(&p.coords) + self.d
    }

    /// The same plane with a unit normal, or `None` if the normal is zero or not finite.
    pub fn normalized(&self) -> Option<Self> {
        let len = self.normal.norm();
        (len > 0.0 && len.is_finite()).then(|| Self {
            normal: self.normal / len,
            d: self.d / len,
        })
    }

    /// The tolerance band for [`PlaneSide::Tangent`] for a volume with centre `center` and
    /// "radius" `extent` (an upper bound of the distance of its points from `center`):
    /// [`TANGENT_TOLERANCE`] × (`|d| + |n|·(|center| + extent)`), the size of the terms whose
    /// rounding errors the classification methods differ by.
    pub fn tangent_band(&self, center: &Point, extent: f64) -> f64 {
        TANGENT_TOLERANCE * (self.d.abs() + self.normal.norm() * (center.coords.norm() + extent))
    }
}

/// Relative tolerance for a volume touching a plane (see [`Plane::tangent_band`]). It is a
/// few thousand ulps: far above the rounding of the classification formulas (a few ulps),
/// far below any geometric feature size of interest.
pub const TANGENT_TOLERANCE: f64 = 1e-12;

/// Where a volume lies relative to a plane: the plane–box classification of *Real-Time
/// Rendering*, 3rd ed. (2008), §16.10, and Ericson, *Real-Time Collision Detection* (2005),
/// §5.2.3, with touching kept apart from crossing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlaneSide {
    /// Entirely on the positive side, not touching.
    Positive,
    /// Entirely on the negative side, not touching.
    Negative,
    /// On one side, touching the plane (within the tangent band).
    Tangent,
    /// Points strictly on both sides.
    Intersecting,
}

impl PlaneSide {
    /// Classifies a volume from the range `[lo, hi]` of `n · x + d` over it and the tangent
    /// band `band` (a value "equal to 0" is one with `|·| <= band`).
    pub fn from_range(lo: f64, hi: f64, band: f64) -> Self {
        if lo > band {
            Self::Positive
        } else if hi < -band {
            Self::Negative
        } else if lo.abs() <= band || hi.abs() <= band {
            Self::Tangent
        } else {
            Self::Intersecting
        }
    }
}
