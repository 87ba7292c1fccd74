//! Continuous path checking (`RobotScene::check_path_continuous`): a thin plate that sampling
//! steps over is found, with its first contact bracketed and everything before the bracket
//! proved free independently (dense samples with the motion bound, then exact checks); a pass
//! clear by more than the tolerance is certified free, one within it is a hit, an exact touch
//! at a path's end is found, a path starting in collision gives `[0, 0]`; the bundled KUKA and
//! panda paths agree with sampling at 0.01 rad; and the motion bound is never exceeded by the
//! points of a robot with floating, planar, prismatic, revolute and mimic joints, nor of the
//! KUKA.

mod common;

use common::{asset, cases};
use obbtree::load::load_mesh;
use obbtree::urdf::{ContinuousCollision, Robot, RobotScene, Srdf, UrdfOptions, DEFAULT_TOLERANCE};
use obbtree::{distance, DistanceRequest, Model, Point, Pose, Shape, Vector};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::path::Path;

/// An arm turning about z: a box 0.5 m long, 1 mm thick (y) and 2 cm tall, from 0.05 m to
/// 0.55 m along its link's x.
const SWING: &str = r#"<robot name="swing">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.3 0 0"/><geometry><box size="0.5 0.001 0.02"/></geometry></collision></link>
  <joint name="turn" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
</robot>"#;

/// A 10 cm cube sliding along x.
const SLIDER: &str = r#"<robot name="slider">
  <link name="base"/>
  <link name="block"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="block"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"#;

/// A floating base carrying a prismatic slider, a revolute arm with a finger mimicking it, and
/// a planar cart: every kind of joint the motion bound sums.
const MIXED: &str = r#"<robot name="mixed">
  <link name="world"/>
  <link name="base"><collision><origin xyz="0.1 0 0"/><geometry><box size="0.2 0.1 0.3"/></geometry></collision></link>
  <link name="slider"><collision><origin xyz="0 0.1 0"/><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="0.2 0 0" rpy="0.3 0 0"/><geometry><box size="0.4 0.05 0.05"/></geometry></collision></link>
  <link name="finger"><collision><origin xyz="0 0 0.05"/><geometry><box size="0.02 0.02 0.1"/></geometry></collision></link>
  <link name="cart"><collision><geometry><box size="0.1 0.2 0.05"/></geometry></collision></link>
  <joint name="free" type="floating"><parent link="world"/><child link="base"/><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="slider"/><origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
  <joint name="shoulder" type="revolute"><parent link="slider"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="finger" type="revolute"><parent link="arm"/><child link="finger"/><origin xyz="0.4 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-9" upper="9" effort="1" velocity="1"/><mimic joint="shoulder" multiplier="-2" offset="0.1"/></joint>
  <joint name="roll" type="planar"><parent link="base"/><child link="cart"/><origin xyz="0 0 -0.2" rpy="0 0.4 0"/><axis xyz="0 0 1"/></joint>
</robot>"#;

/// The robot of URDF text `text`.
fn robot_of(text: &str) -> Robot {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("robot.urdf");
    std::fs::write(&path, text).unwrap();
    Robot::from_file_with(&path, &UrdfOptions::default()).unwrap()
}

/// A box of full sizes `sizes` as a model.
fn cuboid(sizes: [f64; 3]) -> Model {
    Model::from_shape(Shape::cuboid(sizes).unwrap())
}

/// The robot of `text` with one fixture, `model` at `pose`, named `name`.
fn scene_with(text: &str, name: &str, model: Model, pose: Pose) -> RobotScene {
    let mut scene = RobotScene::new(robot_of(text)).unwrap();
    scene.add_fixture(name, model, pose).unwrap();
    scene
}

