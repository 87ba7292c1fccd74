//! The rectangle swept sphere around each leaf of the wide tree, which the point walk near the
//! surface bounds a leaf with before it reads the leaf's prisms (`distance/point_wide.rs`).
//!
//! The wide tree's boxes are axis-aligned, so a leaf's box falls short of its triangles by
//! their extent along the line of sight; a point some way off a gently curved surface finds
//! a score of leaves whose boxes come nearer than its best triangle, and most of them hold no
//! triangle that does. The RSS (Larsen, Gottschalk, Lin & Manocha, "Fast proximity queries
//! with swept sphere volumes", 1999), fitted along the leaf's own plane, falls short only by
//! its radius, about half the leaf's thickness: such leaves are left out at the cost of one
//! bound each, instead of one prism per triangle.

use obbtree_bv::{BoundingVolume, Point, Rss};
use obbtree_tree::wide::{Child, WideTree};
use rayon::prelude::*;

/// The RSS around each leaf's triangles, found by the leaf's first position.
pub(crate) struct WideLeafBounds {
    /// By leaf, in the order of [`WideTree::leaves`].
    rss: Vec<Rss>,
    /// For each leaf position that starts a leaf, that leaf's index in `rss` (unused
    /// elsewhere).
    leaf_at: Vec<u32>,
}

/// Leaves per task when fitting in parallel.
const PER_TASK: usize = 1024;

impl WideLeafBounds {
    /// The RSS around each leaf of `wide` ([`Rss::fit_triangles`]: along the triangles'
    /// area-weighted covariance frame, holding every corner).
    pub fn new(wide: &WideTree) -> Self {
        let leaves: Vec<Child> = wide.leaves().collect();
        let mut leaf_at = vec![u32::MAX; wide.triangles.len()];
        for (index, leaf) in (0u32..).zip(&leaves) {
            leaf_at[leaf.start as usize] = index;
        }
        let rss = leaves
            .par_iter()
            .with_min_len(PER_TASK)
            .map(|leaf| {
                let corners: Vec<[Point; 3]> = positions(leaf)
                    .map(|k| wide.triangles.triangle(k).vertices())
                    .collect();
                Rss::fit_triangles(&corners, ())
            })
            .collect();
        Self { rss, leaf_at }
    }

    /// The RSS around the triangles of `leaf`, one of the tree's leaves.
    #[inline]
    pub fn of_leaf(&self, leaf: &Child) -> &Rss {
        &self.rss[self.leaf_at[leaf.start as usize] as usize]
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.rss[..]) + std::mem::size_of_val(&self.leaf_at[..])
    }
}

/// The leaf positions of `leaf`'s triangles.
fn positions(leaf: &Child) -> std::ops::Range<usize> {
    leaf.start as usize..(leaf.start + leaf.count) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::grid;

    /// Every leaf's RSS holds each corner of each of its triangles, read from the tree's own
    /// leaf triangles, and the leaves are found by their first positions.
    #[test]
    fn each_leafs_rss_holds_its_triangles_corners() {
        let mesh = grid(30, |i, j| {
            let (x, y) = (f64::from(i) * 0.3, f64::from(j) * 0.2);
            obbtree_bv::Point::new(x, y, (x * 1.7).sin() * (y * 0.9).cos())
        });
        let wide = WideTree::build(&mesh).unwrap();
        let bounds = WideLeafBounds::new(&wide);
        let leaves: Vec<Child> = wide.leaves().collect();
        assert!(leaves.len() > 10);
        for leaf in &leaves {
            let rss = bounds.of_leaf(leaf);
            for k in positions(leaf) {
                let corners = wide.triangles.triangle(k).vertices();
                assert!(
                    corners.iter().all(|p| rss.contains_point(p, 0.0)),
                    "leaf {leaf:?}"
                );
            }
        }
        let fitted: Vec<Rss> = leaves.iter().map(|leaf| *bounds.of_leaf(leaf)).collect();
        assert_eq!(fitted, bounds.rss, "each leaf finds its own RSS");
    }
}
