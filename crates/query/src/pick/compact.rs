//! A compact 4-wide AABB tree for picking: every node holds its (up to) four children's boxes,
//! triangles' vertices copied in leaf order.

use super::ray::MeshRay;
use super::traverse::{RayTree, Visitor};
use super::volume::{ROBUST_FAR, ROBUST_NEAR};
use crate::prefetch;
use arrayvec::ArrayVec;
use obbtree_bv::{Aabb, BoundingVolume, TriMesh, Triangle};
use obbtree_tree::{BuildError, BuildOptions, Bvh, NodeKind, MAX_DEPTH};

/// Children per node.
const WIDTH: usize = 4;

/// Leaf triangles run through the miss filter together: two, one SIMD register per value
/// (four, each value in two registers, spilled and cost 10% more instructions per ray).
const LANES: usize = 2;

/// A reference to a child: an internal node (index into [`PickTree::nodes`]) or a leaf (a run
/// of [`PickTree::triangles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Child {
    /// Internal: node index. Leaf: first position.
    start: u32,
    /// Internal: 0. Leaf: number of triangles.
    count: u32,
}

/// An internal node: its children's boxes side by side (structure of arrays, so the four slab
/// tests run together: `lo[axis][child]`, `hi[axis][child]`), in `f32` rounded outwards so each
/// stored box contains the exact one, and the children. Two 64-byte cache lines. A node with
/// fewer than four children fills the rest with empty boxes (`lo = +inf`, `hi = -inf`), which
/// every ray misses.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
struct Node {
    lo: [[f32; WIDTH]; 3],
    hi: [[f32; WIDTH]; 3],
    children: [Child; WIDTH],
}

/// The largest `f32` at most `x` (finite).
fn f32_down(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) <= x {
        y
    } else if y > 0.0 {
        f32::from_bits(y.to_bits() - 1)
    } else if y < 0.0 {
        f32::from_bits(y.to_bits() + 1)
    } else {
        -f32::from_bits(1)
    }
}

/// The smallest `f32` at least `x` (finite).
fn f32_up(x: f64) -> f32 {
    -f32_down(-x)
}

/// The picking layout of a [`Bvh<Aabb>`]: the binary tree collapsed into a 4-wide one (each
/// node adopts its children's children, always opening the child of largest surface area, until
/// it has four), so a ray takes about half as many dependent steps through memory, each reading
/// one 128-byte record and testing four boxes together (stored in `f32` rounded outwards,
/// tested in `f64`). Each triangle's three vertices are copied in leaf order next to its mesh
/// index, so a leaf's triangles are one contiguous read instead of index lookups into the mesh.
/// Same answers as walking the [`Bvh`] it was made from (the same leaves and triangle tests;
/// the slightly larger boxes only cost a few more box tests). The collapse follows Wald et al.,
/// "Getting rid of packets: efficient SIMD single-ray traversal using multi-branching BVHs"
/// (IEEE RT 2008), and Wald, Woop, Benthin, Johnson & Ernst, "Embree: a kernel framework for efficient CPU
/// ray tracing" (SIGGRAPH 2014), whose 4-wide nodes this mirrors.
///
/// Memory: 128 bytes per node (about a third of the binary tree's internal nodes) and 40 bytes
/// per triangle (80 when the mesh's coordinates are not all `f32` values) ([`PickTree::memory_bytes`]); built in one pass over the source tree.
#[derive(Clone, Debug, PartialEq)]
pub struct PickTree {
    root_box: Aabb,
    root: Child,
    nodes: Vec<Node>,
    /// The triangle at each leaf position.
    triangles: Leaves,
}

/// The leaf triangles, in `f32` when every vertex coordinate of the mesh is an `f32` (as in
/// meshes read from single-precision files: half the memory, and the same `f64` values once
/// widened, so the same answers), in `f64` otherwise.
#[derive(Clone, Debug, PartialEq)]
enum Leaves {
    Single(Vec<LeafTriangle<f32>>),
    Double(Vec<LeafTriangle<f64>>),
}

/// A triangle's vertices and its mesh index, read together by a leaf (one cache miss, not two).
#[derive(Clone, Debug, PartialEq)]
struct LeafTriangle<T> {
    vertices: [[T; 3]; 3],
    index: u32,
}

impl<T: Copy + Into<f64>> LeafTriangle<T> {
    /// The triangle in `f64` (exact).
    #[inline]
    fn triangle(&self) -> Triangle {
        let [a, b, c] = self
            .vertices
            .map(|v| obbtree_bv::Point::new(v[0].into(), v[1].into(), v[2].into()));
        Triangle { a, b, c }
    }
}

