//! Winding numbers of points about a mesh: exact on a closed mesh, and an estimate with a
//! rigorous bound on an open one.
//!
//! * Closed: the signed count of a ray's crossings (`collide/containment.rs`, every crossing
//!   decided by exact orientations), an integer; in a batch, a recent point's number changed
//!   by the signed crossings of the segment from it. A point on the surface has no integer
//!   winding number; it gets the estimate below.
//! * Open: the generalized winding number (Jacobson, Kavan & Sorkine-Hornung 2013) summed over
//!   the tree, a subtree far from the point by the Taylor expansion of its moments (Barill et
//!   al., "Fast winding numbers for soups and clouds", 2018) and a near leaf triangle by
//!   triangle ([`obbtree_bv::winding`]), each with a rigorous bound. The walk refines the
//!   subtree whose bound is largest first, and stops when the caller has enough: a bound
//!   within a tolerance, or a side of ½ decided.

use crate::collide::containment::{winding_after, Known};
use crate::collide::PosedOverlap;
use crate::model::MeshModel;
use crate::ranked::RankedQueue;
use obbtree_bv::winding::{triangle_winding, Estimate};
use obbtree_bv::{Aabb, Point, Pose};
use obbtree_tree::NodeKind;
use std::cell::RefCell;

/// A winding number: the exact one lies within `value ± bound`. On a closed mesh, off its
/// surface, the bound is 0 and the value an integer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Winding {
    /// The winding number, or its estimate.
    pub value: f64,
    /// A bound on `|value − exact winding number|`: 0 when exact.
    pub bound: f64,
}

impl Winding {
    /// The integer winding number when it is known exactly.
    pub fn exact(&self) -> Option<i64> {
        (self.bound == 0.0 && self.value.fract() == 0.0).then_some(self.value as i64)
    }

    /// Whether the winding number is above ½ (inside, in the generalized sense), when the
    /// bound decides it; `None` when `value ± bound` straddles ½.
    pub fn inside(&self) -> Option<bool> {
        if self.value - self.bound > 0.5 {
            Some(true)
        } else if self.value + self.bound < 0.5 {
            Some(false)
        } else {
            None
        }
    }
}

/// The winding number of `mesh` placed by `pose` about `p` (world frame, checked): exact on a
/// closed mesh off its surface (from `known`, the points lately decided there, when it can:
/// see [`winding_after`]), otherwise estimated until [`enough`](Enough) says so.
pub(crate) fn winding_number<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    enough: Enough,
    known: &mut Known,
) -> Winding {
    if mesh.is_closed() {
        if let Some(w) = winding_after(mesh, pose, p, 0.0, known) {
            return Winding {
                value: w as f64,
                bound: 0.0,
            };
        }
    }
    estimate(mesh, &pose.inverse_transform_point(p), enough)
}

/// When an estimate may stop.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Enough {
    /// Its bound is at most this.
    Within(f64),
    /// Its side of ½ is decided ([`Winding::inside`]).
    Side,
}

impl Enough {
    fn holds(self, w: &Winding) -> bool {
        match self {
            Self::Within(tolerance) => w.bound <= tolerance,
            Self::Side => w.inside().is_some(),
        }
    }
}

/// The running sum of the walk: leaves summed exactly (with their rounding bound), subtrees
/// estimated, and the rounding of the running sums themselves.
#[derive(Default)]
struct Sum {
    value: f64,
    error: f64,
    rounding: f64,
    unbounded: usize,
}

impl Sum {
    fn add(&mut self, share: Estimate) {
        if share.error.is_infinite() {
            self.unbounded += 1;
            return;
        }
        self.rounding += f64::EPSILON * (self.value.abs() + share.value.abs() + self.error);
        self.value += share.value;
        self.error += share.error;
    }

    fn remove(&mut self, share: Estimate) {
        if share.error.is_infinite() {
            self.unbounded -= 1;
            return;
        }
        self.rounding += f64::EPSILON * (self.value.abs() + share.value.abs() + self.error);
        self.value -= share.value;
        self.error = (self.error - share.error).max(0.0);
    }

    fn winding(&self) -> Winding {
        let bound = if self.unbounded > 0 {
            f64::INFINITY
        } else {
            (self.error + 2.0 * self.rounding) * (1.0 + 1e-12)
        };
        Winding {
            value: self.value,
            bound,
        }
    }
}

/// A lower bound on the distance from `q` to the box `bounds`: the float distance less its
/// rounding (a few ulps of the squared sum, half an ulp of the root).
fn reach(bounds: &Aabb, q: &Point) -> f64 {
    bounds.distance_squared(q).sqrt() * (1.0 - 16.0 * f64::EPSILON)
}

/// The generalized winding number about `q` (mesh frame), refining the subtree with the
/// largest bound until `enough` holds or every leaf near `q` is summed triangle by triangle.
fn estimate<V: PosedOverlap>(mesh: &MeshModel<V>, q: &Point, enough: Enough) -> Winding {
    OPEN.with_borrow_mut(|open| {
        open.clear();
        estimate_with(mesh, q, enough, open)
    })
}

thread_local! {
    /// The walk's open subtrees, kept per thread so that the buckets' memory is reused.
    static OPEN: RefCell<RankedQueue<(usize, Estimate)>> = RefCell::default();
}

/// [`estimate`] with `open` for the subtrees not yet refined (empty).
fn estimate_with<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    q: &Point,
    enough: Enough,
    open: &mut RankedQueue<(usize, Estimate)>,
) -> Winding {
    let moments = mesh.winding_moments();
    let bounds = mesh.node_bounds();
    let tree = mesh.tree();
    let mut sum = Sum::default();
    // Subtrees not yet refined, with their estimated shares: the largest bound first.
    let visit = |node: usize, sum: &mut Sum, open: &mut RankedQueue<(usize, Estimate)>| {
        let share = moments[node].winding_beyond(q, reach(&bounds[node], q));
        let share = share.unwrap_or(Estimate {
            value: 0.0,
            error: f64::INFINITY,
        });
        sum.add(share);
        open.push(share.error, (node, share));
    };
    visit(0, &mut sum, open);
    loop {
        let current = sum.winding();
        if enough.holds(&current) {
            return current;
        }
        let Some((node, share)) = open.pop() else {
            return current;
        };
        sum.remove(share);
        match tree.node(node).kind() {
            NodeKind::Internal { left, right } => {
                visit(left, &mut sum, open);
                visit(right, &mut sum, open);
            }
            NodeKind::Leaf(range) => {
                for boxed in &mesh.boxed()[range] {
                    sum.add(triangle_winding(q, boxed.tri.vertices()));
                }
            }
        }
    }
}
