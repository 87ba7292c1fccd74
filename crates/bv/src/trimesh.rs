//! The validated triangle mesh that trees and queries are built over.

use crate::{Point, Triangle};
use serde::{Deserialize, Serialize};

/// Why a vertex/index set is not a usable mesh. Loaders wrap this with the file name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// The mesh has no triangle.
    #[error("the mesh has no triangles")]
    Empty,
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate ({x}, {y}, {z})")]
    NonFiniteVertex {
        /// Index of the vertex.
        vertex: usize,
        /// Its coordinates.
        x: f64,
        /// Its coordinates.
        y: f64,
        /// Its coordinates.
        z: f64,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error(
        "triangle {triangle} refers to vertex {index}, but there are only {vertex_count} vertices"
    )]
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// A coordinate is finite but outside the range in which the exact predicates cannot
    /// overflow or underflow (see [`MAX_COORDINATE`] and [`MIN_NONZERO_COORDINATE`]).
    #[error(
        "vertex {vertex} has coordinate {value:e}, outside the supported range (0, or a magnitude \
         from {MIN_NONZERO_COORDINATE:e} to {MAX_COORDINATE:e}); rescale the mesh"
    )]
    CoordinateOutOfRange {
        /// Index of the vertex.
        vertex: usize,
        /// The offending coordinate.
        value: f64,
    },
    /// More vertices than a `u32` index can address.
    #[error("{0} vertices is more than a u32 index can address")]
    TooManyVertices(usize),
}

/// Largest coordinate magnitude a mesh may have. The exact orientation predicates (Shewchuk's
/// `orient3d`) multiply three coordinate differences and then split those products further; with
/// `|x| <= 1e100` (about `2^332`) every intermediate stays far below `f64::MAX` (`2^1024`), so
/// no predicate can overflow and silently return a wrong sign.
pub const MAX_COORDINATE: f64 = 1e100;

/// Smallest non-zero coordinate magnitude a mesh may have. A non-zero difference of coordinates
/// of magnitude `>= 1e-70` (about `2^-232`) is at least one ulp of it (`2^-284`); the product of
/// three such differences and the error terms the adaptive stages derive from it (down to
/// `2^-160` of it) stay above the smallest normal `f64` (`2^-1022`), so no predicate underflows.
/// Exact zeros are always allowed.
pub const MIN_NONZERO_COORDINATE: f64 = 1e-70;

/// Vertex positions and triangles as index triples, validated on construction: every coordinate
/// finite and either 0 or of magnitude in [[`MIN_NONZERO_COORDINATE`], [`MAX_COORDINATE`]], every
/// index in range, at least one triangle. Degenerate (zero-area) triangles are kept
/// and counted ([`TriMesh::degenerate_triangles`]), never dropped, so triangle indices always match
/// the input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriMesh {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
}

impl TriMesh {
    /// Validates and wraps `vertices` and `triangles`.
    pub fn new(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        if u32::try_from(vertices.len()).is_err() {
            return Err(MeshError::TooManyVertices(vertices.len()));
        }
        if let Some((vertex, p)) = vertices
            .iter()
            .enumerate()
            .find(|(_, p)| !p.iter().all(|c| c.is_finite()))
        {
            return Err(MeshError::NonFiniteVertex {
                vertex,
                x: p.x,
                y: p.y,
                z: p.z,
            });
        }
        let in_range =
            |c: f64| c == 0.0 || (MIN_NONZERO_COORDINATE..=MAX_COORDINATE).contains(&c.abs());
        if let Some((vertex, value)) = vertices
            .iter()
            .enumerate()
            .find_map(|(i, p)| p.iter().find(|&&c| !in_range(c)).map(|&c| (i, c)))
        {
            return Err(MeshError::CoordinateOutOfRange { vertex, value });
        }
        for (triangle, t) in triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    vertex_count: vertices.len(),
                });
            }
        }
        Ok(Self {
            vertices,
            triangles,
        })
    }

    /// Vertex positions.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Triangles as vertex index triples.
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The `i`-th triangle's geometry.
    pub fn triangle(&self, i: usize) -> Triangle {
        let [a, b, c] = self.triangles[i];
        Triangle::new(
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        )
    }

    /// Indices of triangles whose area is exactly zero (collinear or repeated vertices), decided
    /// exactly with orientation predicates on the three coordinate projections.
    pub fn degenerate_triangles(&self) -> Vec<usize> {
        (0..self.triangles.len())
            .filter(|&i| self.is_degenerate(i))
            .collect()
    }

    /// Whether triangle `i` has exactly zero area.
    pub fn is_degenerate(&self, i: usize) -> bool {
        let t = self.triangle(i);
        // Zero area iff all three coordinate-plane projections have zero signed area.
        let proj = |p: &Point, u: usize, v: usize| robust::Coord { x: p[u], y: p[v] };
        [(0, 1), (1, 2), (2, 0)].iter().all(|&(u, v)| {
            robust::orient2d(proj(&t.a, u, v), proj(&t.b, u, v), proj(&t.c, u, v)) == 0.0
        })
    }

    /// Whether every edge is shared by exactly two triangles with opposite orientation
    /// (a closed, consistently oriented 2-manifold surface, as ray parity needs).
    pub fn is_closed(&self) -> bool {
        let mut directed = std::collections::HashMap::with_capacity(self.triangles.len() * 3);
        for t in &self.triangles {
            for k in 0..3 {
                *directed.entry((t[k], t[(k + 1) % 3])).or_insert(0u32) += 1;
            }
        }
        directed
            .iter()
            .all(|(&(a, b), &n)| n == 1 && directed.get(&(b, a)) == Some(&1))
    }
}
