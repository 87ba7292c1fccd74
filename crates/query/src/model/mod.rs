//! The model every query takes: a mesh with its hierarchy ([`MeshModel`]) or a primitive solid
//! ([`Shape`]), owned and cheap to share.

pub(crate) mod index;
mod mesh;
mod solid;

pub use mesh::{MeshModel, ModelOptions, RayIndex};

use obbtree_bv::shape::{PlacedShape, Shape};
use obbtree_bv::{Aabb, Obb, Point, Pose, TriMesh, Vector, MAX_COORDINATE};
use obbtree_tree::{BuildError, Bvh, MeshMismatch, TreeVolume};
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock};

/// The identity of the next model assembled.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// What every query takes: a triangle mesh with its bounding-volume hierarchy (of volume type
/// `V`, OBBs by default; see [`MeshModel`]), or a primitive solid (sphere, capsule, box, convex
/// hull or halfspace; see [`Shape`]).
///
/// Meshes are surfaces and shapes are solids: a mesh wholly inside a sphere touches it, two
/// nested closed meshes do not (ask for [`containment`](crate::CollisionRequest::containment)).
/// Collision, point containment, distances (the tracker's too), margins, rays
/// ([`cast_ray`](crate::cast_ray): a shape is hit on its surface) and culling take any model
/// (any two for the two-model queries); self-collision needs a mesh and refuses a shape
/// ([`QueryError::NotAMesh`](crate::QueryError)).
///
/// A `Model` is immutable, `Send + Sync`, and cloning it only copies a pointer (the data sits
/// behind an [`Arc`]), so scenes, threads and language bindings can keep and share many of them
/// without lifetimes.
///
/// ```
/// use obbtree_query::{collide, CollisionRequest, Model};
/// use obbtree_bv::shape::Shape;
/// use obbtree_bv::{Point, Pose, TriMesh};
///
/// // Two triangles, the second crossing the first.
/// let mesh = |z: f64| TriMesh::new(
///     vec![Point::new(0.0, 0.0, z), Point::new(1.0, 0.0, z), Point::new(0.0, 1.0, z)],
///     vec![[0, 1, 2]],
/// );
/// let a: Model = Model::new(mesh(0.0)?)?;
/// let b: Model = Model::new(mesh(0.0)?)?;
/// let turned = Pose::new([0.2, 0.2, 0.0], [1.0, 0.0, 0.0])?;
/// let result = collide(&a, &Pose::identity(), &b, &turned, &CollisionRequest::default())?;
/// assert!(result.intersects);
/// assert_eq!(result.pairs, vec![[0, 0]]);
///
/// // A ball of radius 0.5 about (0, 0, 0.5) touches the triangle at the origin: the pair is
/// // (triangle 0, the shape's feature 0).
/// let ball: Model = Model::from_shape(Shape::sphere(0.5)?);
/// let above = Pose::from_translation([0.0, 0.0, 0.5])?;
/// let result = collide(&a, &Pose::identity(), &ball, &above, &CollisionRequest::default())?;
/// assert_eq!(result.pairs, vec![[0, 0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Model<V = Obb> {
    form: Form<V>,
}

/// The two forms of a model.
pub(crate) enum Form<V> {
    Mesh(MeshModel<V>),
    Shape(Arc<ShapeModel<V>>),
}

/// A primitive solid as a model: the shape, its box in its own frame, and its core.
pub(crate) struct ShapeModel<V> {
    shape: Shape,
    /// For a halfspace, the box of the whole exact range.
    bounds: Aabb,
    /// The core mesh, built on first use (see [`ShapeModel::core`]).
    core: OnceLock<Option<Core<V>>>,
}

/// What the distance queries measure a shape by: a mesh and a radius such that the solid is
/// the set of points within `radius` of the mesh's surface, or (for a box or convex hull,
/// radius 0) the region the mesh bounds. A sphere's core is its centre (one zero-area
/// triangle), a capsule's its segment, a box's or convex hull's the triangles of the exact
/// hull of its points. The core's vertices are the points [`Shape::place`] places, so a
/// placed core is the placed shape's data.
pub(crate) struct Core<V> {
    pub(crate) mesh: MeshModel<V>,
    pub(crate) radius: f64,
}

