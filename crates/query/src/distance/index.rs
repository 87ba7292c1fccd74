//! The distance index of a model, built on the first distance query: a rectangle swept sphere
//! around each node's triangles of the model's own tree (Larsen, Gottschalk, Lin & Manocha 1999:
//! the volume PQP measures distances with), each node's height, and a sample of the mesh's
//! convex hull's vertices.

use super::support::highest;
use crate::collide::leaf::Boxed;
use crate::Model;
use obbtree_bv::{BoundingVolume, Point, Rss, Vector};
use obbtree_tree::{Bvh, NodeKind, TreeVolume};
use rayon::prelude::*;
use std::ops::Range;

/// How many directions the hull sample takes the extreme vertex along: on the far poses of the
/// benchmarks, GJK over the sample of dragon_res3 (253 vertices) led to the same certified pairs
/// as over the whole mesh; 642 directions (172 vertices) lost a tenth of them.
const HULL_DIRECTIONS: usize = 2562;

/// What the distance queries keep per model.
pub(crate) struct DistanceIndex {
    /// The rectangle swept sphere around each node's triangles, by node index.
    pub rss: Vec<Rss>,
    /// How many levels lie below each node (0 for a leaf), by node index.
    pub heights: Vec<u8>,
    /// The mesh's vertex farthest along each of [`HULL_DIRECTIONS`] directions spread over the
    /// sphere, each once: vertices of the mesh's convex hull, whose own hull approximates it
    /// from inside. GJK runs over it to find a candidate pair for meshes far apart (a guide
    /// only: the candidate is then certified against every vertex).
    pub hull_sample: Vec<Point>,
}

impl DistanceIndex {
    /// The index of `model`.
    pub fn new<V: TreeVolume>(model: &Model<V>) -> Self {
        Self {
            rss: rss_per_node(model.boxed(), model.tree()),
            heights: heights(model.tree()),
            hull_sample: hull_sample(model),
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.rss[..])
            + size_of_val(&self.heights[..])
            + size_of_val(&self.hull_sample[..])
    }
}

/// How many levels lie below each node, by node index (children come after their parent).
fn heights<V>(tree: &Bvh<V>) -> Vec<u8> {
    let nodes = tree.nodes();
    let mut heights = vec![0u8; nodes.len()];
    for i in (0..nodes.len()).rev() {
        if let NodeKind::Internal { left, right } = nodes[i].kind() {
            heights[i] = 1 + heights[left].max(heights[right]);
        }
    }
    heights
}

/// The vertex of `model`'s mesh farthest along each of [`HULL_DIRECTIONS`] directions of a
/// Fibonacci lattice on the sphere (nearly uniform: González, "Measurement of areas on a sphere
/// using Fibonacci and latitude–longitude lattices", Mathematical Geosciences 42, 2010), each
/// vertex once, in the order first found.
fn hull_sample<V: TreeVolume>(model: &Model<V>) -> Vec<Point> {
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
fn fibonacci_direction(k: usize, n: usize) -> Vector {
    let golden_angle = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let y = 1.0 - (2 * k + 1) as f64 / n as f64;
    let radius = (1.0 - y * y).sqrt();
    let angle = golden_angle * k as f64;
    Vector::new(radius * angle.cos(), y, radius * angle.sin())
}

/// The RSS around each node's triangles, by node index, each fitted along its triangles'
/// area-weighted covariance frame ([`Rss::fit_triangles`], PQP's fit); `boxed` holds the
/// triangles in the tree's order. Nodes are fitted in parallel.
fn rss_per_node<V>(boxed: &[Boxed], tree: &Bvh<V>) -> Vec<Rss> {
    let ranges = node_ranges(tree);
    ranges
        .par_iter()
        .map(|range| {
            let triangles: Vec<[Point; 3]> = boxed[range.clone()]
                .iter()
                .map(|t| *t.tri.vertices())
                .collect();
            Rss::fit_triangles(&triangles, ())
        })
        .collect()
}

/// The positions in the tree's triangle order of each node's triangles (a subtree's triangles
/// are contiguous), children before parents (they come after them in the array).
fn node_ranges<V>(tree: &Bvh<V>) -> Vec<Range<usize>> {
    let nodes = tree.nodes();
    let mut ranges = vec![0..0; nodes.len()];
    for i in (0..nodes.len()).rev() {
        ranges[i] = match nodes[i].kind() {
            NodeKind::Internal { left, right } => ranges[left].start..ranges[right].end,
            NodeKind::Leaf(range) => range,
        };
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::test_meshes::closed_box;

    /// The hull sample of a convex polytope is its vertex set (each vertex is the farthest along
    /// a cone of directions), and the directions are unit vectors spread over both hemispheres.
    #[test]
    fn the_hull_sample_of_a_box_is_its_corners() {
        let mesh = closed_box([1.0, 2.0, 3.0]);
        let corners = mesh.vertices().to_vec();
        let model: Model = Model::new(mesh).unwrap();
        let mut sample = model.distance_index().hull_sample.clone();
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