/// The swinging arm and a plate 1 mm thick standing radially from 0.3 m to 0.5 m, at angle
/// `angle` about z.
fn swing_and_plate(angle: f64) -> RobotScene {
    let centre = [0.4 * angle.cos(), 0.4 * angle.sin(), 0.0];
    let pose = Pose::new(centre, [0.0, 0.0, angle]).unwrap();
    scene_with(SWING, "plate", cuboid([0.2, 0.001, 0.1]), pose)
}

/// The exact discrete check at the configuration `q`.
fn touches(scene: &mut RobotScene, q: &[f64]) -> bool {
    scene.set_configuration(q).unwrap();
    !scene.check().unwrap().is_empty()
}

/// The certified lower bound on the distance between objects `a` and `b` at `q`.
fn lower_bound(scene: &mut RobotScene, q: &[f64], a: &str, b: &str) -> f64 {
    scene.set_configuration(q).unwrap();
    let s = scene.scene();
    let (oa, ob) = (
        s.get(s.id(a).unwrap()).unwrap(),
        s.get(s.id(b).unwrap()).unwrap(),
    );
    let r = distance(
        oa.model(),
        oa.pose(),
        ob.model(),
        ob.pose(),
        &DistanceRequest::default(),
    )
    .unwrap();
    r.lower
}

#[test]
fn a_thin_plate_sampling_steps_over_is_found_and_bracketed() {
    // The arm's side meets the plate's (both 0.5 mm from their middles) within 0.001/0.3 rad
    // of 0.51: between the samples 0.50 and 0.52 of a 0.02 rad resolution.
    let mut scene = swing_and_plate(0.51);
    let path = vec![vec![0.0], vec![1.0]];
    assert_eq!(scene.check_path(&path, 0.02).unwrap(), None);
    let found = scene
        .check_path_continuous(&path, DEFAULT_TOLERANCE)
        .unwrap();
    let hit = found.collision.clone().expect("the plate is in the way");
    let ContinuousCollision {
        segment, lo, hi, ..
    } = hit;
    assert_eq!(segment, 0);
    assert!(hit.touching, "{hit:?}");
    assert!(0.505 < lo && lo <= hi && hi < 0.51, "{hit:?}");
    assert!(hi - lo < 1e-5, "{hit:?}");
    let plate = scene.scene().id("plate").unwrap();
    assert_eq!(hit.contacts.environment, [(1, plate)]);
    assert!(touches(&mut scene, &[hi]));
    assert!(
        found.distance_queries > 0 && found.subdivisions > 0,
        "{found:?}"
    );

    // Independently: no contact on [0, lo − 1e-3] by samples 1e-4 apart whose lower bounds
    // exceed the motion over a step, then none at samples 1e-7 apart up to lo.
    let arm = scene.scene().id("arm").unwrap();
    let rate = scene.motion_bound(&[0.0], &[1.0], arm, plate).unwrap();
    let step = 1e-4;
    let coarse: Vec<f64> = (0..)
        .map(|k| k as f64 * step)
        .take_while(|&s| s <= lo - 1e-3)
        .collect();
    let bounds: Vec<f64> = coarse
        .iter()
        .map(|&s| lower_bound(&mut scene, &[s], "arm", "plate"))
        .collect();
    for (k, w) in bounds.windows(2).enumerate() {
        assert!(w[0] + w[1] > rate * step, "not certified at {}", coarse[k]);
    }
    let fine_start = coarse.last().copied().unwrap();
    let fine = (0..)
        .map(|k| fine_start + k as f64 * 1e-7)
        .take_while(|&s| s < lo);
    for s in fine.chain([lo]) {
        assert!(
            !touches(&mut scene, &[s]),
            "a contact at {s}, before lo = {lo}"
        );
    }
}

