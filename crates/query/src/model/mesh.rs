//! A model's mesh form: a validated mesh, its hierarchy, and what the queries precompute from
//! them, owned and cheap to share.

use super::index::boundary::boundary_per_node;
use super::index::boxes::{
    boxed_in_tree_order, node_bounds_and_leaf_vertices, Boxed, LeafVertices,
};
use super::index::hull::Hull;
use super::index::moments::moments_per_node;
use super::index::prisms::TrianglePrisms;
use super::index::wide_leaves::WideLeafBounds;
use super::index::DistanceIndex;
use super::solid::SolidFacts;
use super::NEXT_ID;
use obbtree_bv::winding::Moments;
use obbtree_bv::{Aabb, BoundingVolume, Obb, TriMesh};
use obbtree_tree::{BuildError, BuildOptions, Bvh, MeshMismatch, TreeVolume, WideTree};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

/// Which hierarchy ray queries walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RayIndex {
    /// A compact 4-wide AABB tree built for picking (`WideTree`), built on the first ray
    /// query (or by [`MeshModel::prepare_rays`]): the fastest, at the memory of a second index
    /// (sizes in `docs/performance.md`).
    #[default]
    Compact,
    /// The model's own tree: no second index, slower rays (see `docs/performance.md`). Also
    /// what the tests use to check the ray tests of every volume type.
    ModelTree,
}

/// How [`Model::build`](super::Model::build) builds a model.
#[derive(Clone, Copy, Debug)]
pub struct ModelOptions<V: BoundingVolume> {
    /// How the hierarchy is built.
    pub tree: BuildOptions<V>,
    /// Which hierarchy ray queries walk.
    pub rays: RayIndex,
}

impl<V: TreeVolume> Default for ModelOptions<V> {
    fn default() -> Self {
        Self::from(BuildOptions::default())
    }
}

impl<V: BoundingVolume> From<BuildOptions<V>> for ModelOptions<V> {
    fn from(tree: BuildOptions<V>) -> Self {
        Self {
            tree,
            rays: RayIndex::default(),
        }
    }
}

/// The mesh form of a [`Model`](super::Model): a triangle mesh with its bounding-volume
/// hierarchy (of volume type `V`, OBBs by default). It owns both, checked to belong together,
/// plus what the queries precompute once (each triangle's plane and box in the tree's order,
/// each node's box, the mesh's bounds, closedness and components for containment, and the
/// picking index). Reached through [`Model::as_mesh`](super::Model::as_mesh).
///
/// It is immutable, `Send + Sync`, and cloning it only copies a pointer (the data sits behind
/// an [`Arc`]).
pub struct MeshModel<V = Obb> {
    inner: Arc<Inner<V>>,
    rays: RayIndex,
}

struct Inner<V> {
    /// Tells this model's data from every other's (a tracker remembers which models it walked).
    id: u64,
    mesh: Arc<TriMesh>,
    tree: Bvh<V>,
    /// Containment's facts about the mesh, found on first use: most models never need them,
    /// and finding whether a mesh is closed costs a sizeable part of a tree build (measured in
    /// `docs/performance.md`).
    solid: OnceLock<SolidFacts>,
    bounds: Aabb,
    smallest_nonzero_coordinate: Option<f64>,
    boxed: Vec<Boxed>,
    node_bounds: Vec<Aabb>,
    leaf_vertices: LeafVertices,
    pick_tree: OnceLock<WideTree>,
    distance_index: OnceLock<DistanceIndex>,
    triangle_prisms: OnceLock<TrianglePrisms>,
    wide_leaf_bounds: OnceLock<WideLeafBounds>,
    winding_moments: OnceLock<Vec<Moments>>,
    boundary_lengths: OnceLock<Vec<f64>>,
    hull: OnceLock<Hull>,
}

impl<V> Clone for MeshModel<V> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            rays: self.rays,
        }
    }
}

impl<V> std::fmt::Debug for MeshModel<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("vertices", &self.mesh().vertices().len())
            .field("triangles", &self.mesh().triangles().len())
            .field("nodes", &self.tree().nodes().len())
            .field("rays", &self.rays)
            .finish()
    }
}

impl<V: TreeVolume> MeshModel<V> {
    /// Builds the hierarchy over `mesh` with the default options. The mesh may be shared
    /// with other models: pass an `Arc<TriMesh>` (a `TriMesh` is wrapped in one).
    pub fn new(mesh: impl Into<Arc<TriMesh>>) -> Result<Self, BuildError> {
        Self::build(mesh, &ModelOptions::default())
    }

    /// Builds the hierarchy over `mesh` as `options` say.
    pub fn build(
        mesh: impl Into<Arc<TriMesh>>,
        options: &ModelOptions<V>,
    ) -> Result<Self, BuildError> {
        let mesh = mesh.into();
        let tree = Bvh::build(&mesh, &options.tree)?;
        Ok(Self::assemble(mesh, tree).with_ray_index(options.rays))
    }

