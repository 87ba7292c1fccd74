//! Triangle pairs within a margin, decided exactly: what [`super::within_margin`] (the first
//! witness) and [`super::proximity_pairs`] (every pair) do at the leaves of the collision walk
//! grown by the margin, and the box test that screens the leaves.

use super::closest::triangle;
use crate::kernel::descent::best_first::box_gap_squared;
use crate::kernel::descent::depth_first::ChildOrder;
use crate::kernel::leaf::{Leaf, LeafTest};
use obbtree_bv::distance::tri_tri;
use obbtree_bv::Aabb;
use std::ops::ControlFlow;

/// Relative rounding of [`box_gap_squared`] (three squares and two sums of non-negative
/// terms, each rounded to nearest): the true squared gap is at least `(1 − 4ε)` times it.
const SQUARED_GAP_ROUNDING: f64 = 4.0 * f64::EPSILON;

/// The search for triangle pairs at most `margin` apart.
pub(crate) struct Margin {
    margin: f64,
    /// `margin²` rounded up: a squared box gap above it (after its own rounding) proves the
    /// pair farther than `margin`.
    margin_squared: f64,
    /// Stop at the first pair.
    first: bool,
    /// The pairs found, `[triangle of A, triangle of B]`.
    pub pairs: Vec<[u32; 2]>,
}

impl Margin {
    /// A search for pairs within `margin` (finite, non-negative): the first only, or all.
    pub fn new(margin: f64, first: bool) -> Self {
        Self {
            margin,
            margin_squared: margin * margin * (1.0 + 2.0 * f64::EPSILON),
            first,
            pairs: Vec::new(),
        }
    }

    /// The margin.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// A test of whether boxes may be within the margin, apart from the search (so that the
    /// walk can hold it while the search collects pairs).
    pub fn box_test(&self) -> impl Fn(&Aabb, &Aabb) -> bool {
        let margin_squared = self.margin_squared;
        move |a, b| !beyond(margin_squared, box_gap_squared(a, b))
    }

    /// Whether boxes `gap_squared` apart are certainly farther than the margin.
    #[inline]
    fn beyond(&self, gap_squared: f64) -> bool {
        beyond(self.margin_squared, gap_squared)
    }

    /// The descent's order: nearer children first when the first pair is enough (as for
    /// collision's [`Mode::First`](crate::collide::Mode::First)).
    pub fn order(&self) -> ChildOrder {
        ChildOrder::for_search(self.first)
    }

    /// Every triangle pair of the two leaves whose boxes may be within the margin, through the
    /// exact predicate [`tri_tri::within`].
    pub fn leaves(&mut self, test: &mut LeafTest, a: Leaf, b: Leaf) -> ControlFlow<()> {
        let (a_tris, a_bounds) = test.a_side();
        let pa = &a_tris[a.start..a.start + a.triangles.len()];
        let around_a = &a_bounds[a.node];
        let pb = test.placed_triangles(&b);
        for (q, &tb) in pb.iter().zip(b.triangles) {
            if self.beyond(box_gap_squared(around_a, &q.bounds)) {
                continue;
            }
            for (p, &ta) in pa.iter().zip(a.triangles) {
                if self.beyond(box_gap_squared(&p.bounds, &q.bounds)) {
                    continue;
                }
                if tri_tri::within(&triangle(p), &triangle(q), self.margin) {
                    self.pairs.push([ta, tb]);
                    if self.first {
                        return ControlFlow::Break(());
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Whether boxes `gap_squared` apart are certainly farther than the margin whose square,
/// rounded up, is `margin_squared`.
#[inline]
fn beyond(margin_squared: f64, gap_squared: f64) -> bool {
    gap_squared * (1.0 - SQUARED_GAP_ROUNDING) > margin_squared
}