/// Up to [`WIDTH`] nodes of the binary tree below its internal node `index`: starting from its
/// two children, the internal one of largest surface area is replaced by its two children
/// until there are four (or only leaves).
fn collapse(tree: &Bvh<Aabb>, index: usize) -> ([usize; WIDTH], usize) {
    let nodes = tree.nodes();
    let mut kids = [0usize; WIDTH];
    let Some([l, r]) = nodes[index].children() else {
        unreachable!("collapse starts at an internal node");
    };
    kids[..2].copy_from_slice(&[l, r]);
    let mut count = 2;
    while count < WIDTH {
        let widest = kids[..count]
            .iter()
            .enumerate()
            .filter(|(_, &k)| !nodes[k].is_leaf())
            .max_by(|(_, &a), (_, &b)| {
                let area = |k: usize| nodes[k].bv().surface_area();
                area(a).total_cmp(&area(b))
            })
            .map(|(slot, _)| slot);
        let Some(slot) = widest else { break };
        let Some([l, r]) = nodes[kids[slot]].children() else {
            unreachable!("only internal nodes are opened");
        };
        kids[slot] = l;
        kids[count] = r;
        count += 1;
    }
    (kids, count)
}

impl PickTree {
    /// Builds the binary AABB tree for picking (the default [`BuildOptions`]: SAH splits,
    /// leaves of at most 7 triangles, in parallel) and its compact copy. The leaf size measured
    /// by `examples/pick_leaf_size.rs` (100,000 incoherent rays, one thread, interleaved
    /// rounds): with the leaf filter on two triangles at a time, leaf sizes 4 to 7 pick within
    /// 2% of each other on dragon_res2 and on the 871k dragon, and 7 takes the least memory
    /// (10.6 MB against 12.3 MB for 4 on dragon_res2).
    pub fn build(mesh: &TriMesh) -> Result<Self, BuildError> {
        Ok(Self::new(
            mesh,
            &Bvh::build(mesh, &BuildOptions::default())?,
        ))
    }

    /// The compact copy of `tree`, which must have been built over `mesh`.
    pub fn new(mesh: &TriMesh, tree: &Bvh<Aabb>) -> Self {
        let source = tree.nodes();
        let empty = Node {
            lo: [[f32::INFINITY; WIDTH]; 3],
            hi: [[f32::NEG_INFINITY; WIDTH]; 3],
            children: [Child { start: 0, count: 0 }; WIDTH],
        };
        let mut nodes = Vec::new();
        // Binary internal nodes still to be collapsed, with the index of their wide node.
        let mut open = Vec::new();
        let child = |i: usize, nodes: &mut Vec<Node>, open: &mut Vec<(usize, usize)>| match source
            [i]
            .kind()
        {
            NodeKind::Internal { .. } => {
                nodes.push(empty.clone());
                open.push((i, nodes.len() - 1));
                Child {
                    start: (nodes.len() - 1) as u32,
                    count: 0,
                }
            }
            NodeKind::Leaf(range) => Child {
                start: range.start as u32,
                count: range.len() as u32,
            },
        };
        let root = child(0, &mut nodes, &mut open);
        while let Some((binary, wide)) = open.pop() {
            let (kids, count) = collapse(tree, binary);
            for (lane, &k) in kids[..count].iter().enumerate() {
                let b = source[k].bv();
                let reference = child(k, &mut nodes, &mut open);
                let node = &mut nodes[wide];
                for axis in 0..3 {
                    node.lo[axis][lane] = f32_down(b.mins[axis]);
                    node.hi[axis][lane] = f32_up(b.maxs[axis]);
                }
                node.children[lane] = reference;
            }
        }
        let order = tree.triangle_order();
        let single = mesh
            .vertices()
            .iter()
            .all(|p| p.iter().all(|&x| f64::from(x as f32) == x));
        let triangles = if single {
            Leaves::Single(leaf_triangles(mesh, order, |x| x as f32))
        } else {
            Leaves::Double(leaf_triangles(mesh, order, |x| x))
        };
        Self {
            root_box: *tree.root().bv(),
            root,
            nodes,
            triangles,
        }
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + match &self.triangles {
                Leaves::Single(t) => t.len() * std::mem::size_of::<LeafTriangle<f32>>(),
                Leaves::Double(t) => t.len() * std::mem::size_of::<LeafTriangle<f64>>(),
            }
    }
}

