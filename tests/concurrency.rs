//! Trees, models and meshes are shared between threads: `Send + Sync` is asserted at compile
//! time for every tree, model, query and error type, and the real queries (collide `All` and
//! `First`, containment, `cast_ray`, `cast_ray_all`, `any_hit`, `cull`) run from many threads on
//! one shared set of models (clones of one `Arc`) give exactly the single-threaded results,
//! including a compact picking index first built by racing threads.

use obbtree::bv::intersect::frustum::Frustum;
use obbtree::bv::intersect::{ray_obb, ray_triangle};
use obbtree::bv::{
    Aabb, Kdop14, Kdop18, Kdop26, Kdop6, Obb, Point, Pose, Ray, Sphere, TriMesh, Vector,
};
use obbtree::tree::{BuildOptions, Bvh, Refit, TreeVolume};
use obbtree::{
    any_hit, cast_ray, cast_ray_all, contains_point, cull, Camera, CollisionRequest,
    CollisionResult, Culled, FrustumVolume, Mode, Model, ModelOptions, PosedOverlap, RayHit,
    RayIndex, RayVolume,
};
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
    shared::<Model<Aabb>>();
    shared::<Model<Obb>>();
    shared::<Model<Sphere>>();
    shared::<Model<Kdop6>>();
    shared::<Model<Kdop14>>();
    shared::<Model<Kdop18>>();
    shared::<Model<Kdop26>>();
    shared::<ModelOptions<Obb>>();
    shared::<Pose>();
    shared::<CollisionRequest>();
    shared::<CollisionResult>();
    shared::<RayHit>();
    shared::<Culled>();
    shared::<Frustum>();
    shared::<Camera>();
    shared::<obbtree::tree::Stats>();
    shared::<obbtree::tree::MeshFingerprint>();
    shared::<obbtree::tree::TreeFileError>();
    shared::<obbtree::bv::MeshError>();
    shared::<obbtree::PoseError>();
    shared::<obbtree::QueryError>();
    shared::<obbtree::BatchError>();
    shared::<obbtree::CameraError>();
    shared::<obbtree::tree::MeshMismatch>();
    shared::<obbtree::load::LoadError>();
    shared::<obbtree_cli::poses::PoseFileError>();
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
            Pose::new(t, r).unwrap()
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

/// Runs every query of one volume type on shared models: collision of the soup `a` with the
/// closed box `b`, containment in `b`, and rays and frusta on `a` (through its ray index).
fn answers<V>(inputs: &Inputs, a: &Model<V>, b: &Model<V>) -> Answers
where
    V: PosedOverlap + FrustumVolume + RayVolume,
{
    let id = Pose::identity();
    let all_request = CollisionRequest::new(Mode::All).with_containment(true);
    let first_request = CollisionRequest::new(Mode::First);
    Answers {
        all: inputs
            .poses
            .iter()
            .map(|p| obbtree::collide(a, &id, b, p, &all_request).unwrap())
            .collect(),
        first: inputs
            .poses
            .iter()
            .map(|p| {
                obbtree::collide(a, &id, a, p, &first_request)
                    .unwrap()
                    .intersects
            })
            .collect(),
        contained: inputs
            .points
            .iter()
            .map(|q| contains_point(b, &inputs.poses[0], q).unwrap())
            .collect(),
        first_hits: inputs
            .rays
            .iter()
            .map(|r| {
                cast_ray(a, &id, r, f64::INFINITY)
                    .unwrap()
                    .as_ref()
                    .map(bits)
            })
            .collect(),
        all_hits: inputs
            .rays
            .iter()
            .map(|r| {
                cast_ray_all(a, &id, r, f64::INFINITY)
                    .unwrap()
                    .iter()
                    .map(bits)
                    .collect()
            })
            .collect(),
        any_hits: inputs
            .rays
            .iter()
            .map(|r| any_hit(a, &id, r, 2.0).unwrap())
            .collect(),
        culled: inputs
            .frusta
            .iter()
            .map(|f| cull(a, &id, f).unwrap())
            .collect(),
    }
}

/// Models of the soup (rays through `rays`) and of the closed box, default trees.
fn models<V: TreeVolume>(inputs: &Inputs, rays: RayIndex) -> (Model<V>, Model<V>) {
    let options = ModelOptions {
        tree: BuildOptions::default(),
        rays,
    };
    (
        Model::build(inputs.soup.clone(), &options).unwrap(),
        Model::build(inputs.solid.clone(), &options).unwrap(),
    )
}

/// Four threads, each with its own clone of the shared models, answer like `expected`.
fn threads_agree<V>(inputs: &Inputs, soup: &Model<V>, solid: &Model<V>, expected: &Answers)
where
    V: PosedOverlap + FrustumVolume + RayVolume,
{
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                let (soup, solid) = (soup.clone(), solid.clone());
                s.spawn(move || answers(inputs, &soup, &solid))
            })
            .collect();
        for w in workers {
            assert!(w.join().unwrap() == *expected, "{}", V::NAME);
        }
    });
}

fn shared_queries<V>(inputs: &Inputs)
where
    V: PosedOverlap + FrustumVolume + RayVolume,
{
    let (soup, solid) = models::<V>(inputs, RayIndex::ModelTree);
    let expected = answers(inputs, &soup, &solid);
    assert!(expected.all.iter().any(|r| r.intersects));
    assert!(expected.contained.iter().any(|&c| c) && !expected.contained.iter().all(|&c| c));
    assert!(expected.first_hits.iter().filter(|h| h.is_some()).count() > 50);
    threads_agree(inputs, &soup, &solid, &expected);
}

#[test]
fn real_queries_on_shared_trees_answer_like_a_single_thread() {
    let inputs = inputs();
    shared_queries::<Aabb>(&inputs);
    shared_queries::<Obb>(&inputs);
    shared_queries::<Sphere>(&inputs);
    shared_queries::<Kdop18>(&inputs);
    // The compact picking index, shared the same way: once built by this thread, and once
    // built on first use by whichever of the racing threads gets there first.
    let (soup, solid) = models::<Aabb>(&inputs, RayIndex::Compact);
    let expected = answers(&inputs, &soup, &solid);
    threads_agree(&inputs, &soup, &solid, &expected);
    let (unbuilt, solid) = models::<Aabb>(&inputs, RayIndex::Compact);
    threads_agree(&inputs, &unbuilt, &solid, &expected);
}
