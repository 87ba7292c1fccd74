//! View frusta: six planes from a view-projection matrix.

use super::plane::Plane;
use crate::Point;
use nalgebra::{Matrix4, RowVector4};

/// Why a frustum could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrustumError {
    /// The plane with this index (left, right, bottom, top, near, far) has a zero or
    /// non-finite normal: the matrix is singular or not finite.
    #[error("frustum plane {0} is degenerate (singular or non-finite view-projection matrix)")]
    DegeneratePlane(usize),
}

/// A convex region bounded by six planes with unit normals pointing outward: a point `p` is
/// inside when `plane.eval(p) <= 0` for all of them. Order: left, right, bottom, top, near,
/// far (opposite planes are consecutive).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frustum {
    planes: [Plane; 6],
    /// `planes[2k] - planes[2k+1]`: positive where plane `2k` is the nearer to being crossed
    /// (the octant selectors of [`super::frustum_sphere::classify_octant`]).
    mid_planes: [Plane; 3],
}

impl Frustum {
    /// The frustum of a view-projection matrix `M = P·V` mapping world points (column vectors,
    /// `w = 1`) to clip space with the OpenGL convention `-w <= x, y, z <= w`, by Gribb and
    /// Hartmann's method (G. Gribb, K. Hartmann, "Fast extraction of viewing frustum planes
    /// from the world-view-projection matrix", 2001; *Real-Time Rendering*, 3rd ed. (2008),
    /// §16.14): with `r_i` the rows of `M`, the left plane is `-(r_3 + r_0) · (x, y, z, 1) = 0`,
    /// the right `(r_0 - r_3) · (x, y, z, 1) = 0`, and so on. (With row vectors, as in
    /// Direct3D, the same formulas use the columns of `M`.)
    pub fn from_view_projection(m: &Matrix4<f64>) -> Result<Self, FrustumError> {
        let (r3, plane) = (m.row(3), |v: RowVector4<f64>| {
            Plane::new(v.fixed_columns::<3>(0).transpose(), v[3])
        });
        let planes = std::array::from_fn(|i| {
            let r = m.row(i / 2);
            plane(if i % 2 == 0 { -(r3 + r) } else { r - r3 })
        });
        Self::from_planes(planes)
    }

    /// A frustum from six outward planes (left, right, bottom, top, near, far), normalised.
    pub fn from_planes(planes: [Plane; 6]) -> Result<Self, FrustumError> {
        let mut unit = planes;
        for (i, p) in planes.iter().enumerate() {
            unit[i] = p.normalized().ok_or(FrustumError::DegeneratePlane(i))?;
        }
        let mid_planes = std::array::from_fn(|k| {
            let (a, b) = (unit[2 * k], unit[2 * k + 1]);
            Plane::new(a.normal - b.normal, a.d - b.d)
        });
        Ok(Self {
            planes: unit,
            mid_planes,
        })
    }

    /// The six unit-normal planes (left, right, bottom, top, near, far).
    pub fn planes(&self) -> &[Plane; 6] {
        &self.planes
    }

    /// The three planes separating each pair of opposite planes' octant halves.
    pub fn mid_planes(&self) -> &[Plane; 3] {
        &self.mid_planes
    }

    /// Whether `p` lies in the closed frustum.
    pub fn contains_point(&self, p: &Point) -> bool {
        self.planes.iter().all(|pl| pl.eval(p) <= 0.0)
    }
}
