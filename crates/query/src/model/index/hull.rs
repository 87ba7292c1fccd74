//! A sample of a model's convex hull: the extreme vertex along directions spread over the
//! sphere. GJK runs over it to find a candidate closest pair for meshes far apart.

use super::support::highest;
use crate::Model;
use obbtree_bv::{Point, Vector};
use rayon::prelude::*;

/// How many directions the hull sample takes the extreme vertex along: enough that GJK over the
/// sample leads to the same certified pairs as over the whole mesh, where fewer directions
/// certify fewer (the counts are in `docs/performance.md`).
pub(crate) const HULL_DIRECTIONS: usize = 2562;

/// The vertex of `model`'s mesh farthest along each of [`HULL_DIRECTIONS`] directions of a
/// Fibonacci lattice on the sphere (nearly uniform: González, "Measurement of areas on a sphere
/// using Fibonacci and latitude–longitude lattices", Mathematical Geosciences 42, 2010), each
/// vertex once, in the order first found.
pub(crate) fn hull_sample<V: Send + Sync>(model: &Model<V>) -> Vec<Point> {
    let found: Vec<Point> = (0..HULL_DIRECTIONS)
        .into_par_iter()
        .map(|k| highest(model, &fibonacci_direction(k, HULL_DIRECTIONS)).vertex)
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

    /// The hull sample of a convex polytope is its vertex set (each vertex is the farthest along
    /// a cone of directions), and the directions are unit vectors spread over both hemispheres.
    #[test]
    fn the_hull_sample_of_a_box_is_its_corners() {
        let mesh = closed_box([1.0, 2.0, 3.0]);
        let corners = mesh.vertices().to_vec();
        let model: Model = Model::new(mesh).unwrap();
        let mut sample = hull_sample(&model);
        sample.sort_by(|p, q| {
            p.coords
                .as_slice()
                .partial_cmp(q.coords.as_slice())
                .unwrap()
        });
        let mut want = corners;
        want.sort_by(|p, q| {
            p.coords
                .as_slice()
                .partial_cmp(q.coords.as_slice())
                .unwrap()
        });
        assert_eq!(sample, want);
        for k in 0..HULL_DIRECTIONS {
            assert!((fibonacci_direction(k, HULL_DIRECTIONS).norm() - 1.0).abs() < 1e-12);
        }
    }
}
