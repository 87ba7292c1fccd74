//! The solid convex polytope of a box or convex shape: the exact convex hull of its placed
//! points, with an exact point-containment test.

use super::ShapeError;
use crate::fit::hull::convex_hull;
use crate::fit::SAFE_EXPONENT;
use crate::predicates::orient3d;
use crate::range::{binary_exponent, power_of_two_factors};
use crate::{Aabb, Point, Triangle, Vector};
use std::sync::OnceLock;

/// The convex hull of a finite point set spanning three dimensions: its points and its
/// outward, counter-clockwise (seen from outside) boundary triangles, both exact (QuickHull on
/// exact orientation predicates, [`convex_hull`]). As a solid it is closed: boundary included.
///
/// A placed box finds its boundary triangles only when a test first needs them
/// ([`Polytope::triangles`]): the float filters in front of the exact tests
/// ([`Polytope::edge_directions`]) settle most pairs from the points alone, and the exact
/// orientation of a placed face's four corners (coplanar before rounding, so always decided by
/// the slow stage of [`orient3d`]) is then never paid for.
#[derive(Clone, Debug)]
pub struct Polytope {
    /// The points it is the hull of: every vertex of the hull is one of them.
    vertices: Vec<Point>,
    /// The boundary triangles, as indices into `vertices`.
    triangles: OnceLock<Vec<[u32; 3]>>,
    /// A placed box's faces, from which `triangles` is made on first use.
    faces: Option<&'static [[u32; 4]]>,
    bounds: Aabb,
}

impl PartialEq for Polytope {
    /// The same points and the same boundary triangles.
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.triangles() == other.triangles()
    }
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
        let (hull_vertices, hull_triangles) = hull_triangles(&points, field)?;
        let mut index = vec![u32::MAX; points.len()];
        let mut vertices = Vec::with_capacity(hull_vertices.len());
        for &i in &hull_vertices {
            index[i as usize] = vertices.len() as u32;
            vertices.push(points[i as usize]);
        }
        let triangles: Vec<[u32; 3]> = hull_triangles
            .iter()
            .map(|t| t.map(|i| index[i as usize]))
            .collect();
        let bounds = Aabb::from_points(&vertices);
        Ok(Self {
            vertices,
            triangles: OnceLock::from(triangles),
            faces: None,
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
    ///
    /// The split is made when the triangles are first asked for. Every way it can fail is
    /// ruled out here: the points span three dimensions when the first corner and its three
    /// neighbours along the faces (`faces[0]`'s second and fourth, `faces[2]`'s second) do, by
    /// an exact sign, and the magnitudes' span is checked as the hull checks it. A thinner
    /// placement is split at once, and refused as the hull refuses it.
    pub(super) fn with_faces(
        points: Vec<Point>,
        faces: &'static [[u32; 4]],
        field: &'static str,
    ) -> Result<Self, ShapeError> {
        let bounds = Aabb::from_points(&points);
        let corner = |face: usize, k: usize| &points[faces[face][k] as usize];
        let spans_space = orient3d(corner(0, 0), corner(0, 1), corner(0, 3), corner(2, 1)) != 0;
        scale_to_unit(&points)?;
        let this = Self {
            vertices: points,
            triangles: OnceLock::new(),
            faces: Some(faces),
            bounds,
        };
        if !spans_space {
            let triangles = split_faces(&this.vertices, faces, field)?;
            let _ = this.triangles.set(triangles);
        }
        Ok(this)
    }

    /// The hull's vertices.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The outward boundary triangles, as indices into [`Polytope::vertices`] (a point inside
    /// the hull of the others is in no triangle).
    pub fn triangles(&self) -> &[[u32; 3]] {
        self.triangles.get_or_init(|| {
            let faces = self.faces.expect("a polytope without triangles has faces");
            split_faces(&self.vertices, faces, "placed corners")
                .expect("the placement was checked to span space and the hull's range")
        })
    }

    /// Directions along the polytope's edges, for the separating-axis filters: a placed box's
    /// three edge directions (from its first corner to the neighbours its faces name), none
    /// for a hull. Any direction serves a filter; these are the box's own axes, up to
    /// rounding, so with the triangle's they are the candidate axes of the separating-axis
    /// theorem (Gottschalk, Lin & Manocha 1996).
    pub fn edge_directions(&self) -> Option<[Vector; 3]> {
        let faces = self.faces?;
        let corner = |face: usize, k: usize| self.vertices[faces[face][k] as usize];
        let origin = corner(0, 0);
        Some([
            corner(0, 1) - origin,
            corner(0, 3) - origin,
            corner(2, 1) - origin,
        ])
    }

    /// The bounding box of the vertices (exact: their coordinatewise extremes).
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }

    /// The boundary triangles.
    pub fn boundary(&self) -> impl Iterator<Item = Triangle> + '_ {
        self.triangles().iter().map(|t| {
            let [a, b, c] = t.map(|i| self.vertices[i as usize]);
            Triangle::new(a, b, c)
        })
    }

    /// Whether `p` lies in the closed solid, exactly: on the inner side of, or on, the plane of
    /// every outward boundary triangle (exact [`orient3d`] signs; the hull is exactly convex, so
    /// these halfspaces bound it). Ericson (2005) §5.4.2 (point in polyhedron by halfspaces).
    pub fn contains(&self, p: &Point) -> bool {
        self.triangles().iter().all(|t| {
            let [a, b, c] = t.map(|i| &self.vertices[i as usize]);
            orient3d(a, b, c, p) >= 0
        })
    }
}

