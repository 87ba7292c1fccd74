//! The leaf test: exact triangle–triangle predicate behind an exact bounding-box filter, with
//! each triangle placed and boxed at most once per query.

use super::place;
use crate::model::index::boxes::Boxed;
use crate::MeshModel;
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Aabb, BoundingVolume, Point, Pose, TriMesh, Triangle};
use obbtree_tree::Bvh;
use std::cell::RefCell;
use std::ops::ControlFlow;

/// The placed, boxed triangles of one mesh, filled a leaf at a time during a query: a leaf of B
/// meets many leaves of A, and placing its triangles again for each would dominate the leaf
/// work. A query's placed leaves are packed from the start of one array in the order they are
/// first needed (each leaf's triangles contiguous, so the leaf test streams through them), so
/// the few thousand triangles a query places stay together in cache instead of being spread
/// over an array the size of B. Each placed leaf also keeps the box around its placed
/// triangles. A leaf is valid when its stamp equals the query's generation, so starting a query
/// costs nothing (no clearing), and the memory (about 152 bytes per triangle and 56 per node
/// of the largest mesh B seen) is kept for the next query until [`release`] frees it.
#[derive(Default)]
struct PlacedCache {
    /// Per node of B: the generation in which the leaf was placed, where its triangles start
    /// in `items`, and their box.
    leaves: Vec<(u32, u32, Aabb)>,
    generation: u32,
    items: Vec<Boxed>,
    /// Triangles placed in this query: the used start of `items`.
    used: usize,
}

impl PlacedCache {
    /// Invalidates every entry and makes room for `triangles` triangles and `nodes` nodes.
    fn begin(&mut self, triangles: usize, nodes: usize) {
        let origin = Point::origin();
        let empty = Boxed::new(Triangle::new(origin, origin, origin));
        if self.items.len() < triangles {
            self.items.resize(triangles, empty);
        }
        if self.leaves.len() < nodes {
            self.leaves.resize(nodes, (0, 0, empty.bounds));
        }
        self.used = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.leaves.iter_mut().for_each(|l| l.0 = 0);
            self.generation = 1;
        }
    }

    /// Whether B's leaf `node` is placed in this query.
    #[inline]
    fn is_placed(&self, node: usize) -> bool {
        self.leaves[node].0 == self.generation
    }

    /// The triangles of `leaf` (B's triangles in tree order `b`, placed by `pose`) and the box
    /// around them, computed on first use in this query.
    #[inline]
    fn leaf(&mut self, b: &[Boxed], pose: &Pose, leaf: &Leaf) -> (&[Boxed], Aabb) {
        let n = leaf.triangles.len();
        if !self.is_placed(leaf.node) {
            let start = self.used;
            let placed = &mut self.items[start..start + n];
            for (item, local) in placed.iter_mut().zip(&b[leaf.start..leaf.start + n]) {
                let [p, q, r] = *local.tri.vertices();
                *item = Boxed::new(Triangle::new(
                    place(pose, &p),
                    place(pose, &q),
                    place(pose, &r),
                ));
            }
            let around = placed
                .iter()
                .skip(1)
                .fold(placed[0].bounds, |u, p| u.merge(&p.bounds));
            self.used += n;
            self.leaves[leaf.node] = (self.generation, start as u32, around);
        }
        let (_, start, around) = self.leaves[leaf.node];
        let start = start as usize;
        (&self.items[start..start + n], around)
    }
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
        cache.begin(b.boxed().len(), b.tree().nodes().len());
        query(&mut LeafTest {
            a: a.boxed(),
            a_bounds: a.node_bounds(),
            b: b.boxed(),
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
        self.cache.leaf(self.b, self.b_in_a, b)
    }

    /// Asks for the vertices of B's leaf `b` (what placing it reads) to be brought into the
    /// cache if the leaf is not yet placed in this query: the traversal calls it when it
    /// splits B's node into leaves, so that their misses overlap with each other and with the
    /// work before the leaves are placed, which otherwise waits for them (measurements in
    /// `docs/performance.md`).
    #[inline]
    pub fn prefetch_leaf(&self, b: &Leaf) {
        if !self.cache.is_placed(b.node) {
            for t in &self.b[b.start..b.start + b.triangles.len()] {
                // The vertices' 72 bytes start on an 8-byte boundary, so they span at most two
                // lines: their first and last bytes'. (`prefetch::lines`, which loops over as
                // many lines as the skew needs, costs 0.6% more instructions in the query.)
                let [first, _, last] = t.tri.vertices();
                crate::prefetch::line(&first.x);
                crate::prefetch::line(&last.z);
            }
        }
    }

    /// Whether the box around the triangles of node `a` of A meets the box around the placed
    /// triangles of leaf `b` of B. Exact (box comparisons, [`aabb_aabb::overlaps`]): `false` proves every triangle
    /// pair below the two nodes disjoint.
    #[inline]
    pub fn meets_leaf(&mut self, a: usize, b: &Leaf) -> bool {
        let (_, around_b) = self.cache.leaf(self.b, self.b_in_a, b);
        aabb_aabb::overlaps(&self.a_bounds[a], &around_b)
    }

    /// Appends the intersecting pairs among `a × b` (two leaves) that `keep` accepts to `out`,
    /// each as `order(a, b)` (mesh indices); breaks once `out` holds `limit` pairs.
    ///
    /// A triangle of B whose box misses the box around A's leaf triangles is skipped before the
    /// pairwise loop (box comparisons are exact, so disjoint boxes prove the triangles disjoint). The box tests of a run of
    /// triangles are recorded as bits before any exact test, so a box test, whose outcome is
    /// hard to predict, costs no branch (fewer mispredictions for a few more instructions; the
    /// counts are in `docs/performance.md`).
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
        let (pb, _) = self.cache.leaf(self.b, self.b_in_a, &b);
        // Box tests are made for a whole run of triangles and recorded as bits, without a branch
        // (their outcome is hard to predict); the loops then visit the set bits.
        for (run_b, first_b) in pb.chunks(64).zip((0..).step_by(64)) {
            for j in set_bits(bits(run_b, |qb| aabb_aabb::overlaps(around_a, &qb.bounds))) {
                let (qb, tb) = (&run_b[j], b.triangles[first_b + j]);
                for (run_a, first_a) in pa.chunks(64).zip((0..).step_by(64)) {
                    for k in set_bits(bits(run_a, |qa| {
                        aabb_aabb::overlaps(&qa.bounds, &qb.bounds)
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
