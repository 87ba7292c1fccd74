//! Collision queries on models: two posed meshes, one pair under many poses, a mesh against
//! itself, points inside a closed mesh. Batches run on rayon's pool without the GIL.

use crate::arrays::{mode, model_arg, points, pose, poses};
use crate::errors::{query_error, Area};
use crate::model::Model;
use crate::volumes::{with_model, with_models};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use obbtree::bv::intersect::tri_tri_segment::Intersection;
use obbtree::{CollisionRequest, CollisionResult, Point, Pose};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// `collide_many`'s arguments, for the error of a call in another order.
const COLLIDE_MANY_ORDER: &str = "(a, pose_a, b, poses, mode=\"all\")";

/// What `collide_many` returns: which poses touch, and the `[pose, triangle, triangle]` rows.
type ManyResults<'py> = (Bound<'py, PyArray1<bool>>, Bound<'py, PyArray2<i64>>);

/// Meshes with fewer triangles than this between them are queried without releasing the GIL
/// (in `"first"` mode): such a query is short next to Python's own switch interval (5 ms),
/// and releasing and taking back the GIL would add noticeably to the quickest answers (a pair
/// far apart; see `docs/performance.md`).
const SHORT_QUERY_TRIANGLES: usize = 16_384;

/// Whether a single query on `a` and `b` may run long enough to be worth releasing the GIL:
/// big meshes, or every pair asked for (`all_pairs`).
pub fn worth_releasing(a: &Model, b: &Model, all_pairs: bool) -> bool {
    all_pairs || a.triangle_count() + b.triangle_count() >= SHORT_QUERY_TRIANGLES
}

/// `query`, without the GIL when `release` (threads then run Python meanwhile).
pub fn run_query<T: Send>(py: Python<'_>, release: bool, query: impl FnOnce() -> T + Send) -> T {
    if release {
        py.detach(query)
    } else {
        query()
    }
}

/// The `(p, 2)` int64 array of triangle pairs, allocated by NumPy and filled in place (no Rust
/// buffer handed over: cheaper for the many small answers of single queries).
pub fn pair_array<'py>(py: Python<'py>, pairs: &[[u32; 2]]) -> Bound<'py, PyArray2<i64>> {
    if pairs.is_empty() {
        return no_pairs(py);
    }
    let array = PyArray2::<i64>::zeros(py, [pairs.len(), 2], false);
    // SAFETY: the array was just made (C order, contiguous) and no one else holds it.
    let cells = unsafe { array.as_slice_mut() }.expect("a new array is contiguous");
    for (cell, &index) in cells.iter_mut().zip(pairs.iter().flatten()) {
        *cell = i64::from(index);
    }
    array
}

/// The `(0, 2)` answer of a query that found no pair: one read-only array made once and
/// shared (an empty array holds nothing to change, and read-only it cannot be resized in
/// place either). Making a new one took a large share of the quickest query's time from
/// Python (see `docs/performance.md`).
fn no_pairs(py: Python<'_>) -> Bound<'_, PyArray2<i64>> {
    static EMPTY: PyOnceLock<Py<PyArray2<i64>>> = PyOnceLock::new();
    EMPTY
        .get_or_init(py, || {
            let array = PyArray2::<i64>::zeros(py, [0, 2], false);
            array
                .getattr("flags")
                .and_then(|flags| flags.setattr("writeable", false))
                .expect("a new array that owns its data can be made read-only");
            array.unbind()
        })
        .bind(py)
        .clone()
}

/// One point per pair of `result` (which must carry contacts, computed in A's frame), moved
/// to the world by `pose_a`: the middle of the pair's intersection segment; NaN where the
/// intersection is not a segment (coplanar or zero-area triangles).
pub fn contact_points<'py>(
    py: Python<'py>,
    result: &CollisionResult,
    pose_a: &Pose,
) -> Bound<'py, PyArray2<f64>> {
    let middle = |c: &Intersection| match c {
        Intersection::Segment(p, q) => {
            pose_a.transform_point(&Point::from((p.coords + q.coords) / 2.0))
        }
        _ => Point::new(f64::NAN, f64::NAN, f64::NAN),
    };
    let points: Vec<Point> = result.contacts.iter().map(middle).collect();
    Array2::from_shape_fn((points.len(), 3), |(i, j)| points[i][j]).into_pyarray(py)
}

