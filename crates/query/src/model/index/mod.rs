//! What a model derives from its mesh and tree, in one place, importing no query: the
//! triangles prepared and boxed in leaf order and each node's box ([`boxes`], built with the
//! model); on the first distance query the [`DistanceIndex`]: a rectangle swept sphere around
//! each node's triangles and each node's height ([`rss`]); on first use the convex [`hull`]
//! (its vertices and a sample of them), which both the distance screen and the scenes'
//! separating planes use; the extreme-vertex and nearest-triangle searches over the boxes
//! ([`support`]); on the first winding-number query each node's [`moments`] (and, for an
//! open mesh's signs, each node's [`boundary`] length); on the first point query the prism
//! around each triangle ([`prisms`]) and the rectangle swept sphere around each leaf of the
//! wide tree ([`wide_leaves`]).

pub(crate) mod boundary;
pub(crate) mod boxes;
pub(crate) mod hull;
pub(crate) mod moments;
pub(crate) mod prisms;
mod rss;
pub(crate) mod support;
pub(crate) mod wide_leaves;

use crate::MeshModel;
use obbtree_bv::Rss;

/// What the distance queries keep per model.
pub(crate) struct DistanceIndex {
    /// The rectangle swept sphere around each node's triangles, by node index.
    pub rss: Vec<Rss>,
    /// How many levels lie below each node (0 for a leaf), by node index.
    pub heights: Vec<u8>,
}

impl DistanceIndex {
    /// The index of `model`.
    pub fn new<V: Send + Sync>(model: &MeshModel<V>) -> Self {
        Self {
            rss: rss::rss_per_node(model.boxed(), model.leaf_vertices(), model.tree()),
            heights: rss::heights(model.tree()),
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.rss[..]) + size_of_val(&self.heights[..])
    }
}
