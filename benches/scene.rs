//! Scenes of many objects, one thread (a one-thread rayon pool).
//!
//! **Frames** (`frames/…`): 1,000 objects drawn in turn from the bundled meshes (bunny, duck,
//! teapot, the eight KUKA links, the twelve differential parts, dragon_res4), each moved to
//! put its vertices' centroid at the origin and scaled to a bounding radius of 1, turned
//! uniformly at random and scattered uniformly in a cube sized so that about 5% of the objects'
//! bounding spheres meet another's (`scene.py`'s rule: λ = 0.0513 expected neighbours). A
//! tenth of them oscillate along a random direction and about a random axis (amplitude 0.8
//! units and 0.8 rad over a cycle of 100 frames: at most 0.05 units and 0.05 rad per frame).
//! One iteration is one frame: the moving objects' new poses, then every touching object pair
//! with its triangle pairs (`Mode::All`, the counts summed):
//!
//! * `scene`: [`Scene::frame`] on one scene kept across frames (incremental broad phase,
//!   pairs of unmoved objects reused);
//! * `scene_no_records`: the same with the pair records cleared before each frame (the
//!   incremental broad phase alone: every pair whose bounds meet queried in full);
//! * `rebuild`: a new scene per frame (every object inserted, every pair queried cold);
//! * `parry`: parry3d-f64's BVH broad phase (leaves updated with a change-detection margin of
//!   0.1, refitted, every overlapping leaf pair enumerated by its tree-against-itself
//!   traversal) and parry's mesh–mesh pairs (`obbtree_compare::pairs`: its BVH pair traversal
//!   and triangle intersection test) on every pair whose boxes meet: what a manager without
//!   coherence does each frame.
//!
//! **Path** (`path/…`): the KUKA iiwa along a smooth 1,000-configuration path (every joint a
//! sinusoid, at most ~0.013 rad per step, so no interpolation at resolution 0.05) among 50
//! fixtures (boxes and scaled bundled meshes placed around the arm and pushed outwards until
//! the path clears them, so many are near misses and the whole path is checked):
//!
//! * `warm`: [`RobotScene::check_path`] on one robot scene;
//! * `cold`: the same configurations one by one on one robot scene whose pair records are
//!   cleared before each check (incremental broad phase, every pair queried in full);
//! * `fresh`: each configuration on a fresh copy of the unqueried robot scene (no records, the
//!   broad phase's pairs found afresh too).
//!
//! Before timing, prints the scene's statistics (touching objects and pairs, the records'
//! reuse) and checks that every variant agrees.
//!
//! **Margins** (`margins/…`): the frames world, each frame's pairs within 0.05
//! ([`Scene::within_margin_all`]) after the moves, `warm` (records kept) against `cold`
//! (records cleared first). **Clearance** (`clearance/…`): the KUKA path's smallest clearance
//! within 0.05, `warm` ([`RobotScene::check_path_with`]) against `cold` (each configuration
//! alone, records cleared). The clearance walk measures only pairs closer than the best
//! clearance so far, deciding each first with the exact margin query.
//!
//! The measured times and the scenes' statistics are in `docs/performance.md`.
//!
//! Run: `cargo bench --bench scene --features urdf` (`-- frames`, `-- path`, `-- margins` or
//! `-- clearance` for one group).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{UnitQuaternion, Vector3};
use obbtree::bv::{Aabb, Obb, Point, TriMesh};
use obbtree::load::load_mesh;
use obbtree::scene::{ObjectId, Scene};
use obbtree::urdf::{Robot, RobotScene};
use obbtree::{CollisionRequest, Mode, Model, Pose};
use obbtree_compare as parry;
use parry3d_f64::bounding_volume::BoundingVolume;
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// Frames in one cycle of the oscillation.
const FRAMES: usize = 100;
/// Expected number of other objects whose bounding sphere meets an object's (5% touching).
const EXPECTED_NEIGHBOURS: f64 = 0.0513;

