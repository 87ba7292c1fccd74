//! Ray picking against independent oracles:
//! * brute force over every triangle with exact orientation tests (`robust::orient3d`) on rays
//!   whose direction and far point are exactly representable, for every bundled mesh and every
//!   volume type (each model's own tree, `RayIndex::ModelTree`, and the compact picking index,
//!   `RayIndex::Compact`);
//! * parry3d-f64's `cast_ray_and_get_normal` on the same rays (every disagreement must be
//!   parry's error by the exact oracle: a missed hit, a triangle not crossed, or a wrong `t`);
//! * watertightness: rays aimed exactly at shared vertices and edge points of the closed bunny;
//! * poses (ray moved into the mesh frame vs. the mesh moved into the world), camera rays,
//!   bad input.
//!
//! Rays per mesh: 24 in CI (`OBBTREE_PROPTEST_CASES` scales them).

mod common;

use common::{asset, cases, BUNDLED};
use obbtree::bv::{
    Aabb, BoundingVolume, Kdop18, Obb, Point, Pose, PoseError, Ray, Sphere, TriMesh, Vector,
};
use obbtree::tree::{BuildOptions, SplitRule, TreeVolume};
use obbtree::{
    any_hit, cast_ray, cast_ray_all, cast_rays, pick_pixel, BatchError, Camera, Model,
    ModelOptions, QueryError, RayIndex, RayVolume,
};
use parry3d_f64::query::RayCast;
use rand::{Rng, SeedableRng};
use robust::{orient3d, Coord3D};

fn c3(p: &Point) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// A ray `o + t·d` with `p = o + K·d` exactly representable (all coordinates on a common
/// dyadic grid), so the exact segment test on `[o, p]` decides the ray exactly.
struct ExactRay {
    ray: Ray,
    far: Point,
}

/// `K`: the far point's parameter. Rays start within `2R` of the mesh's centre and have
/// `|d| >= (2 - √3) R`, so every triangle hit lies at `t < K`.
const K: f64 = 64.0;

/// Triangles hit by the exact ray (decided by exact signs), with `t` from the plane equation
/// `n·(a - o) / n·d` in floating point (an approximation independent of the tested code).
fn exact_hits(mesh: &TriMesh, r: &ExactRay) -> Vec<(u32, f64)> {
    let (o, p) = (c3(&r.ray.origin), c3(&r.far));
    let mut hits = Vec::new();
    for (i, t) in mesh.triangles().iter().enumerate() {
        let [a, b, c] = t.map(|v| c3(&mesh.vertices()[v as usize]));
        let (so, sp) = (orient3d(a, b, c, o), orient3d(a, b, c, p));
        if (so > 0.0 && sp > 0.0) || (so < 0.0 && sp < 0.0) || (so == 0.0 && sp == 0.0) {
            continue;
        }
        let e = [
            orient3d(o, p, a, b),
            orient3d(o, p, b, c),
            orient3d(o, p, c, a),
        ];
        let all_nonneg = e.iter().all(|&x| x >= 0.0);
        let all_nonpos = e.iter().all(|&x| x <= 0.0);
        if (all_nonneg || all_nonpos) && e.iter().any(|&x| x != 0.0) {
            let tri = mesh.triangle(i);
            let n = tri.scaled_normal();
            hits.push((i as u32, n.dot(&(tri.a - r.ray.origin)) / n.dot(&r.ray.dir)));
        }
    }
    hits
}

