//! The leaf test: exact triangle–triangle predicate behind an exact bounding-box filter, with
//! each triangle placed and boxed at most once per query.

use super::place;
use crate::model::index::boxes::{Boxed, LeafVertices};
use crate::MeshModel;
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Aabb, Point, Pose, TriMesh, Triangle};
use obbtree_tree::Bvh;
use std::cell::RefCell;
use std::ops::ControlFlow;

/// The placed, boxed triangles of one mesh, filled a leaf at a time during a query: a leaf of B
/// meets many leaves of A, and placing its triangles again for each would dominate the leaf
/// work. A leaf is placed in two steps, each on first need:
///
/// 1. its box: the box around its distinct vertices ([`LeafVertices`]), each placed once,
///    which the descent compares with A's nodes ([`LeafTest::meets_leaf`]); most leaves of B
///    that a query reaches go no further (their box misses every leaf of A it meets), so this
///    step keeps only the box;
/// 2. its triangles, placed again the same way (so bit for bit the vertices the box was
///    taken around), each prepared for the exact test and boxed, for the leaf test.
///
/// A query's placed triangles are packed from the start of one array in the order they are
/// first needed (each leaf's triangles contiguous, so the leaf test streams through them), so
/// the few thousand triangles a query places stay together in cache instead of being spread
/// over an array the size of B. A step is done when its stamp equals the query's generation,
/// so starting a query costs nothing (no clearing), and the memory (about 152 bytes per
/// triangle and 64 per node of the largest mesh B seen) is kept for the next query until
/// [`release`] frees it.
#[derive(Default)]
struct PlacedCache {
    /// Per node of B, what this query placed of it.
    leaves: Vec<PlacedLeaf>,
    generation: u32,
    /// The triangles placed in this query, leaf after leaf (emptied, not freed, by
    /// [`Self::begin`]: it grows to what a query places, not to all of B's triangles).
    items: Vec<Boxed>,
}

/// What a query placed of one leaf of B: the generation in which its box was computed, the
/// generation in which its triangles were placed and where they start in the cache's items,
/// and the box.
#[derive(Clone, Copy)]
struct PlacedLeaf {
    boxed_in: u32,
    placed_in: u32,
    start: u32,
    around: Aabb,
}

impl PlacedCache {
    /// Invalidates every entry and makes room for `nodes` nodes.
    fn begin(&mut self, nodes: usize) {
        self.items.clear();
        if self.leaves.len() < nodes {
            let origin = Point::origin();
            let unplaced = PlacedLeaf {
                boxed_in: 0,
                placed_in: 0,
                start: 0,
                around: Aabb::new(origin, origin),
            };
            self.leaves.resize(nodes, unplaced);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.leaves.iter_mut().for_each(|l| {
                l.boxed_in = 0;
                l.placed_in = 0;
            });
            self.generation = 1;
        }
    }

    /// Whether the box of B's leaf `node` is known in this query.
    #[inline]
    fn is_boxed(&self, node: usize) -> bool {
        self.leaves[node].boxed_in == self.generation
    }

    /// The box around the triangles of `leaf` placed by `pose` (`vertices`, B's leaves'
    /// distinct vertices), computed on first use in this query from the placed vertices alone.
    #[inline]
    fn around(&mut self, vertices: &LeafVertices, pose: &Pose, leaf: &Leaf) -> Aabb {
        if !self.is_boxed(leaf.node) {
            let entry = &mut self.leaves[leaf.node];
            entry.around = placed_bounds(vertices.of(leaf.node), pose);
            entry.boxed_in = self.generation;
        }
        self.leaves[leaf.node].around
    }

