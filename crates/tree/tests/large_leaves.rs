//! Large leaves: a node of few triangles is still split while its volume is much larger than a
//! leaf of an evenly tessellated mesh (`BuildOptions::large_leaf_ratio`).

mod common;

use common::{check_tree, sheet, soup, RULES};
use obbtree_bv::{BoundingVolume, Obb, Point, TriMesh};
use obbtree_tree::{BuildError, BuildOptions, Bvh};

/// The grid beside a fan of `spokes` long slivers (a CAD part's cap: each from one hub to a
/// far rim, as long as the grid is wide), away from the grid.
fn grid_and_fan(n: u32, spokes: u32) -> TriMesh {
    let grid = sheet(n);
    let (mut vertices, mut triangles) = (grid.vertices().to_vec(), grid.triangles().to_vec());
    let hub = vertices.len() as u32;
    vertices.push(Point::new(0.0, 0.0, 5.0));
    let rim = |k: u32| {
        let angle = 0.02 * f64::from(k);
        Point::new(f64::from(n) * angle.cos(), f64::from(n) * angle.sin(), 5.0)
    };
    let first = vertices.len() as u32;
    vertices.extend((0..=spokes).map(rim));
    triangles.extend((0..spokes).map(|k| [hub, first + k, first + k + 1]));
    TriMesh::new(vertices, triangles).unwrap()
}

fn options(large_leaf_ratio: f64) -> BuildOptions<Obb> {
    BuildOptions {
        large_leaf_ratio,
        ..BuildOptions::default()
    }
}

/// The leaves' triangle counts and surface areas.
fn leaves(tree: &Bvh<Obb>) -> Vec<(usize, f64)> {
    tree.nodes()
        .iter()
        .filter_map(|node| Some((node.triangle_range()?.len(), node.bv().surface_area())))
        .collect()
}

/// With the default ratio, no leaf of more than one triangle has an area beyond the ratio²
/// times the root's area shared among `n / leaf_size` leaves; the slivers' leaves, large by
/// that measure when leaves are made by count alone, are split; and the tree is whole.
#[test]
fn long_triangles_get_leaves_of_their_own() {
    let mesh = grid_and_fan(40, 36);
    let n = mesh.triangles().len() as f64;
    let by_count = Bvh::build(&mesh, &options(f64::INFINITY)).unwrap();
    let default = BuildOptions::<Obb>::default();
    let tree = Bvh::build(&mesh, &default).unwrap();
    check_tree(&tree, &mesh, 0.0);
    let ratio = default.large_leaf_ratio;
    assert_eq!(ratio, 4.0);
    let bound = ratio * ratio * tree.root().bv().surface_area() * default.leaf_size as f64 / n;
    let large = |leaves: &[(usize, f64)]| {
        leaves
            .iter()
            .filter(|&&(k, area)| k > 1 && area > bound)
            .count()
    };
    assert!(
        large(&leaves(&by_count)) >= 2,
        "{} large leaves by count",
        large(&leaves(&by_count))
    );
    assert_eq!(large(&leaves(&tree)), 0);
    assert!(leaves(&tree).len() > leaves(&by_count).len());
}

/// An evenly tessellated mesh has no large leaf: its tree is the tree made by count alone.
#[test]
fn evenly_tessellated_trees_do_not_change() {
    let mesh = sheet(40);
    let by_count = Bvh::build(&mesh, &options(f64::INFINITY)).unwrap();
    let tree = Bvh::<Obb>::build(&mesh, &BuildOptions::default()).unwrap();
    assert_eq!(tree.to_bytes(), by_count.to_bytes());
}

/// At a ratio of 0 every leaf of more than one triangle is one no split could shrink: its area
/// at most 1.01 times that of the box around its largest triangle. The fan's slivers end in single
/// triangles, and copies of one triangle (every node as large as the root) stay leaves by
/// count.
#[test]
fn ratio_zero_splits_what_a_split_can_shrink() {
    let mesh = grid_and_fan(6, 10);
    let tree = Bvh::build(&mesh, &options(0.0)).unwrap();
    check_tree(&tree, &mesh, 0.0);
    let mut singles = 0;
    for node in tree.nodes() {
        let Some(range) = node.triangle_range() else {
            continue;
        };
        let largest = tree.triangle_order()[range.clone()]
            .iter()
            .map(|&t| {
                let corners = mesh.triangles()[t as usize].map(|i| mesh.vertices()[i as usize]);
                Obb::fit_triangles(&[corners], Default::default()).surface_area()
            })
            .fold(0.0, f64::max);
        assert!(range.len() == 1 || node.bv().surface_area() <= 1.01 * largest);
        singles += usize::from(range.len() == 1);
    }
    assert!(singles >= 10, "{singles} single-triangle leaves");
    let copies = common::copies_of_one_triangle(100);
    let by_count = Bvh::build(&copies, &options(f64::INFINITY)).unwrap();
    let tree = Bvh::build(&copies, &options(0.0)).unwrap();
    assert_eq!(tree.to_bytes(), by_count.to_bytes());
}

/// A root of no area (every vertex at one point) with an infinite ratio: leaves by count.
#[test]
fn a_point_mesh_keeps_leaves_by_count() {
    let mesh = TriMesh::new(vec![Point::new(1.0, 2.0, 3.0)], vec![[0, 0, 0]; 40]).unwrap();
    for ratio in [f64::INFINITY, 4.0] {
        let tree = Bvh::build(&mesh, &options(ratio)).unwrap();
        assert!(leaves(&tree)
            .iter()
            .all(|&(k, area)| (2..=9).contains(&k) && area == 0.0));
    }
}

/// A negative or NaN ratio is refused with an error that names it.
#[test]
fn negative_or_nan_ratios_are_refused() {
    let mesh = grid_and_fan(4, 4);
    for ratio in [-1.0, f64::NAN, f64::NEG_INFINITY] {
        let error = Bvh::build(&mesh, &options(ratio)).unwrap_err();
        assert!(matches!(error, BuildError::LargeLeafRatio(r) if r.to_bits() == ratio.to_bits()));
        assert!(error.to_string().contains("large leaf ratio"), "{error}");
    }
}

/// Every tree invariant holds with large leaves split, on random soups (shared vertices,
/// duplicates, degenerate and tiny triangles), for every split rule, serial or parallel, and
/// ratios from 0 (single triangles) to the default.
#[test]
fn soups_keep_every_invariant_with_large_leaves_split() {
    for seed in 0..4 {
        let mesh = soup(seed, 600, 1.0, 0.5);
        for split in RULES {
            for ratio in [0.0, 1.0, 4.0] {
                let serial = BuildOptions {
                    split,
                    parallel: false,
                    ..options(ratio)
                };
                let tree = Bvh::build(&mesh, &serial).unwrap();
                check_tree(&tree, &mesh, 0.0);
                let parallel = Bvh::build(
                    &mesh,
                    &BuildOptions {
                        parallel: true,
                        ..serial
                    },
                )
                .unwrap();
                assert_eq!(tree.to_bytes(), parallel.to_bytes());
            }
        }
    }
}
