//! Distance queries on models: the distance between two posed meshes with its closest triangle
//! pair, points and certified interval; exact margin decisions; every triangle pair within a
//! margin; one pair of models under many poses, in parallel without the GIL.

use crate::arrays::{check_shape, index_array, model_arg, pose, poses};
use crate::collide::{pair_array, run_query, worth_releasing};
use crate::errors::{query_error as refused, Area};
use crate::model::Model;
use crate::volumes::with_models;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::{BatchError, Containment, DistanceRequest, DistanceResult, Point, QueryError};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `distance_many`'s arguments, for the error of a call in another order.
const DISTANCE_MANY_ORDER: &str =
    "(a, pose_a, b, poses, rel_err=0.0, abs_err=0.0, hint=None, solids=False)";

/// What `distance_many` returns: distances, pairs, closest points on A and on B, lower and
/// upper bounds, one row per pose.
type ManyDistances<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// The engine's refusal as an `obbtree.QueryError` naming the argument it is about (`placed`
/// for a mesh that its pose takes out of the exact range).
fn query_error(placed: &str, error: QueryError) -> PyErr {
    match &error {
        QueryError::InvalidMargin(_) => refused("margin", error),
        QueryError::InvalidHint { .. } => refused("hint", error),
        // The engine's message already starts with the tolerance's name.
        QueryError::InvalidTolerance { .. } => Area::Query.raw(error.to_string()),
        _ => refused(placed, error),
    }
}

/// A batch's refusal: a request error names its argument, a pose error its position.
fn batch_error(error: BatchError) -> PyErr {
    match error.source {
        QueryError::InvalidHint { .. } | QueryError::InvalidTolerance { .. } => {
            query_error("poses", error.source)
        }
        _ => refused(&format!("poses[{}]", error.index), error.source),
    }
}

/// A `hint` argument: two triangle indices (tuple, list or array), or `None`.
fn hint(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<[u32; 2]>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let array = index_array(obj, "hint", Area::Query)?;
    let view = array.as_array();
    check_shape(&view, "hint", &[Some(2)], "(2,)", Area::Query)?;
    let index = |k: usize| {
        u32::try_from(view[[k]])
            .map_err(|_| refused("hint", format!("{} is not a triangle index", view[[k]])))
    };
    Ok(Some([index(0)?, index(1)?]))
}

/// The request of the keyword arguments shared by `distance` and `distance_many`.
fn request(
    rel_err: f64,
    abs_err: f64,
    hint: Option<&Bound<'_, PyAny>>,
    solids: bool,
) -> PyResult<DistanceRequest> {
    Ok(DistanceRequest::default()
        .with_tolerances(rel_err, abs_err)
        .with_hint(self::hint(hint)?)
        .with_solids(solids))
}

pub(crate) fn point_array<'py>(py: Python<'py>, p: &Point) -> Bound<'py, PyArray1<f64>> {
    vec![p.x, p.y, p.z].into_pyarray(py)
}

/// The name of a containment answer.
fn containment_name(contained: Containment) -> Option<&'static str> {
    match contained {
        Containment::NotChecked => None,
        Containment::SurfacesIntersect => Some("surfaces_intersect"),
        Containment::OpenMesh => Some("open_mesh"),
        Containment::Disjoint => Some("disjoint"),
        Containment::Overlapping => Some("overlapping"),
        Containment::AInB => Some("a_in_b"),
        Containment::BInA => Some("b_in_a"),
    }
}

/// The answer of `obbtree.distance`. Unpacks as the tuple
/// `(distance, pair, point_a, point_b, lower, upper)`; every field, and `intersects` and
/// `contained`, is also an attribute.
///
/// * `distance`: float, exactly 0 when the surfaces intersect (or, with `solids=True`, one
///   solid lies inside the other);
/// * `pair`: `(triangle of a, triangle of b)`, the closest pair (an intersecting one when they
///   intersect), ready to be the next query's `hint`;
/// * `point_a`, `point_b`: `(3,)` closest points of that pair, world frame;
/// * `lower`, `upper`: a certified interval around the exact distance;
/// * `intersects`: the surfaces share a point (decided exactly);
/// * `contained`: with `solids=True`, `"disjoint"`, `"overlapping"`, `"a_in_b"`, `"b_in_a"`,
///   `"surfaces_intersect"` or `"open_mesh"` (a mesh is not closed); `None` otherwise.
#[pyclass(name = "DistanceResult", module = "obbtree", frozen)]
pub struct PyDistanceResult {
    inner: DistanceResult,
}

