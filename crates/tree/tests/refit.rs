//! Refit after vertex motion: the refitted tree contains the moved mesh, and refused for
//! another topology.

mod common;

use common::*;
use obbtree_bv::{Aabb, Pose, TriMesh, Vector};
use obbtree_tree::{BuildOptions, Bvh, Refit, SplitRule, TreeVolume};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// `mesh` with every vertex moved by a random rigid motion plus a random jitter of `amount`.
fn moved(mesh: &TriMesh, seed: u64, amount: f64) -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(seed);
    let motion = Pose::new(
        Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        ),
        Vector::new(
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-3.0..3.0),
        ),
    )
    .expect("a finite pose");
    let vertices = mesh
        .vertices()
        .iter()
        .map(|p| {
            motion.transform_point(p)
                + amount
                    * Vector::new(
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                    )
        })
        .collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).unwrap()
}

fn refit_contains_moved_mesh<V: TreeVolume + PartialEq>(seed: u64, n: usize, split: SplitRule) {
    let mesh = soup(seed, n, 1.0, 0.0);
    let options = options::<V>(3, split, true);
    let built = Bvh::<V>::build(&mesh, &options).unwrap();
    let moved_mesh = moved(&mesh, seed ^ 0x5eed, 0.3);
    for mode in [Refit::Merge, Refit::Fit] {
        let mut bvh = built.clone();
        bvh.refit(&moved_mesh, options.method, mode).unwrap();
        assert!(
            bvh.check_mesh(&mesh).is_err(),
            "the refitted tree still claims the old mesh"
        );
        check_tree(&bvh, &moved_mesh, tolerance(&moved_mesh));
        assert_eq!(
            bvh.triangle_order(),
            built.triangle_order(),
            "refit changed the topology"
        );
        if mode == Refit::Fit {
            assert_fitted_to_subtrees(&bvh, &moved_mesh, options.method);
        }
        // Refitting back to the original mesh restores the leaves exactly (the same fits of
        // the same triangles in the same order).
        bvh.refit(&mesh, options.method, mode).unwrap();
        for (a, b) in bvh.nodes().iter().zip(built.nodes()) {
            assert!(!a.is_leaf() || a == b);
        }
        check_tree(&bvh, &mesh, tolerance(&mesh));
    }
}

/// `Refit::Fit`'s definition: every node's volume is the fit of the triangles below it, taken in
/// leaf order (left subtree first).
fn assert_fitted_to_subtrees<V: TreeVolume + PartialEq>(
    bvh: &Bvh<V>,
    mesh: &TriMesh,
    method: V::Method,
) {
    for index in 0..bvh.nodes().len() {
        let mut below = Vec::new();
        let mut stack = vec![index];
        while let Some(i) = stack.pop() {
            match bvh.node(i).children() {
                Some([l, r]) => stack.extend([r, l]),
                None => below.extend(
                    bvh.leaf_triangles(i)
                        .iter()
                        .map(|&t| mesh.triangle(t as usize).vertices()),
                ),
            }
        }
        assert!(
            *bvh.node(index).bv() == V::fit_triangles(&below, method),
            "node {index}"
        );
    }
}

macro_rules! volume_tests {
    ($module:ident, $V:ty) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn refit_after_motion(
                    seed: u64,
                    n in 1usize..300,
                    split in prop::sample::select(RULES.to_vec()),
                ) {
                    refit_contains_moved_mesh::<$V>(seed, n, split);
                }
            }
        }
    };
}

for_each_volume!(volume_tests);

#[test]
fn another_topology_is_refused_and_the_tree_kept() {
    let mesh = soup(11, 100, 1.0, 0.0);
    let built = Bvh::<Aabb>::build(&mesh, &BuildOptions::default()).unwrap();
    let mut triangles = mesh.triangles().to_vec();
    triangles.swap(0, 1);
    let reordered = TriMesh::new(mesh.vertices().to_vec(), triangles).unwrap();
    let fewer = TriMesh::new(mesh.vertices().to_vec(), mesh.triangles()[1..].to_vec()).unwrap();
    let mut vertices = mesh.vertices().to_vec();
    vertices.push(vertices[0]);
    let more_vertices = TriMesh::new(vertices, mesh.triangles().to_vec()).unwrap();
    for other in [reordered, fewer, more_vertices] {
        let mut bvh = built.clone();
        for mode in [Refit::Merge, Refit::Fit] {
            assert!(bvh.refit(&other, (), mode).is_err());
            assert!(bvh == built);
        }
    }
}
