//! A mesh with its hierarchy: what the queries take.

use super::leaf::{boxed_in_tree_order, node_bounds, Boxed};
use obbtree_bv::{Aabb, TriMesh};
use obbtree_tree::{Bvh, MeshMismatch};

/// A mesh and a hierarchy built over it, checked to belong together, with the facts that
/// containment needs (closedness, one vertex of each connected component, bounds) and the
/// triangles with their boxes in the tree's order (the leaf test streams through a leaf's
/// triangles, with their planes prepared for the exact test; 152 bytes per triangle) and the
/// box around each node's triangles (48 bytes per node), computed once.
#[derive(Clone, Debug)]
pub struct Model<'a, V> {
    mesh: &'a TriMesh,
    tree: &'a Bvh<V>,
    closed: bool,
    component_seeds: Vec<u32>,
    bounds: Aabb,
    boxed: Vec<Boxed>,
    node_bounds: Vec<Aabb>,
}

impl<'a, V> Model<'a, V> {
    /// Pairs `mesh` with `tree`; an error if the tree was built (or last refitted) for another
    /// mesh.
    pub fn new(mesh: &'a TriMesh, tree: &'a Bvh<V>) -> Result<Self, MeshMismatch> {
        tree.check_mesh(mesh)?;
        let boxed = boxed_in_tree_order(mesh, tree);
        Ok(Self {
            mesh,
            tree,
            closed: mesh.is_closed(),
            component_seeds: super::containment::component_seeds(mesh),
            bounds: Aabb::from_points(mesh.vertices()),
            node_bounds: node_bounds(&boxed, tree),
            boxed,
        })
    }

    /// The mesh.
    pub fn mesh(&self) -> &'a TriMesh {
        self.mesh
    }

    /// The hierarchy.
    pub fn tree(&self) -> &'a Bvh<V> {
        self.tree
    }

    /// Whether the mesh is closed (see [`TriMesh::is_closed`]): containment needs it.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// One vertex index per connected component of the mesh (triangles sharing a vertex index
    /// are connected).
    pub fn component_seeds(&self) -> &[u32] {
        &self.component_seeds
    }

    /// The triangles with their boxes, in the tree's order.
    pub(crate) fn boxed(&self) -> &[Boxed] {
        &self.boxed
    }

    /// The box around each node's triangles, by node index.
    pub(crate) fn node_bounds(&self) -> &[Aabb] {
        &self.node_bounds
    }

    /// The mesh's axis-aligned bounds in its own frame.
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }
}