const MESHES: &[&str] = &[
    "bunny.obj",
    "duck/duck.obj",
    "teapot.obj",
    "kuka_iiwa/link_0.obj",
    "kuka_iiwa/link_1.obj",
    "kuka_iiwa/link_2.obj",
    "kuka_iiwa/link_3.obj",
    "kuka_iiwa/link_4.obj",
    "kuka_iiwa/link_5.obj",
    "kuka_iiwa/link_6.obj",
    "kuka_iiwa/link_7.obj",
    "differential/diff_arm.stl",
    "differential/diff_carrier.stl",
    "differential/diff_carrier_cover.stl",
    "differential/diff_leftshaft.stl",
    "differential/diff_motor_cover.stl",
    "differential/diff_pinion.stl",
    "differential/diff_rightshaft.stl",
    "differential/diff_ring.stl",
    "differential/diff_side.stl",
    "differential/diff_spider.stl",
    "differential/diff_spider_shaft.stl",
    "differential/diff_stand.stl",
    "dragon_res4.ply.gz",
];

fn asset(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name)
}

/// `mesh` moved to put the centroid of its vertices at the origin and scaled by `radius` over
/// its bounding radius about that centroid.
fn normalised(mesh: &TriMesh, radius: f64) -> TriMesh {
    let v = mesh.vertices();
    let c = v.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / v.len() as f64;
    let r = v.iter().map(|p| (p.coords - c).norm()).fold(0.0, f64::max);
    let vertices = v
        .iter()
        .map(|p| Point::from((p.coords - c) * (radius / r)))
        .collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).unwrap()
}

/// The bundled meshes at radius 1, with their models and parry copies.
struct Library {
    models: Vec<Model<Obb>>,
    parry: Vec<parry3d_f64::shape::TriMesh>,
}

impl Library {
    fn load() -> Self {
        let meshes: Vec<TriMesh> = MESHES
            .iter()
            .map(|m| normalised(&load_mesh(&asset(m)).unwrap(), 1.0))
            .collect();
        Self {
            parry: meshes.iter().map(|m| parry::trimesh(m).unwrap()).collect(),
            models: meshes.into_iter().map(|m| Model::new(m).unwrap()).collect(),
        }
    }
}

/// A rotation uniform on SO(3) (Shoemake 1992: a uniform unit quaternion) as a rotation vector.
fn random_rotation(rng: &mut Pcg64) -> Vector3<f64> {
    let (u1, u2, u3): (f64, f64, f64) = (rng.gen(), rng.gen(), rng.gen());
    let q = nalgebra::Quaternion::new(
        u1.sqrt() * (TAU * u3).cos(),
        (1.0 - u1).sqrt() * (TAU * u2).sin(),
        (1.0 - u1).sqrt() * (TAU * u2).cos(),
        u1.sqrt() * (TAU * u3).sin(),
    );
    UnitQuaternion::from_quaternion(q).scaled_axis()
}

fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.gen_range(-1.0..1.0));
        if (0.01..=1.0).contains(&v.norm_squared()) {
            return v.normalize();
        }
    }
}

/// The frames' world: each object's mesh, rest pose, and motion (if it moves).
struct World {
    mesh: Vec<usize>,
    rest: Vec<(Vector3<f64>, Vector3<f64>)>,
    /// Moving objects: index, direction, axis, phase.
    moving: Vec<(usize, Vector3<f64>, Vector3<f64>, f64)>,
}

impl World {
    fn new(n: usize, meshes: usize, seed: u64) -> Self {
        let mut rng = Pcg64::seed_from_u64(seed);
        // Bounding spheres of radius 1 meet when their centres are within 2: volume 32π/3.
        let side = (n as f64 * 32.0 * std::f64::consts::PI / 3.0 / EXPECTED_NEIGHBOURS).cbrt();
        let rest = (0..n)
            .map(|_| {
                let t = Vector3::from_fn(|_, _| rng.gen_range(0.0..side));
                (t, random_rotation(&mut rng))
            })
            .collect();
        let moving = (0..n)
            .step_by(10)
            .map(|i| {
                let (d, a) = (random_unit(&mut rng), random_unit(&mut rng));
                (i, d, a, rng.gen_range(0.0..TAU))
            })
            .collect();
        Self {
            mesh: (0..n).map(|i| i % meshes).collect(),
            rest,
            moving,
        }
    }

    /// The pose of moving object `k` at `frame`.
    fn moving_pose(&self, k: usize, frame: usize) -> Pose {
        let (i, d, axis, phase) = self.moving[k];
        let s = 0.8 * (TAU * frame as f64 / FRAMES as f64 + phase).sin();
        let (t, r) = self.rest[i];
        let turn = UnitQuaternion::from_scaled_axis(axis * s) * UnitQuaternion::from_scaled_axis(r);
        Pose::new(t + d * s, turn.scaled_axis()).unwrap()
    }

