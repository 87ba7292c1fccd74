//! How the engine's refusals become Python exceptions: `obbtree.Error` (a `ValueError`) and its
//! subclasses for input, one per area of the engine's error types, each message prefixed by the
//! argument it is about; `OSError` for files that cannot be read or written.
//!
//! | Python class | raised for | the engine's error types |
//! | --- | --- | --- |
//! | `MeshError` | `Mesh(vertices, faces)`, `Model(mesh)` | `MeshError`, `BuildError` |
//! | `PoseError` | every pose argument (`pose`, `pose_a`, `poses[k]`, ...) | `PoseError` |
//! | `LoadError` (also an `OSError`) | mesh files, tree files and tree bytes; URDF and SRDF files that cannot be used | `load::LoadError`, `tree::TreeFileError`, `urdf::UrdfError`, `urdf::SrdfError` |
//! | `QueryError` | the other arguments of a query (rays, points, `max_t`, margins, ...) | `QueryError`, `BatchError` |
//! | `SceneError` | `Scene` methods (names, counts, limits); a robot's fixtures | `SceneError` |
//! | `CameraError` | `Camera` and its pixels | `CameraError` |
//! | `RobotError` | a `Robot`'s joint values, names of links and fixtures, path resolutions | `urdf::RobotError` |
//! | `Error` itself | an unknown `bv`, models of different volume types | (the bindings' own) |
//!
//! The shape or dtype of an array argument is refused with the class of its area (`vertices`:
//! `MeshError`, `origins`: `QueryError`, ...). A file that cannot be read at all (missing, no
//! permission) is an `OSError` (`FileNotFoundError`), not an `Error`; so is a package directory
//! that is not one (`NotADirectoryError` when it is a file).

use pyo3::exceptions::{PyFileNotFoundError, PyNotADirectoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::fmt::Display;
use std::io;

pyo3::create_exception!(
    obbtree,
    Error,
    PyValueError,
    "The base of every exception obbtree raises for bad input or a refused query (a \
     ValueError); the message starts with the argument's name."
);
pyo3::create_exception!(
    obbtree,
    MeshError,
    Error,
    "A mesh refused: its vertices or faces (shape, dtype, NaN, range, indices), or a model that \
     cannot be built over it."
);
pyo3::create_exception!(
    obbtree,
    PoseError,
    Error,
    "A pose argument refused: not a (4, 4) (or (k, 4, 4)) array of numbers, not a rigid motion \
     (last row, orthonormal rotation without reflection), or not finite."
);
pyo3::create_exception!(
    obbtree,
    QueryError,
    Error,
    "A query refused its input: rays, points, max_t, margins, tolerances, hints, modes, \
     frusta, or meshes that their poses place outside the range of exact answers."
);
pyo3::create_exception!(
    obbtree,
    SceneError,
    Error,
    "A scene operation refused: an unknown or duplicate name, mismatched counts, or a query on \
     the scene's objects that the engine refused."
);
pyo3::create_exception!(
    obbtree,
    CameraError,
    Error,
    "A camera refused (matrices not finite or singular, empty image, bad bounds), or a pixel \
     outside its image."
);

pyo3::create_exception!(
    obbtree,
    RobotError,
    Error,
    "A robot refused: joint values (one finite value per moving joint, within its limits), a \
     name that is neither a link nor a fixture, a path's resolution."
);

const LOAD_ERROR_DOC: &str = "A mesh file, tree file or tree bytes that cannot be read as one \
    (malformed, damaged, another volume type, made for another mesh), or a URDF or SRDF file \
    that cannot be used (not valid, a package or mesh not found, an SRDF naming a link the \
    robot does not have). Also an OSError, as malformed mesh files were before this class \
    existed.";

/// `obbtree.LoadError`, a subclass of both `obbtree.Error` and `OSError`: made by calling
/// `type` once, since `create_exception!` takes one base class.
pub fn load_error_type(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.get_or_try_init(py, || {
        let bases = PyTuple::new(py, [py.get_type::<Error>(), py.get_type::<PyOSError>()])?;
        let namespace = PyDict::new(py);
        namespace.set_item("__module__", "obbtree")?;
        namespace.set_item("__doc__", LOAD_ERROR_DOC)?;
        let made = py
            .get_type::<PyType>()
            .call1(("LoadError", bases, namespace))?;
        Ok(made.cast_into::<PyType>()?.unbind())
    })
    .map(|t| t.bind(py).clone())
}

/// The area of an argument: which exception class refuses it (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// `obbtree.Error` itself.
    Volume,
    /// `obbtree.MeshError`.
    Mesh,
    /// `obbtree.PoseError`.
    Pose,
    /// `obbtree.QueryError`.
    Query,
    /// `obbtree.SceneError`.
    Scene,
    /// `obbtree.CameraError`.
    Camera,
    /// `obbtree.RobotError`.
    Robot,
}

impl Area {
    /// The exception of this area about argument `name`: `"name: reason"`.
    pub fn error(self, name: &str, reason: impl Display) -> PyErr {
        self.raw(format!("{name}: {reason}"))
    }

    /// The exception of this area with `message` as it is (it names the argument itself).
    pub fn raw(self, message: String) -> PyErr {
        match self {
            Area::Volume => Error::new_err(message),
            Area::Mesh => MeshError::new_err(message),
            Area::Pose => PoseError::new_err(message),
            Area::Query => QueryError::new_err(message),
            Area::Scene => SceneError::new_err(message),
            Area::Camera => CameraError::new_err(message),
            Area::Robot => RobotError::new_err(message),
        }
    }
}

