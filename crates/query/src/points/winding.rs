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
//! * Off the surface the winding number changes no faster than [`gradient_bound`] says (the
//!   field of the surface's boundary), which lets a signed grid or batch carry a point's
//!   bracket to the next ([`carried_along`]).

use super::Side;
use crate::collide::containment::{winding_across, winding_after, Known};
use crate::collide::PosedOverlap;
use crate::model::MeshModel;
use crate::ranked::RankedQueue;
use obbtree_bv::winding::{triangle_winding, Estimate};
use obbtree_bv::{Aabb, Point, Pose, Vector};
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
    /// Its side of ½ is decided with `room` to spare between `value ± bound` and ½, or with
    /// half the room its value leaves, whichever is less (so a value near ½ does not ask for
    /// every triangle): what a neighbour needs to take the side over (see [`gradient_bound`]).
    SideWithRoom(f64),
}

impl Enough {
    fn holds(self, w: &Winding) -> bool {
        match self {
            Self::Within(tolerance) => w.bound <= tolerance,
            Self::Side => w.inside().is_some(),
            Self::SideWithRoom(room) => {
                let from_half = (w.value - 0.5).abs();
                from_half - w.bound >= room.min(0.5 * from_half)
            }
        }
    }
}

/// An upper bound on the length of the winding number's gradient at every point of `region`
/// (mesh frame) off the surface. The solid angle a surface subtends is the magnetic scalar
/// potential of a unit current around its boundary, so its gradient is the Biot–Savart field
/// of that current (Jackson, *Classical Electrodynamics*, 3rd ed. (1999), problem 5.1; summed
/// over the triangles, each edge's currents cancel but for its excess of one direction): each
/// boundary edge adds at most its weight over `4π` times its squared distance
/// ([`boundary_per_node`]). A node counts at its
/// box's distance from `region`, opened while the box is nearer than twice its diagonal;
/// infinite when a box with boundary in it touches `region` at a leaf. 0 on a closed mesh.
///
/// So along a segment in `region` that crosses no triangle, the winding number changes by at
/// most the bound times the segment's length.
///
/// [`boundary_per_node`]: crate::model::index::boundary::boundary_per_node
pub(crate) fn gradient_bound<V: PosedOverlap>(mesh: &MeshModel<V>, region: &Aabb) -> f64 {
    BOUNDARY_STACK.with_borrow_mut(|stack| {
        stack.clear();
        gradient_bound_with(mesh, region, stack)
    })
}

thread_local! {
    /// The nodes [`gradient_bound`] has still to look at, kept per thread so that a batch's
    /// points (one bound each) reuse its memory.
    static BOUNDARY_STACK: RefCell<Vec<usize>> = RefCell::default();
}

/// [`gradient_bound`] with `stack` for the nodes still to look at (empty).
fn gradient_bound_with<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    region: &Aabb,
    stack: &mut Vec<usize>,
) -> f64 {
    let lengths = mesh.boundary_lengths();
    let bounds = mesh.node_bounds();
    let tree = mesh.tree();
    let mut sum = 0.0;
    stack.push(0);
    while let Some(node) = stack.pop() {
        if lengths[node] == 0.0 {
            continue;
        }
        let gap = boxes_gap(region, &bounds[node]);
        match tree.node(node).kind() {
            NodeKind::Internal { left, right } if gap < 2.0 * diagonal(&bounds[node]) => {
                stack.extend([left, right]);
            }
            _ if gap > 0.0 => sum += lengths[node] / (gap * gap),
            _ => return f64::INFINITY,
        }
    }
    // The sums' rounding: far below a millionth for any count of edges a mesh can hold.
    sum * (1.0 + 1e-6) / (4.0 * std::f64::consts::PI)
}

/// How much room between its bracket and ½ a point's estimate is asked for when a later point
/// may take its side over ([`Enough::SideWithRoom`]).
pub(crate) const ROOM: f64 = 0.25;

/// An interval that holds a winding number: an estimate's `value ± bound`, rounded outwards,
/// carried from one point to the next along a segment ([`carried_along`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bracket {
    lo: f64,
    hi: f64,
}

impl Bracket {
    /// The bracket of an estimate.
    pub(crate) fn of(w: &Winding) -> Self {
        Self::outward(w.value - w.bound, w.value + w.bound, 0.0)
    }

    /// The side of ½ the bracket lies on.
    pub(crate) fn side(self) -> Side {
        if self.lo > 0.5 {
            Side::Inside
        } else if self.hi < 0.5 {
            Side::Outside
        } else {
            Side::Undecided
        }
    }

    /// `[lo − by, hi + by]`, rounded outwards (a few ulps of the ends more).
    fn outward(lo: f64, hi: f64, by: f64) -> Self {
        let rounding = 4.0 * f64::EPSILON * (lo.abs() + hi.abs() + by);
        Self {
            lo: lo - by - rounding,
            hi: hi + by + rounding,
        }
    }
}

/// The bracket at `to` from `bracket`, the one at `from` (both in the mesh frame, off the
/// surface): the winding number jumps by ±1 where the segment between them passes through a
/// triangle (no crossing when `clear`, the segment lying in balls the surface does not enter;
/// otherwise counted exactly, as on a closed mesh: `None` when a crossing is not clean) and
/// elsewhere changes by at most `gradient` ([`gradient_bound`] over a region holding the
/// segment) times the segment's length.
pub(crate) fn carried_along<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    bracket: Bracket,
    [from, to]: [&Point; 2],
    clear: bool,
    gradient: f64,
) -> Option<Bracket> {
    if !gradient.is_finite() {
        return None;
    }
    let jump = if clear {
        0.0
    } else {
        winding_across(mesh, &Pose::identity(), 0, to, from)? as f64
    };
    let change = gradient * (to - from).norm() * (1.0 + 1e-12);
    Some(Bracket::outward(
        bracket.lo + jump,
        bracket.hi + jump,
        change,
    ))
}

/// A lower bound on the distance between two boxes.
fn boxes_gap(a: &Aabb, b: &Aabb) -> f64 {
    let apart = (a.mins - b.maxs)
        .sup(&(b.mins - a.maxs))
        .sup(&Vector::zeros());
    apart.norm() * (1.0 - 16.0 * f64::EPSILON)
}

fn diagonal(bounds: &Aabb) -> f64 {
    (bounds.maxs - bounds.mins).norm()
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
pub(crate) fn estimate<V: PosedOverlap>(mesh: &MeshModel<V>, q: &Point, enough: Enough) -> Winding {
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