    fn poses(&self, frame: usize) -> Vec<Pose> {
        let mut poses: Vec<Pose> = self
            .rest
            .iter()
            .map(|(t, r)| Pose::new(*t, *r).unwrap())
            .collect();
        for k in 0..self.moving.len() {
            poses[self.moving[k].0] = self.moving_pose(k, frame);
        }
        poses
    }

    fn scene(&self, library: &Library, poses: &[Pose]) -> (Scene, Vec<ObjectId>) {
        let mut scene = Scene::new();
        let ids = poses
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let model = library.models[self.mesh[i]].clone();
                scene.insert(format!("o{i:05}"), model, *p).unwrap()
            })
            .collect();
        (scene, ids)
    }
}

/// Triangle pairs of all touching object pairs.
fn pair_count(contacts: &[obbtree::scene::ObjectContact]) -> usize {
    contacts.iter().map(|c| c.result.pairs.len()).sum()
}

/// parry's broad phase over the world and its mesh–mesh pairs.
struct ParryWorld {
    bvh: Bvh,
    workspace: BvhWorkspace,
    poses: Vec<Pose>,
}

impl ParryWorld {
    fn new(library: &Library, world: &World, poses: &[Pose]) -> Self {
        let poses = poses.to_vec();
        let boxes: Vec<_> = poses
            .iter()
            .enumerate()
            .map(|(i, p)| library.parry[world.mesh[i]].aabb(&parry::pose(p)))
            .collect();
        Self {
            bvh: Bvh::from_leaves(BvhBuildStrategy::default(), &boxes),
            workspace: BvhWorkspace::default(),
            poses,
        }
    }

    /// Moves the moving objects to `frame` and returns the triangle pairs of every touching
    /// object pair.
    fn frame(&mut self, library: &Library, world: &World, frame: usize) -> usize {
        for k in 0..world.moving.len() {
            let i = world.moving[k].0;
            self.poses[i] = world.moving_pose(k, frame);
            let aabb = library.parry[world.mesh[i]].aabb(&parry::pose(&self.poses[i]));
            self.bvh.insert_or_update_partially(aabb, i as u32, 0.1);
        }
        self.bvh.refit(&mut self.workspace);
        let mut candidates = Vec::new();
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
                candidates.push((a as usize, b as usize));
            });
        candidates
            .into_iter()
            .map(|(a, b)| {
                let (ma, mb) = (&library.parry[world.mesh[a]], &library.parry[world.mesh[b]]);
                let (pa, pb) = (&self.poses[a], &self.poses[b]);
                if !ma
                    .aabb(&parry::pose(pa))
                    .intersects(&mb.aabb(&parry::pose(pb)))
                {
                    return 0;
                }
                parry::pairs(ma, mb, &parry::pose(&pa.inv_mul(pb)), false).len()
            })
            .sum()
    }
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn frames(c: &mut Criterion) {
    let pool = one_thread();
    let library = Library::load();
    let n = 1000;
    let world = World::new(n, library.models.len(), 1);
    let all = CollisionRequest::new(Mode::All);
    let (mut scene, ids) = world.scene(&library, &world.poses(0));
    let updates = |frame: usize| -> Vec<(ObjectId, Pose)> {
        (0..world.moving.len())
            .map(|k| (ids[world.moving[k].0], world.moving_pose(k, frame)))
            .collect()
    };
    describe(&pool, &world, &library, &mut scene, &updates);
    let mut group = c.benchmark_group("frames");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    let mut frame = 0;
    group.bench_function("scene", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            let moves = updates(frame);
            pool.install(|| black_box(pair_count(&scene.frame(&moves, &all).unwrap())))
        })
    });
    group.bench_function("scene_no_records", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            let moves = updates(frame);
            scene.clear_records();
            pool.install(|| black_box(pair_count(&scene.frame(&moves, &all).unwrap())))
        })
    });
    group.bench_function("rebuild", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            let (mut fresh, _) = world.scene(&library, &world.poses(frame));
            pool.install(|| black_box(pair_count(&fresh.collide_all(&all).unwrap())))
        })
    });
    let mut parry_world = ParryWorld::new(&library, &world, &world.poses(0));
    group.bench_function("parry", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            black_box(parry_world.frame(&library, &world, frame))
        })
    });
    group.finish();
}

