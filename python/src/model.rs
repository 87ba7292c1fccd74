//! `obbtree.Model`: a mesh with its hierarchy, of one of the engine's volume types, chosen by
//! name at run time (see [`crate::volumes`]).

use crate::errors::{load_error, tree_error};
use crate::mesh::Mesh;
use crate::volumes::{with_model, AnyModel};
use obbtree::tree::TreeFileError;
use obbtree::TriMesh;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::sync::Arc;

/// A mesh with its bounding-volume hierarchy: what every query takes. Immutable and safe to
/// share between threads; pickles with its tree, so unpickling does not rebuild it.
///
/// `bv` is one of "obb" (the default), "aabb", "sphere", "kdop6", "kdop14", "kdop18",
/// "kdop26"; two-model queries need both models of the same type.
///
/// >>> import numpy as np, obbtree
/// >>> mesh = obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), [[0, 1, 2]])
/// >>> model = obbtree.Model(mesh)
/// >>> model.bv
/// 'obb'
#[pyclass(module = "obbtree", frozen)]
pub struct Model {
    pub(crate) inner: AnyModel,
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (mesh, bv = "obb"))]
    fn new(py: Python<'_>, mesh: PyRef<'_, Mesh>, bv: &str) -> PyResult<Self> {
        let mesh = Arc::clone(&mesh.inner);
        let inner = py.detach(|| AnyModel::build(mesh, bv))?;
        Ok(Self { inner })
    }

    /// Writes the hierarchy to a tree file (checksummed; read back by `Model.load`).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let bytes = self.inner.tree_bytes()?;
        py.detach(|| std::fs::write(&path, bytes)).map_err(|e| {
            crate::errors::file_error(Some(e.kind()), format!("{}: {e}", path.display()))
        })
    }

    /// The model of `mesh` with the tree saved in `path` (its volume type is the file's).
    /// `OSError` if the file cannot be read; `obbtree.LoadError` if it is damaged or for another
    /// mesh.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf, mesh: PyRef<'_, Mesh>) -> PyResult<Self> {
        let mesh = Arc::clone(&mesh.inner);
        let shown = path.display().to_string();
        let inner = py
            .detach(|| {
                let bytes = std::fs::read(&path)?;
                from_tree_bytes(&bytes, mesh)
            })
            .map_err(|e| tree_error("path", &shown, e))?;
        Ok(Self { inner })
    }

    /// The model of `mesh` with the tree in `tree` (a tree file's bytes, as `Model.save`
    /// writes and pickling carries). The tree is checked, not rebuilt: `obbtree.LoadError` if
    /// it is damaged or for another mesh.
    #[staticmethod]
    fn from_tree_bytes(py: Python<'_>, mesh: PyRef<'_, Mesh>, tree: &[u8]) -> PyResult<Self> {
        let mesh = Arc::clone(&mesh.inner);
        let bytes = tree.to_vec();
        let inner = py
            .detach(|| from_tree_bytes(&bytes, mesh))
            .map_err(|e| load_error("tree", e))?;
        Ok(Self { inner })
    }

    /// The tree as a tree file's bytes.
    fn tree_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.inner.tree_bytes()?))
    }

    /// The bounding volume type's name.
    #[getter]
    fn bv(&self) -> &'static str {
        self.inner.volume()
    }

    /// The mesh (shared, not copied).
    #[getter]
    fn mesh(&self) -> PyResult<Mesh> {
        Ok(Mesh {
            inner: self.inner.shared_mesh()?,
        })
    }

    /// Whether the mesh is closed (`contains_points` needs it).
    #[getter]
    fn is_closed(&self) -> bool {
        with_model!(&self.inner, |m| m.is_closed())
    }

    /// Bytes held by the model (mesh, tree, precomputed data, picking index once built).
    #[getter]
    fn memory_bytes(&self) -> usize {
        with_model!(&self.inner, |m| m.memory_bytes())
    }

    /// Builds the ray index now rather than on the first ray query.
    fn prepare_rays(&self, py: Python<'_>) {
        let model = self.inner.clone();
        py.detach(|| with_model!(&model, |m| m.prepare_rays()));
    }

    fn __repr__(&self) -> String {
        format!(
            "obbtree.Model({} triangles, bv={:?})",
            self.triangle_count(),
            self.inner.volume()
        )
    }

    /// Pickles as its mesh and its tree's bytes: unpickling checks the tree, never rebuilds it.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<crate::Reduced<'py, (Mesh, Bound<'py, PyBytes>)>> {
        let py = slf.py();
        let this = slf.get();
        let restore = py.get_type::<Model>().getattr("from_tree_bytes")?;
        Ok((restore, (this.mesh()?, this.tree_bytes(py)?)))
    }
}

impl Model {
    /// The number of triangles of the mesh.
    pub fn triangle_count(&self) -> usize {
        with_model!(&self.inner, |m| m
            .mesh()
            .map_or(0, |mesh| mesh.triangles().len()))
    }
}

/// The model of the tree in `bytes` over `mesh`, of whatever volume type the bytes hold.
fn from_tree_bytes(bytes: &[u8], mesh: Arc<TriMesh>) -> Result<AnyModel, TreeFileError> {
    match AnyModel::from_tree_bytes(bytes, Arc::clone(&mesh), "obb") {
        Err(TreeFileError::WrongVolume { found, .. }) => {
            AnyModel::from_tree_bytes(bytes, mesh, &found)
        }
        other => other,
    }
}
