//! Shared test helpers: meshes (random soups, degenerate cases) and an independent invariant
//! checker that uses only the public accessors.

#![allow(dead_code)]

use obbtree_bv::{BoundingVolume, Point, TriMesh, Vector};
use obbtree_tree::{BuildOptions, Bvh, NodeKind, SplitRule, TreeVolume, MAX_DEPTH};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

#[path = "../../../../tests/common/knob.rs"]
pub mod knob;

/// The proptest configuration of the tree properties: 32 cases in CI, scaled by the one knob
/// `OBBTREE_PROPTEST_CASES`, failing seeds saved and replayed (see [`knob`]).
pub fn config() -> proptest::test_runner::Config {
    knob::config(32)
}

/// Every split rule.
pub const RULES: [SplitRule; 3] = [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah];

/// Build options with the given leaf size, split rule and parallelism, the volume's default fit,
/// and leaves made by count alone (no large-leaf splits: the shapes these tests assert, such as
/// the depth of copies of one triangle or one partition for every fit, are those of leaves by
/// count; `large_leaves.rs` tests the large-leaf splits, on these soups too).
pub fn options<V: TreeVolume>(
    leaf_size: usize,
    split: SplitRule,
    parallel: bool,
) -> BuildOptions<V> {
    BuildOptions {
        leaf_size,
        split,
        parallel,
        large_leaf_ratio: f64::INFINITY,
        ..Default::default()
    }
}

/// Instantiates `$tests!(module, Volume)` for every volume kind of the registry
/// (`obbtree_tree::volume_kinds!`, each in a module named after its variant), and for rectangle
/// swept spheres, which trees are built of for distances but no program chooses by name.
#[allow(unused_macros)] // tests/trees.rs includes this module without it
macro_rules! for_each_volume {
    ($tests:ident) => {
        mod each_volume {
            use super::*;
            obbtree_tree::volume_kinds!([crate::common::each_kind] $tests);
        }
        $tests!(rss, obbtree_bv::Rss);
    };
}

/// `$tests!(volume, Type)` in a module named after each kind of the list.
#[allow(unused_macros)]
macro_rules! each_kind {
    ($tests:ident $($variant:ident($volume:ty) = $name:literal,)+) => {
        $(
            #[allow(non_snake_case)]
            mod $variant {
                use super::*;
                $tests!(volume, $volume);
            }
        )+
    };
}
#[allow(unused_imports)]
pub(crate) use {each_kind, for_each_volume};

/// Containment tolerance of the tree tests: zero. Every volume type's fit and merge is
/// conservative (they widen for their own rounding), so the trees contain their triangles exactly
/// as `contains_point` evaluates it. Taking the mesh keeps the call sites explicit about scale.
pub fn tolerance(_mesh: &TriMesh) -> f64 {
    0.0
}

/// A random triangle soup of `n` triangles: vertices uniform in a cube of side `scale` at
/// `offset`, with some triangles sharing vertices, some duplicated, some degenerate.
pub fn soup(seed: u64, n: usize, scale: f64, offset: f64) -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let random_point = |rng: &mut Pcg64| {
        Point::new(
            offset + scale * rng.gen_range(-1.0..1.0),
            offset + scale * rng.gen_range(-1.0..1.0),
            offset + scale * rng.gen_range(-1.0..1.0),
        )
    };
    for _ in 0..n {
        match rng.gen_range(0..10) {
            // Reuse existing vertices (shared edges, duplicates, degenerate repeats).
            0..=2 if !vertices.is_empty() => {
                let k = vertices.len() as u32;
                triangles.push([
                    rng.gen_range(0..k),
                    rng.gen_range(0..k),
                    rng.gen_range(0..k),
                ]);
            }
            // A small triangle near a random point (clusters of tiny triangles).
            3..=6 => {
                let c = random_point(&mut rng);
                let base = vertices.len() as u32;
                for _ in 0..3 {
                    let d = Vector::new(
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                    );
                    vertices.push(c + d * scale * 0.01);
                }
                triangles.push([base, base + 1, base + 2]);
            }
            _ => {
                let base = vertices.len() as u32;
                for _ in 0..3 {
                    let p = random_point(&mut rng);
                    vertices.push(p);
                }
                triangles.push([base, base + 1, base + 2]);
            }
        }
    }
    TriMesh::new(vertices, triangles).unwrap()
}

/// A flat grid sheet at z = 0: `n × n` unit squares, two triangles each (an evenly tessellated
/// mesh).
pub fn sheet(n: u32) -> TriMesh {
    let vertices = (0..=n)
        .flat_map(|i| (0..=n).map(move |j| Point::new(f64::from(i), f64::from(j), 0.0)))
        .collect();
    let at = |i: u32, j: u32| i * (n + 1) + j;
    let triangles = (0..n)
        .flat_map(|i| {
            (0..n).flat_map(move |j| {
                [
                    [at(i, j), at(i + 1, j), at(i + 1, j + 1)],
                    [at(i, j), at(i + 1, j + 1), at(i, j + 1)],
                ]
            })
        })
        .collect();
    TriMesh::new(vertices, triangles).unwrap()
}