/// Random exact rays at `mesh`: origins on the sphere of radius `2R` about the AABB centre,
/// aimed at a random point of a random triangle (half) or of the AABB (half), all coordinates
/// rounded to a dyadic grid fine enough for the mesh and coarse enough that `o + K·d` is exact.
fn exact_rays(mesh: &TriMesh, n: usize, seed: u64) -> Vec<ExactRay> {
    let bounds = Aabb::from_points(mesh.vertices());
    let c = bounds.center();
    let radius = mesh
        .vertices()
        .iter()
        .map(|v| (v - c).norm())
        .fold(0.0, f64::max);
    let reach = c.coords.amax() + 3.0 * radius;
    let grid = 2f64.powi(reach.log2().ceil() as i32 - 30);
    let snap = |p: Point| p.map(|x| (x / grid).round() * grid);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut rays = Vec::with_capacity(n);
    while rays.len() < n {
        let dir = Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| 2.0 * x - 1.0);
        let Some(dir) = dir.try_normalize(1e-3) else {
            continue;
        };
        let o = snap(c + dir * (2.0 * radius));
        let target = if rng.gen() {
            let tri = mesh.triangle(rng.gen_range(0..mesh.triangles().len()));
            let (u, v): (f64, f64) = (rng.gen(), rng.gen());
            let (u, v) = if u + v > 1.0 {
                (1.0 - u, 1.0 - v)
            } else {
                (u, v)
            };
            tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v
        } else {
            bounds.mins + (bounds.maxs - bounds.mins).map(|e| e * rng.gen::<f64>())
        };
        let target = snap(target);
        let d = target - o;
        if d == Vector::zeros() {
            continue;
        }
        let far = o + d * K;
        assert_eq!(far - d * K, o, "grid too fine for exact far points");
        rays.push(ExactRay {
            ray: Ray::new(o, d),
            far,
        });
    }
    rays
}

/// Outcome counts of comparing a tree's answers with the oracle.
#[derive(Default, Debug)]
struct Tally {
    rays: usize,
    hits: usize,
    ties: usize,
}

