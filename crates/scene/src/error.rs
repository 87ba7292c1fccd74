//! Why a scene refused an operation or a query: one error type, naming the objects involved.

use crate::ObjectId;
use obbtree_query::QueryError;
use obbtree_tree::ProxyError;

/// Why a scene operation or query failed. Every variant that concerns an object names it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// [`Scene::insert`](crate::Scene::insert) with a name already in the scene.
    #[error("an object named {0:?} is already in the scene (names must be unique)")]
    DuplicateName(String),
    /// A name that no object of the scene has (in an allowed pair, a frame, a lookup).
    #[error("no object named {0:?} in the scene")]
    UnknownName(String),
    /// An id that names no object of the scene (removed, or from another scene).
    #[error("no object {0:?} in the scene (removed, or from another scene)")]
    UnknownObject(ObjectId),
    /// The object's mesh, placed at the given pose, leaves the coordinate range of meshes
    /// ([`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE)).
    #[error("object {name:?} at its pose: {source}")]
    Bounds {
        /// The object.
        name: String,
        /// The broad phase's reason.
        source: ProxyError,
    },
    /// The exact query on a pair of objects refused its input.
    #[error("objects {a:?} and {b:?}: {source}")]
    Pair {
        /// The first object (its triangles come first in the pairs).
        a: String,
        /// The second object.
        b: String,
        /// The query's reason.
        source: QueryError,
    },
    /// A query of one object (a ray, or an external model against it) refused its input.
    #[error("object {name:?}: {source}")]
    Object {
        /// The object.
        name: String,
        /// The query's reason.
        source: QueryError,
    },
    /// The query's own input (a ray, a length limit) is invalid, whatever the objects.
    #[error(transparent)]
    Query(#[from] QueryError),
}