    /// A model from a hierarchy built earlier (e.g. read from a file); an error if `tree` was
    /// built (or last refitted) for another mesh. Rays walk the compact index
    /// ([`MeshModel::with_ray_index`] chooses another).
    pub fn from_tree(mesh: impl Into<Arc<TriMesh>>, tree: Bvh<V>) -> Result<Self, MeshMismatch> {
        let mesh = mesh.into();
        tree.check_mesh(&mesh)?;
        Ok(Self::assemble(mesh, tree))
    }

    fn assemble(mesh: Arc<TriMesh>, tree: Bvh<V>) -> Self {
        let boxed = boxed_in_tree_order(&mesh, &tree);
        let (node_bounds, leaf_vertices) = node_bounds_and_leaf_vertices(&mesh, &boxed, &tree);
        let inner = Inner {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            solid: OnceLock::new(),
            bounds: Aabb::from_points(mesh.vertices()),
            smallest_nonzero_coordinate: mesh.smallest_nonzero_coordinate(),
            node_bounds,
            leaf_vertices,
            boxed,
            mesh,
            tree,
            pick_tree: OnceLock::new(),
            distance_index: OnceLock::new(),
            triangle_prisms: OnceLock::new(),
            wide_leaf_bounds: OnceLock::new(),
            winding_moments: OnceLock::new(),
            boundary_lengths: OnceLock::new(),
            hull: OnceLock::new(),
        };
        Self {
            inner: Arc::new(inner),
            rays: RayIndex::default(),
        }
    }
}

impl<V: TreeVolume> MeshModel<V> {
    /// Builds the distance index and the convex hull now rather than on the first distance
    /// query.
    pub fn prepare_distance(&self) {
        self.distance_index();
        self.hull();
    }

    /// Builds what point queries walk (the wide tree, the distance index, the prisms around
    /// the triangles and the bounds around the wide tree's leaves) now rather than on the first
    /// one. Containment (signs, [`contains_point`](crate::contains_point)) then finds a
    /// segment's crossings over the wide tree too, with the same answers.
    pub fn prepare_points(&self) {
        self.triangle_prisms();
        self.wide_leaf_bounds();
        self.distance_index();
    }

    /// The prism around each triangle in both leaf orders, built on first use (with the wide
    /// tree it needs; [`index::prisms`]).
    pub(crate) fn triangle_prisms(&self) -> &TrianglePrisms {
        self.inner
            .triangle_prisms
            .get_or_init(|| TrianglePrisms::new(self.boxed(), self.pick_tree()))
    }

    /// The rectangle swept sphere around each leaf of the wide tree, built on first use (with
    /// the wide tree; [`index::wide_leaves`]).
    pub(crate) fn wide_leaf_bounds(&self) -> &WideLeafBounds {
        self.inner
            .wide_leaf_bounds
            .get_or_init(|| WideLeafBounds::new(self.pick_tree()))
    }

    /// Builds the convex hull now rather than on first use (by a distance query of meshes far
    /// apart, or a separating plane: scenes build it when a model is inserted).
    pub fn prepare_hull(&self) {
        self.hull();
    }

    /// The convex hull, built on first use ([`index::hull`]).
    pub(crate) fn hull(&self) -> &Hull {
        self.inner.hull.get_or_init(|| Hull::of(self))
    }

    /// The distance index, built on first use ([`index`]).
    pub(crate) fn distance_index(&self) -> &DistanceIndex {
        self.inner
            .distance_index
            .get_or_init(|| DistanceIndex::new(self))
    }

    /// The moments of each node's triangles, by node index, built on first use
    /// ([`index::moments`]).
    pub(crate) fn winding_moments(&self) -> &[Moments] {
        self.inner
            .winding_moments
            .get_or_init(|| moments_per_node(self.boxed(), self.tree()))
    }

    /// The boundary length held by each node, by node index, built on first use
    /// ([`index::boundary`]).
    pub(crate) fn boundary_lengths(&self) -> &[f64] {
        self.inner
            .boundary_lengths
            .get_or_init(|| boundary_per_node(&self.inner.mesh, self.tree()))
    }
}

impl<V: TreeVolume + serde::Serialize + serde::de::DeserializeOwned> MeshModel<V> {
    /// A model from a tree file written by [`MeshModel::save_tree`] for this mesh (the file's
    /// checksum, volume type and mesh fingerprint are checked).
    pub fn load_tree(
        path: impl AsRef<Path>,
        mesh: impl Into<Arc<TriMesh>>,
    ) -> Result<Self, obbtree_tree::TreeFileError> {
        let mesh = mesh.into();
        let tree = Bvh::load(path, &mesh)?;
        Ok(Self::assemble(mesh, tree))
    }

    /// Writes the hierarchy to `path`, to be read back by [`MeshModel::load_tree`].
    pub fn save_tree(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        self.tree().save(path)
    }
}

