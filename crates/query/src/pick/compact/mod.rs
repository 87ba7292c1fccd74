//! A compact 4-wide AABB tree for picking: every node holds its (up to) four children's boxes,
//! triangles' vertices copied in leaf order. The layout is here; the build from a binary AABB
//! tree in [`build`], the walk in [`walk`].

mod build;
mod walk;

use super::ray::MeshRay;
use super::traverse::{RayTree, Visitor};
use obbtree_bv::{Aabb, TriMesh, Triangle};

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

impl PickTree {
    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + match &self.triangles {
                Leaves::Single(t) => t.len() * std::mem::size_of::<LeafTriangle<f32>>(),
                Leaves::Double(t) => t.len() * std::mem::size_of::<LeafTriangle<f64>>(),
            }
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
            Leaves::Single(triangles) => walk::walk_over(self, triangles, ray, visitor),
            Leaves::Double(triangles) => walk::walk_over(self, triangles, ray, visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The run-time choice of build: the portable walk and the AVX2 walk report the same hits in
    //! the same order, and both the hits of a brute force over every triangle (the triangle
    //! test on each, no tree): the second check holds on any CPU, and a CPU without AVX2, where
    //! the dispatched walk is the portable one, says so on stderr.
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
                    let want = brute_force(&mesh, &ray.ray);
                    assert_eq!(reported(&portable, closest), want_of(&want, closest), "ray {k}");
                    compared += usize::from(!portable.is_empty());
                }
            }
            assert!(compared > 1000, "too few rays hit: {compared}");
        }
        #[cfg(target_arch = "x86_64")]
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!(
                "this CPU has no AVX2: the AVX2 walk was not run (the portable walk was checked \
                 against the brute force)"
            );
        }
    }

    /// Every triangle the ray hits, by the triangle test alone, as `(t bits, triangle)` sorted.
    fn brute_force(mesh: &TriMesh, ray: &Ray) -> Vec<(u64, u32)> {
        let ray = obbtree_bv::intersect::ray_triangle::WatertightRay::new(ray);
        let mut hits: Vec<(u64, u32)> = (0..mesh.triangles().len())
            .filter_map(|i| {
                let t = mesh.triangle(i);
                ray.cast_vertices(&t.a, &t.b, &t.c)
                    .map(|h| (h.t.to_bits(), i as u32))
            })
            .collect();
        hits.sort_unstable();
        hits
    }

    /// The walk's hits as the brute force lists them: all, or (`closest`) the first.
    fn reported(hits: &[(u32, TriangleHit)], closest: bool) -> Vec<(u64, u32)> {
        let mut all: Vec<(u64, u32)> = hits.iter().map(|(i, h)| (h.t.to_bits(), *i)).collect();
        all.sort_unstable();
        if closest {
            all.truncate(1);
        }
        all
    }

    /// The brute force's hits: all, or (`closest`) the first.
    fn want_of(hits: &[(u64, u32)], closest: bool) -> Vec<(u64, u32)> {
        hits[..if closest { hits.len().min(1) } else { hits.len() }].to_vec()
    }
}
