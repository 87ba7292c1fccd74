//! Trees, models and meshes are shared between threads: `Send + Sync` is asserted at compile
//! time for every tree, model, query and error type, and the real queries (collide `All` and
//! `First`, containment, `cast_ray`, `cast_ray_all`, `any_hit`, `cull`) run from many threads on
//! one shared set of trees give exactly the single-threaded results.

use obbtree::bv::intersect::frustum::Frustum;
use obbtree::bv::intersect::{ray_obb, ray_triangle};
use obbtree::bv::{
    Aabb, Isometry, Kdop14, Kdop18, Kdop26, Kdop6, Obb, Point, Ray, Sphere, TriMesh, Vector,
};
use obbtree::query::collide::{
    containment::contains_point, pose_from_rotation_vector, CollisionRequest, CollisionResult,
    Mode, Model, Pose, PosedOverlap,
};
use obbtree::query::cull::{cull, Culled, FrustumVolume};
use obbtree::query::pick::camera::Camera;
use obbtree::query::pick::{any_hit, cast_ray, cast_ray_all, PickTree, RayHit, RayTree, RayVolume};
use obbtree::tree::{BuildOptions, Bvh, Refit, TreeVolume};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Compile-time: every type a user shares between threads is `Send + Sync`.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<TriMesh>();
    shared::<Bvh<Aabb>>();
    shared::<Bvh<Obb>>();
    shared::<Bvh<Sphere>>();
    shared::<Bvh<Kdop6>>();
    shared::<Bvh<Kdop14>>();
    shared::<Bvh<Kdop18>>();
    shared::<Bvh<Kdop26>>();
    shared::<PickTree>();
    shared::<Model<'static, Aabb>>();
    shared::<Model<'static, Obb>>();
    shared::<Model<'static, Sphere>>();
    shared::<Model<'static, Kdop6>>();
    shared::<Model<'static, Kdop14>>();
    shared::<Model<'static, Kdop18>>();
    shared::<Model<'static, Kdop26>>();
    shared::<CollisionRequest>();
    shared::<CollisionResult>();
    shared::<RayHit>();
    shared::<Culled>();
    shared::<Frustum>();
    shared::<Camera>();
    shared::<obbtree::tree::Stats>();
    shared::<obbtree::tree::MeshFingerprint>();
    shared::<obbtree::tree::LoadError>();
    shared::<obbtree::bv::MeshError>();
    shared::<obbtree::query::pick::PickError>();
    shared::<obbtree::query::pick::batch::BatchError>();
    shared::<obbtree::load::LoadError>();
    shared::<obbtree_cli::poses::PoseError>();
    shared::<obbtree_cli::rays::RaysError>();
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

/// A closed mesh: the boundary of a box subdivided into `n × n` squares per face (for
/// containment).
fn closed_box(n: u32) -> TriMesh {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for axis in 0..3 {
        for side in [-1.0, 1.0] {
            let base = vertices.len() as u32;
            for i in 0..=n {
                for j in 0..=n {
                    let (u, v) = (
                        f64::from(i) / f64::from(n) * 2.0 - 1.0,
                        f64::from(j) / f64::from(n) * 2.0 - 1.0,
                    );
                    let mut q = Point::origin();
                    q[axis] = side;
                    q[(axis + 1) % 3] = u;
                    q[(axis + 2) % 3] = v;
                    vertices.push(q);
                }
            }
            let at = |i: u32, j: u32| base + i * (n + 1) + j;
            for i in 0..n {
                for j in 0..n {
                    let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                    if side > 0.0 {
                        triangles.extend([[a, b, c], [a, c, d]]);
                    } else {
                        triangles.extend([[a, c, b], [a, d, c]]);
                    }
                }
            }
        }
    }
    // Shared edges between faces use distinct vertex copies: weld them by position.
    let mut index = std::collections::HashMap::new();
    let mut welded = Vec::new();
    let remap: Vec<u32> = vertices
        .iter()
        .map(|q: &Point| {
            let key = q.coords.map(|c| c.to_bits());
            *index.entry((key.x, key.y, key.z)).or_insert_with(|| {
                welded.push(*q);
                welded.len() as u32 - 1
            })
        })
        .collect();
    let triangles = triangles
        .into_iter()
        .map(|t: [u32; 3]| t.map(|v| remap[v as usize]))
        .collect();
    TriMesh::new(welded, triangles).unwrap()
}

/// Everything the query threads compute for one volume type, compared whole.
#[derive(Debug, PartialEq)]
struct Answers {
    all: Vec<CollisionResult>,
    first: Vec<bool>,
    contained: Vec<bool>,
    first_hits: Vec<Option<(u32, u64)>>,
    all_hits: Vec<Vec<(u32, u64)>>,
    any_hits: Vec<bool>,
    culled: Vec<Culled>,
}

struct Inputs {
    soup: TriMesh,
    solid: TriMesh,
    poses: Vec<Pose>,
    rays: Vec<Ray>,
    points: Vec<Point>,
    frusta: Vec<Frustum>,
}

