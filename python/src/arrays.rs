//! NumPy arrays in: every argument is read where it lies when it already is an array of the
//! right type (any strides, no copy), converted by NumPy otherwise (lists, other exact dtypes),
//! and refused with the exception of its [`Area`] naming the argument when its shape or type is
//! wrong. Values (NaN, poses, index ranges) are checked by the engine, whose message is kept.

use crate::errors::{pose_error, query_error, Area};
use crate::model::Model;
use numpy::ndarray::{ArrayView2, ArrayViewD, Ix2, Ix3};
use numpy::{
    PyArray2, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use obbtree::bv::nalgebra::Matrix4;
use obbtree::{Point, Pose, Ray, Vector};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;
use rayon::prelude::*;

/// Largest integer magnitude that a `float64` holds exactly (2⁵³).
const EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

fn numpy_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    NUMPY
        .get_or_try_init(py, || Ok(PyModule::import(py, "numpy")?.unbind()))
        .map(|m| m.bind(py))
}

/// `obj` as a NumPy array (itself if it is one), or an error of `area` naming `name`.
fn as_ndarray<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    area: Area,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        return Ok(array.clone());
    }
    let converted = numpy_module(obj.py())?
        .call_method1("asarray", (obj,))
        .map_err(|e| area.error(name, format!("cannot be read as an array ({e})")))?;
    converted
        .cast_into::<PyUntypedArray>()
        .map_err(|_| area.error(name, "cannot be read as an array"))
}

/// `obj` as a `float64` array: the array itself when it is one; otherwise NumPy's conversion
/// when that is exact (floats, integers within ±2⁵³). Booleans, objects and strings are refused.
pub fn float_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    area: Area,
) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    if let Ok(array) = obj.cast::<PyArrayDyn<f64>>() {
        return readonly(array, name, area);
    }
    let array = as_ndarray(obj, name, area)?;
    let dtype = array.dtype();
    let kind = dtype.kind();
    if !matches!(kind, b'f' | b'i' | b'u') || (kind == b'f' && dtype.itemsize() > 8) {
        return Err(area.error(
            name,
            format!("expected an array of float64 numbers, got dtype {dtype}"),
        ));
    }
    let converted = array.call_method1("astype", ("float64",))?;
    let converted = converted.cast::<PyArrayDyn<f64>>().map_err(PyErr::from)?;
    let read = readonly(converted, name, area)?;
    if kind != b'f' && dtype.itemsize() >= 8 {
        if let Some(big) = read.as_array().iter().find(|v| v.abs() > EXACT_INTEGER) {
            return Err(area.error(
                name,
                format!("integer {big:e} has no exact float64 value; pass float64 coordinates"),
            ));
        }
    }
    Ok(read)
}

/// [`float_array`] whose entries are all finite (a matrix or planes of a camera or frustum).
pub fn finite_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    area: Area,
) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    let array = float_array(obj, name, area)?;
    if let Some(bad) = array.as_array().iter().find(|v| !v.is_finite()) {
        return Err(area.error(name, format!("entries must be finite, not {bad}")));
    }
    Ok(array)
}

/// `obj` as an `int64` array of indices: integer dtypes only (floats are refused rather than
/// truncated).
pub fn index_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    area: Area,
) -> PyResult<PyReadonlyArrayDyn<'py, i64>> {
    if let Ok(array) = obj.cast::<PyArrayDyn<i64>>() {
        return readonly(array, name, area);
    }
    let array = as_ndarray(obj, name, area)?;
    let dtype = array.dtype();
    let kind = dtype.kind();
    if !matches!(kind, b'i' | b'u') {
        return Err(area.error(
            name,
            format!("expected an array of integer indices, got dtype {dtype}"),
        ));
    }
    if kind == b'u' && dtype.itemsize() >= 8 {
        // uint64 beyond i64::MAX would wrap: no mesh has that many vertices, refuse it here.
        let too_big = array
            .call_method0("max")
            .and_then(|m| m.extract::<u64>())
            .map(|m| m > u32::MAX as u64)
            .unwrap_or(false);
        if too_big {
            return Err(area.error(
                name,
                "an index exceeds the largest vertex index a mesh can have (2^32 - 1)",
            ));
        }
    }
    let converted = array.call_method1("astype", ("int64",))?;
    let converted = converted.cast::<PyArrayDyn<i64>>().map_err(PyErr::from)?;
    readonly(converted, name, area)
}

fn readonly<'py, T: numpy::Element>(
    array: &Bound<'py, PyArrayDyn<T>>,
    name: &str,
    area: Area,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    array
        .try_readonly()
        .map_err(|e| area.error(name, format!("cannot be read: {e}")))
}

