//! Triangle pairs within a margin, decided exactly: the visitor of [`super::within_margin`]
//! (the first witness) and [`super::proximity_pairs`] (every pair).

use super::closest::triangle;
use super::traverse::{box_gap_squared, Visitor};
use crate::collide::leaf::{Leaf, LeafTest};
use obbtree_bv::distance::tri_tri;
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

    /// Whether boxes `gap_squared` apart are certainly farther than the margin.
    #[inline]
    fn beyond(&self, gap_squared: f64) -> bool {
        gap_squared * (1.0 - SQUARED_GAP_ROUNDING) > self.margin_squared
    }
}

impl Visitor for Margin {
    /// Only pairs certainly farther than the margin: the bounds are conservative, so a bound
    /// above the margin proves every triangle pair below it farther.
    #[inline]
    fn prunes(&self, bound: f64) -> bool {
        bound * (1.0 - 4.0 * f64::EPSILON) > self.margin
    }

    /// A bound above the margin by more than the rounding `prunes` allows for prunes.
    fn enough(&self) -> f64 {
        self.margin * (1.0 + 8.0 * f64::EPSILON)
    }

    fn corners(&self) -> bool {
        false
    }

    #[inline]
    fn pruned(&mut self, _: f64) {}

    /// Every triangle pair of the two leaves whose boxes may be within the margin, through the
    /// exact predicate [`tri_tri::within`].
    fn leaves(&mut self, test: &mut LeafTest, a: Leaf, b: Leaf) -> ControlFlow<()> {
        let (a_tris, a_bounds) = test.a_side();
        let pa = &a_tris[a.start..a.start + a.triangles.len()];
        let around_a = &a_bounds[a.node];
        let (pb, _) = test.placed(&b);
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
