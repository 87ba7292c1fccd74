//! `obbtree.Mesh`: a validated triangle mesh, shared (not copied) by the models built over it.

use crate::arrays::{check_shape, index_array, points};
use crate::errors::{mesh_error, mesh_file_error, Area};
use numpy::ndarray::{Array2, Ix2};
use numpy::{IntoPyArray, PyArray2};
use obbtree::{MeshError, TriMesh};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A triangle mesh: vertices and triangles as vertex index triples, validated (finite
/// coordinates within the exact range, indices in range, at least one triangle).
///
/// >>> import numpy as np, obbtree
/// >>> square = obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float),
/// ...                       np.array([[0, 1, 2], [0, 2, 3]]))
/// >>> square.triangle_count
/// 2
#[pyclass(module = "obbtree", frozen)]
pub struct Mesh {
    pub(crate) inner: Arc<TriMesh>,
}

#[pymethods]
impl Mesh {
    /// `vertices`: `(n, 3)` float64, `faces`: `(m, 3)` integer. Read in place (any strides);
    /// lists and other exact dtypes are converted.
    #[new]
    fn new(vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<Self> {
        let vertices = points(vertices, "vertices", Area::Mesh)?;
        let faces = read_faces(faces)?;
        let mesh = TriMesh::new(vertices, faces).map_err(|e| mesh_error(mesh_argument(&e), e))?;
        Ok(Self {
            inner: Arc::new(mesh),
        })
    }

    /// Reads an OBJ, STL, PLY or OFF file (optionally gzipped), chosen by the extension.
    /// `OSError` when the file cannot be read (`FileNotFoundError` when it is missing);
    /// `obbtree.LoadError` (also an `OSError`), naming the file and the line or element at
    /// fault, when it is not a valid mesh file.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let mesh = py
            .detach(|| obbtree::load::load_mesh(&path))
            .map_err(mesh_file_error)?;
        Ok(Self {
            inner: Arc::new(mesh),
        })
    }

    /// The vertices, `(n, 3)` float64 (a copy).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let v = self.inner.vertices();
        Array2::from_shape_fn((v.len(), 3), |(i, j)| v[i][j]).into_pyarray(py)
    }

    /// The triangles, `(m, 3)` int64 (a copy).
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        let t = self.inner.triangles();
        Array2::from_shape_fn((t.len(), 3), |(i, j)| i64::from(t[i][j])).into_pyarray(py)
    }

    /// Number of triangles.
    #[getter]
    fn triangle_count(&self) -> usize {
        self.inner.triangles().len()
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.inner.vertices().len()
    }

    /// Whether the surface has no boundary edge: every edge used as often in each direction,
    /// vertices at equal coordinates counting as one (containment and exact signs need it).
    #[getter]
    fn is_closed(&self) -> bool {
        self.inner.is_closed()
    }

    fn __repr__(&self) -> String {
        format!(
            "obbtree.Mesh({} vertices, {} triangles)",
            self.inner.vertices().len(),
            self.inner.triangles().len()
        )
    }

    /// Pickles as its arrays.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<crate::Reduced<'py, (Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        let py = slf.py();
        let this = slf.get();
        Ok((
            py.get_type::<Mesh>().into_any(),
            (this.vertices(py).into_any(), this.faces(py).into_any()),
        ))
    }
}

fn read_faces(obj: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 3]>> {
    let array = index_array(obj, "faces", Area::Mesh)?;
    let view = array.as_array();
    check_shape(&view, "faces", &[None, Some(3)], "(m, 3)", Area::Mesh)?;
    let rows = view.into_dimensionality::<Ix2>().expect("checked 2-d");
    rows.outer_iter()
        .enumerate()
        .map(|(i, r)| {
            let index = |j: usize| {
                u32::try_from(r[j]).map_err(|_| {
                    mesh_error(
                        "faces",
                        format!("face {i} has vertex index {}, not a valid index", r[j]),
                    )
                })
            };
            Ok([index(0)?, index(1)?, index(2)?])
        })
        .collect()
}

/// The argument a mesh refusal is about.
fn mesh_argument(error: &MeshError) -> &'static str {
    match error {
        MeshError::Empty | MeshError::IndexOutOfRange { .. } => "faces",
        _ => "vertices",
    }
}