impl PyDistanceResult {
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let r = &self.inner;
        (
            r.distance,
            (r.pair[0], r.pair[1]),
            point_array(py, &r.point_a),
            point_array(py, &r.point_b),
            r.lower,
            r.upper,
        )
            .into_pyobject(py)
    }
}

#[pymethods]
impl PyDistanceResult {
    /// The distance (see the class documentation).
    #[getter]
    fn distance(&self) -> f64 {
        self.inner.distance
    }

    /// The closest triangle pair `(triangle of a, triangle of b)`.
    #[getter]
    fn pair(&self) -> (u32, u32) {
        (self.inner.pair[0], self.inner.pair[1])
    }

    /// The closest point on a's triangle, `(3,)`, world frame.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        point_array(py, &self.inner.point_a)
    }

    /// The closest point on b's triangle, `(3,)`, world frame.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        point_array(py, &self.inner.point_b)
    }

    /// A certified lower bound on the exact distance.
    #[getter]
    fn lower(&self) -> f64 {
        self.inner.lower
    }

    /// A certified upper bound on the exact distance.
    #[getter]
    fn upper(&self) -> f64 {
        self.inner.upper
    }

    /// Whether the surfaces share a point.
    #[getter]
    fn intersects(&self) -> bool {
        self.inner.intersects
    }

    /// With `solids=True`: how the solids lie (see the class documentation); else `None`.
    #[getter]
    fn contained(&self) -> Option<&'static str> {
        containment_name(self.inner.contained)
    }

    fn __len__(&self) -> usize {
        6
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let position = if index < 0 { index + 6 } else { index };
        if !(0..6).contains(&position) {
            return Err(PyIndexError::new_err("DistanceResult index out of range"));
        }
        self.fields(py)?.get_item(position as usize)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.fields(py)?.as_any().try_iter().map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        format!(
            "obbtree.DistanceResult(distance={:?}, pair=({}, {}), lower={:?}, upper={:?}, \
             intersects={})",
            r.distance,
            r.pair[0],
            r.pair[1],
            r.lower,
            r.upper,
            if r.intersects { "True" } else { "False" }
        )
    }
}

/// The distance between the meshes of `a` at `pose_a` and `b` at `pose_b` (`(4, 4)`
/// homogeneous, `None`: identity), with the closest triangle pair and points.
///
/// Returns a `DistanceResult`, which unpacks as `(distance, pair, point_a, point_b, lower,
/// upper)`. With the default tolerances the distance is within `1e-12·(d + L)` of the exact
/// one (`L` the largest coordinate of the placed meshes) and `lower <= exact <= upper`;
/// intersecting meshes give exactly 0. `rel_err` and `abs_err` (PQP's and FCL's) allow
/// `d <= exact·(1 + rel_err) + abs_err` for speed; `hint`, a triangle pair (usually the
/// previous answer's `pair`), starts the search from that pair's distance; with `solids=True`
/// closed meshes are solids, and one inside the other is at distance 0.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> above = np.eye(4); above[2, 3] = 0.5
/// >>> d, pair, point_a, point_b, lower, upper = obbtree.distance(tri, None, tri, above)
/// >>> d, pair, lower <= d <= upper
/// (0.5, (0, 0), True)
/// >>> obbtree.distance(tri, None, tri, above, hint=pair).distance
/// 0.5
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, rel_err = 0.0, abs_err = 0.0, hint = None, solids = false))]
#[allow(clippy::too_many_arguments)]
pub fn distance<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    pose_b: Option<&Bound<'py, PyAny>>,
    rel_err: f64,
    abs_err: f64,
    hint: Option<&Bound<'py, PyAny>>,
    solids: bool,
) -> PyResult<PyDistanceResult> {
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let request = request(rel_err, abs_err, hint, solids)?;
    let (ma, mb) = (&a.inner, &b.inner);
    let inner = run_query(py, worth_releasing(&a, &b, false), || {
        with_models!(ma, mb, |x, y| obbtree::distance(x, &pa, y, &pb, &request)
            .map_err(|e| query_error("pose_b", e)))
    })?;
    Ok(PyDistanceResult { inner })
}

