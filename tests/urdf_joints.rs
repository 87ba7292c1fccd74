//! Floating and planar joints: a robot mixing them with revolute and mimic joints is posed as
//! 4×4 matrices written out from the documented conventions (the floating joint's translation
//! and quaternion `x, y, z, w`; the planar joint's plane axes for the axes `z`, none, `x`,
//! `(2, 3, 6)/7` and `(2, 3, −6)/7`, worked out by hand); configurations of the wrong length,
//! with non-finite values or with a quaternion far from unit norm are refused naming the joint
//! and the value; limits do not apply to floating and planar joints; paths turn a floating
//! joint along the shorter arc, in steps of at most the resolution.

mod common;
#[path = "common/frames.rs"]
mod frames;

use common::cases;
use frames::{homogeneous, quaternion_matrix, rodrigues, rpy};
use nalgebra::{Matrix3, Matrix4, Vector3};
use obbtree::urdf::{JointKind, Robot, RobotScene, UrdfError, ValueRef};
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

/// A floating base with a revolute arm, a finger that mimics the arm's joint, and planar
/// joints about several axes. `slide`'s `<limit>` must be ignored.
const ROVER: &str = r#"<robot name="rover">
  <link name="world"/>
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="arm"/><link name="finger"/><link name="cart"/>
  <link name="tilted"/><link name="under"/><link name="bare"/><link name="sideways"/>
  <joint name="free" type="floating"><parent link="world"/><child link="base"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="tilt" type="planar"><parent link="base"/><child link="tilted"/>
    <origin xyz="0 0.1 0"/><axis xyz="2 3 6"/></joint>
  <joint name="under" type="planar"><parent link="base"/><child link="under"/>
    <origin xyz="0 0 -0.1" rpy="0 0.5 0"/><axis xyz="2 3 -6"/></joint>
  <joint name="bare" type="planar"><parent link="base"/><child link="bare"/>
    <origin xyz="0.1 0 0"/></joint>
  <joint name="side" type="planar"><parent link="base"/><child link="sideways"/>
    <axis xyz="1 0 0"/></joint>
  <joint name="finger" type="revolute"><parent link="arm"/><child link="finger"/>
    <origin xyz="0.2 0 0"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="shoulder" multiplier="-0.5" offset="0.2"/></joint>
  <joint name="slide" type="planar"><parent link="arm"/><child link="cart"/>
    <origin xyz="0.3 0 0" rpy="0.4 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.01" upper="0.01" effort="1" velocity="1"/></joint>
</robot>"#;

/// The rover's value names, in configuration order (joints parent before child, siblings in
/// file order).
const VALUES: [&str; 23] = [
    "free/trans_x",
    "free/trans_y",
    "free/trans_z",
    "free/rot_x",
    "free/rot_y",
    "free/rot_z",
    "free/rot_w",
    "shoulder",
    "tilt/x",
    "tilt/y",
    "tilt/theta",
    "under/x",
    "under/y",
    "under/theta",
    "bare/x",
    "bare/y",
    "bare/theta",
    "side/x",
    "side/y",
    "side/theta",
    "slide/x",
    "slide/y",
    "slide/theta",
];

/// A planar joint's plane as worked out by hand from the documented frame: `e₁`, `e₂`, and the
/// normal `n`.
struct Plane {
    e1: Vector3<f64>,
    e2: Vector3<f64>,
    n: Vector3<f64>,
}

fn plane(e1: [f64; 3], e2: [f64; 3], n: [f64; 3]) -> Plane {
    Plane {
        e1: e1.into(),
        e2: e2.into(),
        n: n.into(),
    }
}