#[test]
fn a_pass_clear_by_more_than_the_tolerance_is_free_and_within_it_a_hit() {
    // A cube whose nearest face is 0.55001 m from the axis, beyond the arm's tip (whose
    // farthest corner is √(0.55² + 0.0005²) ≈ 0.5500002 m out): the tip passes about 9.8e-6
    // m from it.
    let pose = Pose::from_translation([0.60001, 0.0, 0.0]).unwrap();
    let mut scene = scene_with(SWING, "cube", cuboid([0.1, 0.1, 0.1]), pose);
    let path = vec![vec![-0.3], vec![0.3]];
    let free = scene
        .check_path_continuous(&path, DEFAULT_TOLERANCE)
        .unwrap();
    assert_eq!(free.collision, None, "{free:?}");
    assert_eq!(free.segments, 1);
    let near = scene.check_path_continuous(&path, 1e-4).unwrap();
    let hit = near.collision.expect("within 1e-4 of the cube");
    assert!(!hit.touching, "{hit:?}");
    let cube = scene.scene().id("cube").unwrap();
    assert_eq!(hit.contacts.environment, [(1, cube)]);
    assert!(hit.lo <= hit.hi && hit.hi < 0.5, "{hit:?}");
    assert!(lower_bound(&mut scene, &hit.configuration, "arm", "cube") <= 1e-4);
}

#[test]
fn a_path_ending_exactly_touching_is_found() {
    // The cube's face reaches x = 0.05 + 0.45 = 0.5, the wall's face, at the path's end.
    let pose = Pose::from_translation([0.55, 0.0, 0.0]).unwrap();
    let mut scene = scene_with(SLIDER, "wall", cuboid([0.1, 0.1, 0.1]), pose);
    assert!(touches(&mut scene, &[0.45]), "the end touches");
    let path = vec![vec![-0.2], vec![0.0], vec![0.45]];
    let hit = scene
        .check_path_continuous(&path, DEFAULT_TOLERANCE)
        .unwrap()
        .collision
        .expect("the end touches the wall");
    assert_eq!((hit.segment, hit.hi), (1, 1.0), "{hit:?}");
    assert!(hit.touching && 1.0 - hit.lo < 1e-5, "{hit:?}");
    assert_eq!(hit.configuration, [0.45]);
    // Stopping 2e-6 short of it (more than the tolerance): free.
    let short = vec![vec![0.0], vec![0.45 - 2e-6]];
    let free = scene
        .check_path_continuous(&short, DEFAULT_TOLERANCE)
        .unwrap();
    assert_eq!(free.collision, None);
}

#[test]
fn a_path_starting_in_collision_is_hit_at_zero() {
    let mut scene = swing_and_plate(0.0);
    let hit = scene
        .check_path_continuous(&[vec![0.0], vec![1.0]], DEFAULT_TOLERANCE)
        .unwrap()
        .collision
        .unwrap();
    assert_eq!(
        (hit.segment, hit.lo, hit.hi, hit.touching),
        (0, 0.0, 0.0, true)
    );
    // One configuration is the segment from it to itself.
    let single = scene
        .check_path_continuous(&[vec![0.0]], DEFAULT_TOLERANCE)
        .unwrap();
    assert_eq!(single.collision.map(|h| (h.segment, h.hi)), Some((0, 0.0)));
    assert!(scene
        .check_path_continuous(&[vec![2.0]], DEFAULT_TOLERANCE)
        .unwrap()
        .collision
        .is_none());
}

#[test]
fn bad_tolerances_are_refused() {
    let mut scene = swing_and_plate(0.5);
    for t in [0.0, -1e-6, f64::NAN, f64::INFINITY] {
        let e = scene
            .check_path_continuous(&[vec![0.0], vec![1.0]], t)
            .unwrap_err();
        assert!(e.to_string().contains("tolerance"), "{e}");
    }
    let e = scene
        .check_path_continuous(&[vec![0.0], vec![1.0, 2.0]], 1e-6)
        .unwrap_err();
    assert!(e.to_string().starts_with("configuration 1"), "{e}");
}

