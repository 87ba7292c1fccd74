//! Points against a mesh: `closest_points` and `signed_distance` (the engine's
//! `closest_points`, with its guarantee), `winding_number` and `sdf_grid`, batched over
//! `(n, 3)` arrays on rayon's pool without the GIL.

use crate::arrays::{points, pose};
use crate::errors::{query_error, Area};
use crate::model::Model;
use crate::volumes::with_model;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::{BatchError, ClosestPoint, Grid, PointRequest, QueryError, Side, WindingRequest};
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
        QueryError::NotAMesh { .. } => query_error("model", e.source),
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

/// The signed distance from the model's mesh at `pose` to each of `points` (`(n, 3)`): negative
/// inside the solid, 0 on the surface, with the guarantee of [`closest_points`] on its
/// magnitude. On a closed mesh the side is decided exactly; on an open one by the generalized
/// winding number against 1/2 with a rigorous bound, and a point whose bound straddles 1/2 gets
/// NaN (never a guess). With `max_distance`, points farther away get NaN too.
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
    let decided = |c: &ClosestPoint| c.side != Some(Side::Undecided);
    let distance: Vec<f64> = found
        .iter()
        .map(|c| c.filter(decided).map_or(f64::NAN, |c| c.distance))
        .collect();
    Ok(distance.into_pyarray(py))
}

/// The winding number of the model's mesh at `pose` about each of `points` (`(n, 3)`): returns
/// `(winding, bound)`, two `(n,)` float64 arrays, the exact winding number within
/// `winding ± bound`. On a closed mesh, off its surface, it is exact (an integer, bound 0: the
/// signed count of a ray's crossings, each decided exactly). Otherwise it is the generalized
/// winding number (Jacobson et al. 2013) summed over the tree, far parts by their moments
/// (Barill et al. 2018) with a rigorous remainder bound, refined until the bound is at most
/// `tolerance` (or every near triangle is summed exactly).
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
/// >>> tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
/// >>> w, bound = obbtree.winding_number(tet, [[0.1, 0.1, 0.1], [2.0, 0.0, 0.0]])
/// >>> w.tolist(), bound.tolist()
/// ([1.0, 0.0], [0.0, 0.0])
#[pyfunction]
#[pyo3(signature = (model, points, pose = None, *, tolerance = 1e-4))]
pub fn winding_number<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    points: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    tolerance: f64,
) -> PyResult<Windings<'py>> {
    let placed = self::pose(pose, "pose")?;
    let queries = self::points(points, "points", Area::Query)?;
    let request = WindingRequest { tolerance };
    let m = model.inner.clone();
    let found = py
        .detach(|| {
            with_model!(&m, |x| obbtree::winding_numbers(
                x, &placed, &queries, &request
            ))
        })
        .map_err(refused)?;
    let value: Vec<f64> = found.iter().map(|w| w.value).collect();
    let bound: Vec<f64> = found.iter().map(|w| w.bound).collect();
    Ok((value.into_pyarray(py), bound.into_pyarray(py)))
}

/// The signed distance from each point of an `n × n × n` grid to the model's mesh (in its own
/// frame), as in `signed_distance` (NaN where an open mesh's side cannot be decided): returns
/// `(sdf, lo, hi)`, the `(n, n, n)` float64 grid indexed `[x, y, z]` and its corners. The grid
/// spans `bounds` (`(2, 3)`: least and greatest corners) when given, otherwise the cube centred
/// on the mesh's bounding box whose side is its largest extent times `1 + 2·padding`; both ends
/// are grid points. Each row of the grid is one exact segment for the sides (closed meshes) and
/// one hinted walk for the distances, on all cores.
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
/// >>> tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
/// >>> sdf, lo, hi = obbtree.sdf_grid(tet, 3, bounds=[[-0.8, 0.2, 0.2], [1.2, 0.2, 0.2]])
/// >>> sdf.shape, np.round(sdf[:, 0, 0], 12).tolist()
/// ((3, 3, 3), [0.8, -0.2, 0.346410161514])
#[pyfunction]
#[pyo3(signature = (model, resolution, *, padding = 0.1, bounds = None))]
pub fn sdf_grid<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    resolution: usize,
    padding: f64,
    bounds: Option<&Bound<'py, PyAny>>,
) -> PyResult<SdfGrid<'py>> {
    if resolution == 0 {
        return Err(query_error("resolution", "must be at least 1"));
    }
    if !(padding.is_finite() && padding >= 0.0) {
        return Err(query_error(
            "padding",
            format!("must be a finite fraction of at least 0, not {padding}"),
        ));
    }
    let m = model.inner.clone();
    let grid = match bounds {
        Some(b) => {
            let corners = self::points(b, "bounds", Area::Query)?;
            let [lo, hi] = <[_; 2]>::try_from(corners)
                .map_err(|_| query_error("bounds", "must be a (2, 3) array of two corners"))?;
            Grid {
                min: lo,
                max: hi,
                resolution: [resolution; 3],
            }
        }
        None => with_model!(&m, |x| {
            if x.mesh().is_none() {
                return Err(query_error(
                    "model",
                    "sdf_grid needs a mesh, not a primitive shape",
                ));
            }
            PyResult::Ok(Grid::cube_around(x.bounds(), resolution, padding))
        })?,
    };
    let values = py
        .detach(|| with_model!(&m, |x| obbtree::sdf_grid(x, &grid)))
        .map_err(|e| match e {
            QueryError::InvalidGrid(_) => query_error("bounds", e),
            e => query_error("model", e),
        })?;
    let sdf = numpy::ndarray::Array3::from_shape_vec((resolution, resolution, resolution), values)
        .expect("the grid's length");
    let corner = |p: obbtree::Point| {
        p.coords
            .iter()
            .copied()
            .collect::<Vec<f64>>()
            .into_pyarray(py)
    };
    Ok((sdf.into_pyarray(py), corner(grid.min), corner(grid.max)))
}

/// `winding_number`'s arrays: the values and their bounds, `(n,)` each.
type Windings<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// `sdf_grid`'s arrays: the grid `(n, n, n)` and its two corners `(3,)`.
type SdfGrid<'py> = (
    Bound<'py, numpy::PyArray3<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
);