/// Whether the meshes of `a` at `pose_a` and `b` at `pose_b` are at most `margin` apart,
/// decided exactly (touching at exactly `margin` counts).
///
/// Returns `(within, pairs)`: `pairs` an `(p, 2)` int64 array with one witness pair
/// `[triangle of a, triangle of b]` at most `margin` apart when `within`, none otherwise.
/// `obbtree.QueryError` for a negative, NaN or infinite margin.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> above = np.eye(4); above[2, 3] = 0.5
/// >>> obbtree.within_margin(tri, None, tri, above, 0.5)[0], obbtree.within_margin(tri, None, tri, above, 0.4999)[0]
/// (True, False)
#[pyfunction]
pub fn within_margin<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    pose_b: Option<&Bound<'py, PyAny>>,
    margin: f64,
) -> PyResult<(bool, Bound<'py, PyArray2<i64>>)> {
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let (ma, mb) = (&a.inner, &b.inner);
    let witness = run_query(py, worth_releasing(&a, &b, false), || {
        with_models!(ma, mb, |x, y| obbtree::within_margin(
            x, &pa, y, &pb, margin
        )
        .map_err(|e| query_error("pose_b", e)))
    })?;
    let pairs: Vec<[u32; 2]> = witness.into_iter().collect();
    Ok((!pairs.is_empty(), pair_array(py, &pairs)))
}

/// Every triangle pair of `a` at `pose_a` and `b` at `pose_b` at most `margin` apart (each
/// decided exactly): an `(p, 2)` int64 array of `[triangle of a, triangle of b]`, sorted.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> above = np.eye(4); above[2, 3] = 0.5
/// >>> obbtree.proximity_pairs(tri, None, tri, above, 0.5).tolist()
/// [[0, 0]]
#[pyfunction]
pub fn proximity_pairs<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    pose_b: Option<&Bound<'py, PyAny>>,
    margin: f64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let (ma, mb) = (&a.inner, &b.inner);
    let pairs = run_query(py, true, || {
        with_models!(ma, mb, |x, y| obbtree::proximity_pairs(
            x, &pa, y, &pb, margin
        )
        .map_err(|e| query_error("pose_b", e)))
    })?;
    Ok(pair_array(py, &pairs))
}