/// Checks that `view` has shape `expected` (`None`: any length), naming `name` and the shape
/// it should have (`shape_text`, e.g. `"(n, 3)"`) in an error of `area`.
pub fn check_shape<T>(
    view: &ArrayViewD<'_, T>,
    name: &str,
    expected: &[Option<usize>],
    shape_text: &str,
    area: Area,
) -> PyResult<()> {
    let shape = view.shape();
    let fits = shape.len() == expected.len()
        && shape
            .iter()
            .zip(expected)
            .all(|(&n, e)| e.is_none_or(|e| e == n));
    if fits {
        Ok(())
    } else {
        Err(area.error(
            name,
            format!("expected an array of shape {shape_text}, got shape {shape:?}"),
        ))
    }
}

/// The rows of an `(n, 3)` float argument, as points.
pub fn points(obj: &Bound<'_, PyAny>, name: &str, area: Area) -> PyResult<Vec<Point>> {
    let array = float_array(obj, name, area)?;
    let view = array.as_array();
    check_shape(&view, name, &[None, Some(3)], "(n, 3)", area)?;
    let rows = view.into_dimensionality::<Ix2>().expect("checked 2-d");
    Ok(rows
        .outer_iter()
        .map(|r| Point::new(r[0], r[1], r[2]))
        .collect())
}

/// One point from a `(3,)` float argument.
pub fn point(obj: &Bound<'_, PyAny>, name: &str, area: Area) -> PyResult<Point> {
    let array = float_array(obj, name, area)?;
    let view = array.as_array();
    check_shape(&view, name, &[Some(3)], "(3,)", area)?;
    Ok(Point::new(view[[0]], view[[1]], view[[2]]))
}

/// An `(n, 3)` array as 2-d (its shape checked before).
fn rows(array: ArrayViewD<'_, f64>) -> ArrayView2<'_, f64> {
    array.into_dimensionality::<Ix2>().expect("checked (n, 3)")
}

/// The rays of `origins` and `directions`, `(n, 3)` each with the same `n`, read where they
/// lie and made into the engine's rays one chunk at a time ([`RayArrays::rays`]), so that a
/// batch of any size needs a chunk's working memory beside its input and output. Their values
/// are checked by the query (finite, in range, non-zero direction).
pub struct RayArrays<'py> {
    origins: PyReadonlyArrayDyn<'py, f64>,
    directions: PyReadonlyArrayDyn<'py, f64>,
}

impl<'py> RayArrays<'py> {
    /// Reads and checks the shapes of the two arguments.
    pub fn new(origins: &Bound<'py, PyAny>, directions: &Bound<'py, PyAny>) -> PyResult<Self> {
        let query = Area::Query;
        let origins = float_array(origins, "origins", query)?;
        let directions = float_array(directions, "directions", query)?;
        check_shape(
            &origins.as_array(),
            "origins",
            &[None, Some(3)],
            "(n, 3)",
            query,
        )?;
        check_shape(
            &directions.as_array(),
            "directions",
            &[None, Some(3)],
            "(n, 3)",
            query,
        )?;
        let (n, m) = (
            origins.as_array().shape()[0],
            directions.as_array().shape()[0],
        );
        if n != m {
            return Err(query_error(
                "directions",
                format!("{m} directions for {n} origins: one direction per origin"),
            ));
        }
        Ok(Self {
            origins,
            directions,
        })
    }

    /// The number of rays.
    pub fn len(&self) -> usize {
        self.origins.as_array().shape()[0]
    }

    /// Rays `range` of the batch, read on rayon's pool. The GIL stays held, so no Python code
    /// can write to the arrays meanwhile; the pool's threads only read their memory, and no
    /// task on the pool ever takes the GIL (the bindings call no Python from the pool), so
    /// waiting for it with the GIL held cannot deadlock.
    pub fn rays(&self, range: std::ops::Range<usize>) -> Vec<Ray> {
        let origins = rows(self.origins.as_array());
        let directions = rows(self.directions.as_array());
        let row = |a: &ArrayView2<'_, f64>, i: usize| [a[[i, 0]], a[[i, 1]], a[[i, 2]]];
        let mut rays = Vec::with_capacity(range.len());
        range
            .into_par_iter()
            .with_min_len(4096)
            .map(|i| {
                let ([ox, oy, oz], [dx, dy, dz]) = (row(&origins, i), row(&directions, i));
                Ray::new(Point::new(ox, oy, oz), Vector::new(dx, dy, dz))
            })
            .collect_into_vec(&mut rays);
        rays
    }

