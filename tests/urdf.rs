//! The URDF reader: the bundled gear set and KUKA arm load with the right meshes, scales and
//! poses; forward kinematics agrees with an independent composition of 4×4 matrices written out
//! from the URDF specification (fixed-axis roll-pitch-yaw, Rodrigues' formula for the joint
//! rotation); bad files give typed errors naming the file.

mod common;

use common::{asset, cases};
use nalgebra::{Matrix3, Matrix4, Vector3};
use obbtree::load::load_mesh;
use obbtree::urdf::{JointKind, Robot, UrdfError};
use rand::{Rng, SeedableRng};
use std::path::Path;

fn homogeneous(r: Matrix3<f64>, t: Vector3<f64>) -> Matrix4<f64> {
    let mut m = Matrix4::identity();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&r);
    m.fixed_view_mut::<3, 1>(0, 3).copy_from(&t);
    m
}

/// `Rz(yaw) · Ry(pitch) · Rx(roll)` from the specification, each factor written out.
fn rpy(r: f64, p: f64, y: f64) -> Matrix3<f64> {
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, r.cos(), -r.sin(), 0.0, r.sin(), r.cos());
    let ry = Matrix3::new(p.cos(), 0.0, p.sin(), 0.0, 1.0, 0.0, -p.sin(), 0.0, p.cos());
    let rz = Matrix3::new(y.cos(), -y.sin(), 0.0, y.sin(), y.cos(), 0.0, 0.0, 0.0, 1.0);
    rz * ry * rx
}

/// Rodrigues: rotation by `angle` about the unit `k`.
fn rodrigues(k: Vector3<f64>, angle: f64) -> Matrix3<f64> {
    let kx = k.cross_matrix();
    Matrix3::identity() + kx * angle.sin() + kx * kx * (1.0 - angle.cos())
}

/// The KUKA arm's joints as printed in `model.urdf` (origin xyz, rpy; every axis is z). The
/// angles are the file's 11-digit text, not `π` and `π/2`.
#[allow(clippy::approx_constant)]
const KUKA: [([f64; 3], [f64; 3]); 7] = [
    ([0.0, 0.0, 0.1575], [0.0, 0.0, 0.0]),
    ([0.0, 0.0, 0.2025], [1.57079632679, 0.0, 3.14159265359]),
    ([0.0, 0.2045, 0.0], [1.57079632679, 0.0, 3.14159265359]),
    ([0.0, 0.0, 0.2155], [1.57079632679, 0.0, 0.0]),
    ([0.0, 0.1845, 0.0], [-1.57079632679, 3.14159265359, 0.0]),
    ([0.0, 0.0, 0.2155], [1.57079632679, 0.0, 0.0]),
    ([0.0, 0.081, 0.0], [-1.57079632679, 3.14159265359, 0.0]),
];

#[test]
fn kuka_forward_kinematics_matches_matrices() {
    let robot = Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap();
    assert_eq!(robot.links.len(), 8);
    assert_eq!(robot.moving_joints().count(), 7);
    assert!(robot.joints.iter().all(|j| j.kind == JointKind::Revolute));
    for (k, link) in robot.links.iter().enumerate() {
        assert_eq!(link.name, format!("lbr_iiwa_link_{k}"));
        assert_eq!(link.visuals.len(), 1);
        let file = asset(&format!("kuka_iiwa/link_{k}.obj"));
        assert_eq!(link.visuals[0].file, file);
        let raw = load_mesh(&file).unwrap();
        assert_eq!(link.visuals[0].mesh.vertices(), raw.vertices(), "scale 1");
    }
    let mut r = rand_pcg::Pcg64::seed_from_u64(5);
    for case in 0..cases(100) {
        let q: Vec<f64> = if case == 0 {
            vec![0.0; 7]
        } else {
            (0..7).map(|_| r.gen_range(-3.0..3.0)).collect()
        };
        let poses = robot.link_poses(&q).unwrap();
        let mut m = Matrix4::identity();
        assert_eq!(poses[0].to_homogeneous(), m);
        for (k, (xyz, [ro, pi, ya])) in KUKA.iter().enumerate() {
            m = m
                * homogeneous(rpy(*ro, *pi, *ya), Vector3::from(*xyz))
                * homogeneous(rodrigues(Vector3::z(), q[k]), Vector3::zeros());
            let got = poses[k + 1].to_homogeneous();
            assert!((got - m).abs().max() < 1e-12, "link {} at {q:?}", k + 1);
        }
        if case == 0 {
            // The arm stands straight up at zero: the flange is 1.261 m above the base.
            let flange = *poses[7].translation();
            assert!(
                (flange - Vector3::new(0.0, 0.0, 1.261)).norm() < 1e-9,
                "{flange}"
            );
        }
    }
}