/// The triangles of `mesh` in leaf `order`, coordinates converted by `convert`.
fn leaf_triangles<T>(
    mesh: &TriMesh,
    order: &[u32],
    convert: impl Fn(f64) -> T + Copy,
) -> Vec<LeafTriangle<T>> {
    order
        .iter()
        .map(|&index| {
            let t = mesh.triangle(index as usize);
            LeafTriangle {
                vertices: [t.a, t.b, t.c].map(|p| [p.x, p.y, p.z].map(convert)),
                index,
            }
        })
        .collect()
}

/// Tests a leaf's triangles, [`LANES`] at a time through the branch-free float filter
/// ([`WatertightRay::certainly_misses`](obbtree_bv::intersect::ray_triangle::WatertightRay::certainly_misses))
/// and the survivors through the watertight test (the same answers: the filter rejects only
/// triangles that test misses); whether the visitor ended the walk. The filter takes 7–9% off
/// a ray on dragon_res2 and the 871k dragon (most leaf triangles are misses, and each used to
/// cost a branch that mispredicted often). Storing the leaves as blocks of four instead (no
/// gathering) was 15% slower with leaves of up to 7 triangles (padding, and the prefetch no
/// longer covering a leaf), and 2% slower with leaves of up to 4; blocks of two cost 5% fewer
/// instructions but no less time, and 7% more memory.
#[inline(always)]
fn leaf<T: Copy + Into<f64>>(
    triangles: &[LeafTriangle<T>],
    leaf: Child,
    ray: &MeshRay,
    visitor: &mut impl Visitor,
) -> bool {
    let range = leaf.start as usize..(leaf.start + leaf.count) as usize;
    for chunk in triangles[range].chunks(LANES) {
        // The chunk's coordinates side by side (a short chunk repeats its last triangle).
        let last = chunk.len() - 1;
        let vertices = std::array::from_fn(|v| {
            std::array::from_fn(|k| {
                std::array::from_fn(|l| chunk[l.min(last)].vertices[v][k].into())
            })
        });
        let misses = ray.watertight.certainly_misses(&vertices);
        for (triangle, miss) in chunk.iter().zip(misses) {
            if miss {
                continue;
            }
            let tri = triangle.triangle();
            if let Some(hit) = ray.watertight.cast(&tri) {
                if hit.t <= visitor.bound() && visitor.hit(triangle.index, &tri, hit).is_break() {
                    return true;
                }
            }
        }
    }
    false
}

/// The slab test of [`Aabb`]'s [`RayVolume`](super::RayVolume) implementation on a node's four
/// boxes at once: each box's entry parameter (shrunk by [`ROBUST_NEAR`]) and whether the ray
/// meets it within `[0, t_max]`. The exit parameter is multiplied by [`ROBUST_FAR`] once, after
/// the minimum over the slabs rather than on each: rounding is monotone, so
/// `fl(F · min xₖ) = min fl(F · xₖ)` and the result is the same.
#[inline(always)]
fn entries(node: &Node, ray: &MeshRay, t_max: f64) -> ([f64; WIDTH], [bool; WIDTH]) {
    let mut t0 = [0.0f64; WIDTH];
    let mut t1 = [t_max; WIDTH];
    for k in 0..3 {
        let (near, far) = if ray.negative[k] {
            (&node.hi[k], &node.lo[k])
        } else {
            (&node.lo[k], &node.hi[k])
        };
        let (o, inv) = (ray.ray.origin[k], ray.inv_dir[k]);
        for c in 0..WIDTH {
            let t_near = (f64::from(near[c]) - o) * inv;
            let t_far = (f64::from(far[c]) - o) * inv;
            t0[c] = if t_near > t0[c] { t_near } else { t0[c] };
            t1[c] = if t_far < t1[c] { t_far } else { t1[c] };
        }
    }
    let mut hit = [false; WIDTH];
    for c in 0..WIDTH {
        hit[c] = t0[c] <= t1[c] * ROBUST_FAR;
        t0[c] *= ROBUST_NEAR;
    }
    (t0, hit)
}

/// The low bits of a child's sort key that hold its slot in the node.
const SLOT: u64 = WIDTH as u64 - 1;

/// The sort key of a node's child in slot `slot` entered at `t` (met: `t >= 0`, as
/// [`entries`] gives): the bits of `t`, which order like the values for non-negative floats,
/// with the slot in the two lowest. Clearing them lowers `t` by at most three units in the
/// last place, an earlier entry, so a node is never skipped that the exact entry would keep.
/// A missed child gets `u64::MAX`, after every met one.
#[inline(always)]
fn sort_key(slot: usize, t: f64, met: bool) -> u64 {
    if met {
        (t.to_bits() & !SLOT) | slot as u64
    } else {
        u64::MAX
    }
}

