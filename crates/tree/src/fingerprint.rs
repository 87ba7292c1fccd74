//! Identifies the mesh a tree was built for, so that a tree is never used with another mesh.

use obbtree_bv::TriMesh;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

/// Sizes and 64-bit XXH3 hashes of a mesh's data: the index triples (topology) and the vertex
/// coordinates' bit patterns (geometry). Stable across platforms and runs (little-endian bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeshFingerprint {
    /// Number of vertices.
    pub vertex_count: u64,
    /// Number of triangles.
    pub triangle_count: u64,
    /// Hash of the triangles' vertex indices.
    pub topology: u64,
    /// Hash of the vertex coordinates (exact bits, so any motion changes it).
    pub geometry: u64,
}

impl MeshFingerprint {
    /// Fingerprint of `mesh`.
    pub fn of(mesh: &TriMesh) -> Self {
        Self {
            vertex_count: mesh.vertices().len() as u64,
            triangle_count: mesh.triangles().len() as u64,
            topology: Self::topology_of(mesh),
            geometry: Self::geometry_of(mesh),
        }
    }

    pub(crate) fn topology_of(mesh: &TriMesh) -> u64 {
        hash_words(mesh.triangles().iter().flatten().map(|i| i.to_le_bytes()))
    }

    pub(crate) fn geometry_of(mesh: &TriMesh) -> u64 {
        hash_words(
            mesh.vertices()
                .iter()
                .flat_map(|p| p.iter())
                .map(|c| c.to_bits().to_le_bytes()),
        )
    }
}

/// XXH3 of the concatenated words, fed through a buffer (per-word updates would be slow).
fn hash_words<const N: usize>(words: impl Iterator<Item = [u8; N]>) -> u64 {
    let mut hasher = Xxh3::new();
    let mut buffer = Vec::with_capacity(N * 1024);
    for w in words {
        buffer.extend_from_slice(&w);
        if buffer.len() == buffer.capacity() {
            hasher.update(&buffer);
            buffer.clear();
        }
    }
    hasher.update(&buffer);
    hasher.digest()
}

/// The mesh given with a tree is not the one the tree was built (or last refitted) for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the tree was built for another mesh ({expected_triangles} triangles, {expected_vertices} vertices, \
     fingerprint {expected_topology:016x}/{expected_geometry:016x}); this mesh has {found_triangles} triangles, \
     {found_vertices} vertices, fingerprint {found_topology:016x}/{found_geometry:016x}"
)]
pub struct MeshMismatch {
    /// Triangles of the tree's mesh.
    pub expected_triangles: u64,
    /// Vertices of the tree's mesh.
    pub expected_vertices: u64,
    /// Topology hash of the tree's mesh.
    pub expected_topology: u64,
    /// Geometry hash of the tree's mesh.
    pub expected_geometry: u64,
    /// Triangles of the given mesh.
    pub found_triangles: u64,
    /// Vertices of the given mesh.
    pub found_vertices: u64,
    /// Topology hash of the given mesh.
    pub found_topology: u64,
    /// Geometry hash of the given mesh.
    pub found_geometry: u64,
}

impl MeshMismatch {
    pub(crate) fn new(expected: &MeshFingerprint, found: &MeshFingerprint) -> Self {
        Self {
            expected_triangles: expected.triangle_count,
            expected_vertices: expected.vertex_count,
            expected_topology: expected.topology,
            expected_geometry: expected.geometry,
            found_triangles: found.triangle_count,
            found_vertices: found.vertex_count,
            found_topology: found.topology,
            found_geometry: found.geometry,
        }
    }
}
