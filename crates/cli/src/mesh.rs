//! The facts every subcommand reports about a mesh file.

use super::tree;
use obbtree::bv::Aabb;
use obbtree::load::{load_mesh, LoadError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `info` and `demo` report about one mesh file.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub path: PathBuf,
    pub vertices: usize,
    pub triangles: usize,
    pub degenerate_triangles: usize,
    /// No boundary edge: every edge used as often in each direction (`TriMesh::is_closed`).
    pub closed: bool,
    pub bounds_min: [f64; 3],
    pub bounds_max: [f64; 3],
    pub load_ms: f64,
    /// Statistics of a tree built over the mesh, when asked for.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub tree: Option<tree::Report>,
}

impl Summary {
    /// Loads `path` and describes it; the load time covers parsing and validation only.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        Self::load_with_tree(path, None)
    }

    /// [`Summary::load`], then builds and measures a `tree` over the mesh if one is asked for.
    pub fn load_with_tree(
        path: &Path,
        tree: Option<obbtree::tree::VolumeKind>,
    ) -> Result<Self, LoadError> {
        let start = Instant::now();
        let mesh = load_mesh(path)?;
        let load_ms = start.elapsed().as_secs_f64() * 1e3;
        let bounds = Aabb::from_points(mesh.vertices());
        Ok(Self {
            path: path.to_path_buf(),
            vertices: mesh.vertices().len(),
            triangles: mesh.triangles().len(),
            degenerate_triangles: mesh.degenerate_triangles().len(),
            closed: mesh.is_closed(),
            bounds_min: bounds.mins.coords.into(),
            bounds_max: bounds.maxs.coords.into(),
            load_ms,
            tree: tree.map(|kind| tree::Report::build(&mesh, kind)),
        })
    }

    /// Size of the bounding box along x, y, z.
    pub fn extent(&self) -> [f64; 3] {
        [0, 1, 2].map(|k| self.bounds_max[k] - self.bounds_min[k])
    }
}
