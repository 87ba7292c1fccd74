//! The frame screen: node pairs of meshes apart left out by their projections on the axes of a
//! frame whose first axis is the direction of the best pair the walk starts from.
//!
//! For any two point sets and any orthonormal frame, the squared distance between two points
//! is the sum of the squares of their offsets along the three axes, each at least the gap
//! between the sets' projections on that axis (the separating-axis argument, Ericson,
//! *Real-Time Collision Detection* (2005) §5.2.1, on every axis at once): the distance between
//! the sets' boxes in that frame is a lower bound on theirs, and a set's projections are its
//! vertices'. In the frame of the best pair's direction that bound is nearly the distance for
//! node pairs near the closest one, where the rectangle swept spheres of nearly flat patches
//! fall short by their thickness, and for nearly parallel patches facing each other, whose
//! pairs differ only by how far apart they lie sideways: near ties that the rectangle swept
//! spheres cannot tell apart (how many the walk met is in `docs/performance.md`). The frame is
//! kept for the whole walk, so each node's box in it is computed once per query: exactly (its
//! vertices' projections) for a node at most [`EXACT_LEVELS`] levels above its leaves, from its
//! own box in the model's frame above.

use super::slab::{Interval, Slab};
use crate::kernel::descent::best_first::PairScreen;
use crate::kernel::placed_nodes::PlacedNodes;
use crate::model::index::boxes::Boxed;
use crate::model::index::support::{box_highest, box_rounding};
use crate::MeshModel;
use obbtree_bv::{Pose, Vector};
use obbtree_tree::{NodeKind, TreeVolume};
use std::cell::RefCell;

/// The most levels below a node whose box in the frame is exact (computed from its leaves'
/// vertices): up to 16 leaves, a depth chosen by timing (`docs/performance.md`); higher nodes
/// are few and take their box in the model's frame.
const EXACT_LEVELS: u8 = 4;

/// Bounds on a node's vertices' projections on the three axes of the frame (in its model's own
/// frame).
#[derive(Clone, Copy, Debug, Default)]
struct Extent {
    along: [Interval; 3],
}

thread_local! {
    /// This thread's extents of the nodes of A and of B, kept between queries.
    static EXTENTS: RefCell<[PlacedNodes<Extent>; 2]> = RefCell::default();
}

/// One side of the screen: a model, its nodes' heights, and the frame's axes in its own frame,
/// with the rounding of a box's projection on them.
struct Side<'m, V> {
    model: &'m MeshModel<V>,
    heights: &'m [u8],
    axes: [Vector; 3],
    box_slack: f64,
}

impl<'m, V: TreeVolume> Side<'m, V> {
    fn new(model: &'m MeshModel<V>, axes: [Vector; 3]) -> Self {
        let root = &model.node_bounds()[0];
        let box_slack = axes
            .iter()
            .map(|axis| box_rounding(root, axis))
            .fold(0.0, f64::max);
        Self {
            model,
            heights: &model.distance_index().heights,
            axes,
            box_slack,
        }
    }

    /// Node `i`'s extent, from `known` where an earlier call of this query left it: exact for a
    /// node at most [`EXACT_LEVELS`] levels above its leaves (from its children's), from its
    /// box above.
    fn extent(&self, known: &mut PlacedNodes<Extent>, i: usize) -> Extent {
        if let Some(e) = known.known(i as u32) {
            return e;
        }
        let extent = match self.model.tree().nodes()[i].kind() {
            NodeKind::Leaf(range) => self.vertices(&self.model.boxed()[range]),
            NodeKind::Internal { left, right } if self.heights[i] <= EXACT_LEVELS => {
                let (l, r) = (self.extent(known, left), self.extent(known, right));
                Extent {
                    along: [0, 1, 2].map(|k| Interval {
                        low: l.along[k].low.min(r.along[k].low),
                        high: l.along[k].high.max(r.along[k].high),
                    }),
                }
            }
            NodeKind::Internal { .. } => self.boxed(i),
        };
        known.insert(i as u32, extent);
        extent
    }

    /// The projections of `triangles`' vertices.
    #[inline]
    fn vertices(&self, triangles: &[Boxed]) -> Extent {
        let mut along = [Interval {
            low: f64::INFINITY,
            high: f64::NEG_INFINITY,
        }; 3];
        for vertex in triangles.iter().flat_map(|t| t.tri.vertices()) {
            for (interval, axis) in along.iter_mut().zip(&self.axes) {
                let projection = axis.dot(&vertex.coords);
                interval.low = interval.low.min(projection);
                interval.high = interval.high.max(projection);
            }
        }
        Extent { along }
    }

    /// Node `i`'s extent from its box in the model's frame.
    fn boxed(&self, i: usize) -> Extent {
        let b = &self.model.node_bounds()[i];
        Extent {
            along: self.axes.map(|axis| Interval {
                low: -(box_highest(b, &-axis) + self.box_slack),
                high: box_highest(b, &axis) + self.box_slack,
            }),
        }
    }
}

/// The frame screen of one query.
pub(crate) struct FrameScreen<'q, V> {
    /// The slab along each axis of the frame.
    slabs: [Slab; 3],
    a: Side<'q, V>,
    b: Side<'q, V>,
    known: &'q mut [PlacedNodes<Extent>; 2],
}

