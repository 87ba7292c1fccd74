//! Hostile geometry: meshes built to break a hierarchy (a single triangle, a million copies of one
//! triangle, one shared centroid, needles and slivers, coordinates at and beyond the supported range, a mesh far
//! from the origin, duplicated, non-manifold and open surfaces).
//!
//! For every volume type, fitting method and split rule, the tree must build with bounded depth,
//! pass the public-accessor checker of the fuzz targets (`check_tree`: every node reached once,
//! every triangle in one leaf, every volume containing every vertex below it within the tree
//! tests' tolerance, `1e-12` × the largest coordinate), give statistics without NaN, survive a
//! save/load round trip, and keep containment after refitting in both modes.

mod common;
#[path = "../fuzz/src/lib.rs"]
mod targets;

use common::shapes::{fan, mapped, mesh, p, shared_centroid};

use obbtree::bv::{Aabb, MeshError};
use obbtree::bv::{
    Kdop14, Kdop18, Kdop26, Kdop6, Obb, ObbFit, Point, Sphere, SphereFit, TriMesh, Vector,
};
use obbtree::tree::{BuildOptions, Bvh, Refit, SplitRule, TreeVolume};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{de::DeserializeOwned, Serialize};
use targets::check_tree;

const SPLITS: [SplitRule; 3] = [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah];

/// The tree tests' documented tolerance: `1e-12` × the largest absolute coordinate.
fn tolerance(mesh: &TriMesh) -> f64 {
    1e-12
        * mesh
            .vertices()
            .iter()
            .flat_map(|p| p.iter())
            .fold(0.0f64, |m, c| m.max(c.abs()))
}

/// `n` random triangles with vertices in `[-1, 1]³`, some sharing vertices.
fn soup(seed: u64, n: usize) -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(seed);
    let vertices: Vec<Point> = (0..n * 2)
        .map(|_| {
            Point::new(
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
            )
        })
        .collect();
    let k = vertices.len() as u32;
    let triangles = (0..n)
        .map(|_| [0; 3].map(|_| rng.gen_range(0..k)))
        .collect();
    mesh(vertices, triangles)
}

/// `m` with every vertex mapped by `f`.
/// Builds, checks, saves, reloads and refits one volume type with every split rule and two leaf
/// sizes.
fn exercise<V>(mesh: &TriMesh, method: V::Method)
where
    V: TreeVolume + Serialize + DeserializeOwned,
{
    let tol = tolerance(mesh);
    for split in SPLITS {
        for leaf_size in [1, 4] {
            let options = BuildOptions::<V> {
                leaf_size,
                // Large leaves split at a low ratio, so that huge and tiny coordinates meet
                // the rule (areas that overflow or underflow) in every volume type.
                large_leaf_ratio: 2.0,
                split,
                method,
                parallel: true,
            };
            let what = format!("{} {method:?} {split:?} leaf {leaf_size}", V::NAME);
            let tree = Bvh::<V>::build(mesh, &options).unwrap();
            check_tree(&tree, mesh, Some(tol));
            let stats = tree.stats();
            for level in &stats.levels {
                assert!(
                    !level.volume.is_nan() && !level.surface_area.is_nan(),
                    "{what}: NaN in the statistics {level:?}"
                );
            }
            let bytes = tree.to_bytes();
            let loaded = Bvh::<V>::from_bytes(&bytes, mesh).unwrap();
            assert_eq!(loaded.to_bytes(), bytes, "{what}: round trip");
            let mut refitted = tree.clone();
            for mode in [Refit::Merge, Refit::Fit] {
                refitted.refit(mesh, method, mode).unwrap();
                check_tree(&refitted, mesh, Some(tol));
            }
        }
    }
}

/// [`exercise`] for every volume type and fitting method.
fn every_volume(mesh: &TriMesh) {
    obb_volumes(mesh);
    other_volumes(mesh);
}

fn obb_volumes(mesh: &TriMesh) {
    for method in [
        ObbFit::TriangleCovariance,
        ObbFit::HullCovariance,
        ObbFit::VertexCovariance,
        ObbFit::MinVolume,
        ObbFit::Ditetrahedron,
    ] {
        exercise::<Obb>(mesh, method);
    }
}

