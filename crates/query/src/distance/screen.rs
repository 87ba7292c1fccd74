//! The slab screen: node pairs of meshes apart left out by their projections on one direction.
//!
//! The gap between the projections of two point sets on any unit vector is a lower bound on
//! their distance (the separating-axis argument, Ericson, *Real-Time Collision Detection*
//! (2005) §5.2.1), and a set's projection is its vertices'. Along the direction of the best
//! pair the walk starts from, that gap is nearly the distance for every node pair near the
//! closest one, where the rectangle swept spheres of nearly flat patches fall short by their
//! thickness: on the far poses of the benchmarks most of the node pairs the walk expanded were
//! such near ties. The direction is kept for the whole walk, so each node's extent along it is
//! computed once per query: exactly (its vertices' largest projection) for a node at most
//! [`EXACT_LEVELS`] levels above its leaves, from its children's extents and its box above.

use super::slab::Slab;
use super::support::{box_highest, box_rounding, leaf_highest};
use crate::collide::traverse::PlacedNodes;
use crate::Model;
use obbtree_bv::{Pose, Vector};
use obbtree_tree::NodeKind;
use std::cell::RefCell;

/// How many levels below a node its extent is refined through its children's: `4` makes a
/// node of up to 16 leaves exact (the same slab screen with every node exact left out 10% more
/// node pairs on the far poses of the benchmarks, at a cost per node that grows with its size).
const EXACT_LEVELS: u32 = 4;

/// A node's largest projection on one side's direction (no vertex's computed projection is
/// larger), and whether it is a vertex's.
#[derive(Clone, Copy, Debug, Default)]
struct Extent {
    high: f64,
    exact: bool,
}

thread_local! {
    /// This thread's extents of the nodes of A and of B, kept between queries.
    static EXTENTS: RefCell<[PlacedNodes<Extent>; 2]> = RefCell::default();
}

/// One side of the screen: a model and the direction its extents are taken along (in its own
/// frame), with the rounding of a box's projection on it.
struct Side<'m, V> {
    model: &'m Model<V>,
    along: Vector,
    box_slack: f64,
}

impl<'m, V> Side<'m, V> {
    fn new(model: &'m Model<V>, along: Vector) -> Self {
        let box_slack = box_rounding(&model.node_bounds()[0], &along);
        Self {
            model,
            along,
            box_slack,
        }
    }

    /// Node `i`'s extent, refined through `levels` levels of its children, from `known` where
    /// an earlier call of this query left it (exact extents and those refined through every
    /// level are kept).
    fn extent(&self, known: &mut PlacedNodes<Extent>, i: usize, levels: u32) -> Extent {
        if let Some(e) = known.known(i as u32) {
            return e;
        }
        let extent = match self.model.tree().nodes()[i].kind() {
            NodeKind::Leaf(range) => Extent {
                high: leaf_highest(&self.model.boxed()[range], &self.along).projection,
                exact: true,
            },
            NodeKind::Internal { .. } if levels == 0 => self.boxed(i),
            NodeKind::Internal { left, right } => {
                let (l, r) = (
                    self.extent(known, left, levels - 1),
                    self.extent(known, right, levels - 1),
                );
                let high = l.high.max(r.high);
                let exact = l.exact && r.exact;
                Extent {
                    high: if exact {
                        high
                    } else {
                        high.min(self.boxed(i).high)
                    },
                    exact,
                }
            }
        };
        if extent.exact || levels == EXACT_LEVELS {
            known.insert(i as u32, extent);
        }
        extent
    }

    /// Node `i`'s extent from its box.
    fn boxed(&self, i: usize) -> Extent {
        Extent {
            high: box_highest(&self.model.node_bounds()[i], &self.along) + self.box_slack,
            exact: false,
        }
    }
}

/// The slab screen of one query.
pub(crate) struct SlabScreen<'q, V> {
    slab: Slab,
    a: Side<'q, V>,
    b: Side<'q, V>,
    known: &'q mut [PlacedNodes<Extent>; 2],
}

impl<V> SlabScreen<'_, V> {
    /// A lower bound on the distance between the triangles of node `i` of A and node `j` of B
    /// (placed): the gap between their projections on the screen's direction.
    #[inline]
    pub fn gap(&mut self, i: usize, j: usize) -> f64 {
        let [known_a, known_b] = &mut *self.known;
        let high_a = self.a.extent(known_a, i, EXACT_LEVELS).high;
        let high_b = self.b.extent(known_b, j, EXACT_LEVELS).high;
        self.slab.width(high_a, high_b)
    }
}