/// Prints what the frames do and checks that the three variants count the same pairs.
fn describe(
    pool: &rayon::ThreadPool,
    world: &World,
    library: &Library,
    scene: &mut Scene,
    updates: &dyn Fn(usize) -> Vec<(ObjectId, Pose)>,
) {
    let all = CollisionRequest::new(Mode::All);
    let mut parry_world = ParryWorld::new(library, world, &world.poses(0));
    let (mut touching, mut pairs, mut reused, mut candidates, mut separated) = (0, 0, 0, 0, 0);
    for frame in 1..=FRAMES {
        let moves = updates(frame);
        let contacts = pool.install(|| scene.frame(&moves, &all).unwrap());
        let stats = scene.last_stats();
        touching += contacts.len();
        pairs += pair_count(&contacts);
        reused += stats.reused;
        separated += stats.separated;
        candidates += stats.candidates;
        if frame % 25 == 0 {
            let (mut fresh, _) = world.scene(library, &world.poses(frame % FRAMES));
            let cold = pair_count(&fresh.collide_all(&all).unwrap());
            assert_eq!(
                cold,
                pair_count(&contacts),
                "frame {frame}: warm and cold differ"
            );
            // parry decides touching triangles with a tolerance: its counts may differ by a
            // few pairs (see the demo's gear rows); report rather than assert.
            let theirs = (1..=frame).fold(0, |_, f| parry_world.frame(library, world, f % FRAMES));
            parry_world = ParryWorld::new(library, world, &world.poses(0));
            println!("frame {frame}: {} triangle pairs (parry: {theirs})", cold);
        }
    }
    let bounds: Vec<Aabb> = scene
        .objects()
        .map(|(id, _)| *scene.bounds(id).unwrap())
        .collect();
    println!(
        "frames: {} objects, {} moving; per frame {:.1} touching object pairs, {:.0} triangle \
         pairs, {:.1} candidate pairs of which {:.0}% reused and {:.0}% still separated ({} boxes)",
        world.rest.len(),
        world.moving.len(),
        touching as f64 / FRAMES as f64,
        pairs as f64 / FRAMES as f64,
        candidates as f64 / FRAMES as f64,
        100.0 * reused as f64 / candidates.max(1) as f64,
        100.0 * separated as f64 / candidates.max(1) as f64,
        bounds.len()
    );
}

// ---------------------------------------------------------------------------------------------
// The KUKA along a path among fixtures.

/// A smooth path: joint `j` follows `c_j + a_j sin(ω_j k + φ_j)` within its limits.
fn smooth_path(robot: &Robot, steps: usize, rng: &mut Pcg64) -> Vec<Vec<f64>> {
    let joints: Vec<(f64, f64, f64, f64)> = robot
        .moving_joints()
        .map(|j| {
            let (lo, hi) = j.limits.unwrap_or((-3.0, 3.0));
            let amplitude = rng.gen_range(0.3..0.9);
            let centre = rng.gen_range(lo * 0.4..hi * 0.4);
            (
                centre,
                amplitude,
                rng.gen_range(1.0..2.0) * TAU / steps as f64,
                rng.gen_range(0.0..TAU),
            )
        })
        .collect();
    (0..steps)
        .map(|k| {
            joints
                .iter()
                .map(|(c, a, w, p)| c + a * (w * k as f64 + p).sin())
                .collect()
        })
        .collect()
}

/// A box of half sizes `h` about the origin.
fn block(h: Vector3<f64>) -> TriMesh {
    TriMesh::cuboid(Point::from(-h), Point::from(h)).unwrap()
}

