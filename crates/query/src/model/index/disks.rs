//! The thick disk around each triangle ([`Disk`]), in the order of each tree the point walks
//! scan: the binary tree's leaf order (as the boxed triangles) and the wide tree's. Built on the
//! first point query: a disk bounds a point's distance to its triangle from below nearly
//! exactly when the point is far from the triangle's edges, where the triangle's box can fall
//! short by the triangle's whole extent, so the walks measure fewer triangles.

use crate::model::index::boxes::Boxed;
use obbtree_bv::{Disk, Triangle};
use obbtree_tree::wide::{Leaves, WideTree};
use rayon::prelude::*;

/// The disks around a model's triangles, in the two leaf orders.
pub(crate) struct TriangleDisks {
    /// By position in the binary tree's leaf order (as `MeshModel::boxed`).
    pub in_tree_order: Vec<Disk>,
    /// By position in the wide tree's leaf triangles.
    pub in_wide_order: Vec<Disk>,
}

/// Triangles per task when building in parallel.
const PER_TASK: usize = 4096;

impl TriangleDisks {
    /// The disks around the triangles of `boxed` (the binary tree's order) and of `wide`.
    pub fn new(boxed: &[Boxed], wide: &WideTree) -> Self {
        let in_tree_order = disks_around(boxed, |b| {
            let [a, b, c] = *b.tri.vertices();
            Triangle::new(a, b, c)
        });
        let in_wide_order = match &wide.triangles {
            Leaves::Single(leaf) => disks_around(leaf, |t| t.triangle()),
            Leaves::Double(leaf) => disks_around(leaf, |t| t.triangle()),
        };
        Self {
            in_tree_order,
            in_wide_order,
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.in_tree_order[..])
            + std::mem::size_of_val(&self.in_wide_order[..])
    }
}

/// The disk around each item's triangle, in order.
fn disks_around<T: Sync>(items: &[T], triangle: impl Fn(&T) -> Triangle + Sync) -> Vec<Disk> {
    items
        .par_iter()
        .with_min_len(PER_TASK)
        .map(|item| Disk::around_triangle(&triangle(item)))
        .collect()
}