/// [`exercise`] for every volume type but OBBs.
fn other_volumes(mesh: &TriMesh) {
    exercise::<Aabb>(mesh, ());
    for method in [
        SphereFit::AabbCenter,
        SphereFit::ImprovedAabbCenter,
        SphereFit::Ritter,
        SphereFit::Welzl,
    ] {
        exercise::<Sphere>(mesh, method);
    }
    exercise::<Kdop6>(mesh, ());
    exercise::<Kdop14>(mesh, ());
    exercise::<Kdop18>(mesh, ());
    exercise::<Kdop26>(mesh, ());
}

#[test]
fn one_triangle() {
    let one = mesh(
        vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.)],
        vec![[0, 1, 2]],
    );
    every_volume(&one);
    let tree = Bvh::<Obb>::build(&one, &BuildOptions::default()).unwrap();
    assert_eq!((tree.depth(), tree.nodes().len()), (0, 1));
    // A single triangle collapsed to a point, and one whose three corners are one vertex.
    every_volume(&mesh(vec![p(2., 3., 4.); 3], vec![[0, 1, 2]]));
    every_volume(&mesh(vec![p(2., 3., 4.)], vec![[0, 0, 0]]));
}

/// A million references to one triangle: no split rule can separate them, so the builder must
/// fall back to median splits, giving a balanced tree (depth 17 with the OBB tree's leaves of
/// 9, 18 with the AABB tree's leaves of 7: the halvings from 10⁶ to a leaf), not a degenerate
/// chain of depth 100,000 (or a stack overflow).
#[test]
fn a_million_copies_of_one_triangle() {
    let copies = mesh(
        vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 1.)],
        vec![[0, 1, 2]; 1_000_000],
    );
    // The number of halvings (rounding up) that takes 10⁶ triangles to at most `leaf`.
    let balanced = |leaf: usize| {
        let (mut n, mut depth) = (1_000_000usize, 0);
        while n > leaf {
            n = n.div_ceil(2);
            depth += 1;
        }
        depth
    };
    assert_eq!((balanced(9), balanced(7)), (17, 18));
    for split in SPLITS {
        let tree = Bvh::<Obb>::build(
            &copies,
            &BuildOptions {
                split,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(tree.depth(), balanced(Obb::LEAF_SIZE), "{split:?}");
        check_tree(&tree, &copies, Some(0.0));
    }
    let tree = Bvh::<Aabb>::build(&copies, &BuildOptions::default()).unwrap();
    assert_eq!(tree.depth(), balanced(Aabb::LEAF_SIZE));
}

/// Triangles `(a, b, -(a + b))` with corners that are multiples of 3: every third is exact, so
/// all centroids are exactly the origin and no centroid-based rule separates them. The builder
/// must fall back to median splits: depth `⌈log2(800 / 4)⌉ = 8`.
#[test]
fn all_triangles_share_one_centroid() {
    let shared = shared_centroid(800);
    every_volume(&shared);
    for split in SPLITS {
        let options = BuildOptions {
            split,
            leaf_size: 4,
            ..Default::default()
        };
        let tree = Bvh::<Aabb>::build(&shared, &options).unwrap();
        assert_eq!(tree.depth(), 8, "{split:?}");
    }
}

/// Needles (one edge 1e6 long, the others nearly coincident) and slivers (three nearly collinear
/// corners), in random orientations.
#[test]
fn needles_and_slivers() {
    let mut rng = Pcg64::seed_from_u64(2);
    let mut vertices = Vec::new();
    for i in 0..400 {
        let at = Vector::from_fn(|_, _| rng.gen_range(-10.0..10.0));
        let dir = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)).normalize();
        let off = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * 1e-9;
        let (a, b, c) = if i % 2 == 0 {
            (at, at + off, at + dir * 1e6) // needle
        } else {
            (at, at + dir * 1e3, at + dir * 2e3 + off) // sliver
        };
        vertices.extend([a, b, c].map(Point::from));
    }
    let triangles = (0..400u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
    every_volume(&mesh(vertices, triangles));
}