/// A fixture of a scene file (`assets/scenes/*.json`) as a model and pose: a mesh beside the
/// file, a box or a cylinder; the rotation is a rotation vector.
fn fixture(dir: &Path, object: &serde_json::Value) -> (String, Model, Pose) {
    let numbers = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let at = |key: &str| Vector::from_column_slice(&numbers(&object["pose"][key]));
    let pose = Pose::new(at("translation"), at("rotation")).unwrap();
    let model = match (object["mesh"].as_str(), &object["shape"]) {
        (Some(mesh), _) => Model::new(load_mesh(&dir.join(mesh)).unwrap()).unwrap(),
        (None, shape) if shape["box"].is_object() => {
            let s = numbers(&shape["box"]["size"]);
            cuboid([s[0], s[1], s[2]])
        }
        (None, shape) => {
            let c = &shape["cylinder"];
            let (r, l) = (c["radius"].as_f64().unwrap(), c["length"].as_f64().unwrap());
            Model::from_shape(Shape::cylinder(r, l).unwrap())
        }
    };
    (object["name"].as_str().unwrap().to_string(), model, pose)
}

/// `robot` among the fixtures of the scene file `scene` (its allowed pairs allowed), and the
/// path of `configs`.
fn bundled(robot: Robot, scene: &str, configs: &str) -> (RobotScene, Vec<Vec<f64>>) {
    let file = asset(scene);
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut out = RobotScene::new(robot).unwrap();
    for object in spec["objects"].as_array().unwrap() {
        let (name, model, pose) = fixture(file.parent().unwrap(), object);
        out.add_fixture(name, model, pose).unwrap();
    }
    for pair in spec["allow"].as_array().unwrap() {
        out.allow(pair[0].as_str().unwrap(), pair[1].as_str().unwrap())
            .unwrap();
    }
    let configs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(asset(configs)).unwrap()).unwrap();
    let path = serde_json::from_value(configs["configs"].clone()).unwrap();
    (out, path)
}

/// Every configuration sampling at `resolution` checks (as `check_path` interpolates a path of
/// revolute and prismatic joints), as (segment, s, configuration).
fn samples(path: &[Vec<f64>], resolution: f64) -> Vec<(usize, f64, Vec<f64>)> {
    let mut out = vec![(0, 0.0, path[0].clone())];
    for (k, w) in path.windows(2).enumerate() {
        let largest = (0..w[0].len())
            .map(|j| (w[1][j] - w[0][j]).abs())
            .fold(0.0, f64::max);
        let n = ((largest / resolution).ceil() as usize).max(1);
        out.extend((1..=n).map(|i| {
            let s = i as f64 / n as f64;
            let q = (0..w[0].len())
                .map(|j| w[0][j] + (w[1][j] - w[0][j]) * s)
                .collect();
            (k, s, q)
        }));
    }
    out
}

/// Checks that every collision sampling at 0.01 rad finds lies in or after the continuous
/// check's bracket, and that the configuration at its `hi` touches; returns the hit and
/// whether sampling missed it (found nothing before the end of its segment).
fn agrees_with_sampling(
    scene: &mut RobotScene,
    path: &[Vec<f64>],
) -> (Option<ContinuousCollision>, bool) {
    let found = scene
        .check_path_continuous(path, DEFAULT_TOLERANCE)
        .unwrap();
    eprintln!("{found:?}");
    let hit = found.collision.clone();
    let first_sampled = samples(path, 0.01)
        .into_iter()
        .find(|(_, _, q)| touches(scene, q));
    match (&hit, &first_sampled) {
        (None, None) => (None, false),
        (None, Some((k, s, _))) => panic!("sampling hits segment {k} at {s}; continuous is free"),
        (Some(h), sampled) => {
            if let Some((k, s, _)) = sampled {
                assert!(
                    (*k, *s) >= (h.segment, h.lo),
                    "sampled {k} {s} before {h:?}"
                );
            }
            assert!(h.touching && touches(scene, &h.configuration), "{h:?}");
            let missed = sampled.as_ref().is_none_or(|(k, _, _)| *k > h.segment);
            (hit, missed)
        }
    }
}