/// Runs `f` with the slab screen of `a` against `b` (placed by `b_in_a`) along the unit
/// vector `n` (A's frame), on this thread's extent caches.
pub(crate) fn with_screen<V, R>(
    a: &Model<V>,
    b: &Model<V>,
    b_in_a: &Pose,
    n: &Vector,
    f: impl FnOnce(&mut SlabScreen<'_, V>) -> R,
) -> R {
    let slab = Slab::new(a, b, b_in_a, n);
    EXTENTS.with(|known| {
        let mut known = known.borrow_mut();
        known[0].begin(a.tree().nodes().len(), Extent::default());
        known[1].begin(b.tree().nodes().len(), Extent::default());
        let mut screen = SlabScreen {
            a: Side::new(a, slab.along_a),
            b: Side::new(b, slab.along_b),
            slab,
            known: &mut known,
        };
        f(&mut screen)
    })
}

/// Frees this thread's extent caches.
pub(crate) fn release() {
    EXTENTS.with(|known| *known.borrow_mut() = Default::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::place;
    use obbtree_bv::{Point, TriMesh};
    use proptest::prelude::*;

    /// A soup of triangles with coordinates in `[-1, 1]`.
    fn soup(coordinates: &[f64]) -> Model {
        let vertices: Vec<Point> = coordinates
            .chunks_exact(3)
            .map(|c| Point::new(c[0], c[1], c[2]))
            .collect();
        let triangles = (0..vertices.len() as u32 / 3)
            .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
            .collect();
        Model::new(TriMesh::new(vertices, triangles).unwrap()).unwrap()
    }

    /// The vertices below node `i` and how many levels lie below it.
    fn below(model: &Model, i: usize) -> (Vec<Point>, u32) {
        match model.tree().nodes()[i].kind() {
            NodeKind::Leaf(range) => (
                model.boxed()[range]
                    .iter()
                    .flat_map(|t| *t.tri.vertices())
                    .collect(),
                0,
            ),
            NodeKind::Internal { left, right } => {
                let ((mut l, hl), (r, hr)) = (below(model, left), below(model, right));
                l.extend(r);
                (l, 1 + hl.max(hr))
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Every node pair's gap is at most the gap between its vertices' computed projections
        /// (so at most their distance), and equal to it within the rounding allowance when both
        /// nodes are within `EXACT_LEVELS` of their leaves.
        #[test]
        fn gaps_bound_the_projections_and_are_exact_near_the_leaves(
            a in prop::collection::vec(-1.0f64..1.0, 9 * 150),
            b in prop::collection::vec(-1.0f64..1.0, 9 * 150),
            n in prop::array::uniform3(-1.0f64..1.0),
            angles in prop::array::uniform3(-3.0f64..3.0),
        ) {
            let n = Vector::from(n);
            prop_assume!(n.norm() > 0.1);
            let n = n.normalize();
            let (a, b) = (soup(&a), soup(&b));
            let pose = Pose::new([3.0 * n.x, 3.0 * n.y, 3.0 * n.z], angles).unwrap();
            // Above the screen's own allowance (`64ε` of the coordinates and offset, about
            // 1e-13 here), far below what a box or a missed vertex changes.
            let rounding = 1e-12;
            with_screen(&a, &b, &pose, &n, |screen| {
                for i in 0..a.tree().nodes().len() {
                    let (va, ha) = below(&a, i);
                    let high = va.iter().map(|v| n.dot(&v.coords)).fold(f64::NEG_INFINITY, f64::max);
                    for j in 0..b.tree().nodes().len() {
                        let (vb, hb) = below(&b, j);
                        let low = vb
                            .iter()
                            .map(|v| n.dot(&place(&pose, v).coords))
                            .fold(f64::INFINITY, f64::min);
                        let gap = screen.gap(i, j);
                        prop_assert!(gap <= low - high, "{i} {j}: {gap} > {}", low - high);
                        if ha <= EXACT_LEVELS && hb <= EXACT_LEVELS {
                            prop_assert!(gap >= low - high - rounding, "{i} {j}: {gap} < {}", low - high);
                        }
                    }
                }
                Ok(())
            })?;
        }
    }
}
