//! Refitting: new volumes for moved vertices, same tree topology.

use crate::{Bvh, MeshFingerprint, MeshMismatch, NodeKind};
use obbtree_bv::{BoundingVolume, Point, TriMesh};
use rayon::prelude::*;

/// How [`Bvh::refit`] recomputes the volumes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Refit {
    /// Leaves are fitted to their triangles, then each internal node is the
    /// [`merge`](BoundingVolume::merge) of its children, bottom up: `O(n)`. For rotation-variant
    /// volumes (OBBs, spheres) merged volumes are looser than fitted ones.
    #[default]
    Merge,
    /// Every node is fitted to all the triangles below it (in parallel): `O(n log n)`, as tight
    /// as a fresh build's volumes for this topology. The triangles are fitted in leaf order,
    /// which is not the build's order, so order-dependent fits (covariance sums, Welzl) can
    /// differ from the built volumes in the last bits.
    Fit,
}

impl<V: BoundingVolume> Bvh<V> {
    /// Recomputes every volume for `mesh`, whose vertices may have moved but whose triangles
    /// (index triples) and vertex count must be those the tree was built for; otherwise nothing
    /// changes and the mismatch is returned. The tree then belongs to `mesh`
    /// ([`Bvh::check_mesh`]). `method` is the fitting method, as in
    /// [`BuildOptions::method`](crate::BuildOptions::method).
    pub fn refit(
        &mut self,
        mesh: &TriMesh,
        method: V::Method,
        mode: Refit,
    ) -> Result<(), MeshMismatch> {
        let same_topology = mesh.triangles().len() as u64 == self.mesh.triangle_count
            && mesh.vertices().len() as u64 == self.mesh.vertex_count
            && MeshFingerprint::topology_of(mesh) == self.mesh.topology;
        if !same_topology {
            return Err(MeshMismatch::new(&self.mesh, &MeshFingerprint::of(mesh)));
        }
        let vertices = mesh.vertices();
        let triangles = mesh.triangles();
        let tris: Vec<[Point; 3]> = self
            .order
            .iter()
            .map(|&t| triangles[t as usize].map(|i| vertices[i as usize]))
            .collect();
        match mode {
            Refit::Merge => {
                // Children come after their parents, so a reverse sweep is bottom up.
                for i in (0..self.nodes.len()).rev() {
                    let bv = match self.nodes[i].kind() {
                        NodeKind::Internal { left, right } => {
                            self.nodes[left].bv.merge(&self.nodes[right].bv)
                        }
                        NodeKind::Leaf(range) => V::fit_triangles(&tris[range], method),
                    };
                    self.nodes[i].bv = bv;
                }
            }
            Refit::Fit => {
                let ranges = self.subtree_ranges();
                self.nodes
                    .par_iter_mut()
                    .zip(ranges)
                    .for_each(|(node, (start, end))| {
                        node.bv = V::fit_triangles(&tris[start..end], method)
                    });
            }
        }
        self.mesh.geometry = MeshFingerprint::geometry_of(mesh);
        Ok(())
    }

    /// For every node, the run of [`Bvh::triangle_order`] below it.
    fn subtree_ranges(&self) -> Vec<(usize, usize)> {
        let mut ranges = vec![(0, 0); self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate().rev() {
            ranges[i] = match node.kind() {
                NodeKind::Internal { left, right } => (ranges[left].0, ranges[right].1),
                NodeKind::Leaf(range) => (range.start, range.end),
            };
        }
        ranges
    }
}