#[test]
fn the_bundled_kuka_path_agrees_with_sampling() {
    let robot =
        Robot::from_file_with(asset("kuka_iiwa/model.urdf"), &UrdfOptions::visual()).unwrap();
    let (mut scene, path) = bundled(robot, "scenes/cell.json", "scenes/kuka_configs.json");
    let (hit, missed) = agrees_with_sampling(&mut scene, &path);
    let hit = hit.expect("the KUKA path reaches the post");
    assert!(!missed, "{hit:?}");
    assert!(hit.hi - hit.lo < 1e-4, "{hit:?}");
}

#[test]
fn the_bundled_panda_path_agrees_with_sampling() {
    let description = asset("panda/example-robot-data/robots/panda_description");
    let options = UrdfOptions {
        package_dirs: vec![asset("panda")],
        ..UrdfOptions::default()
    };
    let robot = Robot::from_file_with(description.join("urdf/panda.urdf"), &options).unwrap();
    let srdf = Srdf::from_file(description.join("srdf/panda.srdf")).unwrap();
    let (mut scene, path) = bundled(robot, "scenes/panda_post.json", "scenes/panda_configs.json");
    scene.allow_srdf(&srdf).unwrap();
    let (hit, missed) = agrees_with_sampling(&mut scene, &path);
    let hit = hit.expect("the panda path reaches the post");
    assert!(!missed, "{hit:?}");
}

/// Points of every link object of `scene` in its link's frame, by object name: a box's
/// corners, or every `stride`-th vertex of a mesh.
fn link_points(scene: &RobotScene, stride: usize) -> Vec<(String, usize, Vec<Point>)> {
    let robot = scene.robot();
    let mut out = Vec::new();
    for (l, link) in robot.links.iter().enumerate() {
        let meshes = link.meshes.iter().map(|m| {
            let points = m.mesh.vertices().iter().step_by(stride);
            points.map(|p| m.origin.transform_point(p)).collect()
        });
        let shapes = link.shapes.iter().map(|s| {
            let corners = Model::<obbtree::bv::Obb>::from_shape(s.shape.clone())
                .bounds()
                .corners();
            corners
                .iter()
                .map(|p| s.origin.transform_point(p))
                .collect()
        });
        for (k, points) in meshes.chain(shapes).enumerate() {
            let name = match k {
                0 => link.name.clone(),
                k => format!("{}#{k}", link.name),
            };
            out.push((name, l, points));
        }
    }
    out
}

/// `[qx, qy, qz, qw]` a fraction `s` along the shorter arc from `a` to `b` (unit, aligned:
/// `a·b ≥ 0`).
fn slerp(a: [f64; 4], b: [f64; 4], s: f64) -> [f64; 4] {
    let dot: f64 = (0..4).map(|k| a[k] * b[k]).sum();
    let phi = dot.clamp(-1.0, 1.0).acos();
    if phi < 1e-9 {
        return a;
    }
    let (wa, wb) = (((1.0 - s) * phi).sin(), (s * phi).sin());
    let q: Vec<f64> = (0..4)
        .map(|k| (wa * a[k] + wb * b[k]) / phi.sin())
        .collect();
    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
}

/// A random configuration of `robot`: each floating joint's quaternion unit (on `towards`'s
/// side when given), other values within `±spread`.
fn random_configuration(
    rng: &mut Pcg64,
    robot: &Robot,
    spread: f64,
    towards: Option<&[f64]>,
) -> Vec<f64> {
    let names = robot.value_names();
    let mut q: Vec<f64> = names
        .iter()
        .map(|_| rng.gen_range(-spread..spread))
        .collect();
    for (i, name) in names.iter().enumerate() {
        if name.ends_with("/rot_x") {
            let mut v: Vec<f64> = (0..4).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            v.iter_mut().for_each(|x| *x /= n);
            if let Some(t) = towards {
                if (0..4).map(|k| v[k] * t[i + k]).sum::<f64>() < 0.0 {
                    v.iter_mut().for_each(|x| *x = -*x);
                }
            }
            q[i..i + 4].copy_from_slice(&v);
        }
    }
    q
}

