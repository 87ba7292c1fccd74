//! Structural and containment invariants of built trees, for every volume type and split rule,
//! on random soups and degenerate meshes; and the parallel build, and builds reusing another
//! build's buffers, equal to the serial one.

mod common;

use common::*;
use obbtree_bv::{Aabb, TriMesh};
use obbtree_tree::{BuildBuffers, BuildError, BuildOptions, Bvh, SplitRule, TreeVolume};
use proptest::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

/// Builds serially and in parallel, checks the invariants, checks the two trees are identical
/// (field by field and byte for byte), and returns the depth.
fn build_and_check<V>(mesh: &TriMesh, leaf_size: usize, split: SplitRule) -> usize
where
    V: TreeVolume + Serialize + DeserializeOwned + PartialEq,
{
    build_and_check_at::<V>(mesh, leaf_size, split, usize::MAX)
}

/// [`build_and_check`] with containment checked in the `levels` lowest volumes above each
/// triangle.
fn build_and_check_at<V>(mesh: &TriMesh, leaf_size: usize, split: SplitRule, levels: usize) -> usize
where
    V: TreeVolume + Serialize + DeserializeOwned + PartialEq,
{
    let serial = Bvh::<V>::build(mesh, &options(leaf_size, split, false)).unwrap();
    let depth = check_tree_at(&serial, mesh, tolerance(mesh), levels);
    let parallel = Bvh::<V>::build(mesh, &options(leaf_size, split, true)).unwrap();
    assert!(
        serial == parallel,
        "parallel build differs from serial ({split:?}, leaf size {leaf_size})"
    );
    assert_eq!(serial.to_bytes(), parallel.to_bytes());
    // Buffers left over from another mesh's build change nothing.
    let mut buffers = BuildBuffers::default();
    let other = soup(1, 50, 1.0, 0.0);
    Bvh::<V>::build_reusing(&other, &options(leaf_size, split, false), &mut buffers).unwrap();
    for parallel in [false, true] {
        let reused =
            Bvh::<V>::build_reusing(mesh, &options(leaf_size, split, parallel), &mut buffers)
                .unwrap();
        assert!(
            serial == reused,
            "build with reused buffers differs ({split:?}, leaf size {leaf_size}, parallel {parallel})"
        );
    }
    depth
}

fn degenerate_meshes() -> Vec<(&'static str, TriMesh)> {
    vec![
        (
            "100,000 copies of one triangle",
            copies_of_one_triangle(100_000),
        ),
        (
            "100,000 triangles sharing a centroid",
            shared_centroid(100_000),
        ),
        ("20,000 collinear zero-area triangles", collinear(20_000)),
        ("560 triangles at x = 2^(k - 230)", exponential(560)),
    ]
}

macro_rules! volume_tests {
    ($module:ident, $V:ty) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn random_soups(
                    seed: u64,
                    n in 1usize..400,
                    scale in prop::sample::select(vec![1e-8, 1.0, 1e8]),
                    offset in prop::sample::select(vec![0.0, 1.0, -1e8]),
                    leaf_size in 1usize..9,
                    split in prop::sample::select(RULES.to_vec()),
                ) {
                    let mesh = soup(seed, n, scale, offset);
                    let depth = build_and_check::<$V>(&mesh, leaf_size, split);
                    prop_assert!(n > leaf_size || depth == 0);
                }
            }

            #[test]
            fn large_soup_parallel_equals_serial() {
                let mesh = soup(7, 30_000, 1.0, 0.0);
                for split in RULES {
                    build_and_check::<$V>(&mesh, 4, split);
                }
            }

            /// Geometric splits cannot separate these; depth must stay within `MAX_DEPTH`
            /// anyway (checked by `check_tree`). Identical triangles can only be split by count,
            /// which gives exactly the balanced depth.
            #[test]
            fn degenerate_meshes_stay_shallow() {
                for (name, mesh) in degenerate_meshes() {
                    for split in RULES {
                        for leaf_size in [4] {
                            // Every level is checked on the soups and bundled meshes; here,
                            // where depth is the point, the leaf and its parent.
                            let depth = build_and_check_at::<$V>(&mesh, leaf_size, split, 2);
                            eprintln!("{name}, {split:?}, leaf size {leaf_size}: depth {depth}");
                            if name.contains("copies") {
                                let leaves = mesh.triangles().len().div_ceil(leaf_size);
                                assert_eq!(
                                    depth,
                                    leaves.next_power_of_two().trailing_zeros() as usize
                                );
                            }
                        }
                    }
                }
            }
        }
    };
}

