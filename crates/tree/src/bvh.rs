//! The hierarchy: a flat node array and the leaf order of the triangles.

use crate::{MeshFingerprint, MeshMismatch, Node};
use obbtree_bv::TriMesh;
use serde::{Deserialize, Serialize};

/// Bound on the depth of every tree (the root has depth 0). The builder guarantees it for any
/// mesh that `u32` triangle indices can address, degenerate or not, so traversal stacks have a
/// fixed small size: a depth-first traversal never holds more than `MAX_DEPTH + 1` pending nodes.
pub const MAX_DEPTH: usize = 64;

/// A bounding-volume hierarchy over the triangles of one [`TriMesh`].
///
/// * `nodes()[0]` is the root; see [`Node`] for the layout (siblings adjacent, children after
///   parents).
/// * A leaf's triangles are `triangle_order()[range]` for its [`Node::triangle_range`]; every
///   triangle of the mesh appears in exactly one leaf, and the triangles below any node form one
///   contiguous run of the order.
/// * Every node's volume contains every vertex of every triangle below it, exactly (see the
///   crate docs, "Containment").
///
/// The tree does not own the mesh: queries take both, and [`Bvh::check_mesh`] tells whether a
/// mesh is the one the tree was built (or last refitted) for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bvh<V> {
    pub(crate) nodes: Vec<Node<V>>,
    pub(crate) order: Vec<u32>,
    pub(crate) depth: u32,
    pub(crate) mesh: MeshFingerprint,
}

impl<V> Bvh<V> {
    /// All nodes; index 0 is the root.
    pub fn nodes(&self) -> &[Node<V>] {
        &self.nodes
    }

    /// The root node.
    pub fn root(&self) -> &Node<V> {
        &self.nodes[0]
    }

    /// Node `index` (panics if out of range, like slice indexing).
    pub fn node(&self, index: usize) -> &Node<V> {
        &self.nodes[index]
    }

    /// The mesh's triangle indices in leaf order: each leaf's triangles are one run of it.
    pub fn triangle_order(&self) -> &[u32] {
        &self.order
    }

    /// Mesh indices of the triangles of node `index` if it is a leaf; empty for an internal node.
    pub fn leaf_triangles(&self, index: usize) -> &[u32] {
        self.nodes[index]
            .triangle_range()
            .map_or(&[], |r| &self.order[r])
    }

    /// Number of triangles (of the mesh, and of the tree's leaves together).
    pub fn triangle_count(&self) -> usize {
        self.order.len()
    }

    /// Depth of the deepest leaf (the root alone has depth 0); at most [`MAX_DEPTH`].
    pub fn depth(&self) -> usize {
        self.depth as usize
    }

    /// Fingerprint of the mesh the tree was built (or last refitted) for.
    pub fn mesh_fingerprint(&self) -> &MeshFingerprint {
        &self.mesh
    }

    /// `Ok` iff `mesh` has the same vertices and triangles, bit for bit (by hash), as the mesh the
    /// tree was built or last refitted for.
    pub fn check_mesh(&self, mesh: &TriMesh) -> Result<(), MeshMismatch> {
        let found = MeshFingerprint::of(mesh);
        if found == self.mesh {
            Ok(())
        } else {
            Err(MeshMismatch::new(&self.mesh, &found))
        }
    }
}
