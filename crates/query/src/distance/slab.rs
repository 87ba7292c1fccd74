//! The slab between two meshes along a direction: the gap between their projections on it, a
//! lower bound on their distance (the separating-axis argument, Ericson, *Real-Time Collision
//! Detection* (2005) §5.2.1), measured with a bound on its rounding.

use crate::MeshModel;
use obbtree_bv::distance::SLACK;
use obbtree_bv::{Pose, Vector};

/// The projections of A's vertices and of B's (placed by `R·p + t`) on a unit vector `n` of
/// A's frame: A's on `along_a = n`, B's on `along_b = −Rᵀn` in B's own frame (so B's least
/// placed projection is `n·t` less B's largest on `along_b`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    pub along_a: Vector,
    pub along_b: Vector,
    /// `n·t`.
    offset: f64,
    /// A bound on the rounding of the width, see [`Slab::new`].
    rounding: f64,
}

impl Slab {
    /// The slab of `a` against `b` placed by `b_in_a`, along the unit vector `n` (A's frame).
    ///
    /// The rounding: each computed projection of a vertex with coordinates at most `M` errs by
    /// at most `3.01ε·|n|₁·M` (`|n|₁ <= √3`); placing B's vertex errs by `4ε(√3 M_B + T)` per
    /// coordinate (`T` the largest coordinate of `t`), and `Rᵀn` by `5.3ε` per coordinate; the
    /// products with `t`, the sums, and `n`'s norm (1 within `4ε`) add a few `ε` of
    /// `M_A + M_B + T`. The total is under `40ε·(M_A + M_B + T)`; [`SLACK`] (`64ε`) is taken.
    pub fn new<V>(a: &MeshModel<V>, b: &MeshModel<V>, b_in_a: &Pose, n: &Vector) -> Self {
        let (rotation, translation) = (b_in_a.rotation(), b_in_a.translation());
        Self {
            along_a: *n,
            along_b: -rotation.tr_mul(n),
            offset: n.dot(translation),
            rounding: SLACK
                * (a.bounds().largest_coordinate()
                    + b.bounds().largest_coordinate()
                    + translation.amax()),
        }
    }

    /// A lower bound on the distance along `n` between a part of A whose vertices'
    /// projections on `n` lie in `a` and a part of B whose vertices' projections on `Rᵀn` (in
    /// B's own frame, `−along_b`) lie in `b`, whichever side of the other each lies: the gap
    /// between the intervals (B's moved by `n·t`), less the rounding; 0 when they overlap.
    #[inline]
    pub fn interval_gap(&self, a: &Interval, b: &Interval) -> f64 {
        let beyond = self.width(a.high, -b.low);
        let before = (a.low - b.high - self.offset - self.rounding) * (1.0 - 8.0 * f64::EPSILON);
        beyond.max(before).max(0.0)
    }

    /// A lower bound on the distance between a part of A whose vertices' projections on
    /// `along_a` are at most `high_a` and a part of B (placed) whose vertices' projections on
    /// `along_b` are at most `high_b`: the least projection of B's placed vertices less the
    /// largest of A's, less the rounding.
    #[inline]
    pub fn width(&self, high_a: f64, high_b: f64) -> f64 {
        let width = self.offset - high_b - high_a - self.rounding;
        // `n` may be longer than a unit vector by 4ε.
        width * (1.0 - 8.0 * f64::EPSILON)
    }
}

/// The least and the largest projection of a part's vertices on a direction (computed in
/// floating point): no vertex's computed projection lies outside.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Interval {
    pub low: f64,
    pub high: f64,
}
