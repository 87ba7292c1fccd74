//! The kernel every two-model query runs on: the dual descent ([`descent`]: one splitting rule,
//! a depth-first and a best-first driver), the conservative test of a volume of B placed in A's
//! frame ([`posed`]), B's placed volumes kept per thread ([`placed_nodes`]), and the exact leaf
//! test over B's triangles placed once per query ([`leaf`]). It imports no query module: a query
//! is a bounding policy (what prunes a node pair) and a leaf visit on top of it.
//!
//! Every bound here is conservative: rounding may keep a node pair the exact test would leave
//! out, never the reverse, so answers are decided at the leaves, exactly.

pub(crate) mod descent;
pub(crate) mod leaf;
pub(crate) mod placed_nodes;
pub(crate) mod posed;

use obbtree_bv::{Point, Pose};

/// `pose · p = R·p + t` in `f64`: the one placement every path uses.
#[inline]
pub(crate) fn place(pose: &Pose, p: &Point) -> Point {
    pose.transform_point(p)
}

/// Frees the calling thread's kernel caches: B's placed triangles and placed volumes.
pub(crate) fn release() {
    leaf::release();
    placed_nodes::release();
}