/// `distance` of `a` at `pose_a` with `b` at each pose of `poses` (`(k, 4, 4)`), in parallel
/// without the GIL.
///
/// The arguments are `distance`'s with the batch `poses` in `pose_b`'s place, as in the
/// engine's `distance_many`. Returns `(distances, pairs, points_a, points_b, lower, upper)`:
/// `(k,)`, `(k, 2)` int64, `(k, 3)`, `(k, 3)`, `(k,)`, `(k,)`, row `i` the answer at
/// `poses[i]`. Every pose is checked before any query runs; an `obbtree.PoseError` (or
/// `QueryError`, for a placement out of the exact range) names the first bad one. A model
/// given for `pose_a` or an array for `b` (the former order `a, b, poses, pose_a`) is a
/// `TypeError`.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> poses = np.stack([np.eye(4)] * 3); poses[:, 2, 3] = [0.0, 0.5, 2.0]
/// >>> obbtree.distance_many(tri, None, tri, poses)[0].tolist()
/// [0.0, 0.5, 2.0]
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, poses, rel_err = 0.0, abs_err = 0.0, hint = None, solids = false))]
#[allow(clippy::too_many_arguments)]
pub fn distance_many<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    rel_err: f64,
    abs_err: f64,
    hint: Option<&Bound<'py, PyAny>>,
    solids: bool,
) -> PyResult<ManyDistances<'py>> {
    let pa = pose(pose_a, "pose_a")?;
    let b = model_arg(b, "b", DISTANCE_MANY_ORDER)?;
    let batch = self::poses(poses, "poses")?;
    let request = request(rel_err, abs_err, hint, solids)?;
    let (ma, mb) = (a.inner.clone(), b.inner.clone());
    let results = py.detach(|| {
        with_models!(&ma, &mb, |x, y| obbtree::distance_many(
            x, &pa, y, &batch, &request
        )
        .map_err(batch_error))
    })?;
    let k = results.len();
    let column = |f: fn(&DistanceResult) -> f64| results.iter().map(f).collect::<Vec<f64>>();
    let rows = |f: fn(&DistanceResult) -> Point| {
        Array2::from_shape_fn((k, 3), |(i, j)| f(&results[i])[j]).into_pyarray(py)
    };
    let pairs: Vec<[u32; 2]> = results.iter().map(|r| r.pair).collect();
    Ok((
        column(|r| r.distance).into_pyarray(py),
        pair_array(py, &pairs),
        rows(|r| r.point_a),
        rows(|r| r.point_b),
        column(|r| r.lower).into_pyarray(py),
        column(|r| r.upper).into_pyarray(py),
    ))
}

/// Distance along a sequence of nearby poses of one pair of models: each `distance` call
/// starts where the last one stopped (its closest pair, and the parts of the meshes its search
/// left out, each bound lowered by how far b can have moved since), so a motion in small steps
/// costs much less than cold queries. The answers are those of `obbtree.distance`, with the
/// same guarantee, whatever the poses; given other models than the last call's, it starts
/// afresh. One tracker may be shared by threads (calls take turns).
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> tracker = obbtree.DistanceTracker()
/// >>> for z in (0.5, 0.75, 1.0):
/// ...     above = np.eye(4); above[2, 3] = z
/// ...     print(tracker.distance(tri, None, tri, above).distance)
/// 0.5
/// 0.75
/// 1.0
#[pyclass(name = "DistanceTracker", module = "obbtree", frozen)]
#[derive(Default)]
pub struct PyDistanceTracker {
    inner: std::sync::Mutex<obbtree::DistanceTracker>,
}

#[pymethods]
impl PyDistanceTracker {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// `obbtree.distance(a, pose_a, b, pose_b, ...)`, starting where the last call stopped.
    #[pyo3(signature = (a, pose_a, b, pose_b, rel_err = 0.0, abs_err = 0.0, solids = false))]
    #[allow(clippy::too_many_arguments)]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        a: PyRef<'py, Model>,
        pose_a: Option<&Bound<'py, PyAny>>,
        b: PyRef<'py, Model>,
        pose_b: Option<&Bound<'py, PyAny>>,
        rel_err: f64,
        abs_err: f64,
        solids: bool,
    ) -> PyResult<PyDistanceResult> {
        let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
        let request = request(rel_err, abs_err, None, solids)?;
        let (ma, mb) = (&a.inner, &b.inner);
        // The lock is taken without the GIL (when released): a thread waiting for it never
        // holds the GIL that the thread holding it may need.
        let inner = run_query(py, worth_releasing(&a, &b, false), || {
            // A query that panicked left the tracker unusable: start afresh.
            let mut tracker = self.inner.lock().unwrap_or_else(|poisoned| {
                self.inner.clear_poison();
                let mut tracker = poisoned.into_inner();
                tracker.forget();
                tracker
            });
            with_models!(ma, mb, |x, y| tracker
                .distance(x, &pa, y, &pb, &request)
                .map_err(|e| query_error("pose_b", e)))
        })?;
        Ok(PyDistanceResult { inner })
    }

    /// Forgets the last query: the next starts from scratch.
    fn forget(&self) {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .forget();
    }

    fn __repr__(&self) -> String {
        "obbtree.DistanceTracker()".to_owned()
    }
}
