//! `obbtree.Model`: a mesh with its hierarchy, of one of the engine's volume types, chosen by
//! name at run time (see [`crate::volumes`]).

use crate::errors::{load_error, tree_error, value_error, Area};
use crate::mesh::Mesh;
use crate::volumes::{with_model, AnyModel};
use obbtree::tree::TreeFileError;
use obbtree::{Shape, TriMesh};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::path::PathBuf;
use std::sync::Arc;

/// A mesh with its bounding-volume hierarchy, or a primitive solid (`Model.sphere`,
/// `Model.capsule`, `Model.cylinder`, `Model.box`, `Model.convex`, `Model.halfspace`): what
/// every query takes.
/// Immutable and safe to share between threads; a mesh model pickles with its tree, so
/// unpickling does not rebuild it.
///
/// `bv` is one of "obb" (the default), "aabb", "sphere", "kdop6", "kdop14", "kdop18",
/// "kdop26"; two-model queries need both models of the same type. Shapes are solids (a mesh
/// inside a sphere touches it); collision, distance, margins, rays (a shape is hit on its
/// surface: entry, and exit), culling and point containment take them; self-collision needs a
/// mesh.
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

    /// A solid ball of `radius` about the origin.
    #[staticmethod]
    #[pyo3(signature = (radius, bv = "obb"))]
    fn sphere(radius: f64, bv: &str) -> PyResult<Self> {
        shape_model(Shape::sphere(radius), bv)
    }

    /// A solid capsule: the segment from z = -length/2 to length/2 swept by a ball of `radius`.
    #[staticmethod]
    #[pyo3(signature = (radius, length, bv = "obb"))]
    fn capsule(radius: f64, length: f64, bv: &str) -> PyResult<Self> {
        shape_model(Shape::capsule(radius, length), bv)
    }

    /// A solid cylinder of `radius` along z, from z = -length/2 to length/2.
    #[staticmethod]
    #[pyo3(signature = (radius, length, bv = "obb"))]
    fn cylinder(radius: f64, length: f64, bv: &str) -> PyResult<Self> {
        shape_model(Shape::cylinder(radius, length), bv)
    }

    /// A solid box of full sizes `size` (x, y, z), centred at the origin.
    #[staticmethod]
    #[pyo3(name = "box", signature = (size, bv = "obb"))]
    fn cuboid(size: [f64; 3], bv: &str) -> PyResult<Self> {
        shape_model(Shape::cuboid(size), bv)
    }

    /// The solid convex hull of `points`, an `(n, 3)` float array.
    #[staticmethod]
    #[pyo3(signature = (points, bv = "obb"))]
    fn convex(points: &Bound<'_, PyAny>, bv: &str) -> PyResult<Self> {
        let points = crate::arrays::points(points, "points", Area::Volume)?;
        shape_model(Shape::convex(&points), bv)
    }

    /// The halfspace `normal · p <= offset` (world frame at the identity pose).
    #[staticmethod]
    #[pyo3(signature = (normal, offset, bv = "obb"))]
    fn halfspace(normal: [f64; 3], offset: f64, bv: &str) -> PyResult<Self> {
        shape_model(Shape::halfspace(normal, offset), bv)
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

    /// Whether the mesh is closed: no boundary edge, see `Mesh.is_closed` (`contains_points`
    /// needs it).
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

    /// Pickles as its mesh and its tree's bytes (unpickling checks the tree, never rebuilds
    /// it), or as the shape's constructor and sizes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let class = py.get_type::<Model>();
        let bv = this.inner.volume();
        let shape = with_model!(&this.inner, |m| m.as_shape().cloned());
        let Some(shape) = shape else {
            let args = (this.mesh()?, this.tree_bytes(py)?).into_pyobject(py)?;
            return Ok((class.getattr("from_tree_bytes")?, args));
        };
        let (name, args) = match &shape {
            Shape::Sphere(s) => ("sphere", (s.radius(), bv).into_pyobject(py)?),
            Shape::Capsule(c) => ("capsule", (c.radius(), c.length(), bv).into_pyobject(py)?),
            Shape::Cylinder(c) => ("cylinder", (c.radius(), c.length(), bv).into_pyobject(py)?),
            Shape::Cuboid(b) => ("box", (<[f64; 3]>::from(b.sizes()), bv).into_pyobject(py)?),
            Shape::Convex(c) => {
                let rows: Vec<[f64; 3]> = c.points().iter().map(|p| [p.x, p.y, p.z]).collect();
                let array = numpy::PyArray2::from_vec2(
                    py,
                    &rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
                )?;
                ("convex", (array, bv).into_pyobject(py)?)
            }
            Shape::Halfspace(h) => (
                "halfspace",
                (<[f64; 3]>::from(h.normal()), h.offset(), bv).into_pyobject(py)?,
            ),
        };
        Ok((class.getattr(name)?, args))
    }
}

/// The model of a shape, or a `ValueError` naming the field a constructor refused.
fn shape_model(shape: Result<Shape, obbtree::ShapeError>, bv: &str) -> PyResult<Model> {
    let shape = shape.map_err(|e| value_error("shape", e))?;
    Ok(Model {
        inner: AnyModel::from_shape(shape, bv)?,
    })
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
