//! The prism around each triangle ([`Prism`]), in the order of each tree the point walks
//! scan: the binary tree's leaf order (as the boxed triangles) and the wide tree's. Built on the
//! first point query: a prism bounds a point's distance to its triangle from below, exactly
//! when the closest point lies in the triangle or on an edge, where the triangle's box can fall
//! short by the triangle's whole extent, so the walks measure fewer triangles.

use crate::model::index::boxes::Boxed;
use obbtree_bv::{Prism, Triangle};
use obbtree_tree::wide::{Leaves, WideTree};
use rayon::prelude::*;

/// The prisms around a model's triangles, in the two leaf orders.
pub(crate) struct TrianglePrisms {
    /// By position in the binary tree's leaf order (as `MeshModel::boxed`).
    pub in_tree_order: Vec<Prism>,
    /// By position in the wide tree's leaf triangles.
    pub in_wide_order: Vec<Prism>,
}

/// Triangles per task when building in parallel.
const PER_TASK: usize = 4096;

impl TrianglePrisms {
    /// The prisms around the triangles of `boxed` (the binary tree's order) and of `wide`.
    pub fn new(boxed: &[Boxed], wide: &WideTree) -> Self {
        let in_tree_order = prisms_around(boxed, |b| {
            let [a, b, c] = *b.tri.vertices();
            Triangle::new(a, b, c)
        });
        let in_wide_order = match &wide.triangles {
            Leaves::Single(leaf) => prisms_around(leaf, |t| t.triangle()),
            Leaves::Double(leaf) => prisms_around(leaf, |t| t.triangle()),
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

/// The prism around each item's triangle, in order.
fn prisms_around<T: Sync>(items: &[T], triangle: impl Fn(&T) -> Triangle + Sync) -> Vec<Prism> {
    items
        .par_iter()
        .with_min_len(PER_TASK)
        .map(|item| Prism::around_triangle(&triangle(item)))
        .collect()
}
