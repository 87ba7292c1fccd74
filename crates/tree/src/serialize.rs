//! Saving and loading built trees.
//!
//! File layout (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `OBBTREE\0` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | payload length `p` |
//! | `p` | payload: the volume type's [`TreeVolume::NAME`], then the tree, in `postcard` (serde) |
//! | 8 | XXH3-64 checksum of everything before it |
//!
//! Loading checks, in order: magic, version, length and checksum (so a truncated or damaged file
//! is refused before decoding), the decoding itself, the volume type, the mesh fingerprint
//! against the mesh given, the tree's structure (child indices, leaf ranges, triangle order a
//! permutation, depth bound), and the volumes (every node's volume contains every vertex below
//! it, exactly, as the builder guarantees), so a loaded tree is as safe to traverse, and gives
//! the same answers, as a built one: a file whose boxes were edited and whose checksum was
//! recomputed is refused too.
//!
//! Cost of the volume check: one `contains_point` per vertex per level, `O(n · depth)`. With
//! it, loading stays cheaper than building (measured in `docs/performance.md`), and a forged
//! file cannot make a query miss contacts.

use crate::TreeVolume;

use crate::{Bvh, MeshMismatch, NodeKind, MAX_DEPTH};
use obbtree_bv::TriMesh;
use serde::{de::DeserializeOwned, Serialize};
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// Version of the file layout and payload written by [`Bvh::to_bytes`].
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"OBBTREE\0";
const HEADER: usize = 8 + 4 + 8;
const TRAILER: usize = 8;

/// Why a tree file was refused.
#[derive(Debug, thiserror::Error)]
pub enum TreeFileError {
    /// Reading the file failed.
    #[error("cannot read the tree file: {0}")]
    Io(#[from] std::io::Error),
    /// The bytes do not start like a tree file.
    #[error("not an obbtree tree file (bad magic bytes)")]
    NotATreeFile,
    /// Written by another format version.
    #[error(
        "tree file format version {found} is not supported (this build reads version {supported})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// Truncated, damaged, or not decodable: the file must be rebuilt.
    #[error("the tree file is corrupted: {0}")]
    Corrupted(String),
    /// The file holds a tree of another volume type.
    #[error("the tree file holds a {found} tree, not a {expected} tree")]
    WrongVolume {
        /// The requested type.
        expected: &'static str,
        /// The type in the file.
        found: String,
    },
    /// The tree was built for another mesh.
    #[error(transparent)]
    WrongMesh(#[from] MeshMismatch),
}

impl<V: TreeVolume + Serialize + DeserializeOwned> Bvh<V> {
    /// The tree as a self-checking byte string (see the [module docs](self) for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_stdvec(&(V::NAME, self))
            .expect("serializing plain numbers and vectors into memory cannot fail");
        let mut bytes = Vec::with_capacity(HEADER + payload.len() + TRAILER);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&payload);
        let checksum = xxh3_64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Decodes a tree written by [`Bvh::to_bytes`] for `mesh`, refusing it (with the reason) if
    /// the bytes are damaged, of another version or volume type, or the tree is for another mesh.
    pub fn from_bytes(bytes: &[u8], mesh: &TriMesh) -> Result<Self, TreeFileError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(TreeFileError::NotATreeFile);
        }
        let word = |at: usize, len: usize| -> Result<&[u8], TreeFileError> {
            bytes
                .get(at..at + len)
                .ok_or_else(|| truncated(bytes.len()))
        };
        let found = u32::from_le_bytes(word(8, 4)?.try_into().unwrap());
        if found != FORMAT_VERSION {
            return Err(TreeFileError::UnsupportedVersion {
                found,
                supported: FORMAT_VERSION,
            });
        }
        let payload_len = u64::from_le_bytes(word(12, 8)?.try_into().unwrap());
        let expected_len = usize::try_from(payload_len)
            .ok()
            .and_then(|p| p.checked_add(HEADER + TRAILER))
            .ok_or_else(|| {
                TreeFileError::Corrupted(format!("impossible payload length {payload_len}"))
            })?;
        if bytes.len() != expected_len {
            return Err(TreeFileError::Corrupted(format!(
                "the file has {} bytes but its header announces {expected_len}",
                bytes.len()
            )));
        }
        let (body, trailer) = bytes.split_at(bytes.len() - TRAILER);
        if xxh3_64(body) != u64::from_le_bytes(trailer.try_into().unwrap()) {
            return Err(TreeFileError::Corrupted("checksum mismatch".into()));
        }
        let undecodable = |e| TreeFileError::Corrupted(format!("undecodable payload: {e}"));
        // The name first, so that another type's tree is named, not misread.
        let (volume, rest): (String, _) =
            postcard::take_from_bytes(&body[HEADER..]).map_err(undecodable)?;
        if volume != V::NAME {
            return Err(TreeFileError::WrongVolume {
                expected: V::NAME,
                found: volume,
            });
        }
        let tree: Self = postcard::from_bytes(rest).map_err(undecodable)?;
        tree.check_mesh(mesh)?;
        tree.check_structure().map_err(TreeFileError::Corrupted)?;
        tree.check_volumes(mesh).map_err(TreeFileError::Corrupted)?;
        Ok(tree)
    }

    /// Checks what the queries rely on and the checksum cannot vouch for (a file edited and
    /// resealed, or written by a faulty writer): every node's volume contains every vertex of
    /// every triangle below it, with zero tolerance, as the builder and the refits guarantee (see
    /// the crate docs, "Containment"), and each internal node's triangles are its left child's
    /// run followed by its right child's. Runs after [`Bvh::check_structure`]; the nodes are
    /// checked in parallel (rayon) and the lowest failing node is reported.
    fn check_volumes(&self, mesh: &TriMesh) -> Result<(), String> {
        use rayon::prelude::*;
        // Positions of the triangle order below each node: children come after their parent.
        let mut ranges = vec![0..0; self.nodes.len()];
        for i in (0..self.nodes.len()).rev() {
            ranges[i] = match self.nodes[i].kind() {
                NodeKind::Internal { left, right } => {
                    let (l, r) = (&ranges[left], &ranges[right]);
                    if l.end != r.start {
                        return Err(format!(
                            "node {i}: the triangles of its children {left} and {right} are not adjacent"
                        ));
                    }
                    l.start..r.end
                }
                NodeKind::Leaf(range) => range,
            };
        }
        let outside = |(i, range): (usize, &std::ops::Range<usize>)| {
            let bv = self.nodes[i].bv();
            self.order[range.clone()].iter().find_map(|&t| {
                let [a, b, c] = mesh.triangles()[t as usize];
                [a, b, c]
                    .into_iter()
                    .find(|&v| !bv.contains_point(&mesh.vertices()[v as usize], 0.0))
                    .map(|v| (i, t, v))
            })
        };
        match ranges.par_iter().enumerate().find_map_first(outside) {
            None => Ok(()),
            Some((node, triangle, vertex)) => Err(format!(
                "the volume of node {node} does not contain vertex {vertex} of triangle \
                 {triangle} below it (the file was edited, or saved for other vertices)"
            )),
        }
    }

    /// Writes [`Bvh::to_bytes`] to `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// Reads a tree saved by [`Bvh::save`] for `mesh` (see [`Bvh::from_bytes`]).
    pub fn load(path: impl AsRef<Path>, mesh: &TriMesh) -> Result<Self, TreeFileError> {
        Self::from_bytes(&std::fs::read(path)?, mesh)
    }
}

