//! The one error type for users, and the per-area types it holds: every error of the library
//! converts into [`Error`] with `?`, so a program that loads meshes, builds models, runs
//! queries and keeps a scene needs one `Result` type. The per-area types stay for matching on
//! what went wrong; [`Error`] keeps each of them whole.

pub use obbtree_bv::range::RangeError;
pub use obbtree_bv::shape::ShapeError;
pub use obbtree_bv::{MeshError, PoseError};
pub use obbtree_query::error::Operand;
pub use obbtree_query::{BatchError, CameraError, QueryError};
pub use obbtree_scene::SceneError;
pub use obbtree_tree::{BuildError, MeshMismatch, ProxyError, TreeFileError};

/// Any error of the library, each kept as its own type: match on the variant to learn which
/// area refused, and on the inner error to learn why. Its message is the inner error's.
///
/// ```
/// use obbtree::{collide, CollisionRequest, Error, Model, Point, Pose, TriMesh};
///
/// fn touching(z: f64) -> Result<bool, Error> {
///     let triangle = TriMesh::new(
///         vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)],
///         vec![[0, 1, 2]],
///     )?; // MeshError
///     let model: Model = Model::new(triangle)?; // BuildError
///     let pose = Pose::new([0.0, 0.0, z], [0.0, 0.0, 0.0])?; // PoseError
///     Ok(collide(&model, &Pose::identity(), &model, &pose, &CollisionRequest::default())?
///         .intersects) // QueryError
/// }
/// assert!(touching(0.0)?);
/// assert!(!touching(1.0)?);
/// assert!(matches!(touching(f64::NAN), Err(Error::Pose(_))));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A mesh's arrays were refused ([`TriMesh::new`](obbtree_bv::TriMesh::new)).
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// A pose was refused ([`Pose::new`](obbtree_bv::Pose::new) and the other constructors).
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// A primitive shape was refused ([`Shape`](obbtree_bv::shape::Shape)'s constructors).
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A coordinate left the range in which the predicates are exact.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A hierarchy could not be built ([`Model::new`](crate::Model::new)).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// A tree was given with a mesh it was not built for ([`Model::from_tree`](crate::Model::from_tree)).
    #[error(transparent)]
    MeshMismatch(#[from] MeshMismatch),
    /// A tree file could not be read ([`Model::load_tree`](crate::Model::load_tree)).
    #[error(transparent)]
    TreeFile(#[from] TreeFileError),
    /// A query refused its input.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A query over many poses or rays refused one of them.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// A camera could not be made.
    #[error(transparent)]
    Camera(#[from] CameraError),
    /// A scene refused an operation.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A dynamic tree refused a proxy.
    #[error(transparent)]
    Proxy(#[from] ProxyError),
    /// A mesh file could not be read ([`load`](crate::load)).
    #[cfg(feature = "load")]
    #[error(transparent)]
    Load(#[from] crate::load::LoadError),
    /// A URDF file could not be used (`urdf`).
    #[cfg(feature = "urdf")]
    #[error(transparent)]
    Urdf(#[from] crate::urdf::UrdfError),
    /// A robot scene refused an operation (`urdf`).
    #[cfg(feature = "urdf")]
    #[error(transparent)]
    Robot(#[from] crate::urdf::RobotError),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