/// The power-of-two factors that bring the largest coordinate of `points` to `[0.5, 1)`, or
/// why the hull cannot be computed exactly: no nonzero coordinate, or nonzero magnitudes
/// spanning more than the predicates' safe range allows.
fn scale_to_unit(points: &[Point]) -> Result<[f64; 2], ShapeError> {
    let magnitudes = points.iter().flat_map(|p| p.iter().map(|x| x.abs()));
    let largest = magnitudes.clone().fold(0.0, f64::max);
    let smallest = magnitudes
        .filter(|&x| x > 0.0)
        .fold(f64::INFINITY, f64::min);
    if largest == 0.0 {
        return Err(ShapeError::Flat { field: "points" });
    }
    let shift = -binary_exponent(largest) - 1;
    if binary_exponent(smallest) + shift < -SAFE_EXPONENT {
        return Err(ShapeError::HullSpan {
            span: largest / smallest,
        });
    }
    Ok(power_of_two_factors(shift))
}

/// The exact hull of `points`: the indices of its vertices, and its triangles as indices into
/// `points`.
fn hull_triangles(
    points: &[Point],
    field: &'static str,
) -> Result<(Vec<u32>, Vec<[u32; 3]>), ShapeError> {
    let flat = ShapeError::Flat { field };
    if points.len() < 4 {
        return Err(flat);
    }
    let [f0, f1] = scale_to_unit(points).map_err(|e| match e {
        ShapeError::Flat { .. } => flat.clone(),
        other => other,
    })?;
    let scaled: Vec<Point> = points.iter().map(|p| p * f0 * f1).collect();
    let hull = convex_hull(&scaled).ok_or(flat)?;
    Ok((hull.vertices, hull.triangles))
}

/// The boundary triangles of the placed quads `faces` over `points` (see
/// [`Polytope::with_faces`]), or the hull's when the quads are not convex.
fn split_faces(
    points: &[Point],
    faces: &[[u32; 4]],
    field: &'static str,
) -> Result<Vec<[u32; 3]>, ShapeError> {
    let mut triangles = Vec::with_capacity(2 * faces.len());
    for face in faces {
        let split = split_convex(points, face);
        if !split.iter().all(|t| bounds_off_face(points, t, face)) {
            return Ok(hull_triangles(points, field)?.1);
        }
        triangles.extend(split);
    }
    Ok(triangles)
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
        assert!(hull.triangles().iter().flatten().all(|&i| i != 7));
        assert!(hull.contains(&points[7]));
        // Reversed faces (inside out) are refused too.
        let reversed: &'static [[u32; 4]] = Cuboid::FACES
            .iter()
            .map(|&[p, q, r, s]| [s, r, q, p])
            .collect::<Vec<_>>()
            .leak();
        let box_corners = corners([2.0, 2.0, 2.0]).to_vec();
        let again = Polytope::with_faces(box_corners.clone(), reversed, "c").unwrap();
        assert!(box_corners.iter().all(|p| again.contains(p)));
        assert!(!(0..6).all(|k| bounds_off_face(
            &box_corners,
            &split_convex(&box_corners, &reversed[k])[0],
            &reversed[k]
        )));
    }
}