for_each_volume!(volume_tests);

#[test]
fn zero_leaf_size_is_refused() {
    let mesh = soup(1, 10, 1.0, 0.0);
    assert_eq!(
        Bvh::<Aabb>::build(&mesh, &options(0, SplitRule::Gottschalk, false)),
        Err(BuildError::ZeroLeafSize)
    );
}

#[test]
fn one_triangle_is_one_leaf() {
    let mesh = soup(2, 1, 1.0, 0.0);
    let bvh = Bvh::<Aabb>::build(&mesh, &BuildOptions::default()).unwrap();
    assert_eq!(bvh.nodes().len(), 1);
    assert_eq!(bvh.leaf_triangles(0), &[0]);
    assert_eq!(bvh.depth(), 0);
}

/// The AABB fit is exact (coordinate extremes), so the AABB tree must contain its triangles with
/// zero tolerance: a test of the builder's bookkeeping independent of fitting error.
#[test]
fn aabb_tree_contains_exactly() {
    for seed in 0..20 {
        let mesh = soup(seed, 500, 1.0, 0.5);
        for split in RULES {
            let bvh = Bvh::<Aabb>::build(&mesh, &options(3, split, false)).unwrap();
            check_tree(&bvh, &mesh, 0.0);
        }
    }
}

/// Every OBB fit splits along the triangle covariance's axes
/// ([`BoundingVolume::split_axes_for`](obbtree_bv::BoundingVolume::split_axes_for)): a tree
/// built with another fit holds the same triangles in every node as the default tree (only the
/// boxes differ), and still contains them.
#[test]
fn obb_fits_share_the_default_partition() {
    use obbtree_bv::{fit::ObbFit, Obb};
    let kinds = |bvh: &Bvh<Obb>| bvh.nodes().iter().map(|n| n.kind()).collect::<Vec<_>>();
    for seed in 0..6 {
        let mesh = soup(seed, 400, 1.0, 0.5);
        for split in RULES {
            let default = Bvh::<Obb>::build(&mesh, &options(5, split, false)).unwrap();
            for method in ObbFit::ALL {
                let options = BuildOptions {
                    method,
                    ..options(5, split, false)
                };
                let bvh = Bvh::<Obb>::build(&mesh, &options).unwrap();
                check_tree(&bvh, &mesh, tolerance(&mesh));
                assert!(
                    bvh.triangle_order() == default.triangle_order()
                        && kinds(&bvh) == kinds(&default),
                    "{method:?} tree ({split:?}) holds other triangles per node than the default"
                );
            }
        }
    }
}

/// The wide tree's leaves are exactly the binary tree's: the same runs of positions, each once,
/// covering every triangle (a one-triangle mesh is a root leaf); and each position's
/// triangle is the mesh's triangle at that position of the binary tree's order.
#[test]
fn wide_leaves_are_the_binary_leaves_in_order_of_the_triangles() {
    use obbtree_tree::{wide::WideTree, NodeKind};
    for n in [1, 2, 7, 8, 300] {
        let mesh = soup(5, n, 1.0, 0.0);
        let binary = Bvh::<Aabb>::build(&mesh, &options(7, SplitRule::Sah, false)).unwrap();
        let wide = WideTree::new(&mesh, &binary);
        let mut runs: Vec<(u32, u32)> = wide.leaves().map(|l| (l.start, l.count)).collect();
        runs.sort_unstable();
        let mut expected: Vec<(u32, u32)> = binary
            .nodes()
            .iter()
            .filter_map(|node| match node.kind() {
                NodeKind::Leaf(range) => Some((range.start as u32, range.len() as u32)),
                NodeKind::Internal { .. } => None,
            })
            .collect();
        expected.sort_unstable();
        assert_eq!(runs, expected, "{n} triangles");
        assert_eq!(wide.triangles.len(), n);
        for (position, &t) in binary.triangle_order().iter().enumerate() {
            assert_eq!(
                wide.triangles.triangle(position).vertices(),
                mesh.triangle(t as usize).vertices()
            );
        }
    }
}