/// The request of `mode` (`"first"` or `"all"`), with contact segments if asked.
pub fn request(mode_text: &str, contacts: bool) -> PyResult<CollisionRequest> {
    Ok(CollisionRequest::new(mode(mode_text)?).with_contacts(contacts))
}

/// Do the meshes of `a` at `pose_a` and `b` at `pose_b` touch, and where?
///
/// Poses are `(4, 4)` homogeneous matrices (`None`: identity). Returns `(intersects, pairs)`,
/// `pairs` an `(p, 2)` int64 array of `[triangle of a, triangle of b]`, sorted: all of them
/// with `mode="all"` (the default, as in the engine's `CollisionRequest`), one witness pair
/// with `mode="first"` (quicker when the pairs are not needed). With `contacts=True` a third
/// element: an `(p, 3)` array with a point of each pair's intersection (world frame; NaN for
/// coplanar pairs). Exact: touching counts.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.eye(3), [[0, 1, 2]]))
/// >>> obbtree.collide(tri, None, tri, np.eye(4))[0]
/// True
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, mode = "all", contacts = false))]
pub fn collide<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    pose_b: Option<&Bound<'py, PyAny>>,
    mode: &str,
    contacts: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let request = request(mode, contacts)?;
    let release = worth_releasing(&a, &b, request.mode == obbtree::Mode::All);
    let (ma, mb) = (&a.inner, &b.inner);
    let result = run_query(py, release, || {
        with_models!(ma, mb, |x, y| obbtree::collide(x, &pa, y, &pb, &request)
            .map_err(|e| query_error("collide", e)))
    })?;
    let pairs = pair_array(py, &result.pairs);
    if contacts {
        let points = contact_points(py, &result, &pa);
        Ok((result.intersects, pairs, points)
            .into_pyobject(py)?
            .into_any())
    } else {
        Ok((result.intersects, pairs).into_pyobject(py)?.into_any())
    }
}

/// `collide` of `a` at `pose_a` with `b` at each pose of `poses` (`(k, 4, 4)`), in parallel.
///
/// The arguments are `collide`'s with the batch `poses` in `pose_b`'s place, as in the
/// engine's `collide_many`. Returns `(intersects, pairs)`: `intersects` a `(k,)` bool array,
/// `pairs` an `(P, 3)` int64 array of `[pose index, triangle of a, triangle of b]` rows (every
/// pair with `mode="all"`, the default; one per touching pose with `mode="first"`). Every pose
/// is checked before any query runs; an `obbtree.PoseError` names the first bad one. A model
/// given for `pose_a` or an array for `b` (the former order `a, b, poses, pose_a`) is a
/// `TypeError`.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.eye(3), [[0, 1, 2]]))
/// >>> poses = np.stack([np.eye(4), np.eye(4)]); poses[1, 0, 3] = 5.0
/// >>> obbtree.collide_many(tri, None, tri, poses)[0].tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, poses, mode = "all"))]
pub fn collide_many<'py>(
    py: Python<'py>,
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    mode: &str,
) -> PyResult<ManyResults<'py>> {
    let pa = pose(pose_a, "pose_a")?;
    let b = model_arg(b, "b", COLLIDE_MANY_ORDER)?;
    let batch = self::poses(poses, "poses")?;
    let request = request(mode, false)?;
    let (ma, mb) = (a.inner.clone(), b.inner.clone());
    let results = py.detach(|| {
        with_models!(&ma, &mb, |x, y| obbtree::collide_many(
            x, &pa, y, &batch, &request
        )
        .map_err(|e| query_error("poses", e)))
    })?;
    let intersects: Vec<bool> = results.iter().map(|r| r.intersects).collect();
    let rows: Vec<[i64; 3]> = results
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            r.pairs
                .iter()
                .map(move |&[i, j]| [k as i64, i64::from(i), i64::from(j)])
        })
        .collect();
    let rows = Array2::from_shape_fn((rows.len(), 3), |(i, j)| rows[i][j]);
    Ok((intersects.into_pyarray(py), rows.into_pyarray(py)))
}