/// The child and entry a [`sort_key`] stands for.
#[inline(always)]
fn decode(node: &Node, key: u64) -> (Child, f64) {
    (
        node.children[(key & SLOT) as usize],
        f64::from_bits(key & !SLOT),
    )
}

/// Sorts a node's four keys with a network of five compare-exchanges (Knuth, TAOCP vol. 3,
/// §5.3.4), each a pair of conditional moves: no branch. The insertion sort it replaced took
/// a branch per step whose count depends on how many children the ray meets, which incoherent
/// rays mispredict (cachegrind: ~7 of ~17 mispredicted branches per ray on dragon_res2);
/// measured 5–6% less time per ray there, 2–3% on the 871k dragon (interleaved runs of
/// `examples/pick_leaf_size.rs`).
#[inline(always)]
fn sort_keys(keys: &mut [u64; WIDTH]) {
    const _: () = assert!(WIDTH == 4, "the network sorts four keys");
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (a, b) = (keys[i], keys[j]);
        keys[i] = a.min(b);
        keys[j] = a.max(b);
    }
}

impl RayTree for PickTree {
    fn walk(&self, _mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has AVX2, the one feature `walk_avx2` is compiled for.
            unsafe {
                self.walk_avx2(ray, visitor);
            }
            return;
        }
        self.walk_leaves(ray, visitor);
    }
}