/// The robot among `count` fixtures that the path never touches: candidates placed around the
/// arm at random, each pushed outwards in steps of 3 cm until the path clears it (so many are
/// near misses), or dropped after 20 steps.
fn robot_among_fixtures(path: &[Vec<f64>], count: usize, rng: &mut Pcg64) -> RobotScene {
    let robot = Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap();
    let mut scene = RobotScene::new(robot).unwrap();
    let shapes: Vec<Model> = ["bunny.obj", "teapot.obj", "duck/duck.obj"]
        .iter()
        .map(|m| Model::new(normalised(&load_mesh(&asset(m)).unwrap(), 0.12)).unwrap())
        .collect();
    let mut kept = 0;
    let mut tried = 0;
    while kept < count {
        tried += 1;
        let model = if rng.gen_bool(0.5) {
            let h = Vector3::from_fn(|_, _| rng.gen_range(0.03..0.15));
            Model::new(block(h)).unwrap()
        } else {
            shapes[rng.gen_range(0..shapes.len())].clone()
        };
        let (mut radius, angle) = (rng.gen_range(0.2..0.8), rng.gen_range(0.0..TAU));
        let (height, turn) = (rng.gen_range(0.0..1.3), random_rotation(rng));
        // Pushed outwards until the path clears it: a near miss for some configurations.
        for _ in 0..20 {
            let t = Vector3::new(radius * angle.cos(), radius * angle.sin(), height);
            let pose = Pose::new(t, turn).unwrap();
            let mut alone = RobotScene::new(scene.robot().clone()).unwrap();
            alone.add_fixture("candidate", model.clone(), pose).unwrap();
            if alone.check_path(path, 0.05).unwrap().is_none() {
                scene
                    .add_fixture(format!("fixture{kept:02}"), model, pose)
                    .unwrap();
                kept += 1;
                break;
            }
            radius += 0.03;
        }
    }
    println!("path: {count} fixtures kept of {tried} candidates");
    scene
}

/// Every configuration checked on `scene` with its pair records forgotten first: the same
/// incremental broad phase, every pair whose bounds meet queried in full.
fn cold_walk(scene: &mut RobotScene, path: &[Vec<f64>]) -> usize {
    path.iter()
        .map(|q| {
            scene.set_configuration(q).unwrap();
            scene.clear_records();
            usize::from(!scene.check().unwrap().is_empty())
        })
        .sum()
}

/// Every configuration checked on a fresh copy of `template` (never queried): nothing
/// remembered, the broad phase's pairs found afresh too.
fn fresh_walk(template: &RobotScene, path: &[Vec<f64>]) -> usize {
    path.iter()
        .map(|q| {
            let mut fresh = template.clone();
            fresh.set_configuration(q).unwrap();
            usize::from(!fresh.check().unwrap().is_empty())
        })
        .sum()
}

/// How the warm walk answered its pairs, summed over the path.
fn walk_stats(scene: &mut RobotScene, path: &[Vec<f64>]) -> obbtree::scene::QueryStats {
    let mut total = obbtree::scene::QueryStats::default();
    for q in path {
        scene.set_configuration(q).unwrap();
        scene.check().unwrap();
        let s = scene.scene().last_stats();
        total.candidates += s.candidates;
        total.reused += s.reused;
        total.witnessed += s.witnessed;
        total.separated += s.separated;
        total.queried += s.queried;
    }
    total
}

fn path(c: &mut Criterion) {
    let pool = one_thread();
    let mut rng = Pcg64::seed_from_u64(3);
    let robot = Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap();
    let path = smooth_path(&robot, 1000, &mut rng);
    let template = pool.install(|| robot_among_fixtures(&path, 50, &mut rng));
    let mut warm = template.clone();
    assert_eq!(pool.install(|| warm.check_path(&path, 0.05).unwrap()), None);
    let mut cold = template.clone();
    assert_eq!(pool.install(|| cold_walk(&mut cold, &path)), 0);
    assert_eq!(pool.install(|| fresh_walk(&template, &path)), 0);
    let stats = pool.install(|| walk_stats(&mut template.clone(), &path));
    let per = |k: usize| k as f64 / path.len() as f64;
    println!(
        "path: per configuration {:.1} candidate pairs: {:.1} reused, {:.1} still separated, \
         {:.1} queried",
        per(stats.candidates),
        per(stats.reused),
        per(stats.separated),
        per(stats.queried)
    );
    let mut group = c.benchmark_group("path");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("warm", |b| {
        b.iter(|| pool.install(|| black_box(warm.check_path(&path, 0.05).unwrap())))
    });
    group.bench_function("cold", |b| {
        b.iter(|| pool.install(|| black_box(cold_walk(&mut cold, &path))))
    });
    group.bench_function("fresh", |b| {
        b.iter(|| pool.install(|| black_box(fresh_walk(&template, &path))))
    });
    group.finish();
}

/// The margin of the distance groups: a twentieth of an object's bounding radius.
const MARGIN: f64 = 0.05;