impl<V: TreeVolume> PairScreen for FrameScreen<'_, V> {
    /// A lower bound on the distance between the triangles of node `i` of A and node `j` of B
    /// (placed): the distance between their boxes in the frame.
    #[inline]
    fn gap(&mut self, i: usize, j: usize) -> f64 {
        let [known_a, known_b] = &mut *self.known;
        let a = self.a.extent(known_a, i);
        let b = self.b.extent(known_b, j);
        let squared: f64 = (0..3)
            .map(|k| self.slabs[k].interval_gap(&a.along[k], &b.along[k]).powi(2))
            .sum();
        // The axes are orthonormal to a few ε, and the sum and root round by a few ε.
        squared.sqrt() * (1.0 - 8.0 * f64::EPSILON)
    }
}

/// Runs `f` with the frame screen of `a` against `b` (placed by `b_in_a`) in a frame whose
/// first axis is the unit vector `n` (A's frame), on this thread's extent caches.
pub(crate) fn with_screen<V: TreeVolume, R>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    n: &Vector,
    f: impl FnOnce(&mut FrameScreen<'_, V>) -> R,
) -> R {
    let axes = frame(n);
    let slabs = axes.map(|axis| Slab::new(a, b, b_in_a, &axis));
    EXTENTS.with(|known| {
        let mut known = known.borrow_mut();
        known[0].begin(a.tree().nodes().len(), Extent::default());
        known[1].begin(b.tree().nodes().len(), Extent::default());
        let mut screen = FrameScreen {
            a: Side::new(a, axes),
            b: Side::new(b, slabs.map(|slab| -slab.along_b)),
            slabs,
            known: &mut known,
        };
        f(&mut screen)
    })
}

/// An orthonormal frame whose first axis is the unit vector `n`.
fn frame(n: &Vector) -> [Vector; 3] {
    let least = n.iamin();
    let u = n.cross(&Vector::ith(least, 1.0)).normalize();
    [*n, u, n.cross(&u)]
}

/// Frees this thread's extent caches.
pub(crate) fn release() {
    EXTENTS.with(|known| *known.borrow_mut() = Default::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::place;
    use crate::test_meshes::soup;
    use obbtree_bv::Point;
    use proptest::prelude::*;

    /// The vertices below node `i`.
    fn below(model: &MeshModel, i: usize) -> Vec<Point> {
        match model.tree().nodes()[i].kind() {
            NodeKind::Leaf(range) => model.boxed()[range]
                .iter()
                .flat_map(|t| *t.tri.vertices())
                .collect(),
            NodeKind::Internal { left, right } => {
                let mut l = below(model, left);
                l.extend(below(model, right));
                l
            }
        }
    }

    /// The least and largest computed projection of `points` on `axis`.
    fn projections(points: &[Point], axis: &Vector) -> (f64, f64) {
        points
            .iter()
            .map(|p| axis.dot(&p.coords))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Every node pair's gap is at most the distance between the boxes, in the frame, of
        /// its vertices' computed projections (so at most the distance between its triangles),
        /// and equal to it within the rounding allowance when both nodes are within
        /// `EXACT_LEVELS` of their leaves.
        #[test]
        fn gaps_bound_the_frame_boxes_and_are_exact_near_the_leaves(
            a in prop::collection::vec(-1.0f64..1.0, 9 * 150),
            b in prop::collection::vec(-1.0f64..1.0, 9 * 150),
            n in prop::array::uniform3(-1.0f64..1.0),
            angles in prop::array::uniform3(-3.0f64..3.0),
            offset in prop::array::uniform3(-2.0f64..2.0),
        ) {
            let n = Vector::from(n);
            prop_assume!(n.norm() > 0.1);
            let n = n.normalize();
            let (a, b) = (soup(&a), soup(&b));
            let pose = Pose::new(offset, angles).unwrap();
            let axes = frame(&n);
            // Above the screen's own allowance (`64ε` of the coordinates and offset, about
            // 1e-13 here), far below what a box or a missed vertex changes.
            let rounding = 1e-12;
            let heights = &a.distance_index().heights;
            let heights_b = &b.distance_index().heights;
            with_screen(&a, &b, &pose, &n, |screen| {
                for (i, &height) in heights.iter().enumerate() {
                    let va = below(&a, i);
                    for (j, &height_b) in heights_b.iter().enumerate() {
                        let vb: Vec<Point> = below(&b, j).iter().map(|v| place(&pose, v)).collect();
                        let squared: f64 = axes
                            .iter()
                            .map(|axis| {
                                let ((alo, ahi), (blo, bhi)) =
                                    (projections(&va, axis), projections(&vb, axis));
                                (blo - ahi).max(alo - bhi).max(0.0).powi(2)
                            })
                            .sum();
                        let want = squared.sqrt();
                        let gap = screen.gap(i, j);
                        prop_assert!(gap <= want, "{i} {j}: {gap} > {want}");
                        if height <= EXACT_LEVELS && height_b <= EXACT_LEVELS {
                            prop_assert!(gap >= want - rounding, "{i} {j}: {gap} < {want}");
                        }
                    }
                }
                Ok(())
            })?;
        }
    }
}