impl PickTree {
    /// [`RayTree::walk`] compiled for AVX2, chosen at run time: the same code, with the slab
    /// test's four `f64` lanes in one register and three-operand instructions throughout
    /// (~15% fewer instructions per ray; measured 3–8% less time on dragon_res2 and the 871k
    /// dragon, interleaved runs of `examples/pick_leaf_size.rs`, as fast as building the whole
    /// program for AVX2). Rust does not contract `a * b + c` into fused operations, so every
    /// result is rounded as in the portable build: the same answers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn walk_avx2(&self, ray: &MeshRay, visitor: &mut impl Visitor) {
        self.walk_leaves(ray, visitor);
    }

    /// [`RayTree::walk`] over either form of the leaf triangles: the code of both builds,
    /// inlined into [`Self::walk_avx2`] and, called from anywhere else, the portable build.
    #[inline(always)]
    fn walk_leaves(&self, ray: &MeshRay, visitor: &mut impl Visitor) {
        match &self.triangles {
            Leaves::Single(triangles) => self.walk_over(triangles, ray, visitor),
            Leaves::Double(triangles) => self.walk_over(triangles, ray, visitor),
        }
    }

    /// [`RayTree::walk`] with the leaf triangles stored as `T`: the walk of the generic
    /// traversal (nearest child first, skip entries beyond the bound) over four children per
    /// step: the children the ray meets are sorted by entry, the nearest is visited next and
    /// the others wait on the stack, nearer on top.
    #[inline(always)]
    fn walk_over<T: Copy + Into<f64>>(
        &self,
        triangles: &[LeafTriangle<T>],
        ray: &MeshRay,
        visitor: &mut impl Visitor,
    ) {
        use super::RayVolume;
        if self.root_box.entry(ray, visitor.bound()).is_none() {
            return;
        }
        // Each step leaves at most WIDTH - 1 children pending, on at most MAX_DEPTH levels: a
        // fixed, uninitialised buffer (a zeroed array of that size cost 4% of a query; a
        // `SmallVec`, which checks for its heap form on each push and pop, 2%).
        let mut stack: ArrayVec<(Child, f64), { (WIDTH - 1) * MAX_DEPTH }> = ArrayVec::new();
        let mut node = self.root;
        loop {
            if node.count > 0 {
                if leaf(triangles, node, ray, visitor) {
                    return;
                }
            } else {
                let wide = &self.nodes[node.start as usize];
                // Every child is asked for while the slab test decides which are met.
                // Three lines from the child's start (a node's two, most of a leaf's
                // triangles), the address chosen without a branch.
                for child in wide.children {
                    let at = child.start as usize;
                    let leaf = triangles.as_ptr().wrapping_add(at).cast::<u8>();
                    let node = self.nodes.as_ptr().wrapping_add(at).cast::<u8>();
                    let start = if child.count > 0 { leaf } else { node };
                    for line in 0..3 {
                        prefetch::line(start.wrapping_add(64 * line));
                    }
                }
                let (t, hit) = entries(wide, ray, visitor.bound());
                // The children met, nearest first, without a branch per child.
                let mut keys = std::array::from_fn(|c| sort_key(c, t[c], hit[c]));
                sort_keys(&mut keys);
                let n = hit.iter().filter(|&&h| h).count();
                if n > 0 {
                    for &key in keys[1..n].iter().rev() {
                        stack.push(decode(wide, key));
                    }
                    node = decode(wide, keys[0]).0;
                    continue;
                }
            }
            // The next pending child the ray still enters within the bound (which may have
            // shrunk since the child was pushed).
            loop {
                match stack.pop() {
                    Some((next, entry)) if entry <= visitor.bound() => {
                        node = next;
                        break;
                    }
                    Some(_) => {}
                    None => return,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The run-time choice of build: the portable walk and the AVX2 walk report the same hits in
    //! the same order (the picking tests against brute force run whichever this CPU gets; on a
    //! CPU without AVX2 this compares the portable walk with itself).
    use super::*;
    use obbtree_bv::intersect::ray_triangle::TriangleHit;
    use obbtree_bv::{Point, Ray};
    use rand::{Rng, SeedableRng};
    use std::ops::ControlFlow;

    /// Every hit reported, in order; `closest` shrinks the bound to the best `t` (the pruning
    /// of a first-hit query), otherwise the bound stays infinite (every hit).
    struct Record {
        closest: bool,
        bound: f64,
        hits: Vec<(u32, TriangleHit)>,
    }

    impl Visitor for Record {
        fn bound(&self) -> f64 {
            self.bound
        }

        fn hit(&mut self, triangle: u32, _: &Triangle, hit: TriangleHit) -> ControlFlow<()> {
            if self.closest {
                self.bound = self.bound.min(hit.t);
            }
            self.hits.push((triangle, hit));
            ControlFlow::Continue(())
        }
    }

    /// A bumpy terrain of `n × n` cells, its coordinates rounded to `f32` when `single`.
    fn terrain(n: u32, single: bool) -> TriMesh {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let round = |x: f64| if single { f64::from(x as f32) } else { x };
        let vertices = (0..=n)
            .flat_map(|i| (0..=n).map(move |j| (i, j)))
            .map(|(i, j)| {
                let h = rng.gen_range(-0.3..0.3);
                Point::new(
                    round(f64::from(i) * 0.37),
                    round(f64::from(j) * 0.37),
                    round(h),
                )
            })
            .collect();
        let at = |i: u32, j: u32| i * (n + 1) + j;
        let triangles = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .flat_map(|(i, j)| {
                [
                    [at(i, j), at(i + 1, j), at(i + 1, j + 1)],
                    [at(i, j), at(i + 1, j + 1), at(i, j + 1)],
                ]
            })
            .collect();
        TriMesh::new(vertices, triangles).expect("a valid terrain")
    }

    #[test]
    fn portable_and_avx2_walks_report_the_same_hits() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for single in [true, false] {
            let mesh = terrain(40, single);
            let tree = PickTree::build(&mesh).expect("tree");
            assert_eq!(
                matches!(tree.triangles, Leaves::Single(_)),
                single,
                "leaf storage"
            );
            let mut compared = 0;
            for k in 0..2000 {
                let origin = Point::new(
                    rng.gen_range(-2.0..17.0),
                    rng.gen_range(-2.0..17.0),
                    rng.gen_range(-3.0..3.0),
                );
                // Half aimed exactly at a vertex (shared by up to six triangles: the exact
                // test's ties), half at a random point.
                let target = if k % 2 == 0 {
                    mesh.vertices()[rng.gen_range(0..mesh.vertices().len())]
                } else {
                    Point::new(
                        rng.gen_range(0.0..14.8),
                        rng.gen_range(0.0..14.8),
                        rng.gen_range(-0.3..0.3),
                    )
                };
                let ray = MeshRay::in_mesh_frame(Ray::new(origin, target - origin));
                for closest in [false, true] {
                    let run = |walk: &dyn Fn(&mut Record)| {
                        let mut record = Record {
                            closest,
                            bound: f64::INFINITY,
                            hits: Vec::new(),
                        };
                        walk(&mut record);
                        record.hits
                    };
                    // Called here, outside any target feature: the portable build.
                    let portable = run(&|r| tree.walk_leaves(&ray, r));
                    let dispatched = run(&|r| tree.walk(&mesh, &ray, r));
                    assert_eq!(portable, dispatched, "ray {k}, closest {closest}");
                    compared += usize::from(!portable.is_empty());
                }
            }
            assert!(compared > 1000, "too few rays hit: {compared}");
        }
    }
}