/// Coordinates near the ends of the supported range (`1e-70 ..= 1e100`, see
/// `obbtree::bv::MAX_COORDINATE`): products underflow or overflow inside covariance and area
/// computations, but the trees must still contain every triangle and hold no NaN.
#[test]
fn tiny_and_huge_coordinates() {
    let base = soup(3, 300);
    for scale in [1e-50, 1e-20, 1e20, 1e99] {
        every_volume(&mapped(&base, |q| Point::from(q.coords * scale)));
    }
    // Mixed: a huge triangle beside tiny ones.
    let mixed = mapped(&base, |q| {
        if q.x > 0.9 {
            Point::from(q.coords * 1e99)
        } else {
            Point::from(q.coords * 1e-50)
        }
    });
    every_volume(&mixed);
}

/// Beyond the supported range the exact predicates could overflow or underflow and return wrong
/// signs, so such meshes are refused at the boundary with the offending vertex named — never a
/// silently wrong answer. (This also covers OBB arithmetic, which overflows from about 1e300.)
#[test]
fn coordinates_beyond_the_supported_range_are_refused() {
    let base = soup(3, 300);
    for scale in [1e-300, 1e-150, 1e-75, 1e101, 1e150, 1e300, 1e307] {
        let vertices: Vec<Point> = base
            .vertices()
            .iter()
            .map(|q| Point::from(q.coords * scale))
            .collect();
        let err = TriMesh::new(vertices, base.triangles().to_vec()).unwrap_err();
        assert!(
            matches!(err, MeshError::CoordinateOutOfRange { vertex: 0, .. }),
            "{scale:e}: {err}"
        );
        assert!(err.to_string().contains("vertex 0"), "{err}");
    }
    let extreme = vec![
        p(f64::MAX, 0., 0.),
        p(-f64::MAX, f64::MAX, 0.),
        p(0., -f64::MAX, f64::MAX),
        p(1., 1., 1.),
    ];
    let err = TriMesh::new(extreme, vec![[0, 1, 2], [0, 1, 3]]).unwrap_err();
    assert!(
        matches!(err, MeshError::CoordinateOutOfRange { vertex: 0, .. }),
        "{err}"
    );
    // The limits themselves and exact zeros are accepted.
    let edge = vec![p(1e100, -1e-70, 0.), p(0., 1e100, 1e-70), p(-1e100, 0., 0.)];
    TriMesh::new(edge, vec![[0, 1, 2]]).unwrap();
}

/// A unit-scale mesh moved 1e9 away: relative precision drops to ~1e-7 of the triangles' size.
#[test]
fn translated_by_1e9() {
    let base = soup(4, 300);
    for offset in [Vector::repeat(1e9), Vector::new(-1e9, 3e9, 0.0)] {
        every_volume(&mapped(&base, |q| q + offset));
    }
}

/// Non-manifold (an edge shared by four triangles, two fans joined at one vertex), open (a
/// strip), exactly duplicated triangles (a mesh coincident with itself).
#[test]
fn non_manifold_open_and_duplicated() {
    let fin = fan();
    assert!(!fin.is_closed());
    every_volume(&fin);
    let strip = mesh(
        (0..40)
            .map(|i| p(f64::from(i / 2), f64::from(i % 2), 0.0))
            .collect(),
        (0..38).map(|i| [i, i + 1, i + 2]).collect(),
    );
    assert!(!strip.is_closed());
    every_volume(&strip);
    let base = soup(5, 200);
    let mut doubled = base.triangles().to_vec();
    doubled.extend_from_within(..);
    every_volume(&mesh(base.vertices().to_vec(), doubled));
}

/// Non-finite input is refused at the boundary, naming the first offending vertex.
#[test]
fn non_finite_vertices_are_refused_by_index() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut vertices = vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.), p(1., 1., 0.)];
        vertices[2].y = bad;
        vertices[3].z = bad;
        let err = TriMesh::new(vertices, vec![[0, 1, 2]]).unwrap_err();
        assert!(
            matches!(err, MeshError::NonFiniteVertex { vertex: 2, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("vertex 2"), "{err}");
    }
}