impl<V> ShapeModel<V> {
    /// The shape.
    pub(crate) fn shape(&self) -> &Shape {
        &self.shape
    }
}

impl<V: TreeVolume> ShapeModel<V> {
    /// The core ([`Core`]); `None` for a halfspace or a cylinder, which have none.
    pub(crate) fn core(&self) -> Option<&Core<V>> {
        self.core.get_or_init(|| core_of(&self.shape)).as_ref()
    }
}

/// The core of `shape` (see [`Core`]).
fn core_of<V: TreeVolume>(shape: &Shape) -> Option<Core<V>> {
    let (vertices, triangles, radius) = match shape {
        Shape::Sphere(s) => (vec![Point::origin()], vec![[0, 0, 0]], s.radius()),
        Shape::Capsule(c) => {
            let h = c.length() / 2.0;
            let ends = vec![Point::new(0.0, 0.0, -h), Point::new(0.0, 0.0, h)];
            (ends, vec![[0, 1, 1]], c.radius())
        }
        Shape::Cuboid(_) | Shape::Convex(_) => {
            let PlacedShape::Polytope(p) = shape.place(&Pose::identity()).ok()? else {
                return None;
            };
            (p.vertices().to_vec(), p.triangles().to_vec(), 0.0)
        }
        // A halfspace has no core (it is measured by its plane); a cylinder is no swept
        // sphere (it is measured by its support mapping, see `distance::cylinder`).
        Shape::Halfspace(_) | Shape::Cylinder(_) => return None,
    };
    // A validated shape's points lie in the exact range, so the mesh and its tree are valid.
    let mesh = TriMesh::new(vertices, triangles).ok()?;
    let mesh = MeshModel::new(mesh).ok()?;
    Some(Core { mesh, radius })
}

impl<V> Clone for Model<V> {
    fn clone(&self) -> Self {
        Self {
            form: match &self.form {
                Form::Mesh(m) => Form::Mesh(m.clone()),
                Form::Shape(s) => Form::Shape(Arc::clone(s)),
            },
        }
    }
}

impl<V> std::fmt::Debug for Model<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.form {
            Form::Mesh(m) => m.fmt(f),
            Form::Shape(s) => f.debug_struct("Model").field("shape", &s.shape).finish(),
        }
    }
}

impl<V> From<MeshModel<V>> for Model<V> {
    fn from(mesh: MeshModel<V>) -> Self {
        Self {
            form: Form::Mesh(mesh),
        }
    }
}

impl<V> From<Shape> for Model<V> {
    fn from(shape: Shape) -> Self {
        Self::from_shape(shape)
    }
}

impl<V: TreeVolume> Model<V> {
    /// Builds the hierarchy over `mesh` with the default options. The mesh may be shared
    /// with other models: pass an `Arc<TriMesh>` (a `TriMesh` is wrapped in one).
    pub fn new(mesh: impl Into<Arc<TriMesh>>) -> Result<Self, BuildError> {
        MeshModel::new(mesh).map(Self::from)
    }

    /// Builds the hierarchy over `mesh` as `options` say.
    pub fn build(
        mesh: impl Into<Arc<TriMesh>>,
        options: &ModelOptions<V>,
    ) -> Result<Self, BuildError> {
        MeshModel::build(mesh, options).map(Self::from)
    }

    /// A model from a hierarchy built earlier (e.g. read from a file); an error if `tree` was
    /// built (or last refitted) for another mesh.
    pub fn from_tree(mesh: impl Into<Arc<TriMesh>>, tree: Bvh<V>) -> Result<Self, MeshMismatch> {
        MeshModel::from_tree(mesh, tree).map(Self::from)
    }
}

impl<V: TreeVolume + serde::Serialize + serde::de::DeserializeOwned> Model<V> {
    /// A mesh model from a tree file written by [`MeshModel::save_tree`] for this mesh (the
    /// file's checksum, volume type and mesh fingerprint are checked).
    pub fn load_tree(
        path: impl AsRef<Path>,
        mesh: impl Into<Arc<TriMesh>>,
    ) -> Result<Self, obbtree_tree::TreeFileError> {
        MeshModel::load_tree(path, mesh).map(Self::from)
    }
}

