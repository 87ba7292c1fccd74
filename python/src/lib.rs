//! The `obbtree` Python extension (`obbtree._obbtree`): meshes, models, scenes, robots and the
//! exact collision (static and continuous), distance, ray, culling and picking queries of the
//! engine, NumPy arrays in and out. Batches release the GIL and run on rayon's pool; every
//! object is immutable or locked, so safe to share between Python threads; every refusal of the
//! engine is a Python exception with its message, of the `obbtree.Error` hierarchy
//! (`errors.rs`).
//!
//! One file per family of queries; each registers its functions in `_obbtree`.

mod arrays;
mod camera;
mod ccd;
mod collide;
mod cull;
mod distance;
mod errors;
mod mesh;
mod model;
mod motion;
mod points;
mod rays;
mod robot;
mod scene;
mod volumes;

use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use std::ffi::CString;

/// Warns (`DeprecationWarning`, at the caller's line) that `old` is a former name of `new`.
pub(crate) fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    let message = CString::new(format!(
        "{old} is deprecated: it is the former name of {new}, which takes the same arguments"
    ))?;
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &message, 1)
}

/// What `__reduce__` returns for pickling: the callable that rebuilds an object, and its
/// arguments.
pub(crate) type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);

#[pymodule]
fn _obbtree(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<mesh::Mesh>()?;
    m.add_class::<model::Model>()?;
    m.add_class::<scene::PyScene>()?;
    m.add_class::<distance::PyDistanceResult>()?;
    m.add_class::<distance::PyDistanceTracker>()?;
    m.add_class::<camera::PyCamera>()?;
    m.add_class::<cull::PyCulled>()?;
    m.add_class::<motion::PyMotionResult>()?;
    m.add_class::<robot::PyRobot>()?;
    m.add_class::<robot::PyPathCheck>()?;
    m.add_function(wrap_pyfunction!(collide::collide, m)?)?;
    m.add_function(wrap_pyfunction!(collide::collide_many, m)?)?;
    m.add_function(wrap_pyfunction!(collide::self_collide, m)?)?;
    m.add_function(wrap_pyfunction!(collide::contains_points, m)?)?;
    m.add_function(wrap_pyfunction!(points::closest_points, m)?)?;
    m.add_function(wrap_pyfunction!(points::signed_distance, m)?)?;
    m.add_function(wrap_pyfunction!(points::winding_number, m)?)?;
    m.add_function(wrap_pyfunction!(points::sdf_grid, m)?)?;
    m.add_function(wrap_pyfunction!(collide::contains, m)?)?;
    m.add_function(wrap_pyfunction!(collide::engine_collide_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(distance::distance, m)?)?;
    m.add_function(wrap_pyfunction!(distance::within_margin, m)?)?;
    m.add_function(wrap_pyfunction!(distance::proximity_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(distance::distance_many, m)?)?;
    m.add_function(wrap_pyfunction!(motion::collide_motion, m)?)?;
    m.add_function(wrap_pyfunction!(ccd::ccd_vertex_face, m)?)?;
    m.add_function(wrap_pyfunction!(ccd::ccd_edge_edge, m)?)?;
    m.add_function(wrap_pyfunction!(rays::cast_rays, m)?)?;
    m.add_function(wrap_pyfunction!(rays::cast_rays_all, m)?)?;
    m.add_function(wrap_pyfunction!(rays::any_hits, m)?)?;
    m.add_function(wrap_pyfunction!(rays::any_hit, m)?)?;
    m.add_function(wrap_pyfunction!(cull::cull, m)?)?;
    m.add_function(wrap_pyfunction!(camera::pick_pixel, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::check_pose, m)?)?;
    m.add("VOLUMES", volumes::VOLUME_NAMES.to_vec())?;
    // The package's version is the crate's (maturin takes it from Cargo.toml).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
