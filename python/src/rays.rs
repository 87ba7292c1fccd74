//! Ray queries on a model: the first hit of each ray, every hit, and whether anything is hit,
//! each for a batch of rays (named as the engine's query of one ray, the ray made plural).
//! Rays are read from the caller's arrays and cast a chunk at a time on rayon's pool without the
//! GIL: beside the input and the answers, a batch of any size holds one chunk's rays and hit
//! records.

use crate::arrays::{pose, RayArrays};
use crate::errors::query_error;
use crate::model::Model;
use crate::volumes::with_model;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::{BatchError, Point, QueryError, Ray, RayHit};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Rays per chunk: large enough to keep every core busy, small enough that the hit records of
/// a chunk (about 100 bytes each) stay a few megabytes.
const CHUNK: usize = 1 << 16;

/// The first-hit arrays of `cast_rays`.
type FirstHits<'py> = (
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
);

/// The batch error with the index of the whole batch, not the chunk's.
fn shifted(error: BatchError, start: usize) -> PyErr {
    query_error(
        "origins/directions",
        BatchError {
            index: error.index + start,
            source: error.source,
        },
    )
}

/// The arguments every ray query shares, checked: the pose, the rays, and `max_t`.
fn ray_batch<'py>(
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_t: f64,
) -> PyResult<(obbtree::Pose, RayArrays<'py>)> {
    let placed = self::pose(pose, "pose")?;
    let batch = RayArrays::new(origins, directions)?;
    check_max_t(max_t)?;
    Ok((placed, batch))
}

fn check_max_t(max_t: f64) -> PyResult<()> {
    if max_t.is_nan() || max_t < 0.0 {
        Err(query_error("max_t", QueryError::InvalidMaxT(max_t)))
    } else {
        Ok(())
    }
}

fn point_array<'py>(py: Python<'py>, points: &[Point]) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((points.len(), 3), |(i, j)| points[i][j]).into_pyarray(py)
}

/// The first hit of each ray `origins[i] + t·directions[i]`, `0 <= t <= max_t`, on the
/// model's mesh at `pose` (`(4, 4)`, `None`: identity), as the engine's `cast_rays`.
///
/// Returns `(hit, triangle, t, points)`: `(n,)` bool, `(n,)` int64 (-1 for a miss), `(n,)`
/// float64 (`inf` for a miss; in units of the direction's length) and `(n, 3)` float64 (NaN
/// for a miss). Exact hits: a ray through an edge or vertex hits; ties go to the lowest
/// triangle index.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> hit, triangle, t, points = obbtree.cast_rays(tri, [[0.25, 0.25, 1.0]], [[0, 0, -1.0]])
/// >>> hit.tolist(), triangle.tolist(), t.tolist()
/// ([True], [0], [1.0])
#[pyfunction]
#[pyo3(signature = (model, origins, directions, pose = None, max_t = f64::INFINITY))]
pub fn cast_rays<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_t: f64,
) -> PyResult<FirstHits<'py>> {
    let (placed, batch) = ray_batch(origins, directions, pose, max_t)?;
    let m = &model.inner;
    let n = batch.len();
    // Zeroed (untouched pages until written); every slot is written below.
    let (mut hit, mut triangle, mut t) = (vec![false; n], vec![0i64; n], vec![0.0; n]);
    let mut points = vec![0.0; 3 * n];
    let mut hits: Vec<Option<RayHit>> = Vec::new();
    for (start, chunk) in batch.chunks(CHUNK) {
        let end = start + chunk.len();
        let outputs = FirstHitSlots {
            hit: &mut hit[start..end],
            triangle: &mut triangle[start..end],
            t: &mut t[start..end],
            points: &mut points[3 * start..3 * end],
        };
        py.detach(|| {
            with_model!(m, |x| obbtree::cast_rays_into(
                x, &placed, &chunk, max_t, &mut hits
            ))?;
            outputs.fill(&hits);
            Ok::<_, BatchError>(())
        })
        .map_err(|e| shifted(e, start))?;
    }
    let points = numpy::ndarray::Array2::from_shape_vec((n, 3), points).expect("3 per ray");
    Ok((
        hit.into_pyarray(py),
        triangle.into_pyarray(py),
        t.into_pyarray(py),
        points.into_pyarray(py),
    ))
}

/// One chunk's slots of the first-hit arrays.
struct FirstHitSlots<'a> {
    hit: &'a mut [bool],
    triangle: &'a mut [i64],
    t: &'a mut [f64],
    points: &'a mut [f64],
}