    /// The triangles of `leaf` placed by `pose` and prepared, placed on first use in this
    /// query.
    #[inline]
    fn triangles(&mut self, b: &[Boxed], pose: &Pose, leaf: &Leaf) -> &[Boxed] {
        let n = leaf.triangles.len();
        if self.leaves[leaf.node].placed_in != self.generation {
            let start = self.items.len();
            self.items
                .extend(b[leaf.start..leaf.start + n].iter().map(|local| {
                    let [p, q, r] = *local.tri.vertices();
                    Boxed::new(Triangle::new(
                        place(pose, &p),
                        place(pose, &q),
                        place(pose, &r),
                    ))
                }));
            let entry = &mut self.leaves[leaf.node];
            entry.placed_in = self.generation;
            entry.start = start as u32;
        }
        let start = self.leaves[leaf.node].start as usize;
        &self.items[start..start + n]
    }
}

/// The box around `points` placed by `pose`: the componentwise least and greatest placed
/// point. For a leaf's distinct vertices, the same box as the union of its placed triangles'
/// boxes (the same coordinates placed the same way; a minimum and a maximum are exact).
#[inline]
fn placed_bounds(points: &[Point], pose: &Pose) -> Aabb {
    let first = place(pose, &points[0]);
    let (mins, maxs) = points[1..].iter().fold((first, first), |(lo, hi), v| {
        let p = place(pose, v);
        (lo.inf(&p), hi.sup(&p))
    });
    Aabb::new(mins, maxs)
}

/// A leaf's triangles: its node index, their mesh indices and the position of the first in the
/// tree's order.
#[derive(Clone, Copy)]
pub(crate) struct Leaf<'t> {
    pub node: usize,
    pub start: usize,
    pub triangles: &'t [u32],
}

impl<'t> Leaf<'t> {
    /// Leaf `index` of `tree`.
    pub fn of<V>(tree: &'t Bvh<V>, index: usize) -> Self {
        let range = tree.node(index).triangle_range().unwrap_or(0..0);
        Self {
            node: index,
            start: range.start,
            triangles: &tree.triangle_order()[range],
        }
    }
}

thread_local! {
    /// B's placed triangles, one cache per thread, so that queries in the steady state
    /// allocate nothing, including [`collide_many`](crate::collide_many)'s.
    static CACHE: RefCell<PlacedCache> = RefCell::default();
}

/// Frees this thread's placed-triangle caches.
pub(crate) fn release() {
    CACHE.with(|cache| *cache.borrow_mut() = Default::default());
}

/// Tests the triangles of a leaf of A against those of a leaf of B (placed in A's frame).
pub(crate) struct LeafTest<'a> {
    /// A's triangles in its tree's order.
    a: &'a [Boxed],
    /// The box around each node's triangles of A.
    a_bounds: &'a [Aabb],
    /// B's triangles in its tree's order, in B's frame.
    b: &'a [Boxed],
    /// The distinct vertices of B's leaves, in B's frame.
    b_vertices: &'a LeafVertices,
    b_in_a: &'a Pose,
    cache: &'a mut PlacedCache,
}

/// Runs `query` with a leaf test of `a` against `b` placed by `b_in_a`, on this thread's cache.
pub(crate) fn with_leaf_test<V, R>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    query: impl FnOnce(&mut LeafTest) -> R,
) -> R {
    CACHE.with(|cache| {
        let cache = &mut *cache.borrow_mut();
        cache.begin(b.tree().nodes().len());
        query(&mut LeafTest {
            a: a.boxed(),
            a_bounds: a.node_bounds(),
            b: b.boxed(),
            b_vertices: b.leaf_vertices(),
            b_in_a,
            cache,
        })
    })
}

impl<'a> LeafTest<'a> {
    /// A's triangles in its tree's order and the box around each node's triangles: A's side
    /// of a leaf test, for the distance queries' own leaf test.
    #[inline]
    pub fn a_side(&self) -> (&'a [Boxed], &'a [Aabb]) {
        (self.a, self.a_bounds)
    }