    /// The batch's chunks of at most `size` rays: `(first index, rays)`.
    pub fn chunks(&self, size: usize) -> impl Iterator<Item = (usize, Vec<Ray>)> + '_ {
        let n = self.len();
        (0..n)
            .step_by(size.max(1))
            .map(move |start| (start, self.rays(start..(start + size).min(n))))
    }
}

/// A `(4, 4)` homogeneous pose argument, checked by [`Pose::from_homogeneous`]; `None` is the
/// identity. A model where the pose belongs (the arguments in another order) is a `TypeError`.
pub fn pose(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Pose> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Pose::identity());
    };
    if let Some(matrix) = float64_matrix4(obj) {
        return Pose::from_homogeneous(&matrix).map_err(|e| pose_error(name, e));
    }
    not_a_model(obj, name, "a (4, 4) pose matrix or None")?;
    let array = float_array(obj, name, Area::Pose)?;
    let view = array.as_array();
    check_shape(&view, name, &[Some(4), Some(4)], "(4, 4)", Area::Pose)?;
    let matrix = Matrix4::from_fn(|i, j| view[[i, j]]);
    Pose::from_homogeneous(&matrix).map_err(|e| pose_error(name, e))
}

/// A `TypeError` when `obj`, given for argument `name` (which takes `expected`), is a model: the
/// arguments were given in another order (each model is followed by its pose).
pub fn not_a_model(obj: &Bound<'_, PyAny>, name: &str, expected: &str) -> PyResult<()> {
    if obj.is_instance_of::<Model>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected {expected}, got an obbtree.Model; each model is followed by its \
             pose: (a, pose_a, b, pose_b, ...), and a batch of b's poses takes pose_b's place: \
             (a, pose_a, b, poses, ...)"
        )));
    }
    Ok(())
}

/// Argument `name` as a model; a `TypeError` naming it and the argument order otherwise (an
/// array where a model belongs: the arguments were given in another order).
pub fn model_arg<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    order: &str,
) -> PyResult<PyRef<'py, Model>> {
    obj.cast::<Model>().map(|m| m.borrow()).map_err(|_| {
        let got = obj
            .get_type()
            .fully_qualified_name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "another type".to_owned());
        PyTypeError::new_err(format!(
            "{name}: expected an obbtree.Model, got {got}; the arguments are {order}"
        ))
    })
}

/// The matrix of `obj` when it is a `(4, 4)` float64 array (any strides), read in place: the
/// common case of a single query, without the borrow bookkeeping of [`float_array`], which
/// costs more than the engine needs to reject two meshes far apart (see `docs/performance.md`).
fn float64_matrix4(obj: &Bound<'_, PyAny>) -> Option<Matrix4<f64>> {
    let array = obj.cast::<PyArray2<f64>>().ok()?;
    if array.shape() != [4, 4] {
        return None;
    }
    // SAFETY: the GIL is held from here to the copy below and nothing in between runs Python
    // code or hands the array to other threads, so nothing can write to it meanwhile; the
    // bindings never hold a mutable borrow of an argument across a GIL release.
    let view = unsafe { array.as_array() };
    Some(Matrix4::from_fn(|i, j| view[[i, j]]))
}

/// A `(k, 4, 4)` batch of homogeneous poses, each checked; an error names the first bad one.
pub fn poses(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Pose>> {
    not_a_model(obj, name, "a (k, 4, 4) array of poses")?;
    let array = float_array(obj, name, Area::Pose)?;
    let view = array.as_array();
    check_shape(
        &view,
        name,
        &[None, Some(4), Some(4)],
        "(k, 4, 4)",
        Area::Pose,
    )?;
    let batch = view.into_dimensionality::<Ix3>().expect("checked 3-d");
    batch
        .outer_iter()
        .enumerate()
        .map(|(k, m)| {
            Pose::from_homogeneous(&Matrix4::from_fn(|i, j| m[[i, j]]))
                .map_err(|e| pose_error(&format!("{name}[{k}]"), e))
        })
        .collect()
}

/// `"first"` or `"all"`.
pub fn mode(text: &str) -> PyResult<obbtree::Mode> {
    match text {
        "first" => Ok(obbtree::Mode::First),
        "all" => Ok(obbtree::Mode::All),
        other => Err(query_error(
            "mode",
            format!("{other:?} is not a mode; use \"first\" (one witness pair) or \"all\""),
        )),
    }
}

/// Checks a `(4, 4)` pose argument as every query does, without a query: the drop-ins check
/// a transform before anything else uses it. `PoseError` naming `name` when it is refused.
#[pyfunction]
#[pyo3(name = "_check_pose")]
pub fn check_pose(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    pose(Some(obj), name).map(drop)
}
