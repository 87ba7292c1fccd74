//! Continuous collision of two models ([`obbtree::collide_motion`]): the first time b, moving
//! rigidly from one pose to another over `t ∈ [0, 1]`, touches a at its pose.

use crate::arrays::pose;
use crate::errors::{query_error as refused, Area};
use crate::model::Model;
use crate::volumes::with_models;
use obbtree::{Motion, MotionRequest, MotionResult, QueryError};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// How many items a `MotionResult` unpacks to.
const FIELDS: usize = 5;

/// The engine's refusal as an `obbtree.QueryError` naming the argument it is about: a
/// tolerance, or the motion (`start/end`) for a placement out of the exact range.
fn query_error(error: QueryError) -> PyErr {
    match &error {
        // The engine's message already starts with the tolerance's name.
        QueryError::InvalidTolerance { .. } => Area::Query.raw(error.to_string()),
        QueryError::InvalidTimeTolerance(_) => refused("time_tolerance", error),
        // Undecided within the work limit: a larger tolerance decides it.
        QueryError::MotionUndecided { .. } => refused("tolerance", error),
        _ => refused("start/end", error),
    }
}

/// The answer of `obbtree.collide_motion`. Unpacks as the tuple
/// `(hit, toi, pair, exact, tolerance)`; every field is also an attribute.
///
/// * `hit`: bool, the models meet during the motion (within `tolerance` where it applies);
/// * `toi`: `(lo, hi)` in `[0, 1]`, or `None` for a miss: the models do not touch before
///   `lo`; for an exact answer the first contact time lies in `[lo, hi]`, otherwise they come
///   within `tolerance` of each other at some time in `[lo, hi]`; `(0.0, 0.0)` when they touch
///   at the start;
/// * `pair`: `(triangle of a, triangle of b)` of the contact (a shape's feature is 0), or
///   `None` for a miss;
/// * `exact`: the answer is exact (two meshes under a pure translation, or contact at the
///   start);
/// * `tolerance`: the distance tolerance the answer was decided with (0.0 when exact).
#[pyclass(name = "MotionResult", module = "obbtree", frozen)]
pub struct PyMotionResult {
    inner: MotionResult,
}

impl PyMotionResult {
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.hit(),
            self.toi(),
            self.pair(),
            self.exact(),
            self.tolerance(),
        )
            .into_pyobject(py)
    }
}

#[pymethods]
impl PyMotionResult {
    /// Whether the models meet during the motion.
    #[getter]
    fn hit(&self) -> bool {
        self.inner.hit
    }

    /// `(lo, hi)`, the interval of the first contact (see the class documentation); `None`
    /// for a miss.
    #[getter]
    fn toi(&self) -> Option<(f64, f64)> {
        self.inner.toi.map(|[lo, hi]| (lo, hi))
    }

    /// The contact's pair `(triangle of a, triangle of b)`; `None` for a miss.
    #[getter]
    fn pair(&self) -> Option<(u32, u32)> {
        self.inner.pair.map(|[i, j]| (i, j))
    }

    /// Whether the answer is exact (two meshes under a pure translation, or contact at the
    /// start).
    #[getter]
    fn exact(&self) -> bool {
        self.inner.exact
    }

    /// The distance tolerance the answer was decided with (0.0 when exact).
    #[getter]
    fn tolerance(&self) -> f64 {
        self.inner.tolerance
    }

    fn __len__(&self) -> usize {
        FIELDS
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let position = if index < 0 {
            index + FIELDS as isize
        } else {
            index
        };
        match usize::try_from(position) {
            Ok(p) if p < FIELDS => self.fields(py)?.get_item(p),
            _ => Err(PyIndexError::new_err("MotionResult index out of range")),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.fields(py)?.as_any().try_iter().map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        let python_bool = |b: bool| if b { "True" } else { "False" };
        let toi = match self.inner.toi {
            Some([lo, hi]) => format!("({lo:?}, {hi:?})"),
            None => "None".to_owned(),
        };
        let pair = match self.inner.pair {
            Some([i, j]) => format!("({i}, {j})"),
            None => "None".to_owned(),
        };
        format!(
            "obbtree.MotionResult(hit={}, toi={toi}, pair={pair}, exact={}, tolerance={:?})",
            python_bool(self.inner.hit),
            python_bool(self.inner.exact),
            self.inner.tolerance
        )
    }
}

/// The first time the meshes (or shapes) of `a` at `pose_a` and of `b` touch while b moves
/// from pose `start` (at `t = 0`) to pose `end` (at `t = 1`): the translation interpolated
/// linearly, the rotation at constant angular velocity about a fixed axis (the shortest arc).
/// Poses are `(4, 4)` homogeneous matrices (`None`: identity); a stays at `pose_a`.
///
/// Returns a `MotionResult`, which unpacks as `(hit, toi, pair, exact, tolerance)`. Two meshes
/// under a pure translation (the same rotation at both ends) are decided exactly, touching
/// counting: `toi = (lo, hi)` holds the first contact time and is at most 1e-12 wide. Any other
/// motion (a rotation, or a shape on either side) never misses a contact, and reports a hit
/// only where the models come within `tolerance` of each other at some time in `[lo, hi]`
/// (`None`: 1e-9 of the larger model's size; the answer's `tolerance` says which was used);
/// meshes bracket that time within `time_tolerance` (in `(0, 1]`). No contact occurs before
/// `lo`; contact at the start is `(0.0, 0.0)`. A negative or non-finite `tolerance`, or a
/// `time_tolerance` outside `(0, 1]`, is an `obbtree.QueryError` naming it; so is a motion
/// that cannot be decided within the work limit (a larger `tolerance` decides it). Runs
/// without the GIL.
///
/// >>> import itertools, numpy as np, obbtree
/// >>> corners = np.array(list(itertools.product([0.0, 1.0], repeat=3)))
/// >>> faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
/// ...          [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
/// >>> wall = obbtree.Model(obbtree.Mesh(corners * [0.25, 10, 10] - [0.125, 5, 5], faces))
/// >>> cube = obbtree.Model(obbtree.Mesh(corners - 0.5, faces))
/// >>> start, end = np.eye(4), np.eye(4); start[0, 3], end[0, 3] = -4.0, 4.0
/// >>> obbtree.collide(wall, None, cube, start)[0], obbtree.collide(wall, None, cube, end)[0]
/// (False, False)
/// >>> result = obbtree.collide_motion(wall, None, cube, start, end)
/// >>> lo, hi = result.toi  # the cube's face x = 0.5 reaches the wall's x = -0.125 at t = 27/64
/// >>> result.hit, result.exact, lo <= 27 / 64 <= hi
/// (True, True, True)
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, start, end, *, tolerance = None, time_tolerance = 1e-9))]
#[allow(clippy::too_many_arguments)]
pub fn collide_motion<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    start: Option<&Bound<'py, PyAny>>,
    end: Option<&Bound<'py, PyAny>>,
    tolerance: Option<f64>,
    time_tolerance: f64,
) -> PyResult<PyMotionResult> {
    let pa = pose(pose_a, "pose_a")?;
    let motion = Motion::new(pose(start, "start")?, pose(end, "end")?);
    let mut request = MotionRequest::default().with_time_tolerance(time_tolerance);
    request.tolerance = tolerance;
    let (ma, mb) = (&a.inner, &b.inner);
    let inner = py.detach(|| {
        with_models!(ma, mb, |x, y| obbtree::collide_motion(
            x, &pa, y, &motion, &request
        )
        .map_err(query_error))
    })?;
    Ok(PyMotionResult { inner })
}
