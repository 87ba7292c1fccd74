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

    /// The hull of `points` when the quads `faces` (indices into `points`, counter-clockwise
    /// seen from outside, together a closed surface through every point) still bound it after
    /// placement. Each quad is split along the diagonal that keeps it convex (its corners need
    /// not stay coplanar once placed: the exact sign of its four corners' [`orient3d`] picks
    /// the diagonal, which also puts each triangle's fourth corner on or inside its plane);
    /// then every point off the face must lie on or inside both triangles' planes, and some
    /// strictly (so no triangle is flat), decided exactly. A closed, consistently oriented
    /// surface that is convex at every edge bounds the convex hull of its corners (Preparata &
    /// Shamos, *Computational Geometry* (1985) §3.4). Otherwise the hull is computed afresh
    /// ([`Polytope::hull_of`]): a placement that rounded a box out of convex position.
    pub(super) fn with_faces(
        points: Vec<Point>,
        faces: &[[u32; 4]],
        field: &'static str,
    ) -> Result<Self, ShapeError> {
        let mut triangles = Vec::with_capacity(2 * faces.len());
        for face in faces {
            let split = split_convex(&points, face);
            if !split.iter().all(|t| bounds_off_face(&points, t, face)) {
                return Self::hull_of(points, field);
            }
            triangles.extend(split);
        }
        let bounds = Aabb::from_points(&points);
        Ok(Self {
            vertices: points,
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

/// The quad `[p, q, r, s]` as two triangles along the diagonal that leaves the fourth corner
/// of each on or inside its plane: `p r` when `s` is on or inside the plane of `p q r`, else
/// `q s` (the signed volume of the four corners decides both, being the same for `p q r s`,
/// `p r s q` and, negated, for `q r s p`, `q s p r`).
fn split_convex(points: &[Point], &[p, q, r, s]: &[u32; 4]) -> [[u32; 3]; 2] {
    let [a, b, c, d] = [p, q, r, s].map(|i| &points[i as usize]);
    if orient3d(a, b, c, d) >= 0 {
        [[p, q, r], [p, r, s]]
    } else {
        [[q, r, s], [q, s, p]]
    }
}

/// Whether every point off `face` lies on or inside the plane of `triangle`, and some strictly
/// (exact signs).
fn bounds_off_face(points: &[Point], triangle: &[u32; 3], face: &[u32; 4]) -> bool {
    let [a, b, c] = triangle.map(|i| &points[i as usize]);
    let (mut inside, mut strictly) = (true, false);
    for (k, p) in points.iter().enumerate() {
        if face.contains(&(k as u32)) {
            continue;
        }
        let sign = orient3d(a, b, c, p);
        inside &= sign >= 0;
        strictly |= sign > 0;
    }
    inside && strictly
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cuboid, Shape};
    use crate::Pose;

    fn corners(sizes: [f64; 3]) -> [Point; 8] {
        let Shape::Cuboid(b) = Shape::cuboid(sizes).unwrap() else {
            unreachable!()
        };
        b.corners()
    }

    /// A box placed at the identity and under 200 turns keeps its faces as its boundary, and
    /// that solid is QuickHull's: every vertex of either lies in the other.
    #[test]
    fn a_placed_box_keeps_its_faces_when_it_stays_convex() {
        let turns = (0..200).map(|k| {
            let k = f64::from(k);
            Pose::new([0.3 * k, -2.0, 5.0], [0.4 + k, 1.1 * k, -0.2]).unwrap()
        });
        for pose in std::iter::once(Pose::identity()).chain(turns) {
            let placed: Vec<Point> = corners([1.0, 2.0, 3.0])
                .iter()
                .map(|c| pose.transform_point(c))
                .collect();
            let kept = Polytope::with_faces(placed.clone(), &Cuboid::FACES, "c").unwrap();
            let fresh = Polytope::hull_of(placed.clone(), "c").unwrap();
            assert_eq!(kept.triangles().len(), 12, "{pose:?}");
            assert!(
                kept.vertices().iter().all(|v| fresh.contains(v)),
                "{pose:?}"
            );
            assert!(
                fresh.vertices().iter().all(|v| kept.contains(v)),
                "{pose:?}"
            );
        }
    }

    /// A corner pushed inside makes the faces no boundary of the hull: it is computed afresh
    /// (and the pushed corner is not one of its vertices).
    #[test]
    fn faces_that_are_not_convex_give_way_to_the_hull() {
        let mut points = corners([2.0, 2.0, 2.0]).to_vec();
        points[7] = Point::new(0.2, 0.2, 0.2);
        let hull = Polytope::with_faces(points.clone(), &Cuboid::FACES, "c").unwrap();
        assert_eq!(hull.vertices().len(), 7);
        assert!(hull.contains(&points[7]));
        // Reversed faces (inside out) are refused too.
        let reversed: Vec<[u32; 4]> = Cuboid::FACES
            .iter()
            .map(|&[p, q, r, s]| [s, r, q, p])
            .collect();
        let box_corners = corners([2.0, 2.0, 2.0]).to_vec();
        let again = Polytope::with_faces(box_corners.clone(), &reversed, "c").unwrap();
        assert!(box_corners.iter().all(|p| again.contains(p)));
        assert!(!(0..6).all(|k| bounds_off_face(
            &box_corners,
            &split_convex(&box_corners, &reversed[k])[0],
            &reversed[k]
        )));
    }
}
