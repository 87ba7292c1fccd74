//! Identifies the mesh a tree was built for, so that a tree is never used with another mesh.

use obbtree_bv::TriMesh;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

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
        let triangles = mesh.triangles();
        if cfg!(target_endian = "little") {
            return xxh3_64(bytemuck::cast_slice(triangles));
        }
        hash_words(triangles.iter().flatten().map(|i| i.to_le_bytes()))
    }

    pub(crate) fn geometry_of(mesh: &TriMesh) -> u64 {
        let vertices = mesh.vertices();
        if cfg!(target_endian = "little") {
            return xxh3_64(bytemuck::cast_slice(vertices));
        }
        hash_words(
            vertices
                .iter()
                .flat_map(|p| p.iter())
                .map(|c| c.to_bits().to_le_bytes()),
        )
    }
}

/// XXH3 of the concatenated little-endian words, fed through a buffer: what a little-endian
/// machine hashes in place, for the others.
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

#[cfg(test)]
mod tests {
    use super::*;
    use obbtree_bv::Point;
    use proptest::prelude::*;

    proptest! {
        /// Both paths (in place, and word by word for big-endian machines) give XXH3 of the
        /// arrays' little-endian bytes written out by hand, so a fingerprint is the same on
        /// every platform; and a change of one coordinate's bits or
        /// of one index changes the hash that covers it.
        #[test]
        fn in_place_hashes_are_the_words_hashes(
            coordinates in prop::collection::vec(-1e6f64..1e6, 9..90),
            bump in 0usize..1000,
        ) {
            let vertices: Vec<Point> =
                coordinates.chunks_exact(3).map(|c| Point::new(c[0], c[1], c[2])).collect();
            let triangles: Vec<[u32; 3]> =
                (0..vertices.len() as u32 - 2).map(|k| [k, k + 1, k + 2]).collect();
            let mesh = TriMesh::new(vertices.clone(), triangles.clone()).unwrap();
            let fingerprint = MeshFingerprint::of(&mesh);
            let index_bytes: Vec<u8> =
                triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect();
            let coordinate_bytes: Vec<u8> =
                vertices.iter().flat_map(|p| p.iter()).flat_map(|c| c.to_bits().to_le_bytes()).collect();
            prop_assert_eq!(fingerprint.topology, xxh3_64(&index_bytes));
            prop_assert_eq!(fingerprint.geometry, xxh3_64(&coordinate_bytes));
            prop_assert_eq!(
                hash_words(triangles.iter().flatten().map(|i| i.to_le_bytes())),
                xxh3_64(&index_bytes)
            );
            prop_assert_eq!(
                hash_words(vertices.iter().flat_map(|p| p.iter()).map(|c| c.to_bits().to_le_bytes())),
                xxh3_64(&coordinate_bytes)
            );

            let mut moved = vertices.clone();
            let k = bump % moved.len();
            moved[k].x = f64::from_bits(moved[k].x.to_bits() ^ 1);
            let moved = MeshFingerprint::of(&TriMesh::new(moved, triangles.clone()).unwrap());
            prop_assert_ne!(moved.geometry, fingerprint.geometry);
            prop_assert_eq!(moved.topology, fingerprint.topology);

            let mut flipped = triangles.clone();
            let t = bump % flipped.len();
            flipped[t].swap(0, 1);
            let flipped = MeshFingerprint::of(&TriMesh::new(vertices, flipped).unwrap());
            prop_assert_ne!(flipped.topology, fingerprint.topology);
        }
    }
}
