//! The walk of the compact tree: four slab tests at once, met children sorted by entry without
//! branches, leaf triangles through a SIMD miss filter, on the ordered walk every hierarchy
//! shares ([`walk_ordered`]).

use crate::pick::ray::MeshRay;
use crate::pick::traverse::{walk_ordered, OrderedTree, Pending, RayTree, Visitor};
use crate::pick::volume::{RayVolume, ROBUST_FAR, ROBUST_NEAR};
use crate::prefetch;
use crate::wide_order::nearest_child;
use obbtree_bv::TriMesh;
use obbtree_tree::wide::{Child, LeafTriangle, Leaves, Node, WideTree, WIDTH};
use std::ops::ControlFlow;

/// Leaf triangles run through the miss filter together: two, one SIMD register per value
/// (four, each value in two registers, spill).
const LANES: usize = 2;

/// Tests a leaf's triangles, [`LANES`] at a time through the branch-free float filter
/// ([`WatertightRay::certainly_misses`](obbtree_bv::intersect::ray_triangle::WatertightRay::certainly_misses))
/// and the survivors through the watertight test (the same answers: the filter rejects only
/// triangles that test misses); whether the visitor ended the walk. Most leaf triangles are
/// misses, and without the filter each cost a branch that mispredicted often. A leaf's
/// triangles are gathered into lanes here rather than stored as blocks of lanes, which were no
/// faster and took more memory for their padding (timings in `docs/performance.md`).
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

/// The compact tree with its leaf triangles stored as `T`, as the ordered walk sees it.
struct Compact<'t, T> {
    tree: &'t WideTree,
    triangles: &'t [LeafTriangle<T>],
}

/// [`RayTree::walk`](crate::pick::traverse::RayTree::walk) with the leaf triangles stored as
/// `T`: the ordered walk over four children per step.
#[inline(always)]
fn walk_over<T: Copy + Into<f64>>(
    tree: &WideTree,
    triangles: &[LeafTriangle<T>],
    ray: &MeshRay,
    visitor: &mut impl Visitor,
) {
    walk_ordered(&Compact { tree, triangles }, ray, visitor);
}

impl<T: Copy + Into<f64>> OrderedTree for Compact<'_, T> {
    type Ref = Child;

    #[inline(always)]
    fn root(&self, ray: &MeshRay, bound: f64) -> Option<Child> {
        self.tree.root_box.entry(ray, bound).map(|_| self.tree.root)
    }

    #[inline(always)]
    fn visit(
        &self,
        node: Child,
        ray: &MeshRay,
        visitor: &mut impl Visitor,
        pending: &mut Pending<Child>,
    ) -> ControlFlow<(), Option<Child>> {
        if node.count > 0 {
            if leaf(self.triangles, node, ray, visitor) {
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(None);
        }
        ControlFlow::Continue(self.nearest(node, ray, visitor.bound(), pending))
    }
}

impl<T: Copy + Into<f64>> Compact<'_, T> {
    /// The children met, nearest first, without a branch per child: the four slab tests
    /// together, the entries sorted as keys. Every child is asked for while the slab test
    /// decides which are met: three lines from the child's start (a node's two, most of a
    /// leaf's triangles), the address chosen without a branch.
    #[inline(always)]
    fn nearest(
        &self,
        node: Child,
        ray: &MeshRay,
        bound: f64,
        pending: &mut Pending<Child>,
    ) -> Option<Child> {
        let wide = &self.tree.nodes[node.start as usize];
        for child in wide.children {
            let at = child.start as usize;
            let leaf = self.triangles.as_ptr().wrapping_add(at).cast::<u8>();
            let node = self.tree.nodes.as_ptr().wrapping_add(at).cast::<u8>();
            let start = if child.count > 0 { leaf } else { node };
            for line in 0..3 {
                prefetch::line(start.wrapping_add(64 * line));
            }
        }
        let (t, hit) = entries(wide, ray, bound);
        nearest_child(wide, t, hit, |entry| pending.push(entry)).map(|(child, _)| child)
    }
}

impl RayTree for WideTree {
    fn walk(&self, _mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has AVX2, the one feature `walk_avx2` is compiled for.
            unsafe {
                walk_avx2(self, ray, visitor);
            }
            return;
        }
        walk_leaves(self, ray, visitor);
    }
}

/// [`RayTree::walk`] compiled for AVX2, chosen at run time: the same code, with the slab
/// test's four `f64` lanes in one register and three-operand instructions throughout. Rust does
/// not contract `a * b + c` into fused operations, so every result is rounded as in the
/// portable build: the same answers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn walk_avx2(tree: &WideTree, ray: &MeshRay, visitor: &mut impl Visitor) {
    walk_leaves(tree, ray, visitor);
}

/// [`RayTree::walk`] over either form of the leaf triangles: the code of both builds, inlined
/// into [`walk_avx2`] and, called from anywhere else, the portable build.
#[inline(always)]
fn walk_leaves(tree: &WideTree, ray: &MeshRay, visitor: &mut impl Visitor) {
    match &tree.triangles {
        Leaves::Single(triangles) => walk_over(tree, triangles, ray, visitor),
        Leaves::Double(triangles) => walk_over(tree, triangles, ray, visitor),
    }
}

#[cfg(test)]
mod tests {
    //! The run-time choice of build: the portable walk and the AVX2 walk report the same hits in
    //! the same order, and both the hits of a brute force over every triangle (the triangle
    //! test on each, no tree): the second check holds on any CPU, and a CPU without AVX2, where
    //! the dispatched walk is the portable one, says so on stderr.
    use super::*;
    use crate::test_meshes::grid;
    use obbtree_bv::intersect::ray_triangle::TriangleHit;
    use obbtree_bv::{Point, Ray, Triangle};
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
        grid(n, |i, j| {
            let h = rng.gen_range(-0.3..0.3);
            Point::new(
                round(f64::from(i) * 0.37),
                round(f64::from(j) * 0.37),
                round(h),
            )
        })
    }

    #[test]
    fn portable_and_avx2_walks_report_the_same_hits() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for single in [true, false] {
            let mesh = terrain(40, single);
            let tree = WideTree::build(&mesh).expect("tree");
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
                    let portable = run(&|r| walk_leaves(&tree, &ray, r));
                    let dispatched = run(&|r| tree.walk(&mesh, &ray, r));
                    assert_eq!(portable, dispatched, "ray {k}, closest {closest}");
                    let want = brute_force(&mesh, &ray.ray);
                    assert_eq!(
                        reported(&portable, closest),
                        want_of(&want, closest),
                        "ray {k}"
                    );
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
        hits[..if closest {
            hits.len().min(1)
        } else {
            hits.len()
        }]
            .to_vec()
    }
}
