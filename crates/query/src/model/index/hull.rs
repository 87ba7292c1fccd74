//! A model's convex hull, kept once for every query that needs one: the distance screen of
//! meshes far apart and the separating planes of scenes.
//!
//! It holds two things. The first is every vertex of the hull, from the exact QuickHull
//! ([`convex_hull`]). It is a complete support set: the largest projection of these points on
//! any direction is the mesh's, so a plane certified against them is certified against the
//! whole mesh. The second is a sample: the extreme vertex along a few thousand directions.
//! GJK runs over the sample as a guide, because a support search over a small set that stays in
//! cache finds the same candidate pairs as one over the whole hull, for less (measured in
//! `docs/performance.md`). Every answer is then certified against the complete set or the
//! whole mesh.

use super::support::{farthest, highest};
use crate::Model;
use obbtree_bv::fit::hull::convex_hull;
use obbtree_bv::{Point, Vector};
use rayon::prelude::*;

/// How many directions the hull sample takes the extreme vertex along: enough that GJK over the
/// sample leads to the same certified pairs as over the whole mesh, where fewer directions
/// certify fewer (the counts are in `docs/performance.md`).
pub(crate) const HULL_DIRECTIONS: usize = 2562;

/// A flat mesh has no hull polytope. Its vertices serve as the complete support set up to this
/// many; a bigger flat mesh has none.
const MAX_FLAT_VERTICES: usize = 256;

/// The convex hull of a model's mesh, in the mesh's frame.
#[derive(Clone, Debug)]
pub(crate) struct Hull {
    /// Every vertex of the hull. A flat mesh with few vertices has all its vertices here. `None`
    /// for a bigger flat mesh or one outside the exact predicates' range.
    pub vertices: Option<Vec<Point>>,
    /// The largest coordinate magnitude of `vertices` (0 when there are none).
    pub reach: f64,
    /// The vertex farthest along each of [`HULL_DIRECTIONS`] directions, each vertex once, in the
    /// order first found: vertices of the hull whose own hull approximates it from inside.
    pub sample: Vec<Point>,
}

impl Hull {
    /// The hull of `model`'s mesh.
    pub fn of<V: Send + Sync>(model: &Model<V>) -> Self {
        let vertices = hull_vertices(model);
        let reach = vertices
            .iter()
            .flatten()
            .map(|p| p.coords.amax())
            .fold(0.0, f64::max);
        let sample = match &vertices {
            Some(points) => sample(|d| farthest(points, d).vertex),
            None => sample(|d| highest(model, d).vertex),
        };
        Self {
            vertices,
            reach,
            sample,
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.vertices.as_deref().map_or(0, std::mem::size_of_val)
            + std::mem::size_of_val(&self.sample[..])
    }
}

/// The complete support set of `model`'s mesh (see [`Hull::vertices`]).
fn hull_vertices<V>(model: &Model<V>) -> Option<Vec<Point>> {
    let vertices = model.mesh().vertices();
    match convex_hull(vertices) {
        Some(hull) => Some(
            hull.vertices
                .iter()
                .map(|&i| vertices[i as usize])
                .collect(),
        ),
        None if vertices.len() <= MAX_FLAT_VERTICES => Some(vertices.to_vec()),
        None => None,
    }
}

/// The point `extreme` gives along each of [`HULL_DIRECTIONS`] directions of a Fibonacci lattice
/// on the sphere (nearly uniform: González, "Measurement of areas on a sphere using Fibonacci
/// and latitude–longitude lattices", Mathematical Geosciences 42, 2010), each once, in the order
/// first found.
fn sample(extreme: impl Fn(&Vector) -> Point + Sync) -> Vec<Point> {
    let found: Vec<Point> = (0..HULL_DIRECTIONS)
        .into_par_iter()
        .map(|k| extreme(&fibonacci_direction(k, HULL_DIRECTIONS)))
        .collect();
    let mut sample: Vec<Point> = Vec::new();
    for v in found {
        if !sample.contains(&v) {
            sample.push(v);
        }
    }
    sample
}

/// The `k`-th of `n` points of the Fibonacci lattice on the unit sphere.
pub(crate) fn fibonacci_direction(k: usize, n: usize) -> Vector {
    let golden_angle = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let y = 1.0 - (2 * k + 1) as f64 / n as f64;
    let radius = (1.0 - y * y).sqrt();
    let angle = golden_angle * k as f64;
    Vector::new(radius * angle.cos(), y, radius * angle.sin())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::closed_box;

    fn sorted(mut points: Vec<Point>) -> Vec<Point> {
        points.sort_by(|p, q| {
            p.coords
                .as_slice()
                .partial_cmp(q.coords.as_slice())
                .unwrap()
        });
        points
    }

    /// The hull of a convex polytope is its vertex set, and so is its sample (each vertex is
    /// the farthest along a cone of directions); the directions are unit vectors.
    #[test]
    fn the_hull_of_a_box_is_its_corners() {
        let mesh = closed_box([1.0, 2.0, 3.0]);
        let corners = sorted(mesh.vertices().to_vec());
        let model: Model = Model::new(mesh).unwrap();
        let hull = Hull::of(&model);
        assert_eq!(sorted(hull.sample.clone()), corners);
        assert_eq!(sorted(hull.vertices.clone().unwrap()), corners);
        assert_eq!(hull.reach, 3.0);
        for k in 0..HULL_DIRECTIONS {
            assert!((fibonacci_direction(k, HULL_DIRECTIONS).norm() - 1.0).abs() < 1e-12);
        }
    }

    /// Every mesh vertex lies on the inner side of every direction's support plane through the
    /// complete set, on a mesh with interior vertices.
    #[test]
    fn the_hull_vertices_support_every_direction() {
        let mut mesh_vertices = closed_box([2.0, 2.0, 2.0]).vertices().to_vec();
        mesh_vertices.push(Point::new(0.1, 0.2, 0.3));
        mesh_vertices.push(Point::new(0.5, 0.9, 1.0));
        let triangles = vec![[0, 1, 2], [8, 9, 0], [3, 4, 5], [6, 7, 1]];
        let mesh = obbtree_bv::TriMesh::new(mesh_vertices.clone(), triangles).unwrap();
        let model: Model = Model::new(mesh).unwrap();
        let hull = Hull::of(&model);
        let complete = hull.vertices.unwrap();
        assert_eq!(complete.len(), 8);
        for k in 0..200 {
            let d = fibonacci_direction(k, 200);
            let top = farthest(&complete, &d).projection;
            assert!(mesh_vertices.iter().all(|v| d.dot(&v.coords) <= top));
        }
    }
}