/// An `obbtree.Error` about argument `name`: `"name: reason"` (the volume type: `bv`, models of
/// different types).
pub fn value_error(name: &str, reason: impl Display) -> PyErr {
    Area::Volume.error(name, reason)
}

/// An `obbtree.MeshError` about argument `name`.
pub fn mesh_error(name: &str, reason: impl Display) -> PyErr {
    Area::Mesh.error(name, reason)
}

/// An `obbtree.PoseError` about argument `name`.
pub fn pose_error(name: &str, reason: impl Display) -> PyErr {
    Area::Pose.error(name, reason)
}

/// An `obbtree.QueryError` about argument `name`.
pub fn query_error(name: &str, reason: impl Display) -> PyErr {
    Area::Query.error(name, reason)
}

/// An `obbtree.SceneError` about argument `name`.
pub fn scene_error(name: &str, reason: impl Display) -> PyErr {
    Area::Scene.error(name, reason)
}

/// An `obbtree.CameraError` about argument `name`.
pub fn camera_error(name: &str, reason: impl Display) -> PyErr {
    Area::Camera.error(name, reason)
}

/// An `obbtree.LoadError` about argument `name`.
pub fn load_error(name: &str, reason: impl Display) -> PyErr {
    let message = format!("{name}: {reason}");
    Python::attach(|py| match load_error_type(py) {
        Ok(t) => PyErr::from_type(t, (message,)),
        Err(e) => e,
    })
}

/// An `OSError` (`FileNotFoundError` when the file is missing) with the engine's message, which
/// names the file.
pub fn file_error(kind: Option<io::ErrorKind>, message: impl Display) -> PyErr {
    match kind {
        Some(io::ErrorKind::NotFound) => PyFileNotFoundError::new_err(message.to_string()),
        _ => PyOSError::new_err(message.to_string()),
    }
}

/// An `obbtree.RobotError` about argument `name`.
pub fn robot_error(name: &str, reason: impl Display) -> PyErr {
    Area::Robot.error(name, reason)
}

/// The refusal of argument `name` by a robot or its files, with the engine's message (which
/// names the URDF or SRDF file, and the link, joint or configuration at fault): `OSError`
/// when the URDF or SRDF file cannot be read at all; `LoadError` when a file was read and
/// cannot be used; `SceneError` for a fixture, `QueryError` for a margin; `RobotError` for
/// joint values, names, resolutions and tolerances.
pub fn robot_refusal(name: &str, error: obbtree::urdf::RobotError) -> PyErr {
    use obbtree::urdf::{RobotError as Refused, SrdfError, UrdfError};
    match error {
        Refused::Urdf(UrdfError::Io { ref source, .. })
        | Refused::Srdf(SrdfError::Io { ref source, .. }) => file_error(Some(source.kind()), error),
        Refused::Urdf(
            UrdfError::ConfigurationLength { .. }
            | UrdfError::NonFiniteValue { .. }
            | UrdfError::BadQuaternion { .. }
            | UrdfError::JointMotion { .. }
            | UrdfError::OutsideLimits { .. },
        )
        | Refused::Configuration { .. }
        | Refused::UnknownName(_)
        | Refused::Resolution(_)
        | Refused::Tolerance(_) => robot_error(name, error),
        Refused::Urdf(_) | Refused::Srdf(_) | Refused::Build { .. } => load_error(name, error),
        Refused::Scene(obbtree::SceneError::Query(e)) => query_error(name, e),
        Refused::Scene(e) => scene_error(name, e),
    }
}

/// A package directory argument `name` that is not a directory: `FileNotFoundError` when
/// nothing is there, `NotADirectoryError` when something else is, `OSError` when it cannot be
/// looked at.
pub fn check_directory(name: &str, dir: &std::path::Path) -> PyResult<()> {
    match std::fs::metadata(dir) {
        Ok(found) if found.is_dir() => Ok(()),
        Ok(_) => Err(PyNotADirectoryError::new_err(format!(
            "{name}: {}: not a directory",
            dir.display()
        ))),
        Err(e) => Err(file_error(
            Some(e.kind()),
            format!("{name}: {}: {e}", dir.display()),
        )),
    }
}

/// The mesh loader's refusal of argument `path`: an `OSError` when the file could not be read,
/// a `LoadError` when it was read and is not a mesh (every reason names the file, and the line
/// or element at fault).
pub fn mesh_file_error(error: obbtree::load::LoadError) -> PyErr {
    match &error {
        obbtree::load::LoadError::Io { source, .. } => file_error(Some(source.kind()), error),
        _ => load_error("path", error),
    }
}

/// A tree file's refusal: `OSError` when it could not be read, `LoadError` naming `name`
/// otherwise (damaged, another volume type, another mesh).
pub fn tree_error(name: &str, path: &str, error: obbtree::tree::TreeFileError) -> PyErr {
    match error {
        obbtree::tree::TreeFileError::Io(source) => {
            file_error(Some(source.kind()), format!("{path}: {source}"))
        }
        other => load_error(name, format!("{path}: {other}")),
    }
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("MeshError", py.get_type::<MeshError>())?;
    m.add("PoseError", py.get_type::<PoseError>())?;
    m.add("LoadError", load_error_type(py)?)?;
    m.add("QueryError", py.get_type::<QueryError>())?;
    m.add("SceneError", py.get_type::<SceneError>())?;
    m.add("CameraError", py.get_type::<CameraError>())?;
    m.add("RobotError", py.get_type::<RobotError>())?;
    Ok(())
}