/// The configuration a fraction `s` from `a` to `b`: values linearly, quaternions by slerp.
fn between(robot: &Robot, a: &[f64], b: &[f64], s: f64) -> Vec<f64> {
    let mut q: Vec<f64> = a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect();
    for (i, name) in robot.value_names().iter().enumerate() {
        if name.ends_with("/rot_x") {
            let quat = |c: &[f64]| [c[i], c[i + 1], c[i + 2], c[i + 3]];
            q[i..i + 4].copy_from_slice(&slerp(quat(a), quat(b), s));
        }
    }
    q
}

/// For random segments of `scene`'s robot and parts `[s1, s2]` of them, no point of a link
/// moves in the world by more than its bound against a fixture, and no distance between
/// points of two links changes by more than the pair's bound.
fn bound_holds(scene: &RobotScene, seed: u64, spread: f64, stride: usize) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let robot = scene.robot();
    let a = random_configuration(&mut rng, robot, spread, None);
    let b = random_configuration(&mut rng, robot, spread, Some(&a));
    let (s1, s2) = (rng.gen_range(0.0..1.0), rng.gen_range(0.0..1.0));
    let (q1, q2) = (between(robot, &a, &b, s1), between(robot, &a, &b, s2));
    let (l1, l2) = (
        robot.link_poses(&q1).unwrap(),
        robot.link_poses(&q2).unwrap(),
    );
    let parts = link_points(scene, stride);
    let id = |name: &str| scene.scene().id(name).unwrap();
    let world = |poses: &[Pose], l: usize, p: &Point| poses[l].transform_point(p);
    let span = (s2 - s1).abs();
    for (name, l, points) in &parts {
        let bound = scene.motion_bound(&a, &b, id(name), id("far")).unwrap() * span;
        for p in points {
            let moved = (world(&l2, *l, p) - world(&l1, *l, p)).norm();
            assert!(moved <= bound + 1e-12, "{name}: {moved} > {bound}");
        }
        for (other, m, others) in &parts {
            let bound = scene.motion_bound(&a, &b, id(name), id(other)).unwrap() * span;
            for p in points {
                for r in others {
                    let d1 = (world(&l1, *l, p) - world(&l1, *m, r)).norm();
                    let d2 = (world(&l2, *l, p) - world(&l2, *m, r)).norm();
                    assert!((d2 - d1).abs() <= bound + 1e-12, "{name}–{other}");
                }
            }
        }
    }
}

/// `robot` with a far fixture to measure world motion against, limits off.
fn bound_scene(robot: Robot) -> RobotScene {
    let mut scene = RobotScene::new(robot).unwrap();
    let far = Pose::from_translation([100.0, 0.0, 0.0]).unwrap();
    scene
        .add_fixture("far", cuboid([0.1, 0.1, 0.1]), far)
        .unwrap();
    scene.check_limits(false);
    scene
}

proptest! {
    #![proptest_config(common::knob::config(64))]

    #[test]
    fn the_motion_bound_holds_for_every_joint_kind(seed in any::<u64>()) {
        bound_holds(&bound_scene(robot_of(MIXED)), seed, 2.0, 1);
    }
}

#[test]
fn the_motion_bound_holds_for_the_kuka() {
    let robot =
        Robot::from_file_with(asset("kuka_iiwa/model.urdf"), &UrdfOptions::visual()).unwrap();
    let scene = bound_scene(robot);
    for seed in 0..u64::from(cases(16)) {
        bound_holds(&scene, seed, 2.5, 97);
    }
}