/// The planes: `z` and no axis give `x, y`; `x` gives `−z, y`; `(2, 3, 6)/7` (n_z ≥ 0) and
/// `(2, 3, −6)/7` (n_z < 0) give the rational axes of Duff et al.'s formulas.
fn planes() -> [(&'static str, Plane); 5] {
    let s = 1.0 / 7.0;
    let t = 1.0 / 91.0;
    [
        (
            "z",
            plane([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ),
        (
            "x",
            plane([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
        ),
        (
            "up",
            plane(
                [87.0 * t, -6.0 * t, -2.0 * s],
                [-6.0 * t, 82.0 * t, -3.0 * s],
                [2.0 * s, 3.0 * s, 6.0 * s],
            ),
        ),
        (
            "down",
            plane(
                [87.0 * t, -6.0 * t, 2.0 * s],
                [6.0 * t, -82.0 * t, -3.0 * s],
                [2.0 * s, 3.0 * s, -6.0 * s],
            ),
        ),
        (
            "none",
            plane([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ),
    ]
}

/// The planar motion of values `[x, y, θ]` in `plane`.
fn planar(plane: &Plane, v: &[f64]) -> Matrix4<f64> {
    homogeneous(rodrigues(plane.n, v[2]), plane.e1 * v[0] + plane.e2 * v[1])
}

/// The floating motion of values `[x, y, z, qx, qy, qz, qw]`, the quaternion normalised.
fn floating(v: &[f64]) -> Matrix4<f64> {
    let norm = v[3..7].iter().map(|c| c * c).sum::<f64>().sqrt();
    let q = [v[3] / norm, v[4] / norm, v[5] / norm, v[6] / norm];
    homogeneous(quaternion_matrix(q), Vector3::new(v[0], v[1], v[2]))
}

/// A joint's `origin` from its `xyz` and `rpy`.
fn origin(xyz: [f64; 3], [r, p, y]: [f64; 3]) -> Matrix4<f64> {
    homogeneous(rpy(r, p, y), xyz.into())
}

/// A rotation's matrix about `axis` by `angle`, as a pose.
fn turn(axis: Vector3<f64>, angle: f64) -> Matrix4<f64> {
    homogeneous(rodrigues(axis, angle), Vector3::zeros())
}

/// The rover's link poses, by link name, composed from the matrices above.
fn rover_poses(q: &[f64]) -> Vec<(&'static str, Matrix4<f64>)> {
    let [z, x, up, down, none] = planes().map(|(_, p)| p);
    let base = origin([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]) * floating(&q[0..7]);
    let arm = base * origin([0.0, 0.0, 0.5], [0.0; 3]) * turn(Vector3::y(), q[7]);
    let finger_angle = -0.5 * q[7] + 0.2;
    vec![
        ("world", Matrix4::identity()),
        ("base", base),
        ("arm", arm),
        (
            "finger",
            arm * origin([0.2, 0.0, 0.0], [0.0; 3]) * turn(Vector3::x(), finger_angle),
        ),
        (
            "cart",
            arm * origin([0.3, 0.0, 0.0], [0.4, 0.0, 0.0]) * planar(&z, &q[20..23]),
        ),
        (
            "tilted",
            base * origin([0.0, 0.1, 0.0], [0.0; 3]) * planar(&up, &q[8..11]),
        ),
        (
            "under",
            base * origin([0.0, 0.0, -0.1], [0.0, 0.5, 0.0]) * planar(&down, &q[11..14]),
        ),
        (
            "bare",
            base * origin([0.1, 0.0, 0.0], [0.0; 3]) * planar(&none, &q[14..17]),
        ),
        ("sideways", base * planar(&x, &q[17..20])),
    ]
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The rover, read from a file in `dir`.
fn rover(dir: &Path) -> Robot {
    Robot::from_file_with(write(dir, "rover.urdf", ROVER), &Default::default()).unwrap()
}

/// A random configuration of the rover: translations and plane coordinates in [−2, 2], angles
/// in [−4, 4], a random unit quaternion scaled by `scale`.
fn random_configuration(r: &mut impl Rng, scale: f64) -> Vec<f64> {
    let mut q: Vec<f64> = (0..23).map(|_| r.gen_range(-2.0..2.0)).collect();
    let quaternion: Vec<f64> = (0..4).map(|_| r.gen_range(-1.0..1.0)).collect();
    let norm = quaternion.iter().map(|c| c * c).sum::<f64>().sqrt();
    for (k, c) in quaternion.iter().enumerate() {
        q[3 + k] = c / norm * scale;
    }
    for angle in [7, 10, 13, 16, 19, 22] {
        q[angle] = r.gen_range(-4.0..4.0);
    }
    q[7] = q[7].clamp(-3.0, 3.0);
    q
}

#[test]
fn the_hand_worked_planes_are_right_handed_orthonormal_frames() {
    for (name, p) in planes() {
        let frame = Matrix3::from_columns(&[p.e1, p.e2, p.n]);
        let off = (frame.transpose() * frame - Matrix3::identity())
            .abs()
            .max();
        assert!(off < 1e-15, "{name}: {frame}");
        assert!((frame.determinant() - 1.0).abs() < 1e-15, "{name}");
    }
}

#[test]
fn floating_and_planar_joints_pose_links_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    let robot = rover(dir.path());
    assert_eq!(robot.value_names(), VALUES);
    assert_eq!(robot.configuration_len(), 23);
    // Each moving joint's values follow the last one's, named after it, as many as it takes.
    let mut next = 0;
    for (joint, values) in robot.value_ranges() {
        assert_eq!(values.start, next, "{}", joint.name);
        assert_eq!(values.len(), joint.value_count(), "{}", joint.name);
        let owner = |v: &&str| v.split('/').next() == Some(joint.name.as_str());
        assert!(VALUES[values.clone()].iter().all(owner), "{}", joint.name);
        next = values.end;
    }
    assert_eq!(next, VALUES.len());
    let kinds: Vec<(&str, JointKind, usize)> = robot
        .moving_joints()
        .map(|j| (j.name.as_str(), j.kind, j.value_count()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("free", JointKind::Floating, 7),
            ("shoulder", JointKind::Revolute, 1),
            ("tilt", JointKind::Planar, 3),
            ("under", JointKind::Planar, 3),
            ("bare", JointKind::Planar, 3),
            ("side", JointKind::Planar, 3),
            ("slide", JointKind::Planar, 3),
        ]
    );
    let finger = robot.joints.iter().find(|j| j.name == "finger").unwrap();
    assert_eq!(finger.value_count(), 0, "a mimic takes no value");
    let mut r = rand_pcg::Pcg64::seed_from_u64(11);
    for case in 0..cases(200) {
        // Quaternions a little off unit norm (within the tolerance) are normalised.
        let scale = [1.0, 1.0 + 4e-5, 1.0 - 4e-5][case as usize % 3];
        let q = match case {
            0 => robot.neutral_configuration(),
            _ => random_configuration(&mut r, scale),
        };
        let poses = robot.link_poses(&q).unwrap();
        for (link, want) in rover_poses(&q) {
            let got = poses[robot.link(link).unwrap()].to_homogeneous();
            assert!(
                (got - want).abs().max() < 1e-12,
                "link {link} at {q:?}: {got} against {want}"
            );
        }
    }
}

#[test]
fn the_neutral_configuration_has_unit_quaternions() {
    let dir = tempfile::tempdir().unwrap();
    let robot = rover(dir.path());
    let neutral = robot.neutral_configuration();
    let mut want = vec![0.0; 23];
    want[6] = 1.0;
    assert_eq!(neutral, want);
    let scene: RobotScene = RobotScene::new(robot).unwrap();
    assert_eq!(scene.configuration(), &want[..]);
}

#[test]
fn bad_configurations_name_the_joint_and_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let robot = rover(dir.path());
    let good = robot.neutral_configuration();
    let value = |index: usize, name: &str, joint: &str| ValueRef {
        index,
        name: name.to_string(),
        joint: joint.to_string(),
    };
    // Too short: the first missing value; too long: the last one the robot takes.
    for (len, boundary) in [
        (0, value(0, "free/trans_x", "free")),
        (5, value(5, "free/rot_z", "free")),
        (22, value(22, "slide/theta", "slide")),
        (24, value(22, "slide/theta", "slide")),
    ] {
        let mut q = good.clone();
        q.resize(len, 0.0);
        for e in [
            robot.link_poses(&q).unwrap_err(),
            robot.check_limits(&q).unwrap_err(),
        ] {
            let msg = e.to_string();
            assert!(
                matches!(&e, UrdfError::ConfigurationLength { expected: 23, got, boundary: Some(b), .. }
                    if *got == len && *b == boundary),
                "{e:?}"
            );
            assert!(
                msg.contains("rover.urdf")
                    && msg.contains(&format!("expected 23 finite joint values, got {len}"))
                    && msg.contains(&format!("joint \"{}\"", boundary.joint)),
                "{msg}"
            );
        }
    }
    for (index, bad, want) in [
        (4, f64::NAN, value(4, "free/rot_y", "free")),
        (7, f64::INFINITY, value(7, "shoulder", "shoulder")),
        (21, f64::NEG_INFINITY, value(21, "slide/y", "slide")),
    ] {
        let mut q = good.clone();
        q[index] = bad;
        let e = robot.link_poses(&q).unwrap_err();
        assert!(
            matches!(&e, UrdfError::NonFiniteValue { value, .. } if *value == want),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("value {index} ")) && msg.contains(&want.name),
            "{msg}"
        );
    }
    // Quaternions far from unit norm: zero, doubled, Euler angles in the x y z slots, w first
    // of a scaled identity; and just past the tolerance on either side.
    let over = (1.0f64 + 1.01e-4).sqrt();
    let under = (1.0f64 - 1.01e-4).sqrt();
    for quaternion in [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 2.0],
        [0.3, 0.2, 0.1, 0.0],
        [0.0, 0.0, over, 0.0],
        [under, 0.0, 0.0, 0.0],
    ] {
        let mut q = good.clone();
        q[3..7].copy_from_slice(&quaternion);
        let e = robot.link_poses(&q).unwrap_err();
        assert!(
            matches!(&e, UrdfError::BadQuaternion { joint, index: 3, quaternion: got, .. }
                if joint == "free" && *got == quaternion),
            "{e:?}"
        );
        assert!(e.to_string().contains("joint \"free\""), "{e}");
    }
    // Just within: accepted, and posed as the normalised quaternion.
    for scale in [(1.0f64 + 0.99e-4).sqrt(), (1.0f64 - 0.99e-4).sqrt()] {
        let mut q = good.clone();
        q[3..7].copy_from_slice(&[0.0, 0.0, 0.6 * scale, 0.8 * scale]);
        let poses = robot.link_poses(&q).unwrap();
        let mut unit = q.clone();
        unit[3..7].copy_from_slice(&[0.0, 0.0, 0.6, 0.8]);
        let want = robot.link_poses(&unit).unwrap();
        let base = robot.link("base").unwrap();
        let off = (poses[base].to_homogeneous() - want[base].to_homogeneous())
            .abs()
            .max();
        assert!(off < 1e-15, "{off}");
    }
    // A pinocchio user's four-digit quaternion passes.
    let mut q = good.clone();
    #[allow(clippy::approx_constant)] // four digits on purpose, as a user writes them
    let four_digits = [0.0, 0.0, 0.7071, 0.7071];
    q[3..7].copy_from_slice(&four_digits);
    assert!(robot.link_poses(&q).is_ok());
}

#[test]
fn limits_bound_revolute_values_only() {
    let dir = tempfile::tempdir().unwrap();
    let robot = rover(dir.path());
    let mut q = robot.neutral_configuration();
    // Far beyond `slide`'s <limit>, and any translation or angle of the others.
    for (k, v) in q
        .iter_mut()
        .enumerate()
        .filter(|(k, _)| !(3..8).contains(k))
    {
        *v = 1e6 * (k as f64 + 1.0);
    }
    robot.check_limits(&q).unwrap();
    q[7] = 3.5;
    let e = robot.check_limits(&q).unwrap_err();
    assert!(
        matches!(&e, UrdfError::OutsideLimits { joint, index: 7, value, .. }
            if joint == "shoulder" && *value == 3.5),
        "{e:?}"
    );
}

#[test]
fn mimics_of_several_values_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            ROVER.replace(
                r#"<mimic joint="shoulder" multiplier="-0.5" offset="0.2"/>"#,
                r#"<mimic joint="slide"/>"#,
            ),
            "a planar joint, which takes 3 values",
        ),
        (
            ROVER.replace(
                r#"<axis xyz="0 0 1"/>"#,
                r#"<axis xyz="0 0 1"/><mimic joint="shoulder"/>"#,
            ),
            "a planar joint cannot mimic",
        ),
        (
            ROVER.replace(
                r#"<mimic joint="shoulder" multiplier="-0.5" offset="0.2"/>"#,
                r#"<mimic joint="free"/>"#,
            ),
            "a floating joint, which takes 7 values",
        ),
    ];
    for (k, (text, says)) in cases.iter().enumerate() {
        let urdf = write(dir.path(), &format!("mimic{k}.urdf"), text);
        let e = Robot::from_file_with(&urdf, &Default::default()).unwrap_err();
        assert!(matches!(e, UrdfError::BadMimic { .. }), "{e:?}");
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn paths_turn_floating_joints_the_shorter_way_within_the_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let mut scene: RobotScene = RobotScene::new(rover(dir.path())).unwrap();
    let start = scene.robot().neutral_configuration();
    // A turn by `angle` about z, the quaternion's sign `sign`, and a move of the base by `dx`.
    let turned = |angle: f64, sign: f64, dx: f64| {
        let mut q = start.clone();
        q[0] = dx;
        let half: f64 = angle / 2.0;
        q[5] = sign * half.sin();
        q[6] = sign * half.cos();
        q
    };
    for (end, resolution, steps) in [
        // 1 rad in steps of at most 0.3: 4 steps, whichever sign the quaternion has.
        (turned(1.0, 1.0, 0.0), 0.3, 4),
        (turned(1.0, -1.0, 0.0), 0.3, 4),
        // 4 rad one way is 2π − 4 ≈ 2.28 the other: 5 steps of 0.5, not 8.
        (turned(4.0, 1.0, 0.0), 0.5, 5),
        // The translation's 1.9 m outruns the turn's 1 rad.
        (turned(1.0, 1.0, 1.9), 0.3, 7),
        // The same rotation written with the other sign: no turn at all.
        (turned(0.0, -1.0, 0.0), 0.3, 1),
    ] {
        let found = scene
            .check_path_with(&[start.clone(), end.clone()], resolution, None)
            .unwrap();
        assert_eq!(found.collision, None);
        assert_eq!(found.checked, 1 + steps, "to {end:?} by {resolution}");
    }
}