/// Checks `cast_ray`, `any_hit` and `cast_ray_all` through `model`'s ray index against the
/// exact hits.
fn check_tree<V: RayVolume>(
    what: &str,
    model: &Model<V>,
    r: &ExactRay,
    exact: &[(u32, f64)],
    tally: &mut Tally,
) {
    let pose = Pose::identity();
    let got = cast_ray(model, &pose, &r.ray, f64::INFINITY).unwrap();
    tally.rays += 1;
    let first = exact
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    assert_eq!(
        any_hit(model, &pose, &r.ray, f64::INFINITY).unwrap(),
        got.is_some(),
        "{what}: any_hit differs from cast_ray on {:?}",
        r.ray
    );
    match (got, first) {
        (None, None) => {}
        (Some(h), Some(&(tri, t))) => {
            tally.hits += 1;
            let scale = t.abs().max(1.0);
            if h.triangle != tri {
                let own = exact.iter().find(|e| e.0 == h.triangle);
                assert!(
                    own.is_some_and(|e| (e.1 - t).abs() <= 1e-12 * scale),
                    "{what}: got triangle {} at t {}, exact first is {tri} at t {t} (ray {:?})",
                    h.triangle,
                    h.t,
                    r.ray
                );
                tally.ties += 1;
            }
            assert!(
                (h.t - t).abs() <= 1e-9 * scale,
                "{what}: t {} vs exact {t}",
                h.t
            );
            assert!((h.point - r.ray.point_at(h.t)).norm() <= 1e-9 * scale * r.ray.dir.norm());
            assert!((h.barycentric.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert_eq!(h.front_face, h.normal.dot(&r.ray.dir) < 0.0);
        }
        (got, first) => panic!(
            "{what}: got {got:?}, exact first hit {first:?} on ray {:?}",
            r.ray
        ),
    }
    let mut all: Vec<u32> = cast_ray_all(model, &pose, &r.ray, f64::INFINITY)
        .unwrap()
        .iter()
        .map(|h| h.triangle)
        .collect();
    all.sort_unstable();
    let mut expected: Vec<u32> = exact.iter().map(|e| e.0).collect();
    expected.sort_unstable();
    assert_eq!(all, expected, "{what}: cast_ray_all on {:?}", r.ray);
}

/// The SAH build options of these tests.
fn sah<V: TreeVolume>() -> BuildOptions<V> {
    BuildOptions {
        split: SplitRule::Sah,
        ..Default::default()
    }
}

/// A model of `mesh` over an SAH tree, whose rays walk `rays`.
fn build<V: TreeVolume>(mesh: &TriMesh, rays: RayIndex) -> Model<V> {
    let options = ModelOptions { tree: sah(), rays };
    Model::build(mesh.clone(), &options).unwrap()
}

fn parry_mesh(mesh: &TriMesh) -> parry3d_f64::shape::TriMesh {
    parry3d_f64::shape::TriMesh::new(
        mesh.vertices()
            .iter()
            .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
            .collect(),
        mesh.triangles().to_vec(),
    )
    .unwrap()
}

fn parry_cast(mesh: &parry3d_f64::shape::TriMesh, ray: &Ray, max_t: f64) -> Option<(u32, f64)> {
    let v = |x: &Vector| parry3d_f64::math::Vector::new(x.x, x.y, x.z);
    let ray = parry3d_f64::query::Ray::new(v(&ray.origin.coords), v(&ray.dir));
    mesh.cast_ray_and_get_normal(&parry3d_f64::math::Pose::IDENTITY, &ray, max_t, true)
        .map(|h| (h.subshape, h.time_of_impact))
}

/// Every bundled mesh, every volume type and the compact index, against the exact brute force;
/// parry3d on the same rays, each disagreement checked against the exact hits and listed.
#[test]
fn every_mesh_every_volume_matches_exact_brute_force_and_parry() {
    let n = cases(24) as usize;
    let mut tally = Tally::default();
    let mut parry_disagreements = Vec::new();
    for (m, bundled) in BUNDLED.iter().enumerate() {
        let mesh = obbtree::load::load_mesh(&asset(bundled.name)).unwrap();
        // Brute force costs O(triangles) per ray: fewer rays on the big meshes.
        let count = (n * 20_000 / mesh.triangles().len().max(20_000)).max(4);
        let rays = exact_rays(&mesh, count, m as u64);
        let exact: Vec<_> = rays.iter().map(|r| exact_hits(&mesh, r)).collect();
        let aabb: Model<Aabb> = build(&mesh, RayIndex::ModelTree);
        // The compact index over the default (median-split) AABB tree.
        let compact: Model<Aabb> = Model::new(mesh.clone()).unwrap();
        assert_eq!(compact.ray_index(), RayIndex::Compact);
        let obb: Model<Obb> = build(&mesh, RayIndex::ModelTree);
        let kdop: Model<Kdop18> = build(&mesh, RayIndex::ModelTree);
        let sphere: Model<Sphere> = build(&mesh, RayIndex::ModelTree);
        let parry = parry_mesh(&mesh);
        for (r, e) in rays.iter().zip(&exact) {
            let name = bundled.name;
            check_tree(&format!("{name} aabb"), &aabb, r, e, &mut tally);
            check_tree(&format!("{name} compact"), &compact, r, e, &mut tally);
            check_tree(&format!("{name} obb"), &obb, r, e, &mut tally);
            check_tree(&format!("{name} kdop18"), &kdop, r, e, &mut tally);
            check_tree(&format!("{name} sphere"), &sphere, r, e, &mut tally);
            let ours = cast_ray(&compact, &Pose::identity(), &r.ray, f64::INFINITY)
                .unwrap()
                .map(|h| (h.triangle, h.t));
            let theirs = parry_cast(&parry, &r.ray, f64::MAX);
            let agree = match (ours, theirs) {
                (None, None) => true,
                (Some(a), Some(b)) => a.0 == b.0 || (a.1 - b.1).abs() <= 1e-9 * a.1.max(1.0),
                _ => false,
            };
            if !agree {
                // Ours matched the exact oracle above; parry's answer must be the wrong one: no
                // hit where the oracle has one, a triangle the ray does not cross, or a later
                // (or earlier) `t` than the exact first hit's.
                let first_t = e.iter().map(|h| h.1).fold(f64::INFINITY, f64::min);
                let parry_wrong = match theirs {
                    None => !e.is_empty(),
                    Some((tri, t)) => {
                        !e.iter().any(|h| h.0 == tri)
                            || (t - first_t).abs() > 1e-9 * first_t.abs().max(1.0)
                    }
                };
                assert!(
                    parry_wrong,
                    "{name}: ray {:?}: ours {ours:?} and parry {theirs:?} differ, and the exact \
                     hits {e:?} do not show parry wrong",
                    r.ray
                );
                parry_disagreements.push(format!(
                    "{name}: ray {:?}: ours {ours:?}, parry {theirs:?}",
                    r.ray
                ));
            }
        }
    }
    for d in &parry_disagreements {
        eprintln!("parry wrong: {d}");
    }
    eprintln!(
        "{tally:?}; parry wrong on {} rays",
        parry_disagreements.len()
    );
    assert!(
        tally.hits * 3 > tally.rays,
        "too few hits to mean anything: {tally:?}"
    );
}

/// The compact index keeps a mesh whose coordinates are all `f32` values in single precision
/// (half the leaf memory) and any other mesh in double precision: both layouts give the exact
/// hits (the bunny's decimal coordinates are not `f32` values; its copy rounded to `f32` is).
#[test]
fn picktree_single_and_double_storage_match_exact_hits() {
    let bunny = obbtree::load::load_mesh(&asset("bunny.obj")).unwrap();
    let is_f32 = |x: f64| f64::from(x as f32) == x;
    assert!(bunny
        .vertices()
        .iter()
        .any(|p| !p.iter().all(|&x| is_f32(x))));
    let rounded = TriMesh::new(
        bunny
            .vertices()
            .iter()
            .map(|p| p.map(|x| f64::from(x as f32)))
            .collect(),
        bunny.triangles().to_vec(),
    )
    .unwrap();
    // Each the compact copy of the model's own SAH AABB tree; its bytes are what building it
    // adds to the model's.
    let index_bytes = |model: &Model<Aabb>| {
        let before = model.memory_bytes();
        model.prepare_rays();
        model.memory_bytes() - before
    };
    let double: Model<Aabb> = build(&bunny, RayIndex::Compact);
    let single: Model<Aabb> = build(&rounded, RayIndex::Compact);
    // 80 and 40 bytes per leaf triangle; the nodes (128 bytes per ~2 triangles) are alike.
    let (double_bytes, single_bytes) = (index_bytes(&double) as f64, index_bytes(&single) as f64);
    let triangles = bunny.triangles().len() as f64;
    let per_triangle = (double_bytes - single_bytes) / triangles;
    assert!((30.0..50.0).contains(&per_triangle), "{per_triangle} bytes");
    // And the nodes are counted: 40 bytes a triangle, plus 128 a node, of which there are
    // between a twentieth and a half as many as triangles (the bunny: 52 bytes in all).
    let single_per_triangle = single_bytes / triangles;
    assert!(
        (40.0 + 6.4..40.0 + 64.0).contains(&single_per_triangle),
        "{single_per_triangle} bytes"
    );
    let mut tally = Tally::default();
    for (name, model) in [("double", &double), ("single", &single)] {
        let mesh = model.mesh().unwrap();
        for r in exact_rays(mesh, cases(200) as usize, 5) {
            let exact = exact_hits(mesh, &r);
            check_tree(name, model, &r, &exact, &mut tally);
        }
    }
    assert!(tally.hits > tally.rays / 4, "{tally:?}");
}

/// `b - a` if it is exact (Knuth's TwoDiff error term is zero).
fn exact_diff(a: f64, b: f64) -> Option<f64> {
    let x = a - b;
    let bv = a - x;
    let av = x + bv;
    ((a - av) + (bv - b) == 0.0).then_some(x)
}

/// Whether `m` lies exactly on segment `ab` (collinear in all three coordinate projections,
/// between the ends).
fn exactly_on_segment(a: &Point, b: &Point, m: &Point) -> bool {
    let proj = |p: &Point, u: usize, v: usize| robust::Coord { x: p[u], y: p[v] };
    [(0, 1), (1, 2), (2, 0)]
        .iter()
        .all(|&(u, v)| robust::orient2d(proj(a, u, v), proj(b, u, v), proj(m, u, v)) == 0.0)
        && (0..3).all(|k| m[k] >= a[k].min(b[k]) && m[k] <= a[k].max(b[k]))
}

/// Rays aimed exactly at every shared vertex and at exact points of shared edges of the
/// closed bunny, arriving across the surface (within 40° of the inward normal), never miss:
/// some triangle is hit at `t <= 1 + 1e-9` (the target is at `t = 1` exactly; the computed `t`
/// of the target's triangles may round a little above 1). Parry's misses on the
/// same rays are counted and listed.
#[test]
fn watertight_on_the_closed_bunny() {
    let mesh = obbtree::load::load_mesh(&asset("bunny.obj")).unwrap();
    assert!(mesh.is_closed());
    // The SAH AABB tree, walked itself and through its compact copy.
    let tree: Model<Aabb> = build(&mesh, RayIndex::ModelTree);
    let compact: Model<Aabb> = build(&mesh, RayIndex::Compact);
    let parry = parry_mesh(&mesh);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let verts = mesh.vertices();
    let mut normal_at = vec![Vector::zeros(); verts.len()];
    let mut targets: Vec<(Point, Vector)> = Vec::new();
    for (i, t) in mesh.triangles().iter().enumerate() {
        let n = mesh.triangle(i).scaled_normal();
        for &v in t {
            normal_at[v as usize] += n;
        }
        for k in 0..3 {
            let (a, b) = (verts[t[k] as usize], verts[t[(k + 1) % 3] as usize]);
            for lambda in [0.5, 0.25, rng.gen::<f64>()] {
                let m = a + (b - a) * lambda;
                if exactly_on_segment(&a, &b, &m) {
                    targets.push((m, n));
                }
            }
        }
    }
    let vertex_targets = verts.len();
    targets.splice(0..0, verts.iter().zip(&normal_at).map(|(p, n)| (*p, *n)));
    let (mut rays, mut parry_misses) = (0, Vec::new());
    let scale = 0.05;
    for (target, normal) in &targets {
        let Some(n) = normal.try_normalize(0.0) else {
            continue;
        };
        for _ in 0..2 {
            let tilt = Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| x - 0.5);
            let away = (n + tilt * 1.2).normalize();
            if away.dot(&n) < 40f64.to_radians().cos() {
                continue;
            }
            let o = target + away * scale * rng.gen_range(0.2..1.0);
            let d = Vector::from_fn(|k, _| exact_diff(target[k], o[k]).unwrap_or(f64::NAN));
            if d.iter().any(|x| x.is_nan()) {
                continue;
            }
            let ray = Ray::new(o, d);
            rays += 1;
            for (name, hit) in [
                (
                    "aabb",
                    cast_ray(&tree, &Pose::identity(), &ray, 1.0 + 1e-9).unwrap(),
                ),
                (
                    "compact",
                    cast_ray(&compact, &Pose::identity(), &ray, 1.0 + 1e-9).unwrap(),
                ),
            ] {
                assert!(hit.is_some(), "{name} leaked: {ray:?} at {target:?}");
            }
            if parry_cast(&parry, &ray, 1.0 + 1e-9).is_none() {
                parry_misses.push(ray);
            }
        }
    }
    for r in &parry_misses {
        eprintln!("parry missed (target exactly at t = 1 on the closed mesh): {r:?}");
    }
    eprintln!(
        "{rays} rays at {vertex_targets} vertices and {} exact edge points: none missed; parry missed {}",
        targets.len() - vertex_targets,
        parry_misses.len()
    );
    assert!(rays > 3000);
}

/// A posed mesh: casting the world ray (moved into the mesh frame) equals casting on a copy of
/// the mesh moved into the world (up to the rounding of the moved vertices).
#[test]
fn pose_moves_the_ray_not_the_mesh() {
    let mesh = obbtree::load::load_mesh(&asset("duck/duck.obj")).unwrap();
    let compact: Model<Aabb> = build(&mesh, RayIndex::Compact);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let mut compared = 0;
    for _ in 0..cases(24) {
        let pose = Pose::new(
            Vector::new(rng.gen(), rng.gen(), rng.gen()) * 100.0,
            Vector::new(rng.gen(), rng.gen(), rng.gen()) * 3.0,
        )
        .unwrap();
        let moved = TriMesh::new(
            mesh.vertices()
                .iter()
                .map(|p| pose.transform_point(p))
                .collect(),
            mesh.triangles().to_vec(),
        )
        .unwrap();
        let moved_tree: Model<Aabb> = build(&moved, RayIndex::ModelTree);
        for r in exact_rays(&moved, 16, rng.gen()) {
            let a = cast_ray(&compact, &pose, &r.ray, f64::INFINITY).unwrap();
            let b = cast_ray(&moved_tree, &Pose::identity(), &r.ray, f64::INFINITY).unwrap();
            match (a, b) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    compared += 1;
                    assert!((a.t - b.t).abs() <= 1e-9 * a.t.max(1.0), "{a:?} vs {b:?}");
                    assert!((a.point - b.point).norm() <= 1e-7);
                    if a.triangle == b.triangle {
                        assert!((a.normal - b.normal).norm() <= 1e-9, "{a:?} vs {b:?}");
                        assert_eq!(a.front_face, b.front_face);
                    }
                }
                (a, b) => panic!("posed {a:?} vs moved {b:?}"),
            }
        }
    }
    assert!(compared > 0);
}