/// Pairs within [`MARGIN`] per frame of the frames world, warm and cold.
fn margins(c: &mut Criterion) {
    let pool = one_thread();
    let library = Library::load();
    let world = World::new(1000, library.models.len(), 1);
    let (mut scene, ids) = world.scene(&library, &world.poses(0));
    let updates = |frame: usize| -> Vec<(ObjectId, Pose)> {
        (0..world.moving.len())
            .map(|k| (ids[world.moving[k].0], world.moving_pose(k, frame)))
            .collect()
    };
    let (mut hinted, mut reused, mut candidates, mut within) = (0, 0, 0, 0);
    for frame in 1..=20 {
        scene.set_poses(&updates(frame)).unwrap();
        let warm = pool.install(|| scene.within_margin_all(MARGIN).unwrap());
        let stats = scene.last_stats();
        (hinted, reused) = (hinted + stats.hinted, reused + stats.reused);
        (candidates, within) = (candidates + stats.candidates, within + warm.len());
        let mut cold = scene.clone();
        cold.clear_records();
        let cold = pool.install(|| cold.within_margin_all(MARGIN).unwrap());
        let pairs = |v: &[obbtree::scene::ObjectDistance]| -> Vec<_> {
            v.iter().map(|d| (d.a, d.b)).collect()
        };
        assert_eq!(pairs(&warm), pairs(&cold), "frame {frame}");
    }
    println!(
        "margins: per frame {:.1} candidate pairs, {:.1} within {MARGIN}: {:.1} reused, {:.1} hinted",
        candidates as f64 / 20.0,
        within as f64 / 20.0,
        reused as f64 / 20.0,
        hinted as f64 / 20.0
    );
    let mut group = c.benchmark_group("margins");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    let mut frame = 0;
    group.bench_function("warm", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            scene.set_poses(&updates(frame)).unwrap();
            pool.install(|| black_box(scene.within_margin_all(MARGIN).unwrap().len()))
        })
    });
    group.bench_function("cold", |b| {
        b.iter(|| {
            frame = (frame + 1) % FRAMES;
            scene.set_poses(&updates(frame)).unwrap();
            scene.clear_records();
            pool.install(|| black_box(scene.within_margin_all(MARGIN).unwrap().len()))
        })
    });
    group.finish();
}

/// Every configuration's clearance within [`MARGIN`] on `scene`, one by one with the records
/// forgotten first.
fn cold_clearance(scene: &mut RobotScene, path: &[Vec<f64>]) -> f64 {
    path.iter()
        .map(|q| {
            scene.clear_records();
            let one = scene.check_path_with(std::slice::from_ref(q), 0.05, Some(MARGIN));
            one.unwrap()
                .clearance
                .map_or(f64::INFINITY, |c| c.closest.distance)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The KUKA path's smallest clearance within [`MARGIN`], warm against cold.
fn clearance(c: &mut Criterion) {
    let pool = one_thread();
    let mut rng = Pcg64::seed_from_u64(3);
    let robot = Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap();
    let path = smooth_path(&robot, 1000, &mut rng);
    let template = pool.install(|| robot_among_fixtures(&path, 50, &mut rng));
    let mut warm = template.clone();
    let found = pool.install(|| warm.check_path_with(&path, 0.05, Some(MARGIN)).unwrap());
    let mut cold = template.clone();
    let smallest = pool.install(|| cold_clearance(&mut cold, &path));
    let warm_smallest = found
        .clearance
        .as_ref()
        .map_or(f64::INFINITY, |c| c.closest.distance);
    assert!((warm_smallest - smallest).abs() <= 1e-12 * (1.0 + smallest));
    println!(
        "clearance: first within {MARGIN} at {:?}, smallest {warm_smallest} at {:?}",
        found.first_within_margin,
        found.clearance.map(|c| c.index)
    );
    let mut group = c.benchmark_group("clearance");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("warm", |b| {
        b.iter(|| {
            pool.install(|| black_box(warm.check_path_with(&path, 0.05, Some(MARGIN)).unwrap()))
        })
    });
    group.bench_function("cold", |b| {
        b.iter(|| pool.install(|| black_box(cold_clearance(&mut cold, &path))))
    });
    group.finish();
}

criterion_group!(benches, frames, path, margins, clearance);
criterion_main!(benches);
