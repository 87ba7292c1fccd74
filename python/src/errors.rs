//! How the engine's refusals become Python exceptions: `ValueError` for input (arrays, poses,
//! rays, meshes, tree bytes), `OSError` for files, each with the engine's own message prefixed
//! by the argument it is about.

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::PyErr;
use std::fmt::Display;
use std::io;

/// A `ValueError` about argument `name`: `"name: reason"`.
pub fn value_error(name: &str, reason: impl Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {reason}"))
}

/// An `OSError` (`FileNotFoundError` when the file is missing) with the engine's message, which
/// names the file.
pub fn file_error(kind: Option<io::ErrorKind>, message: impl Display) -> PyErr {
    match kind {
        Some(io::ErrorKind::NotFound) => PyFileNotFoundError::new_err(message.to_string()),
        _ => PyOSError::new_err(message.to_string()),
    }
}

/// The mesh loader's refusal as an `OSError`: every reason names the file (and line or element).
pub fn mesh_file_error(error: obbtree::load::LoadError) -> PyErr {
    let kind = match &error {
        obbtree::load::LoadError::Io { source, .. } => Some(source.kind()),
        _ => None,
    };
    file_error(kind, error)
}

/// A tree file's refusal: `OSError` when it could not be read, `ValueError` naming `name`
/// otherwise (damaged, another volume type, another mesh).
pub fn tree_error(name: &str, path: &str, error: obbtree::tree::TreeFileError) -> PyErr {
    match error {
        obbtree::tree::TreeFileError::Io(source) => {
            file_error(Some(source.kind()), format!("{path}: {source}"))
        }
        other => value_error(name, format!("{path}: {other}")),
    }
}