fn inputs() -> Inputs {
    let mut rng = Pcg64::seed_from_u64(21);
    let poses = (0..12)
        .map(|_| {
            let t = [0; 3].map(|_| rng.gen_range(-1.5..1.5));
            let r = [0; 3].map(|_| rng.gen_range(-3.0..3.0));
            pose_from_rotation_vector(t, r)
        })
        .collect();
    let points = (0..200)
        .map(|_| Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.5..1.5))))
        .collect();
    let frusta = (0..6)
        .map(|_| {
            let eye = Point::from(Vector::from_fn(|_, _| rng.gen_range(-4.0..4.0)));
            let target = Point::from(Vector::from_fn(|_, _| rng.gen_range(-0.5..0.5)));
            let camera = Camera::look_at(
                &eye,
                &target,
                &Vector::y(),
                rng.gen_range(0.3..1.2),
                0.1,
                10.0,
                64,
                48,
            );
            Frustum::from_view_projection(&(camera.projection * camera.view)).unwrap()
        })
        .collect();
    Inputs {
        soup: mesh(),
        solid: closed_box(6),
        poses,
        rays: rays(22, 600),
        points,
        frusta,
    }
}

fn bits(h: &RayHit) -> (u32, u64) {
    (h.triangle, h.t.to_bits())
}

/// Runs every query of one volume type on shared trees.
fn answers<V>(inputs: &Inputs, soup: &Bvh<V>, solid: &Bvh<V>, pick: &impl RayTree) -> Answers
where
    V: PosedOverlap + FrustumVolume + RayVolume,
{
    let (a, b) = (
        Model::new(&inputs.soup, soup).unwrap(),
        Model::new(&inputs.solid, solid).unwrap(),
    );
    let id = Pose::identity();
    let all_request = CollisionRequest::new(Mode::All).with_containment(true);
    let first_request = CollisionRequest::new(Mode::First);
    let iso = Isometry::identity();
    let mesh = &inputs.soup;
    Answers {
        all: inputs
            .poses
            .iter()
            .map(|p| obbtree::query::collide(&a, &id, &b, p, &all_request))
            .collect(),
        first: inputs
            .poses
            .iter()
            .map(|p| obbtree::query::collide(&a, &id, &a, p, &first_request).intersects)
            .collect(),
        contained: inputs
            .points
            .iter()
            .map(|q| contains_point(&b, &inputs.poses[0], q))
            .collect(),
        first_hits: inputs
            .rays
            .iter()
            .map(|r| {
                cast_ray(mesh, pick, &iso, r, f64::INFINITY)
                    .unwrap()
                    .as_ref()
                    .map(bits)
            })
            .collect(),
        all_hits: inputs
            .rays
            .iter()
            .map(|r| {
                cast_ray_all(mesh, pick, &iso, r, f64::INFINITY)
                    .unwrap()
                    .iter()
                    .map(bits)
                    .collect()
            })
            .collect(),
        any_hits: inputs
            .rays
            .iter()
            .map(|r| any_hit(mesh, pick, &iso, r, 2.0).unwrap())
            .collect(),
        culled: inputs
            .frusta
            .iter()
            .map(|f| cull(mesh, soup, &iso, f).unwrap())
            .collect(),
    }
}

fn shared_queries<V>(inputs: &Inputs)
where
    V: PosedOverlap + FrustumVolume + RayVolume + TreeVolume,
{
    let soup = Bvh::<V>::build(&inputs.soup, &BuildOptions::default()).unwrap();
    let solid = Bvh::<V>::build(&inputs.solid, &BuildOptions::default()).unwrap();
    let expected = answers(inputs, &soup, &solid, &soup);
    assert!(expected.all.iter().any(|r| r.intersects));
    assert!(expected.contained.iter().any(|&c| c) && !expected.contained.iter().all(|&c| c));
    assert!(expected.first_hits.iter().filter(|h| h.is_some()).count() > 50);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| s.spawn(|| answers(inputs, &soup, &solid, &soup)))
            .collect();
        for w in workers {
            assert!(w.join().unwrap() == expected, "{}", V::NAME);
        }
    });
}

#[test]
fn real_queries_on_shared_trees_answer_like_a_single_thread() {
    let inputs = inputs();
    shared_queries::<Aabb>(&inputs);
    shared_queries::<Obb>(&inputs);
    shared_queries::<Sphere>(&inputs);
    shared_queries::<Kdop18>(&inputs);
    // The compact picking tree, shared the same way.
    let aabb = Bvh::<Aabb>::build(&inputs.soup, &BuildOptions::default()).unwrap();
    let solid = Bvh::<Aabb>::build(&inputs.solid, &BuildOptions::default()).unwrap();
    let compact = PickTree::new(&inputs.soup, &aabb);
    let expected = answers(&inputs, &aabb, &solid, &compact);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| s.spawn(|| answers(&inputs, &aabb, &solid, &compact)))
            .collect();
        for w in workers {
            assert!(w.join().unwrap() == expected, "PickTree");
        }
    });
}