impl<V> MeshModel<V> {
    /// What tells this model's mesh and tree from every other model's (clones share it).
    pub(crate) fn id(&self) -> u64 {
        self.inner.id
    }

    /// The mesh.
    #[inline]
    pub fn mesh(&self) -> &TriMesh {
        &self.inner.mesh
    }

    /// The mesh, shared: to build another model (of another volume type) over it without a
    /// copy.
    pub fn shared_mesh(&self) -> Arc<TriMesh> {
        Arc::clone(&self.inner.mesh)
    }

    /// The same model (sharing everything) with its rays walking `index`.
    pub fn with_ray_index(self, index: RayIndex) -> Self {
        Self {
            rays: index,
            ..self
        }
    }

    /// The smallest nonzero absolute coordinate of the mesh (`None` if every coordinate is 0):
    /// what the exact-range check of a placement needs.
    pub(crate) fn smallest_nonzero_coordinate(&self) -> Option<f64> {
        self.inner.smallest_nonzero_coordinate
    }

    /// The hierarchy.
    #[inline]
    pub fn tree(&self) -> &Bvh<V> {
        &self.inner.tree
    }

    /// Whether the mesh is closed (see [`TriMesh::is_closed`]): containment needs it.
    pub fn is_closed(&self) -> bool {
        self.solid().closed
    }

    /// One vertex index per connected component of the mesh (triangles sharing a vertex index
    /// are connected).
    pub fn component_seeds(&self) -> &[u32] {
        &self.solid().component_seeds
    }

    fn solid(&self) -> &SolidFacts {
        self.inner
            .solid
            .get_or_init(|| SolidFacts::of(&self.inner.mesh))
    }

    /// The mesh's axis-aligned bounds in its own frame.
    pub fn bounds(&self) -> &Aabb {
        &self.inner.bounds
    }

    /// Which hierarchy ray queries walk.
    pub fn ray_index(&self) -> RayIndex {
        self.rays
    }

    /// Builds the picking index now rather than on the first ray query (with
    /// [`RayIndex::Compact`]; nothing to do otherwise).
    pub fn prepare_rays(&self)
    where
        V: TreeVolume,
    {
        if self.rays == RayIndex::Compact {
            self.pick_tree();
        }
    }

    /// The compact picking tree if a query has built it.
    pub(crate) fn built_pick_tree(&self) -> Option<&WideTree> {
        self.inner.pick_tree.get()
    }

    /// The compact picking tree, built on first use: the compact copy of the model's own tree
    /// when that is an AABB tree, else of an AABB tree built for it.
    pub(crate) fn pick_tree(&self) -> &WideTree
    where
        V: TreeVolume,
    {
        self.inner.pick_tree.get_or_init(|| {
            let mesh = &self.inner.mesh;
            match V::as_aabb_tree(&self.inner.tree) {
                Some(aabb_tree) => WideTree::new(mesh, aabb_tree),
                // The only build error is a triangle count beyond u32 positions, which the
                // model's own tree (over the same triangles) would have refused first.
                None => WideTree::build(mesh).expect("the model's tree indexes these triangles"),
            }
        })
    }

    /// Bytes held by the model: mesh, tree, precomputed triangles and boxes, and the picking
    /// and distance indexes and the winding moments if built.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        let inner = &self.inner;
        size_of_val(inner.mesh.vertices())
            + size_of_val(inner.mesh.triangles())
            + size_of_val(inner.tree.nodes())
            + size_of_val(inner.tree.triangle_order())
            + size_of_val(&inner.boxed[..])
            + size_of_val(&inner.node_bounds[..])
            + inner.leaf_vertices.memory_bytes()
            + inner
                .solid
                .get()
                .map_or(0, |s| size_of_val(&s.component_seeds[..]))
            + inner.pick_tree.get().map_or(0, WideTree::memory_bytes)
            + inner
                .distance_index
                .get()
                .map_or(0, DistanceIndex::memory_bytes)
            + inner
                .triangle_prisms
                .get()
                .map_or(0, TrianglePrisms::memory_bytes)
            + inner
                .wide_leaf_bounds
                .get()
                .map_or(0, WideLeafBounds::memory_bytes)
            + inner.hull.get().map_or(0, Hull::memory_bytes)
            + inner
                .winding_moments
                .get()
                .map_or(0, |m| std::mem::size_of_val(&m[..]))
            + inner
                .boundary_lengths
                .get()
                .map_or(0, |b| std::mem::size_of_val(&b[..]))
    }

    /// The triangles with their boxes, in the tree's order.
    #[inline]
    pub(crate) fn boxed(&self) -> &[Boxed] {
        &self.inner.boxed
    }

    /// The box around each node's triangles, by node index.
    #[inline]
    pub(crate) fn node_bounds(&self) -> &[Aabb] {
        &self.inner.node_bounds
    }

    /// The distinct vertices of each leaf's triangles.
    #[inline]
    pub(crate) fn leaf_vertices(&self) -> &LeafVertices {
        &self.inner.leaf_vertices
    }
}