impl FirstHitSlots<'_> {
    /// Writes each ray's answer (a miss: `false`, -1, `inf`, NaN), on rayon's pool.
    fn fill(self, hits: &[Option<RayHit>]) {
        self.hit
            .par_iter_mut()
            .zip(self.triangle.par_iter_mut())
            .zip(self.t.par_iter_mut())
            .zip(self.points.par_chunks_exact_mut(3))
            .zip(hits.par_iter())
            .with_min_len(4096)
            .for_each(|((((hit, triangle), t), point), found)| match found {
                Some(h) => {
                    (*hit, *triangle, *t) = (true, i64::from(h.triangle), h.t);
                    point.copy_from_slice(h.point.coords.as_slice());
                }
                None => {
                    (*hit, *triangle, *t) = (false, -1, f64::INFINITY);
                    point.fill(f64::NAN);
                }
            });
    }
}

/// Every hit of each ray, `0 <= t <= max_t` (the engine's `cast_ray_all` for each ray):
/// `(ray, triangle, t, points)` arrays of one row per hit, sorted by ray, then `t`, then
/// triangle. A ray through a shared edge or vertex reports
/// each triangle whose own test accepts it.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> ray, triangle, t, points = obbtree.cast_rays_all(tri, [[0.2, 0.2, 1]], [[0, 0, -1]])
/// >>> ray.tolist(), triangle.tolist()
/// ([0], [0])
#[pyfunction]
#[pyo3(signature = (model, origins, directions, pose = None, max_t = f64::INFINITY))]
#[allow(clippy::type_complexity)]
pub fn cast_rays_all<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_t: f64,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
)> {
    let (placed, batch) = ray_batch(origins, directions, pose, max_t)?;
    let m = &model.inner;
    let per_ray = each_ray(py, &batch, |ray| {
        with_model!(m, |x| obbtree::cast_ray_all(x, &placed, ray, max_t))
    })?;
    let (mut ray, mut triangle, mut t, mut points) = (vec![], vec![], vec![], vec![]);
    for (i, hits) in per_ray.iter().enumerate() {
        for h in hits {
            ray.push(i as i64);
            triangle.push(i64::from(h.triangle));
            t.push(h.t);
            points.push(h.point);
        }
    }
    Ok((
        ray.into_pyarray(py),
        triangle.into_pyarray(py),
        t.into_pyarray(py),
        point_array(py, &points),
    ))
}

/// Whether each ray hits the mesh with `0 <= t <= max_t` (stops at the first triangle found):
/// the engine's `any_hit` for each ray.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float),
/// ...                                  [[0, 1, 2]]))
/// >>> obbtree.any_hits(tri, [[0.2, 0.2, 1], [2, 2, 1]], [[0, 0, -1], [0, 0, -1]]).tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (model, origins, directions, pose = None, max_t = f64::INFINITY))]
pub fn any_hits<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_t: f64,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let (placed, batch) = ray_batch(origins, directions, pose, max_t)?;
    let m = &model.inner;
    let any = each_ray(py, &batch, |ray| {
        with_model!(m, |x| obbtree::any_hit(x, &placed, ray, max_t))
    })?;
    Ok(any.into_pyarray(py))
}

/// Deprecated: the former name of `any_hits` (same arguments and answers).
#[pyfunction]
#[pyo3(signature = (model, origins, directions, pose = None, max_t = f64::INFINITY))]
pub fn any_hit<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
    max_t: f64,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    crate::deprecated(py, "obbtree.any_hit", "obbtree.any_hits")?;
    any_hits(py, model, origins, directions, pose, max_t)
}

/// `query` on every ray in parallel without the GIL, a chunk at a time; the first failing ray
/// (by index) is the error.
fn each_ray<T: Send>(
    py: Python<'_>,
    batch: &RayArrays<'_>,
    query: impl Fn(&Ray) -> Result<T, QueryError> + Sync + Send,
) -> PyResult<Vec<T>> {
    let mut out = Vec::with_capacity(batch.len());
    for (start, chunk) in batch.chunks(CHUNK) {
        let answers: Vec<_> = py.detach(|| chunk.par_iter().map(&query).collect());
        for (k, answer) in answers.into_iter().enumerate() {
            let index = start + k;
            out.push(answer.map_err(|source| shifted(BatchError { index, source }, 0))?);
        }
    }
    Ok(out)
}
