//! Continuous collision of the primitive pairs, batched over arrays: `ccd_vertex_face` and
//! `ccd_edge_edge` (the engine's `bv::ccd`, exact yes/no and a time-of-impact interval), with
//! an optional minimum separation.

use crate::arrays::{check_shape, finite_array};
use crate::errors::{query_error, Area};
use numpy::ndarray::{Array2, ArrayView3, Ix3};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::bv::ccd::{self, TimeOfImpact};
use obbtree::Point;
use pyo3::prelude::*;
use rayon::prelude::*;

/// The arrays a batch returns: `hit` `(n,)` bool and `toi` `(n, 2)` float64 (`[lo, hi]`, NaN
/// for a miss).
type Answers<'py> = (Bound<'py, PyArray1<bool>>, Bound<'py, PyArray2<f64>>);

/// An exact continuous test of one primitive pair, positions at `t = 0` and at `t = 1`, contact
/// meaning a distance of at most the separation.
type PairTest = fn([Point; 4], [Point; 4], ccd::Separation) -> Option<TimeOfImpact>;

/// The separation argument, checked finite and at least 0.
fn separation(min_separation: f64) -> PyResult<ccd::Separation> {
    ccd::Separation::new(min_separation).ok_or_else(|| {
        query_error(
            "min_separation",
            format!("{min_separation} is not a finite distance of at least 0"),
        )
    })
}

/// The four points of each query at `t = 0` and at `t = 1`, from `(n, 4, 3)` arrays of the
/// same `n`, checked finite (an error naming the argument otherwise).
fn queries(
    start: &Bound<'_, PyAny>,
    end: &Bound<'_, PyAny>,
) -> PyResult<Vec<([Point; 4], [Point; 4])>> {
    let start = finite_array(start, "start", Area::Query)?;
    let end = finite_array(end, "end", Area::Query)?;
    let (start, end) = (start.as_array(), end.as_array());
    check_shape(
        &start,
        "start",
        &[None, Some(4), Some(3)],
        "(n, 4, 3)",
        Area::Query,
    )?;
    let n = start.shape()[0];
    check_shape(
        &end,
        "end",
        &[Some(n), Some(4), Some(3)],
        "(n, 4, 3) with start's n",
        Area::Query,
    )?;
    let corners = |a: &ArrayView3<'_, f64>, i: usize| -> [Point; 4] {
        std::array::from_fn(|k| Point::new(a[[i, k, 0]], a[[i, k, 1]], a[[i, k, 2]]))
    };
    let (start, end) = (
        start.into_dimensionality::<Ix3>().expect("checked 3-d"),
        end.into_dimensionality::<Ix3>().expect("checked 3-d"),
    );
    Ok((0..n)
        .map(|i| (corners(&start, i), corners(&end, i)))
        .collect())
}

/// `test` on every query, on rayon's pool without the GIL, as the returned arrays.
fn answer<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    end: &Bound<'py, PyAny>,
    min_separation: f64,
    test: PairTest,
) -> PyResult<Answers<'py>> {
    let d = separation(min_separation)?;
    let queries = queries(start, end)?;
    let found: Vec<Option<TimeOfImpact>> =
        py.detach(|| queries.par_iter().map(|&(s, e)| test(s, e, d)).collect());
    let hit: Vec<bool> = found.iter().map(Option::is_some).collect();
    let toi = Array2::from_shape_fn((found.len(), 2), |(i, k)| match found[i] {
        Some(t) => [t.lo, t.hi][k],
        None => f64::NAN,
    });
    Ok((hit.into_pyarray(py), toi.into_pyarray(py)))
}

/// Vertex–face continuous collision of `n` queries: `start[i]` and `end[i]` are `(4, 3)`, the
/// vertex then the face's three corners at `t = 0` and at `t = 1`, each point moving linearly
/// in between (`(n, 4, 3)` arrays).
///
/// Returns `(hit, toi)`: `(n,)` bool, exact for the float64 inputs with touching counting, and
/// `(n, 2)` float64, an interval `[lo, hi]` holding the earliest contact time, at most 1e-12
/// wide, with no contact before `lo` (NaN for a miss). Runs on all cores without the GIL.
///
/// With `min_separation = d > 0`, contact means a distance of at most `d` (the float64 value
/// itself) between the point and the closed triangle, decided just as exactly; the interval
/// then holds the earliest time the distance is at most `d`. A negative or non-finite `d` is an
/// `obbtree.QueryError` naming it.
///
/// >>> import numpy as np, obbtree
/// >>> face = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
/// >>> start = np.array([[[0.25, 0.25, 1.0]] + face], float)
/// >>> end = np.array([[[0.25, 0.25, -1.0]] + face], float)
/// >>> hit, toi = obbtree.ccd_vertex_face(start, end)
/// >>> bool(hit[0]), bool(toi[0, 0] <= 0.5 <= toi[0, 1])
/// (True, True)
#[pyfunction]
#[pyo3(signature = (start, end, *, min_separation = 0.0))]
pub fn ccd_vertex_face<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    end: &Bound<'py, PyAny>,
    min_separation: f64,
) -> PyResult<Answers<'py>> {
    answer(py, start, end, min_separation, ccd::vertex_face_within)
}

/// Edge–edge continuous collision of `n` queries: `start[i]` and `end[i]` are `(4, 3)`, the
/// first edge's two ends then the second's at `t = 0` and at `t = 1`, each point moving
/// linearly in between (`(n, 4, 3)` arrays). Returns `(hit, toi)` as
/// [`ccd_vertex_face`] does, and takes the same `min_separation` (the distance between the two
/// closed segments).
///
/// >>> import numpy as np, obbtree
/// >>> start = np.array([[[0, 0, 1], [1, 0, 1], [0.5, -1, 0], [0.5, 1, 0]]], float)
/// >>> end = start - [0, 0, 2.0] * np.array([1, 1, 0, 0])[:, None]
/// >>> hit, toi = obbtree.ccd_edge_edge(start, end)
/// >>> bool(hit[0]), bool(toi[0, 0] <= 0.5 <= toi[0, 1])
/// (True, True)
#[pyfunction]
#[pyo3(signature = (start, end, *, min_separation = 0.0))]
pub fn ccd_edge_edge<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    end: &Bound<'py, PyAny>,
    min_separation: f64,
) -> PyResult<Answers<'py>> {
    answer(py, start, end, min_separation, ccd::edge_edge_within)
}