fn truncated(len: usize) -> TreeFileError {
    TreeFileError::Corrupted(format!("truncated header ({len} bytes)"))
}

impl<V> Bvh<V> {
    /// Checks what the builder guarantees: children after their parent and in range, every node
    /// reached once from the root, depth at most [`MAX_DEPTH`] and equal to the stored depth,
    /// leaves non-empty and together covering every position of the triangle order once, and the
    /// order a permutation of the mesh's triangles.
    fn check_structure(&self) -> Result<(), String> {
        let n = self.order.len();
        if n as u64 != self.mesh.triangle_count || self.nodes.is_empty() {
            return Err(format!(
                "{} nodes and {n} triangles for a mesh of {}",
                self.nodes.len(),
                self.mesh.triangle_count
            ));
        }
        let mut seen_triangle = vec![false; n];
        for &t in &self.order {
            if std::mem::replace(
                seen_triangle
                    .get_mut(t as usize)
                    .ok_or("triangle index out of range")?,
                true,
            ) {
                return Err(format!("triangle {t} appears twice in the order"));
            }
        }
        let mut covered = vec![false; n];
        let mut reached = vec![false; self.nodes.len()];
        let mut stack = vec![(0usize, 0usize)];
        let mut depth = 0;
        while let Some((i, d)) = stack.pop() {
            if d > MAX_DEPTH {
                return Err(format!("depth exceeds {MAX_DEPTH}"));
            }
            depth = depth.max(d);
            if std::mem::replace(&mut reached[i], true) {
                return Err(format!("node {i} is reached twice"));
            }
            match self.nodes[i].kind() {
                NodeKind::Internal { left, right } => {
                    if left <= i || right <= i || right >= self.nodes.len() {
                        return Err(format!("node {i} has children {left}, {right}"));
                    }
                    stack.push((right, d + 1));
                    stack.push((left, d + 1));
                }
                NodeKind::Leaf(range) => {
                    for c in covered
                        .get_mut(range)
                        .ok_or_else(|| format!("leaf {i} is out of range"))?
                    {
                        if std::mem::replace(c, true) {
                            return Err(format!("leaf {i} overlaps another leaf"));
                        }
                    }
                }
            }
        }
        if reached.contains(&false) || covered.contains(&false) || depth != self.depth as usize {
            return Err("unreached nodes, uncovered triangles or a wrong depth".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! Files with a valid checksum but an impossible tree (a writer bug or a forged file) are
    //! refused by the structure check, not traversed.
    use super::*;
    use crate::BuildOptions;
    use obbtree_bv::{Aabb, Point};

    fn mesh() -> TriMesh {
        let vertices: Vec<Point> = (0..30)
            .map(|i| Point::new(i as f64, (i * i % 7) as f64, 0.5))
            .collect();
        let triangles = (0..28).map(|i| [i, i + 1, i + 2]).collect();
        TriMesh::new(vertices, triangles).unwrap()
    }

    fn refused(mesh: &TriMesh, damage: impl Fn(&mut Bvh<Aabb>)) {
        let mut bvh = Bvh::<Aabb>::build(
            mesh,
            &BuildOptions {
                leaf_size: 2,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(Bvh::<Aabb>::from_bytes(&bvh.to_bytes(), mesh).is_ok());
        damage(&mut bvh);
        assert!(matches!(
            Bvh::<Aabb>::from_bytes(&bvh.to_bytes(), mesh),
            Err(TreeFileError::Corrupted(_))
        ));
    }

    #[test]
    fn impossible_trees_are_refused() {
        let mesh = mesh();
        let last = |b: &Bvh<Aabb>| b.nodes.len() - 1;
        let first_leaf = |b: &Bvh<Aabb>| b.nodes.iter().position(|n| n.is_leaf()).unwrap();
        refused(&mesh, |b| b.nodes[0].start = 1_000_000);
        refused(&mesh, |b| b.nodes[0].start = u32::MAX);
        refused(&mesh, |b| {
            let l = last(b);
            b.nodes[0].start = l as u32; // right child past the end
        });
        refused(&mesh, |b| {
            let i = b.nodes.iter().rposition(|n| !n.is_leaf()).unwrap();
            b.nodes[i].start = 0; // a cycle back to the root
        });
        refused(&mesh, |b| {
            let i = b.nodes.iter().rposition(|n| !n.is_leaf()).unwrap();
            b.nodes[i].start = i as u32; // its own child
        });
        refused(&mesh, |b| {
            // Two internal nodes sharing their children (a DAG, not a tree).
            let inner: Vec<usize> = (0..b.nodes.len())
                .filter(|&i| !b.nodes[i].is_leaf())
                .collect();
            let (i, j) = (inner[inner.len() - 2], inner[inner.len() - 1]);
            b.nodes[i].start = b.nodes[j].start;
        });
        refused(&mesh, |b| {
            let i = first_leaf(b);
            b.nodes[i].start = 27; // range past the end of the order
        });
        refused(&mesh, |b| {
            let i = first_leaf(b);
            b.nodes[i].start = if b.nodes[i].start == 0 { 1 } else { 0 }; // overlapping leaves
        });
        refused(&mesh, |b| b.order[0] = b.order[1]);
        refused(&mesh, |b| b.order[0] = 28);
        refused(&mesh, |b| b.depth += 1);
        refused(&mesh, |b| b.order.push(0));
        refused(&mesh, |b| b.nodes.clear());
        // Two sibling leaves with their runs swapped: every position still covered once, but
        // the parent's triangles are no longer its children's runs in order.
        refused(&mesh, |b| {
            let i = (0..b.nodes.len() - 1)
                .find(|&i| b.nodes[i].is_leaf() && b.nodes[i + 1].is_leaf())
                .unwrap();
            let (x, y) = (b.nodes[i].start, b.nodes[i + 1].start);
            (b.nodes[i].start, b.nodes[i].count) = (y, b.nodes[i + 1].count);
            (b.nodes[i + 1].start, b.nodes[i + 1].count) = (x, b.nodes[i].count);
        });
    }

    /// A volume edited to miss a vertex below it (the checksum recomputed by `to_bytes`) is
    /// refused, naming the node, triangle and vertex; so is a NaN volume.
    #[test]
    fn volumes_that_miss_their_triangles_are_refused() {
        let mesh = mesh();
        let last = |b: &Bvh<Aabb>| b.nodes.len() - 1;
        refused(&mesh, |b| b.nodes[0].bv.maxs.x -= 1.0);
        refused(&mesh, |b| {
            let l = last(b);
            b.nodes[l].bv.mins.y += 1e-9;
        });
        refused(&mesh, |b| {
            let l = last(b);
            b.nodes[l].bv.mins.z = f64::NAN;
        });
        let mut bvh = Bvh::<Aabb>::build(&mesh, &BuildOptions::default()).unwrap();
        bvh.nodes[0].bv = Aabb::new(Point::origin(), Point::origin());
        let err = Bvh::<Aabb>::from_bytes(&bvh.to_bytes(), &mesh).unwrap_err();
        assert!(
            err.to_string()
                .contains("volume of node 0 does not contain vertex"),
            "{err}"
        );
    }
}
