//! Points against a mesh: `closest_points` and `signed_distance` (the engine's
//! `closest_points`, with its guarantee), batched over `(n, 3)` arrays on rayon's pool without
//! the GIL.

use crate::arrays::{points, pose};
use crate::errors::{query_error, Area};
use crate::model::Model;
use crate::volumes::with_model;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::{BatchError, ClosestPoint, PointRequest, QueryError};
use pyo3::prelude::*;

/// `closest_points`' arrays: distance `(n,)`, triangle `(n,)` and point `(n, 3)`.
type Closest<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f64>>,
);

/// Every point's answer, or an `obbtree.QueryError` naming the argument or the point.
fn answers(
    py: Python<'_>,
    model: &Model,
    points_arg: &Bound<'_, PyAny>,
    pose_arg: Option<&Bound<'_, PyAny>>,
    request: PointRequest,
) -> PyResult<Vec<Option<ClosestPoint>>> {
    let placed = pose(pose_arg, "pose")?;
    let queries = points(points_arg, "points", Area::Query)?;
    let m = model.inner.clone();
    py.detach(|| {
        with_model!(&m, |x| obbtree::closest_points(
            x, &placed, &queries, &request
        ))
    })
    .map_err(refused)
}

/// The batch error as an `obbtree.QueryError` naming what it concerns.
fn refused(e: BatchError) -> PyErr {
    match e.source {
        QueryError::InvalidTolerance { name, .. } => query_error(name, e.source),
        QueryError::InvalidPoint(_) => query_error(&format!("points[{}]", e.index), e.source),
        QueryError::SignOfOpenMesh | QueryError::NotAMesh { .. } => query_error("model", e.source),
        source => query_error("pose", source),
    }
}

/// The closest point of the model's mesh at `pose` to each of `points` (`(n, 3)`): returns
/// `(distance, triangle, point)`, `(n,)` float64, `(n,)` int64 and `(n, 3)` float64. Each
/// distance is within `1e-12·(d + L)` of the exact distance (`L` the largest coordinate), and
/// exactly 0 on the surface; the triangle's distance is within the same bound. With
/// `max_distance`, points farther away (decided exactly) get NaN, -1 and NaNs.
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
/// >>> tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
/// >>> d, tri, p = obbtree.closest_points(tet, [[0.2, 0.2, -1.0]])
/// >>> float(d[0]), int(tri[0]), np.round(p[0], 12).tolist()
/// (1.0, 0, [0.2, 0.2, 0.0])
#[pyfunction]
#[pyo3(signature = (model, points, pose = None, *, max_distance = None))]
pub fn closest_points<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    points: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_distance: Option<f64>,
) -> PyResult<Closest<'py>> {
    let request = PointRequest::default().with_max_distance(max_distance);
    let found = answers(py, &model, points, pose, request)?;
    let distance: Vec<f64> = found
        .iter()
        .map(|c| c.map_or(f64::NAN, |c| c.distance))
        .collect();
    let triangle: Vec<i64> = found
        .iter()
        .map(|c| c.map_or(-1, |c| i64::from(c.triangle)))
        .collect();
    let point = Array2::from_shape_fn((found.len(), 3), |(i, k)| {
        found[i].map_or(f64::NAN, |c| c.point[k])
    });
    Ok((
        distance.into_pyarray(py),
        triangle.into_pyarray(py),
        point.into_pyarray(py),
    ))
}

/// The signed distance from the model's closed mesh at `pose` to each of `points` (`(n, 3)`):
/// negative inside the solid (decided exactly; 0 on the surface), with the guarantee of
/// [`closest_points`] on its magnitude. An open mesh is an `obbtree.QueryError` (it bounds no
/// solid). With `max_distance`, points farther away get NaN.
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
/// >>> tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
/// >>> obbtree.signed_distance(tet, [[0.1, 0.1, 0.5], [0.2, 0.2, -1.0]]).tolist()
/// [-0.1, 1.0]
#[pyfunction]
#[pyo3(signature = (model, points, pose = None, *, max_distance = None))]
pub fn signed_distance<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    points: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_distance: Option<f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let request = PointRequest::default()
        .with_max_distance(max_distance)
        .with_signed(true);
    let found = answers(py, &model, points, pose, request)?;
    let distance: Vec<f64> = found
        .iter()
        .map(|c| c.map_or(f64::NAN, |c| c.distance))
        .collect();
    Ok(distance.into_pyarray(py))
}
