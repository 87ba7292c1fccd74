//! Triangle meshes standing in for primitive shapes in pictures. Rays refuse primitives
//! (`QueryError::NotAMesh`), so a picture of a box, sphere, capsule, cylinder or convex hull
//! casts its rays at the mesh made here instead. Drawing only: every contact and distance is
//! decided by the exact engine on the real shapes, never on these meshes.

use super::Error;
use obbtree::bv::shape::Polytope;
use obbtree::{Point, Shape, TriMesh};
use std::f64::consts::PI;

/// Vertices around a sphere, capsule or cylinder (its facets span 360°/64 = 5.6°).
const AROUND: usize = 64;
/// Profile steps over a half circle of a sphere (a capsule's two caps share them).
const OVER_HALF_CIRCLE: usize = 24;

/// The mesh drawn for `shape` in its own frame: a box's 12 triangles, a convex shape's hull,
/// a sphere, capsule or cylinder as a surface of revolution about z (its vertices on the true
/// surface, so the drawing is never larger than the shape; straight sides in bands at most a
/// radius tall, so that a picture can highlight the part of a long side near a contact);
/// `None` for a halfspace, which has no finite drawing.
pub fn shape_mesh(shape: &Shape) -> Result<Option<TriMesh>, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(format!("cannot draw {shape:?}: {e}"));
    let mesh = match shape {
        Shape::Cuboid(b) => {
            let h = b.sizes() / 2.0;
            TriMesh::cuboid(Point::from(-h), Point::from(h))
        }
        Shape::Convex(c) => {
            let hull = Polytope::hull(c.points().to_vec()).map_err(|e| fail(&e))?;
            TriMesh::new(hull.vertices().to_vec(), hull.triangles().to_vec())
        }
        Shape::Sphere(s) => revolved(&capsule_profile(s.radius(), 0.0)),
        Shape::Capsule(c) => revolved(&capsule_profile(c.radius(), c.length() / 2.0)),
        Shape::Cylinder(c) => {
            let (r, h) = (c.radius(), c.length() / 2.0);
            let side = straight_side(r, h);
            let profile: Vec<(f64, f64)> = [(0.0, -h)]
                .into_iter()
                .chain(side)
                .chain([(0.0, h)])
                .collect();
            revolved(&profile)
        }
        Shape::Halfspace(_) => return Ok(None),
    };
    mesh.map(Some).map_err(|e| fail(&e))
}

/// The profile `(radius, z)` of a capsule of `radius` whose segment ends at `z = ±half` (a
/// sphere for `half = 0`), from the bottom pole to the top one: the lower cap's quarter
/// circle about `-half`, the straight side between, the upper cap's quarter circle about
/// `+half`.
fn capsule_profile(radius: f64, half: f64) -> Vec<(f64, f64)> {
    let cap = OVER_HALF_CIRCLE / 2;
    let point = |k: usize, centre: f64| {
        let angle = PI * k as f64 / OVER_HALF_CIRCLE as f64;
        (radius * angle.sin(), centre - radius * angle.cos())
    };
    let lower = (0..cap).map(|k| point(k, -half));
    let upper = (cap + 1..=OVER_HALF_CIRCLE).map(|k| point(k, half));
    // The side supplies both equators exactly (cos 90° is not 0 in floating point).
    lower
        .chain(straight_side(radius, half))
        .chain(upper)
        .collect()
}

/// The profile points of a straight side of `radius` from `z = -half` to `z = half`, both
/// included, in bands at most `radius` tall (one point for `half = 0`).
fn straight_side(radius: f64, half: f64) -> impl Iterator<Item = (f64, f64)> {
    let bands = (2.0 * half / radius).ceil() as usize;
    (0..=bands).map(move |k| {
        let z = if bands == 0 {
            0.0
        } else {
            -half + 2.0 * half * k as f64 / bands as f64
        };
        (radius, z)
    })
}

/// The surface swept by turning `profile` (points `(radius, z)` from the bottom to the top,
/// the first and last on the axis) about z: one ring of [`AROUND`] vertices per off-axis
/// point, a pole for the first and the last, triangles counter-clockwise seen from outside.
fn revolved(profile: &[(f64, f64)]) -> Result<TriMesh, obbtree::MeshError> {
    let mut vertices: Vec<Point> = Vec::new();
    // Each profile point's first vertex (its pole's, or its ring's), and whether it is a pole.
    let mut rings: Vec<(u32, bool)> = Vec::with_capacity(profile.len());
    for (i, &(r, z)) in profile.iter().enumerate() {
        let first = vertices.len() as u32;
        // By position, not by `r == 0`: a computed pole's radius may round to 1e-16.
        let pole = i == 0 || i + 1 == profile.len();
        if pole {
            vertices.push(Point::new(0.0, 0.0, z));
        } else {
            vertices.extend((0..AROUND).map(|k| {
                let angle = 2.0 * PI * k as f64 / AROUND as f64;
                Point::new(r * angle.cos(), r * angle.sin(), z)
            }));
        }
        rings.push((first, pole));
    }
    let n = AROUND as u32;
    let mut triangles = Vec::new();
    for pair in rings.windows(2) {
        let [(a, a_pole), (b, b_pole)] = [pair[0], pair[1]];
        for k in 0..n {
            let next = (k + 1) % n;
            match (a_pole, b_pole) {
                (true, true) => {}
                (true, false) => triangles.push([a, b + next, b + k]),
                (false, true) => triangles.push([a + k, a + next, b]),
                (false, false) => {
                    triangles.push([a + k, a + next, b + next]);
                    triangles.push([a + k, b + next, b + k]);
                }
            }
        }
    }
    TriMesh::new(vertices, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every drawable shape gives a closed mesh whose vertices lie on the shape's surface.
    #[test]
    fn primitives_become_closed_meshes_on_their_surfaces() {
        let cases = [
            (Shape::cuboid([0.2, 0.4, 0.6]).unwrap(), 8, 12),
            // 23 rings between the poles.
            (
                Shape::sphere(0.5).unwrap(),
                2 + 23 * AROUND,
                2 * 23 * AROUND,
            ),
            // 12 rings per cap and one more halfway along the side.
            (
                Shape::capsule(0.5, 1.0).unwrap(),
                2 + 25 * AROUND,
                2 * 25 * AROUND,
            ),
            // Rings at both ends and halfway.
            (
                Shape::cylinder(0.5, 1.0).unwrap(),
                2 + 3 * AROUND,
                2 * 3 * AROUND,
            ),
        ];
        for (shape, vertices, triangles) in cases {
            let mesh = shape_mesh(&shape).unwrap().unwrap();
            assert_eq!(mesh.vertices().len(), vertices, "{shape:?}");
            assert_eq!(mesh.triangles().len(), triangles, "{shape:?}");
            assert!(mesh.is_closed(), "{shape:?}");
            assert!(mesh.degenerate_triangles().is_empty(), "{shape:?}");
        }
        let sphere = shape_mesh(&Shape::sphere(0.5).unwrap()).unwrap().unwrap();
        for p in sphere.vertices() {
            assert!((p.coords.norm() - 0.5).abs() < 1e-12, "{p}");
        }
        let halfspace = Shape::halfspace([0.0, 0.0, 1.0], 0.0).unwrap();
        assert!(shape_mesh(&halfspace).unwrap().is_none());
    }
}
