//! View-frustum culling of a model's triangles ([`obbtree::cull`]): the frustum given as a
//! camera, a view-projection matrix or six planes, the answer as NumPy index arrays.

use crate::arrays::{finite_array, pose};
use crate::camera::PyCamera;
use crate::errors::{query_error, Area};
use crate::model::Model;
use crate::volumes::with_model;
use numpy::{IntoPyArray, PyArray1, PyUntypedArrayMethods};
use obbtree::bv::intersect::frustum::{Frustum, FrustumError};
use obbtree::bv::intersect::plane::Plane;
use obbtree::bv::nalgebra::{Matrix4, Vector3};
use obbtree::QueryError;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The answer of `obbtree.cull`: the model's triangles by where they lie relative to the
/// frustum, each an ascending `(k,)` int64 array of triangle indices. Unpacks as
/// `(inside, outside, intersecting)`.
///
/// * `inside`: contained in the closed frustum;
/// * `outside`: beyond one of its planes;
/// * `intersecting`: neither proven (crossing the boundary, or outside near an edge or corner
///   of the frustum: the test is conservative, as the engine's);
/// * `nodes_tested`: how many nodes of the tree were classified (the work done, against one
///   test per triangle without the tree).
#[pyclass(name = "Culled", module = "obbtree", frozen)]
pub struct PyCulled {
    lists: [Py<PyArray1<i64>>; 3],
    nodes_tested: usize,
}

#[pymethods]
impl PyCulled {
    /// Triangles inside the frustum.
    #[getter]
    fn inside(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.lists[0].clone_ref(py)
    }

    /// Triangles outside one of its planes.
    #[getter]
    fn outside(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.lists[1].clone_ref(py)
    }

    /// Triangles neither proven inside nor outside.
    #[getter]
    fn intersecting(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.lists[2].clone_ref(py)
    }

    /// Nodes of the tree classified.
    #[getter]
    fn nodes_tested(&self) -> usize {
        self.nodes_tested
    }

    fn __len__(&self) -> usize {
        3
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<PyArray1<i64>>> {
        let position = if index < 0 { index + 3 } else { index };
        usize::try_from(position)
            .ok()
            .and_then(|p| self.lists.get(p))
            .map(|list| list.clone_ref(py))
            .ok_or_else(|| PyIndexError::new_err("Culled index out of range"))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = self.lists.iter().map(|list| list.clone_ref(py));
        PyTuple::new(py, items)?
            .as_any()
            .try_iter()
            .map(Bound::into_any)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let [inside, outside, intersecting] = self.lists.each_ref().map(|l| l.bind(py).len());
        format!(
            "obbtree.Culled(inside={inside}, outside={outside}, intersecting={intersecting}, \
             nodes_tested={})",
            self.nodes_tested
        )
    }
}

/// The `frustum` argument: a `Camera`, a `(4, 4)` view-projection matrix (world to clip
/// space, OpenGL's convention), or a `(6, 4)` array of planes `(nx, ny, nz, d)` whose inside
/// is `n·x + d <= 0` (normals outward, any length).
fn frustum(obj: &Bound<'_, PyAny>) -> PyResult<Frustum> {
    let refused = |e: FrustumError| query_error("frustum", e);
    if let Ok(camera) = obj.cast::<PyCamera>() {
        let matrix = camera.get().view_projection_matrix();
        return Frustum::from_view_projection(&matrix).map_err(refused);
    }
    let array = finite_array(obj, "frustum", Area::Query)?;
    let view = array.as_array();
    match view.shape() {
        [4, 4] => {
            Frustum::from_view_projection(&Matrix4::from_fn(|i, j| view[[i, j]])).map_err(refused)
        }
        [6, 4] => {
            let planes = std::array::from_fn(|i| {
                Plane::new(
                    Vector3::new(view[[i, 0]], view[[i, 1]], view[[i, 2]]),
                    view[[i, 3]],
                )
            });
            Frustum::from_planes(planes).map_err(refused)
        }
        shape => Err(query_error(
            "frustum",
            format!(
                "expected a Camera, a (4, 4) view-projection matrix or a (6, 4) array of \
                 planes (nx, ny, nz, d), got shape {shape:?}"
            ),
        )),
    }
}

/// Classifies every triangle of the model's mesh at `pose` against `frustum` through the
/// model's tree (the engine's `cull`): a subtree wholly inside or outside is decided at once,
/// and only the leaves that straddle the frustum's boundary have their triangles classified.
///
/// `frustum` is a `Camera`, a `(4, 4)` view-projection matrix (`projection @ view`, world to
/// clip space with OpenGL's convention `-w <= x, y, z <= w`), or a `(6, 4)` array of planes
/// `(nx, ny, nz, d)`, world frame, the inside where `nx·x + ny·y + nz·z + d <= 0` for all six
/// (outward normals, of any length). Returns a `Culled`, which unpacks as `(inside, outside,
/// intersecting)` arrays of triangle indices. Runs without the GIL. `obbtree.QueryError`
/// naming `frustum` for a shape, a value that is not finite or a plane without a normal.
///
/// >>> import numpy as np, obbtree
/// >>> v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
/// >>> tris = obbtree.Model(obbtree.Mesh(np.vstack([v, v + [5, 0, 0], v + [1.5, 0, 0]]),
/// ...                                   [[0, 1, 2], [3, 4, 5], [6, 7, 8]]))
/// >>> box = np.array([[-1, 0, 0, -0.5], [1, 0, 0, -2], [0, -1, 0, -0.5], [0, 1, 0, -2],
/// ...                 [0, 0, -1, -0.5], [0, 0, 1, -0.5]], float)  # -0.5 <= x, y, z <= 2
/// >>> inside, outside, intersecting = obbtree.cull(tris, box)
/// >>> inside.tolist(), outside.tolist(), intersecting.tolist()
/// ([0], [1], [2])
#[pyfunction]
#[pyo3(signature = (model, frustum, pose = None))]
pub fn cull<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    frustum: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
) -> PyResult<PyCulled> {
    let placed = self::pose(pose, "pose")?;
    let region = self::frustum(frustum)?;
    let m = &model.inner;
    let culled = py
        .detach(|| with_model!(m, |x| obbtree::cull(x, &placed, &region)))
        .map_err(|e| match e {
            QueryError::Frustum(_) => query_error("frustum", e),
            _ => query_error("pose", e),
        })?;
    let array = |list: Vec<u32>| {
        let list: Vec<i64> = list.into_iter().map(i64::from).collect();
        list.into_pyarray(py).unbind()
    };
    Ok(PyCulled {
        lists: [
            array(culled.inside),
            array(culled.outside),
            array(culled.intersecting),
        ],
        nodes_tested: culled.nodes_tested,
    })
}