    /// The triangles of B's leaf `b` placed in A's frame (on first use in this query) and the
    /// box around them.
    #[inline]
    pub fn placed(&mut self, b: &Leaf) -> (&[Boxed], Aabb) {
        let around = self.cache.around(self.b_vertices, self.b_in_a, b);
        (self.cache.triangles(self.b, self.b_in_a, b), around)
    }

    /// The triangles of B's leaf `b` placed in A's frame (on first use in this query), for a
    /// test that needs no box around them.
    #[inline]
    pub fn placed_triangles(&mut self, b: &Leaf) -> &[Boxed] {
        self.cache.triangles(self.b, self.b_in_a, b)
    }

    /// The box around the triangles of B's leaf `b` placed in A's frame (computed on first
    /// use in this query; the triangles themselves are placed only when asked for).
    #[inline]
    pub fn placed_bounds(&mut self, b: &Leaf) -> Aabb {
        self.cache.around(self.b_vertices, self.b_in_a, b)
    }

    /// Asks for the distinct vertices of B's leaf `b` (what its box is taken around) to be
    /// brought into the cache if the leaf's box is not yet known in this query: the traversal
    /// calls it when it splits B's node into leaves, so that their misses overlap with each
    /// other and with the work before the boxes are needed, which otherwise waits for them
    /// (measurements in `docs/performance.md`).
    #[inline]
    pub fn prefetch_leaf(&self, b: &Leaf) {
        if !self.cache.is_boxed(b.node) {
            crate::prefetch::lines(self.b_vertices.of(b.node));
        }
    }

    /// Whether the box around the triangles of node `a` of A meets the box around the placed
    /// triangles of leaf `b` of B. Exact (box comparisons, [`aabb_aabb::overlaps`]): `false` proves every triangle
    /// pair below the two nodes disjoint.
    #[inline]
    pub fn meets_leaf(&mut self, a: usize, b: &Leaf) -> bool {
        let around_b = self.cache.around(self.b_vertices, self.b_in_a, b);
        aabb_aabb::overlaps(&self.a_bounds[a], &around_b)
    }