/// `max_t` limits hits (closed: a hit at exactly `max_t` counts).
#[test]
fn max_t_is_a_closed_limit() {
    let mesh = obbtree::load::load_mesh(&asset("bunny.obj")).unwrap();
    let compact: Model<Aabb> = build(&mesh, RayIndex::Compact);
    for r in exact_rays(&mesh, 64, 9) {
        let pose = Pose::identity();
        let Some(hit) = cast_ray(&compact, &pose, &r.ray, f64::INFINITY).unwrap() else {
            continue;
        };
        let at = cast_ray(&compact, &pose, &r.ray, hit.t).unwrap();
        assert_eq!(at.map(|h| h.triangle), Some(hit.triangle));
        let before = hit.t * (1.0 - 1e-9);
        assert!(cast_ray(&compact, &pose, &r.ray, before).unwrap().is_none());
        assert!(!any_hit(&compact, &pose, &r.ray, before).unwrap());
        let all = cast_ray_all(&compact, &pose, &r.ray, f64::INFINITY).unwrap();
        assert!(all.windows(2).all(|w| w[0].t <= w[1].t));
        assert_eq!(all[0].triangle, hit.triangle);
    }
}

/// Bad input is a typed error, never a panic or a silent miss.
#[test]
fn bad_input_is_an_error() {
    let mesh = obbtree::load::load_mesh(&asset("teapot.obj")).unwrap();
    let model: Model<Aabb> = build(&mesh, RayIndex::ModelTree);
    let pose = Pose::identity();
    let good = Ray::new(Point::origin(), Vector::x());
    for bad in [
        Ray::new(Point::new(f64::NAN, 0.0, 0.0), Vector::x()),
        Ray::new(Point::origin(), Vector::new(0.0, f64::INFINITY, 0.0)),
        Ray::new(Point::origin(), Vector::zeros()),
        Ray::new(Point::new(0.0, -1.1e100, 0.0), Vector::x()),
    ] {
        assert!(matches!(
            cast_ray(&model, &pose, &bad, 1.0),
            Err(QueryError::InvalidRay { .. })
        ));
        let err = cast_rays(&model, &pose, &[good, good, bad], 1.0).unwrap_err();
        assert!(
            matches!(
                err,
                BatchError {
                    index: 2,
                    source: QueryError::InvalidRay { .. }
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("item 2 of the batch: "),
            "{err}"
        );
        // A batch long enough to be checked on the pool names its first bad ray too, on the
        // default pool and on pools of one thread (checked in a loop on the calling thread)
        // and two (checked in parallel), whatever this machine's core count.
        let mut long = vec![good; 20_000];
        (long[17_000], long[9_001]) = (bad, bad);
        let err = cast_rays(&model, &pose, &long, 1.0).unwrap_err();
        assert_eq!(err.index, 9_001, "{err:?}");
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let err = pool.install(|| cast_rays(&model, &pose, &long, 1.0).unwrap_err());
            assert_eq!(err.index, 9_001, "{threads} threads: {err:?}");
        }
    }
    for max_t in [f64::NAN, -1.0] {
        assert!(matches!(
            any_hit(&model, &pose, &good, max_t),
            Err(QueryError::InvalidMaxT(_))
        ));
    }
    // A direction whose small components would underflow when scaled to unit size.
    let wide = Ray::new(Point::origin(), Vector::new(1.9e214, 2.2e-308, 0.0));
    assert!(matches!(
        cast_ray(&model, &pose, &wide, f64::INFINITY),
        Err(QueryError::RayDirectionRange { .. })
    ));
    let err = cast_rays(&model, &pose, &[good, wide], f64::INFINITY).unwrap_err();
    assert!(
        matches!(err.source, QueryError::RayDirectionRange { .. }),
        "{err:?}"
    );
    let fine = Ray::new(Point::origin(), Vector::new(1.0, 1e-300, 0.0));
    assert!(cast_ray(&model, &pose, &fine, f64::INFINITY).is_ok());
    // The ray moved into the mesh frame must stay in the exact predicates' range.
    let far = Pose::from_translation([0.0, 0.0, 1.1e100]).unwrap();
    assert_eq!(
        cast_ray(&model, &far, &good, 1.0),
        Err(QueryError::TranslationOutOfRange {
            translation: [0.0, 0.0, 1.1e100]
        })
    );
    // A pose that is not finite cannot be made.
    let nan = Pose::from_translation([0.0, 0.0, f64::NAN]);
    assert!(
        matches!(nan, Err(PoseError::NonFinite { part: "translation", value }) if value.is_nan()),
        "{nan:?}"
    );
    let edge = Ray::new(Point::new(1e100, -1e100, 0.0), Vector::new(1e300, 1.0, 0.0));
    let at_the_end = Pose::from_translation([1e100, 0.0, 0.0]).unwrap();
    assert!(cast_ray(&model, &at_the_end, &edge, 1.0).is_ok());
    // 1e-300 of 1e300 would underflow when the direction is scaled to unit size.
    let too_wide = Ray::new(edge.origin, Vector::new(1e300, 1e-300, 0.0));
    assert!(matches!(
        cast_ray(&model, &at_the_end, &too_wide, 1.0),
        Err(QueryError::RayDirectionRange { .. })
    ));
    // A model cannot pair a mesh with a tree built for another (the old query-time check of
    // the tree's triangle count is gone: a model's tree always belongs to its mesh).
    let other = obbtree::load::load_mesh(&asset("bunny.obj")).unwrap();
    let mismatch =
        Model::from_tree(other.clone(), model.as_mesh().unwrap().tree().clone()).unwrap_err();
    assert_eq!(
        (mismatch.expected_triangles, mismatch.found_triangles),
        (
            mesh.triangles().len() as u64,
            other.triangles().len() as u64
        )
    );
    assert_eq!(
        (mismatch.expected_vertices, mismatch.found_vertices),
        (mesh.vertices().len() as u64, other.vertices().len() as u64)
    );
    assert!(Model::from_tree(mesh.clone(), model.as_mesh().unwrap().tree().clone()).is_ok());
}

/// The batch equals one-by-one casting.
#[test]
fn batch_equals_single_rays() {
    let mesh = obbtree::load::load_mesh(&asset("dragon_res4.ply.gz")).unwrap();
    let model: Model<Obb> = build(&mesh, RayIndex::ModelTree);
    let rays: Vec<Ray> = exact_rays(&mesh, 500, 5)
        .into_iter()
        .map(|r| r.ray)
        .collect();
    let pose = Pose::from_translation([1.0, 2.0, 3.0]).unwrap();
    let batch = cast_rays(&model, &pose, &rays, f64::INFINITY).unwrap();
    assert_eq!(batch.len(), rays.len());
    for (r, b) in rays.iter().zip(batch) {
        assert_eq!(cast_ray(&model, &pose, r, f64::INFINITY).unwrap(), b);
    }
}

/// The pixel ray through pixel (x, y) projects back onto that pixel's centre; the framing
/// camera sees the mesh at the image centre; pixels outside the image are errors.
#[test]
fn camera_rays_go_through_their_pixels() {
    let mesh = obbtree::load::load_mesh(&asset("bunny.obj")).unwrap();
    let model: Model<Aabb> = build(&mesh, RayIndex::ModelTree);
    let bounds = Aabb::from_points(mesh.vertices());
    let camera = Camera::framing(&bounds, 320, 200);
    let vp = camera.projection * camera.view;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    for _ in 0..cases(24) * 10 {
        let (x, y) = (rng.gen_range(0..320), rng.gen_range(0..200));
        let ray = camera.pixel_ray(x, y).unwrap();
        assert!((ray.dir.norm() - 1.0).abs() < 1e-12);
        for t in [0.0, 0.1, 1.0] {
            let p = ray.point_at(t);
            let clip = vp * p.to_homogeneous();
            let (px, py) = (
                (clip.x / clip.w + 1.0) * 0.5 * 320.0,
                (1.0 - clip.y / clip.w) * 0.5 * 200.0,
            );
            assert!((px - (f64::from(x) + 0.5)).abs() < 1e-6, "{px} vs {x}");
            assert!((py - (f64::from(y) + 0.5)).abs() < 1e-6, "{py} vs {y}");
        }
    }
    let center = pick_pixel(&model, &Pose::identity(), &camera, 160, 100).unwrap();
    assert!(
        center.is_some(),
        "the framed bunny is not at the image centre"
    );
    assert!(camera.pixel_ray(320, 0).is_err());
    assert!(camera.pixel_ray(0, 200).is_err());
}
