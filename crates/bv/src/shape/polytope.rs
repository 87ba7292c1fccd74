//! The solid convex polytope of a box or convex shape: the exact convex hull of its placed
//! points, with an exact point-containment test.

use super::ShapeError;
use crate::fit::hull::convex_hull;
use crate::fit::SAFE_EXPONENT;
use crate::predicates::orient3d;
use crate::range::{binary_exponent, power_of_two_factors};
use crate::{Aabb, Point, Triangle};

/// The convex hull of a finite point set spanning three dimensions: its vertices and its
/// outward, counter-clockwise (seen from outside) boundary triangles, both exact (QuickHull on
/// exact orientation predicates, [`convex_hull`]). As a solid it is closed: boundary included.
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
    bounds: Aabb,
}

impl Polytope {
    /// The exact convex hull of `points` (finite). The hull is computed on a copy scaled by a
    /// power of two (exact) that brings the largest coordinate to `[0.5, 1)`, so that every
    /// nonzero coordinate lies where [`convex_hull`]'s predicates are exact, `[2⁻²⁰⁰, 2²⁰⁰]`;
    /// orientation signs do not change under such a scaling. Fails for points that span fewer
    /// than three dimensions, or whose nonzero magnitudes span more than about `2²⁰⁰`
    /// ([`ShapeError::HullSpan`]).
    pub fn hull(points: Vec<Point>) -> Result<Self, ShapeError> {
        Self::hull_of(points, "points")
    }

    /// [`Polytope::hull`], naming the points `field` in a [`ShapeError::Flat`].
    pub(super) fn hull_of(points: Vec<Point>, field: &'static str) -> Result<Self, ShapeError> {
        let flat = ShapeError::Flat { field };
        let magnitudes = points.iter().flat_map(|p| p.iter().map(|x| x.abs()));
        let largest = magnitudes.clone().fold(0.0, f64::max);
        let smallest = magnitudes
            .filter(|&x| x > 0.0)
            .fold(f64::INFINITY, f64::min);
        if points.len() < 4 || largest == 0.0 {
            return Err(flat);
        }
        let shift = -binary_exponent(largest) - 1;
        if binary_exponent(smallest) + shift < -SAFE_EXPONENT {
            return Err(ShapeError::HullSpan {
                span: largest / smallest,
            });
        }
        let [f0, f1] = power_of_two_factors(shift);
        let scaled: Vec<Point> = points.iter().map(|p| p * f0 * f1).collect();
        let hull = convex_hull(&scaled).ok_or(flat)?;
        let mut index = vec![u32::MAX; points.len()];
        let mut vertices = Vec::with_capacity(hull.vertices.len());
        for &i in &hull.vertices {
            index[i as usize] = vertices.len() as u32;
            vertices.push(points[i as usize]);
        }
        let triangles = hull
            .triangles
            .iter()
            .map(|t| t.map(|i| index[i as usize]))
            .collect();
        let bounds = Aabb::from_points(&vertices);
        Ok(Self {
            vertices,
            triangles,
            bounds,
        })
    }

    /// The hull's vertices.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The outward boundary triangles, as indices into [`Polytope::vertices`].
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The bounding box of the vertices (exact: their coordinatewise extremes).
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }

    /// The boundary triangles.
    pub fn boundary(&self) -> impl Iterator<Item = Triangle> + '_ {
        self.triangles.iter().map(|t| {
            let [a, b, c] = t.map(|i| self.vertices[i as usize]);
            Triangle::new(a, b, c)
        })
    }

    /// Whether `p` lies in the closed solid, exactly: on the inner side of, or on, the plane of
    /// every outward boundary triangle (exact [`orient3d`] signs; the hull is exactly convex, so
    /// these halfspaces bound it). Ericson (2005) §5.4.2 (point in polyhedron by halfspaces).
    pub fn contains(&self, p: &Point) -> bool {
        self.triangles.iter().all(|t| {
            let [a, b, c] = t.map(|i| &self.vertices[i as usize]);
            orient3d(a, b, c, p) >= 0
        })
    }
}
