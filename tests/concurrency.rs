//! Trees and meshes are shared between threads: `Send + Sync` is asserted at compile time, and
//! many queries on one shared tree from several threads give exactly the single-threaded results.

use obbtree::bv::intersect::{ray_obb, ray_triangle};
use obbtree::bv::{Aabb, Kdop18, Obb, Point, Ray, Sphere, TriMesh, Vector};
use obbtree::tree::{BuildOptions, Bvh, Refit};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Compile-time: every type a user shares between threads is `Send + Sync`.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<TriMesh>();
    shared::<Bvh<Aabb>>();
    shared::<Bvh<Obb>>();
    shared::<Bvh<Sphere>>();
    shared::<Bvh<Kdop18>>();
    shared::<obbtree::tree::Stats>();
    shared::<obbtree::load::LoadError>();
};

fn mesh() -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(7);
    let vertices: Vec<Point> = (0..6000)
        .map(|_| Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0))))
        .collect();
    let triangles = (0..3000u32)
        .map(|i| [2 * i, 2 * i + 1, (7 * i) % 6000])
        .collect();
    TriMesh::new(vertices, triangles).unwrap()
}

fn rays(seed: u64, n: usize) -> Vec<Ray> {
    let mut rng = Pcg64::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            Ray::new(
                Point::from(Vector::from_fn(|_, _| rng.gen_range(-2.0..2.0))),
                Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)),
            )
        })
        .collect()
}

/// First hit (parameter bits and triangle) of `ray`, through the tree's public traversal.
fn first_hit(tree: &Bvh<Obb>, mesh: &TriMesh, ray: &Ray) -> Option<(u64, u32)> {
    tree.descend(|obb| ray_obb::interval(ray, obb).is_some())
        .flat_map(|node| tree.leaf_triangles(node))
        .filter_map(|&t| {
            ray_triangle::cast_watertight(ray, &mesh.triangle(t as usize)).map(|h| (h.t, t))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(t, tri)| (t.to_bits(), tri))
}

#[test]
fn shared_tree_answers_like_a_single_thread() {
    let mesh = mesh();
    let tree = Bvh::<Obb>::build(&mesh, &BuildOptions::default()).unwrap();
    let rays = rays(8, 4000);
    let expected: Vec<_> = rays.iter().map(|r| first_hit(&tree, &mesh, r)).collect();
    assert!(expected.iter().filter(|h| h.is_some()).count() > 100);
    let stats = tree.stats();
    let bytes = tree.to_bytes();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..6)
            .map(|k| {
                let (tree, mesh, rays) = (&tree, &mesh, &rays);
                s.spawn(move || {
                    // Each thread walks the rays in its own order.
                    let mut order: Vec<usize> = (0..rays.len()).collect();
                    order.rotate_left(k * 577 % rays.len());
                    let mut got = vec![None; rays.len()];
                    for i in order {
                        got[i] = first_hit(tree, mesh, &rays[i]);
                    }
                    let mut refitted = tree.clone();
                    refitted
                        .refit(mesh, Default::default(), Refit::Fit)
                        .unwrap();
                    (got, tree.stats(), tree.to_bytes(), refitted)
                })
            })
            .collect();
        for w in workers {
            let (got, worker_stats, worker_bytes, refitted) = w.join().unwrap();
            assert_eq!(got, expected);
            assert_eq!(worker_stats, stats);
            assert_eq!(worker_bytes, bytes);
            assert_eq!(refitted.triangle_order(), tree.triangle_order());
        }
    });
}

/// Parallel builds running at the same time on one shared mesh give the serial tree.
#[test]
fn concurrent_builds_agree() {
    let mesh = mesh();
    let serial = Bvh::<Obb>::build(
        &mesh,
        &BuildOptions {
            parallel: false,
            ..Default::default()
        },
    )
    .unwrap();
    std::thread::scope(|s| {
        let builds: Vec<_> = (0..4)
            .map(|_| s.spawn(|| Bvh::<Obb>::build(&mesh, &BuildOptions::default()).unwrap()))
            .collect();
        for b in builds {
            assert!(b.join().unwrap() == serial);
        }
    });
}
