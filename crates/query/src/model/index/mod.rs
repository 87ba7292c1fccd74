//! What a model derives from its mesh and tree, in one place, importing no query: the
//! triangles prepared and boxed in leaf order and each node's box ([`boxes`], built with the
//! model), and on the first distance query the [`DistanceIndex`]: a rectangle swept sphere
//! around each node's triangles and each node's height ([`rss`]), and a sample of the convex
//! hull ([`hull`]); the extreme-vertex and nearest-triangle searches over the boxes
//! ([`support`]).

pub(crate) mod boxes;
pub(crate) mod hull;
mod rss;
pub(crate) mod support;

use crate::Model;
use obbtree_bv::{Point, Rss};

/// What the distance queries keep per model.
pub(crate) struct DistanceIndex {
    /// The rectangle swept sphere around each node's triangles, by node index.
    pub rss: Vec<Rss>,
    /// How many levels lie below each node (0 for a leaf), by node index.
    pub heights: Vec<u8>,
    /// The mesh's vertex farthest along each of [`HULL_DIRECTIONS`](hull::HULL_DIRECTIONS) directions spread over the
    /// sphere, each once: vertices of the mesh's convex hull, whose own hull approximates it
    /// from inside. GJK runs over it to find a candidate pair for meshes far apart (a guide
    /// only: the candidate is then certified against every vertex).
    pub hull_sample: Vec<Point>,
}

impl DistanceIndex {
    /// The index of `model`.
    pub fn new<V: Send + Sync>(model: &Model<V>) -> Self {
        Self {
            rss: rss::rss_per_node(model.boxed(), model.tree()),
            heights: rss::heights(model.tree()),
            hull_sample: hull::hull_sample(model),
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