#[test]
fn gear_set_scale_and_poses() {
    let robot = Robot::from_file(asset("differential/diff_ring.urdf")).unwrap();
    let names: Vec<&str> = robot.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "world",
            "diff_ring",
            "diff_spiderA",
            "diff_spiderB",
            "diff_sideA",
            "diff_sideB"
        ]
    );
    assert_eq!(robot.moving_joints().count(), 5);
    // `differential/diff_ring.stl` is found one folder above the URDF; scale 0.001.
    let ring = &robot.links[1].visuals[0];
    assert_eq!(ring.file, asset("differential/diff_ring.stl"));
    let raw = load_mesh(&asset("differential/diff_ring.stl")).unwrap();
    for (p, s) in raw.vertices().iter().zip(ring.mesh.vertices()) {
        assert_eq!(p.coords * 0.001, s.coords);
    }
    assert_eq!(robot.links[1].visuals.len(), 2, "ring and carrier");
    // Every visual is rotated 90° about x (the STLs are z-up, the gears turn about y) and sits
    // at the ring's joint origin at zero joint values.
    let visuals = robot.visual_poses(&[0.0; 5]).unwrap();
    assert_eq!(visuals.len(), 6);
    let at = Vector3::new(0.256, 0.2854, 0.03282);
    for (_, _, pose) in &visuals {
        assert!((pose.translation() - at).norm() < 1e-15);
    }
    // Turning the ring joint turns every gear about the world y axis through the ring centre.
    let turned = robot.visual_poses(&[0.3, 0.0, 0.0, 0.0, 0.0]).unwrap();
    let about_y = rodrigues(Vector3::y(), 0.3);
    for ((_, _, p0), (_, _, p1)) in visuals.iter().zip(&turned) {
        let want = about_y * p0.rotation();
        assert!((p1.rotation() - want).abs().max() < 1e-12);
    }
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const TRI: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

fn robot_text(link2: &str, joint: &str, mesh: &str) -> String {
    format!(
        r#"<robot name="r">
  <link name="a"><visual><geometry><mesh filename="{mesh}"/></geometry></visual></link>
  <link name="{link2}"/>
  <joint name="j" type="{joint}"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
</robot>"#
    )
}

#[test]
fn bad_files_give_typed_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t.obj", TRI);
    let good = write(
        dir.path(),
        "good.urdf",
        &robot_text("b", "revolute", "t.obj"),
    );
    let robot = Robot::from_file(&good).unwrap();
    assert_eq!(robot.links[0].visuals[0].mesh.triangles().len(), 1);
    let named = |e: UrdfError, path: &Path| {
        let msg = e.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        e
    };
    // Writes `text` as `name`, loads it, and returns the refusal (which must name the file).
    let refused = |name: &str, text: &str| {
        let path = write(dir.path(), name, text);
        named(Robot::from_file(&path).unwrap_err(), &path)
    };
    let with_mesh = |mesh: &str| {
        robot_text("b", "revolute", "t.obj").replace(r#"<mesh filename="t.obj"/>"#, mesh)
    };

    let missing = dir.path().join("missing.urdf");
    let e = named(Robot::from_file(&missing).unwrap_err(), &missing);
    assert!(matches!(e, UrdfError::Io { .. }), "{e:?}");

    let e = refused("bad.urdf", "<robot name='r'><link name='a'></robot>");
    assert!(matches!(e, UrdfError::Xml { .. }), "{e:?}");

    let e = refused("u.urdf", &robot_text("c", "revolute", "t.obj"));
    assert!(
        matches!(&e, UrdfError::UnknownLink { link, .. } if link == "b"),
        "{e:?}"
    );

    let e = refused("m.urdf", &robot_text("b", "revolute", "nope.obj"));
    assert!(e.to_string().contains("nope.obj"), "{e}");
    assert!(matches!(e, UrdfError::Mesh { .. }), "{e:?}");

    let e = refused("f.urdf", &robot_text("b", "floating", "t.obj"));
    assert!(matches!(e, UrdfError::UnsupportedJoint { .. }), "{e:?}");

    let e = refused("box.urdf", &with_mesh(r#"<box size="1 1 1"/>"#));
    assert!(matches!(e, UrdfError::NotAMesh { .. }), "{e:?}");

    let cycle = robot_text("b", "revolute", "t.obj").replace(
        "</robot>",
        r#"<joint name="k" type="fixed"><parent link="b"/><child link="a"/></joint></robot>"#,
    );
    let e = refused("cycle.urdf", &cycle);
    assert!(matches!(e, UrdfError::NotATree { .. }), "{e:?}");

    let e = refused(
        "zero.urdf",
        &with_mesh(r#"<mesh filename="t.obj" scale="1 0 1"/>"#),
    );
    assert!(matches!(e, UrdfError::BadNumber { .. }), "{e:?}");

    let e = refused(
        "huge.urdf",
        &with_mesh(r#"<mesh filename="t.obj" scale="1e300 1 1"/>"#),
    );
    assert!(matches!(e, UrdfError::BadScale { .. }), "{e:?}");

    for q in [vec![], vec![0.0, 0.0], vec![f64::NAN]] {
        let e = named(robot.link_poses(&q).unwrap_err(), &good);
        assert!(
            matches!(e, UrdfError::JointValues { expected: 1, .. }),
            "{e:?}"
        );
    }
}