/// `n` copies of one triangle (same three vertex indices).
pub fn copies_of_one_triangle(n: usize) -> TriMesh {
    let vertices = vec![
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
    ];
    TriMesh::new(vertices, vec![[0, 1, 2]; n]).unwrap()
}

/// `n` distinct triangles all with centroid `(1, 2, 3)`: a fan of rotated copies.
pub fn shared_centroid(n: usize) -> TriMesh {
    let c = Point::new(1.0, 2.0, 3.0);
    let mut vertices = Vec::with_capacity(3 * n);
    for k in 0..n {
        let a = k as f64 * 0.001;
        let u = Vector::new(a.cos(), a.sin(), 0.1 * (k % 7) as f64);
        let v = Vector::new(-a.sin(), a.cos(), -0.2);
        // Vertices c + u, c + v, c - u - v: centroid exactly c up to rounding.
        vertices.extend([c + u, c + v, c - u - v]);
    }
    let triangles = (0..n as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    TriMesh::new(vertices, triangles).unwrap()
}

/// `n` zero-area triangles on one line.
pub fn collinear(n: usize) -> TriMesh {
    let vertices: Vec<Point> = (0..n + 2)
        .map(|i| Point::new(i as f64, 2.0 * i as f64, 0.0))
        .collect();
    let triangles = (0..n as u32).map(|k| [k, k + 1, k + 2]).collect();
    TriMesh::new(vertices, triangles).unwrap()
}

/// Checks, using only public accessors, that the tree is a valid hierarchy for `mesh`:
/// children after parents, every triangle of the mesh in exactly one leaf, depth within
/// `MAX_DEPTH` and equal to `depth()`, and every node's volume containing every vertex of every
/// triangle below it within `tol`. Returns the largest depth.
pub fn check_tree<V: BoundingVolume>(bvh: &Bvh<V>, mesh: &TriMesh, tol: f64) -> usize {
    check_tree_at(bvh, mesh, tol, usize::MAX)
}

/// [`check_tree`] with containment checked only in the `levels` lowest volumes above each
/// triangle (its leaf and `levels - 1` ancestors), for the largest meshes.
pub fn check_tree_at<V: BoundingVolume>(
    bvh: &Bvh<V>,
    mesh: &TriMesh,
    tol: f64,
    levels: usize,
) -> usize {
    let n = mesh.triangles().len();
    assert_eq!(bvh.triangle_count(), n);
    bvh.check_mesh(mesh).expect("tree belongs to the mesh");
    let mut in_leaves = vec![0u32; n];
    let mut reached = vec![false; bvh.nodes().len()];
    // (node, depth, ancestors) — ancestors listed so that containment is checked against every
    // volume above a triangle, not only its leaf.
    let mut stack = vec![(0usize, 0usize, Vec::<usize>::new())];
    let mut max_depth = 0;
    while let Some((i, d, mut ancestors)) = stack.pop() {
        assert!(d <= MAX_DEPTH, "depth {d} exceeds {MAX_DEPTH}");
        assert!(!reached[i], "node {i} reached twice");
        reached[i] = true;
        max_depth = max_depth.max(d);
        ancestors.push(i);
        match bvh.node(i).kind() {
            NodeKind::Internal { left, right } => {
                assert!(left > i && right == left + 1 && right < bvh.nodes().len());
                assert_eq!(bvh.leaf_triangles(i), &[] as &[u32]);
                stack.push((right, d + 1, ancestors.clone()));
                stack.push((left, d + 1, ancestors));
            }
            NodeKind::Leaf(range) => {
                assert!(!range.is_empty());
                assert_eq!(bvh.leaf_triangles(i), &bvh.triangle_order()[range]);
                for &t in bvh.leaf_triangles(i) {
                    in_leaves[t as usize] += 1;
                    for p in mesh.triangle(t as usize).vertices() {
                        for &a in ancestors.iter().rev().take(levels) {
                            assert!(
                                bvh.node(a).bv().contains_point(&p, tol),
                                "node {a} (an ancestor of leaf {i}) misses vertex {p} of triangle {t}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(reached.iter().all(|&r| r), "unreachable nodes");
    assert!(
        in_leaves.iter().all(|&c| c == 1),
        "a triangle is not in exactly one leaf"
    );
    assert_eq!(max_depth, bvh.depth());
    max_depth
}

/// `n` unit triangles at `x = 2^(k - 230)`: the mean of the centroids always lies beyond all but
/// the last one, so Gottschalk's rule alone would peel one triangle per level (depth `n - 1`).
/// `n <= 560` keeps every coordinate in the range a `TriMesh` accepts (`1e-70 ..= 1e100`).
pub fn exponential(n: usize) -> TriMesh {
    let mut vertices = Vec::with_capacity(3 * n);
    for k in 0..n {
        let x = 2f64.powi(k as i32 - 230);
        vertices.extend([
            Point::new(x, 0.0, 0.0),
            Point::new(x, 1.0, 0.0),
            Point::new(x, 0.0, 1.0),
        ]);
    }
    let triangles = (0..n as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    TriMesh::new(vertices, triangles).unwrap()
}