    /// Appends the intersecting pairs among `a × b` (two leaves) that `keep` accepts to `out`,
    /// each as `order(a, b)` (mesh indices); breaks once `out` holds `limit` pairs.
    ///
    /// A triangle of B whose box misses the box around A's leaf triangles is skipped before the
    /// pairwise loop (box comparisons are exact, so disjoint boxes prove the triangles disjoint). The box tests of a run of
    /// triangles are recorded as bits before any exact test, so a box test, whose outcome is
    /// hard to predict, costs no branch (fewer mispredictions for a few more instructions; the
    /// counts are in `docs/performance.md`). With its box test, each pair of A's run is screened
    /// by B's triangle's plane ([`Prepared::plane_separates`](tri_tri_exact::Prepared::plane_separates):
    /// A's triangle certainly on one side of it), into the same bits: the boxes of long, tilted
    /// triangles (CAD meshes' slivers) overlap far more often than the triangles meet.
    pub fn test(
        &mut self,
        a: Leaf,
        b: Leaf,
        keep: impl Fn(u32, u32) -> bool,
        order: impl Fn(u32, u32) -> [u32; 2],
        out: &mut Vec<[u32; 2]>,
        limit: usize,
    ) -> ControlFlow<()> {
        let pa = &self.a[a.start..a.start + a.triangles.len()];
        let around_a = &self.a_bounds[a.node];
        let pb = self.cache.triangles(self.b, self.b_in_a, &b);
        // Box (and plane) tests are made for a whole run of triangles and recorded as bits,
        // without a branch (their outcome is hard to predict); the loops then visit the set bits.
        for (run_b, first_b) in pb.chunks(64).zip((0..).step_by(64)) {
            for j in set_bits(bits(run_b, |qb| aabb_aabb::overlaps(around_a, &qb.bounds))) {
                let (qb, tb) = (&run_b[j], b.triangles[first_b + j]);
                for (run_a, first_a) in pa.chunks(64).zip((0..).step_by(64)) {
                    for k in set_bits(bits(run_a, |qa| {
                        aabb_aabb::overlaps(&qa.bounds, &qb.bounds)
                            & !qb.tri.plane_separates(&qa.tri)
                    })) {
                        let ta = a.triangles[first_a + k];
                        if keep(ta, tb)
                            && tri_tri_exact::intersects_prepared(&run_a[k].tri, &qb.tri)
                        {
                            out.push(order(ta, tb));
                            if out.len() >= limit {
                                return ControlFlow::Break(());
                            }
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Bit `k` set when `test` accepts `items[k]` (at most 64 items), computed without branches.
#[inline]
fn bits<T>(items: &[T], test: impl Fn(&T) -> bool) -> u64 {
    debug_assert!(items.len() <= 64);
    items
        .iter()
        .enumerate()
        .fold(0, |bits, (k, item)| bits | u64::from(test(item)) << k)
}

/// The positions of the set bits of `bits`, lowest first.
#[inline]
fn set_bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            k
        })
    })
}

/// The triangle `t` of `mesh` with its vertices placed by `pose`.
pub(crate) fn placed_triangle(mesh: &TriMesh, t: usize, pose: &Pose) -> Triangle {
    let [i, j, k] = mesh.triangles()[t];
    let v = mesh.vertices();
    let p = |x: u32| -> Point { place(pose, &v[x as usize]) };
    Triangle::new(p(i), p(j), p(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::wavy_field;
    use obbtree_bv::{BoundingVolume, Vector};

    /// Each leaf's box, taken around its distinct vertices placed once, is the box of its
    /// placed triangles (each vertex placed once per triangle, as the leaf test sees them),
    /// whether asked for before the triangles or with them; and the leaf's distinct vertices
    /// are fewer than its triangles' corners.
    #[test]
    fn a_leafs_box_from_its_distinct_vertices_is_its_triangles_box() {
        let b: MeshModel = MeshModel::new(wavy_field(12)).unwrap();
        let a = b.clone();
        let pose = Pose::new(
            Vector::new(1e3 + 0.1, -7.25, 3.0),
            Vector::new(0.3, -1.1, 0.7),
        )
        .unwrap();
        let leaves: Vec<usize> = (0..b.tree().nodes().len())
            .filter(|&k| b.tree().node(k).is_leaf())
            .collect();
        assert!(leaves.len() > 10);
        let mut shared = 0;
        for box_first in [true, false] {
            with_leaf_test(&a, &b, &pose, |test| {
                for &node in &leaves {
                    let leaf = Leaf::of(b.tree(), node);
                    let expected = leaf
                        .triangles
                        .iter()
                        .map(|&t| {
                            Aabb::from_points(
                                &placed_triangle(b.mesh(), t as usize, &pose).vertices(),
                            )
                        })
                        .reduce(|u, v| u.merge(&v))
                        .unwrap();
                    let first = box_first.then(|| test.placed_bounds(&leaf));
                    let (triangles, around) = test.placed(&leaf);
                    assert_eq!(around, expected);
                    assert_eq!(first.unwrap_or(around), expected);
                    for (placed, &t) in triangles.iter().zip(leaf.triangles) {
                        let triangle = placed_triangle(b.mesh(), t as usize, &pose);
                        assert_eq!(*placed.tri.vertices(), triangle.vertices());
                    }
                    let corners = 3 * leaf.triangles.len();
                    shared += corners - b.leaf_vertices().of(node).len();
                }
            });
        }
        assert!(shared > 0);
        // The index's bytes: its points, counted leaf by leaf, and a range per node.
        let points: usize = leaves.iter().map(|&k| b.leaf_vertices().of(k).len()).sum();
        assert_eq!(
            b.leaf_vertices().memory_bytes(),
            points * std::mem::size_of::<Point>() + b.tree().nodes().len() * 8
        );
    }
}