impl<V> Model<V> {
    /// A primitive solid as a model (the shape was validated when it was made).
    pub fn from_shape(shape: Shape) -> Self {
        let whole_range = || {
            let all = Vector::repeat(MAX_COORDINATE);
            Aabb::new((-all).into(), all.into())
        };
        let bounds = shape
            .place(&Pose::identity())
            .ok()
            .and_then(|placed| placed.aabb())
            .unwrap_or_else(whole_range);
        let model = ShapeModel {
            shape,
            bounds,
            core: OnceLock::new(),
        };
        Self {
            form: Form::Shape(Arc::new(model)),
        }
    }

    /// The mesh form, or `None` for a shape.
    pub fn as_mesh(&self) -> Option<&MeshModel<V>> {
        match &self.form {
            Form::Mesh(m) => Some(m),
            Form::Shape(_) => None,
        }
    }

    /// The shape, or `None` for a mesh.
    pub fn as_shape(&self) -> Option<&Shape> {
        match &self.form {
            Form::Mesh(_) => None,
            Form::Shape(s) => Some(&s.shape),
        }
    }

    /// The mesh, or `None` for a shape.
    pub fn mesh(&self) -> Option<&TriMesh> {
        self.as_mesh().map(MeshModel::mesh)
    }

    /// Which form this is.
    pub(crate) fn form(&self) -> &Form<V> {
        &self.form
    }

    /// The model's axis-aligned bounds in its own frame: the mesh's, or a box around the
    /// shape; for a halfspace (unbounded), the box of the whole exact range
    /// (`±MAX_COORDINATE`), which holds every model a query accepts.
    pub fn bounds(&self) -> &Aabb {
        match &self.form {
            Form::Mesh(m) => m.bounds(),
            Form::Shape(s) => &s.bounds,
        }
    }

    /// Whether the model bounds a solid: a shape always, a mesh when it is closed (see
    /// [`TriMesh::is_closed`]).
    pub fn is_closed(&self) -> bool {
        match &self.form {
            Form::Mesh(m) => m.is_closed(),
            Form::Shape(_) => true,
        }
    }

    /// The same model with its rays walking `index` (nothing changes for a shape).
    pub fn with_ray_index(self, index: RayIndex) -> Self {
        match self.form {
            Form::Mesh(m) => Self::from(m.with_ray_index(index)),
            shape => Self { form: shape },
        }
    }

    /// Which hierarchy a mesh's ray queries walk (a shape: the default, unused).
    pub fn ray_index(&self) -> RayIndex {
        self.as_mesh().map(MeshModel::ray_index).unwrap_or_default()
    }

    /// Bytes held by the model (see [`MeshModel::memory_bytes`]; a shape: its own size and its
    /// points).
    pub fn memory_bytes(&self) -> usize {
        match &self.form {
            Form::Mesh(m) => m.memory_bytes(),
            Form::Shape(s) => {
                let points = match &s.shape {
                    Shape::Convex(c) => std::mem::size_of_val(c.points()),
                    _ => 0,
                };
                std::mem::size_of::<ShapeModel<V>>() + points
            }
        }
    }
}

impl<V: TreeVolume> Model<V> {
    /// Builds the distance index and the convex hull of a mesh now rather than on the first
    /// distance query (nothing to do for a shape).
    pub fn prepare_distance(&self) {
        if let Some(m) = self.as_mesh() {
            m.prepare_distance();
        }
    }

    /// Builds what a mesh's point queries walk now rather than on the first one (nothing to do
    /// for a shape).
    pub fn prepare_points(&self) {
        if let Some(m) = self.as_mesh() {
            m.prepare_points();
        }
    }

    /// Builds a mesh's convex hull now rather than on first use (nothing to do for a shape).
    pub fn prepare_hull(&self) {
        if let Some(m) = self.as_mesh() {
            m.prepare_hull();
        }
    }

    /// Builds a mesh's picking index now rather than on the first ray query (nothing to do for
    /// a shape).
    pub fn prepare_rays(&self) {
        if let Some(m) = self.as_mesh() {
            m.prepare_rays();
        }
    }
}