/// Pairs of the model's own triangles that intersect and share no vertex index.
///
/// Returns `(intersects, pairs)`, `pairs` an `(p, 2)` int64 array of `[i, j]` with `i < j`.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.eye(3), [[0, 1, 2]]))
/// >>> obbtree.self_collide(tri)[0]
/// False
#[pyfunction]
#[pyo3(signature = (model, mode = "all", pose = None))]
pub fn self_collide<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    mode: &str,
    pose: Option<&Bound<'py, PyAny>>,
) -> PyResult<(bool, Bound<'py, PyArray2<i64>>)> {
    let request = request(mode, false)?;
    let placed = crate::arrays::pose(pose, "pose")?;
    let m = model.inner.clone();
    let result = py
        .detach(|| with_model!(&m, |x| obbtree::self_collide(x, &placed, &request)))
        .map_err(|e| crate::errors::query_error("pose", e))?;
    Ok((result.intersects, pair_array(py, &result.pairs)))
}

/// Whether each point of `points` (`(n, 3)`) lies in the closed solid of the model at `pose`
/// (points on the surface count as inside): the engine's `contains_point` for each. Exact. A
/// shape is a solid; a mesh must be closed (`obbtree.QueryError` otherwise).
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
/// >>> tet = obbtree.Model(obbtree.Mesh(v, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]))
/// >>> obbtree.contains_points(tet, [[0.1, 0.1, 0.1], [1, 1, 1]]).tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (model, points, pose = None))]
pub fn contains_points<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    points: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let placed = self::pose(pose, "pose")?;
    let queries = self::points(points, "points", Area::Query)?;
    let m = model.inner.clone();
    let inside = py.detach(|| {
        with_model!(&m, |x| {
            if !x.is_closed() {
                return Err(query_error(
                    "model",
                    "the mesh is not closed (some edge is a boundary: its triangles do not pair up in opposite directions): \
                     inside and outside are not defined",
                ));
            }
            obbtree::contains_points(x, &placed, &queries)
                .map_err(|e| query_error(&format!("points[{}]", e.index), e.source))
        })
    })?;
    Ok(inside.into_pyarray(py))
}

/// Deprecated: the former name of `contains_points` (same arguments and answers).
#[pyfunction]
#[pyo3(signature = (model, points, pose = None))]
pub fn contains<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    points: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    crate::deprecated(py, "obbtree.contains", "obbtree.contains_points")?;
    contains_points(py, model, points, pose)
}

/// Seconds per call of the engine's own `collide` on these arguments, over `repeats` calls in
/// a loop without Python in between: the reference for the bindings' per-call overhead
/// (`python/benchmarks/`).
#[pyfunction]
#[pyo3(name = "_engine_collide_seconds", signature = (a, pose_a, b, pose_b, mode = "all", repeats = 100_000))]
pub fn engine_collide_seconds<'py>(
    a: PyRef<'py, Model>,
    pose_a: Option<&Bound<'py, PyAny>>,
    b: PyRef<'py, Model>,
    pose_b: Option<&Bound<'py, PyAny>>,
    mode: &str,
    repeats: u32,
) -> PyResult<f64> {
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let request = request(mode, false)?;
    with_models!(&a.inner, &b.inner, |x, y| {
        let start = std::time::Instant::now();
        for _ in 0..repeats {
            std::hint::black_box(
                obbtree::collide(x, &pa, y, &pb, &request)
                    .map_err(|e| query_error("collide", e))?,
            );
        }
        Ok(start.elapsed().as_secs_f64() / f64::from(repeats.max(1)))
    })
}
