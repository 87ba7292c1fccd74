//! The URDF reader: the bundled gear set and KUKA arm load with the right meshes, scales and
//! poses; forward kinematics agrees with an independent composition of 4×4 matrices written out
//! from the URDF specification (fixed-axis roll-pitch-yaw, Rodrigues' formula for the joint
//! rotation); bad files give typed errors naming the file.

mod common;
#[path = "common/frames.rs"]
mod frames;

use common::{asset, cases};
use frames::{homogeneous, rodrigues, rpy};
use nalgebra::{Matrix4, Vector3};
use obbtree::load::load_mesh;
use obbtree::urdf::{
    Geometry, JointKind, Robot, RobotError, RobotScene, Srdf, SrdfError, UrdfError, UrdfOptions,
};
use obbtree::Shape;
use rand::{Rng, SeedableRng};
use std::path::Path;

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
        assert_eq!(link.meshes.len(), 1);
        let file = asset(&format!("kuka_iiwa/link_{k}.obj"));
        assert_eq!(link.meshes[0].file, file);
        let raw = load_mesh(&file).unwrap();
        assert_eq!(link.meshes[0].mesh.vertices(), raw.vertices(), "scale 1");
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
    let ring = &robot.links[1].meshes[0];
    assert_eq!(ring.file, asset("differential/diff_ring.stl"));
    let raw = load_mesh(&asset("differential/diff_ring.stl")).unwrap();
    for (p, s) in raw.vertices().iter().zip(ring.mesh.vertices()) {
        assert_eq!(p.coords * 0.001, s.coords);
    }
    assert_eq!(robot.links[1].meshes.len(), 2, "ring and carrier");
    // Every visual is rotated 90° about x (the STLs are z-up, the gears turn about y) and sits
    // at the ring's joint origin at zero joint values.
    let visuals = robot.mesh_poses(&[0.0; 5]).unwrap();
    assert_eq!(visuals.len(), 6);
    let at = Vector3::new(0.256, 0.2854, 0.03282);
    for (_, _, pose) in &visuals {
        assert!((pose.translation() - at).norm() < 1e-15);
    }
    // Turning the ring joint turns every gear about the world y axis through the ring centre.
    let turned = robot.mesh_poses(&[0.3, 0.0, 0.0, 0.0, 0.0]).unwrap();
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
    assert_eq!(robot.links[0].meshes[0].mesh.triangles().len(), 1);
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

    let e = refused("s.urdf", &robot_text("b", "spherical", "t.obj"));
    assert!(matches!(e, UrdfError::UnsupportedJoint { .. }), "{e:?}");

    let e = refused(
        "cyl.urdf",
        &with_mesh(r#"<cylinder radius="1" length="-1"/>"#),
    );
    assert!(
        matches!(
            e,
            UrdfError::BadShape {
                element: "cylinder",
                ..
            }
        ),
        "{e:?}"
    );

    let e = refused("box.urdf", &with_mesh(r#"<box size="1 0 1"/>"#));
    assert!(
        matches!(e, UrdfError::BadShape { element: "box", .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("size y"), "{e}");

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

    for q in [vec![], vec![0.0, 0.0]] {
        let e = named(robot.link_poses(&q).unwrap_err(), &good);
        assert!(
            matches!(e, UrdfError::ConfigurationLength { expected: 1, .. }),
            "{e:?}"
        );
    }
    let e = named(robot.link_poses(&[f64::NAN]).unwrap_err(), &good);
    assert!(matches!(e, UrdfError::NonFiniteValue { .. }), "{e:?}");
}

/// Reads `path` with the given geometry kind and package directories.
fn read_with(path: &Path, geometry: Geometry, package_dirs: &[&Path]) -> Result<Robot, UrdfError> {
    let options = UrdfOptions {
        package_dirs: package_dirs.iter().map(|d| d.to_path_buf()).collect(),
        geometry,
    };
    Robot::from_file_with(path, &options)
}

/// A link with a visual `v.obj` and two collision meshes `c1.obj`, `c2.obj` (the second
/// moved up by 2), and an empty second link.
const TWO_COLLISIONS: &str = r#"<robot name="r">
  <link name="a">
    <visual><geometry><mesh filename="v.obj"/></geometry></visual>
    <collision><geometry><mesh filename="c1.obj"/></geometry></collision>
    <collision><origin xyz="0 0 2"/><geometry><mesh filename="c2.obj" scale="2 2 2"/></geometry></collision>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
</robot>"#;

#[test]
fn collision_elements_by_default_visuals_on_request() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["v.obj", "c1.obj", "c2.obj"] {
        write(dir.path(), name, TRI);
    }
    let urdf = write(dir.path(), "two.urdf", TWO_COLLISIONS);
    let robot = Robot::from_file_with(&urdf, &UrdfOptions::default()).unwrap();
    assert_eq!(robot.geometry, Geometry::Collision);
    let files: Vec<_> = robot.links[0]
        .meshes
        .iter()
        .map(|m| m.file.clone())
        .collect();
    assert_eq!(
        files,
        [dir.path().join("c1.obj"), dir.path().join("c2.obj")]
    );
    assert_eq!(robot.links[0].meshes[1].mesh.vertices()[1].x, 2.0, "scaled");
    assert_eq!(robot.links[0].meshes[1].origin.translation().z, 2.0);
    // Several collision elements are several scene objects.
    let scene: RobotScene = RobotScene::new(robot).unwrap();
    assert_eq!(scene.scene().len(), 2);
    let id = scene.scene().id("a#1").unwrap();
    assert_eq!(scene.link_of(id), Some(0));

    let visual = read_with(&urdf, Geometry::Visual, &[]).unwrap();
    assert_eq!(visual.geometry, Geometry::Visual);
    assert_eq!(visual.links[0].meshes.len(), 1);
    assert_eq!(visual.links[0].meshes[0].file, dir.path().join("v.obj"));
    // `from_file` keeps reading visuals.
    let old = Robot::from_file(&urdf).unwrap();
    assert_eq!(old.links[0].meshes[0].file, visual.links[0].meshes[0].file);
}

#[test]
fn a_missing_collision_mesh_is_an_error_not_a_visual() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "v.obj", TRI);
    write(dir.path(), "c1.obj", TRI);
    let urdf = write(dir.path(), "two.urdf", TWO_COLLISIONS);
    let e = read_with(&urdf, Geometry::Collision, &[]).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, UrdfError::Mesh { .. }), "{e:?}");
    assert!(msg.contains("two.urdf") && msg.contains("c2.obj"), "{msg}");
    // The bundled KUKA names collision STLs that are not bundled.
    let e = read_with(&asset("kuka_iiwa/model.urdf"), Geometry::Collision, &[]).unwrap_err();
    assert!(e.to_string().contains("link_0.stl"), "{e}");
}

/// Link `a` holds a box, a sphere, a capsule and a cylinder; link `c`, joined to `b`, a
/// sphere. At q = 0,
/// `c`'s sphere (radius 0.5 about x = 2) touches `a`'s box (x in [-0.5, 1.5]) at one point,
/// exactly; at q = 0.25 (a slide along x) it is 0.25 away.
const PRIMITIVES: &str = r#"<robot name="p">
  <link name="a">
    <collision><origin xyz="0.5 0 0"/><geometry><box size="2 2 2"/></geometry></collision>
    <collision><origin xyz="0 0 4"/><geometry><sphere radius="0.25"/></geometry></collision>
    <collision><origin xyz="0 0 -4"/><geometry><capsule radius="0.25" length="1"/></geometry></collision>
    <collision><origin xyz="0 4 0"/><geometry><cylinder radius="0.25" length="1"/></geometry></collision>
  </link>
  <link name="b"/>
  <link name="c">
    <collision><geometry><sphere radius="0.5"/></geometry></collision>
  </link>
  <joint name="fix" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="slide" type="prismatic"><parent link="b"/><child link="c"/>
    <origin xyz="2 0 0"/><axis xyz="1 0 0"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>"#;

#[test]
fn boxes_spheres_and_capsules_are_solids_of_their_links() {
    let dir = tempfile::tempdir().unwrap();
    let urdf = write(dir.path(), "p.urdf", PRIMITIVES);
    let robot = Robot::from_file_with(&urdf, &UrdfOptions::default()).unwrap();
    let shapes: Vec<_> = robot.links[0]
        .shapes
        .iter()
        .map(|s| s.shape.clone())
        .collect();
    assert_eq!(
        shapes,
        [
            Shape::cuboid([2.0, 2.0, 2.0]).unwrap(),
            Shape::sphere(0.25).unwrap(),
            Shape::capsule(0.25, 1.0).unwrap(),
            Shape::cylinder(0.25, 1.0).unwrap()
        ]
    );
    assert_eq!(robot.links[0].shapes[1].origin.translation().z, 4.0);
    let mut scene: RobotScene = RobotScene::new(robot).unwrap();
    // Four objects for `a`, one for `c`; `a` and `c` are not joined (b sits between them).
    assert_eq!(scene.scene().len(), 5);
    assert!(scene.scene().id("a#3").is_some());
    assert_eq!(scene.self_pairs_checked(), 4);
    scene.set_configuration(&[0.0]).unwrap();
    let touching = scene.check().unwrap();
    assert_eq!(touching.self_collisions, [[0, 2]]);
    scene.set_configuration(&[0.25]).unwrap();
    assert!(scene.check().unwrap().self_collisions.is_empty());
    // Limits are [0, 1] (closed): 1 is fine, beyond it is refused by name unless asked.
    scene.set_configuration(&[1.0]).unwrap();
    let e = scene.set_configuration(&[1.0f64.next_up()]).unwrap_err();
    assert!(e.to_string().contains("joint \"slide\""), "{e}");
    scene.check_limits(false);
    scene.set_configuration(&[-3.0]).unwrap();
    // At -3 the ball (about x = -1) sits inside the box: solids touch.
    assert_eq!(scene.check().unwrap().self_collisions, [[0, 2]]);
}

#[test]
fn package_names_resolve_through_package_dirs() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    for d in [
        first.join("arm/meshes"),
        second.join("arm/meshes"),
        dir.path().join("urdf"),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    write(&second.join("arm/meshes"), "c1.obj", TRI);
    write(&second.join("arm/meshes"), "c2.obj", TRI);
    let text = TWO_COLLISIONS.replace("filename=\"c", "filename=\"package://arm/meshes/c");
    let urdf = write(&dir.path().join("urdf"), "r.urdf", &text);
    let robot = read_with(&urdf, Geometry::Collision, &[&second, &first]).unwrap();
    assert_eq!(
        robot.links[0].meshes[0].file,
        second.join("arm/meshes/c1.obj")
    );
    // The first directory holding the package wins, even without the file: no guessing.
    let e = read_with(&urdf, Geometry::Collision, &[&first, &second]).unwrap_err();
    assert!(
        e.to_string()
            .contains(&first.join("arm/meshes/c1.obj").display().to_string()),
        "{e}"
    );
    // A package found nowhere: the URDF, the link, the package and every directory searched.
    let e = read_with(
        &urdf.with_file_name("r.urdf"),
        Geometry::Collision,
        &[&dir.path().join("none")],
    )
    .unwrap_err();
    let msg = e.to_string();
    let UrdfError::Package {
        package,
        searched,
        link,
        ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert_eq!((package.as_str(), link.as_str()), ("arm", "a"));
    assert_eq!(searched[0], dir.path().join("none/arm"));
    assert!(searched.contains(&dir.path().join("urdf")));
    for s in searched {
        assert!(msg.contains(&s.display().to_string()), "{msg}");
    }
    assert!(
        msg.starts_with(&format!("{}: link \"a\": ", urdf.display())),
        "{msg}"
    );
    assert!(msg.contains("package \"arm\" not found"), "{msg}");
}

/// The bundled KUKA as a robot scene.
fn kuka_scene() -> RobotScene {
    RobotScene::new(Robot::from_file(asset("kuka_iiwa/model.urdf")).unwrap()).unwrap()
}

#[test]
fn srdf_disabled_pairs_are_never_checked() {
    let mut scene = kuka_scene();
    // 8 links, one mesh each: 28 pairs, less the 7 joined by a joint.
    assert_eq!(scene.self_pairs_checked(), 28 - 7);
    scene
        .set_configuration(&[-1.69, 1.91, 0.1, -1.9, 1.64, 0.21, 0.21])
        .unwrap();
    let touching = scene.check().unwrap().self_collisions;
    assert!(!touching.is_empty());
    let name = |l: usize| scene.robot().links[l].name.clone();
    let mut text = String::from("<?xml version=\"1.0\"?>\n<robot name=\"lbr_iiwa\">\n");
    for [a, b] in &touching {
        text += &format!(
            "  <disable_collisions link1=\"{}\" link2=\"{}\" reason=\"Never\"/>\n",
            name(*a),
            name(*b)
        );
    }
    // An adjacent pair, already never checked, changes nothing.
    text += "  <disable_collisions link1=\"lbr_iiwa_link_0\" link2=\"lbr_iiwa_link_1\" reason=\"Adjacent\"/>\n</robot>\n";
    let dir = tempfile::tempdir().unwrap();
    let srdf = Srdf::from_file(write(dir.path(), "kuka.srdf", &text)).unwrap();
    assert_eq!(srdf.disabled.len(), touching.len() + 1);
    let mut allowed = kuka_scene();
    allowed.allow_srdf(&srdf).unwrap();
    assert_eq!(allowed.self_pairs_checked(), 28 - 7 - touching.len());
    allowed
        .set_configuration(&[-1.69, 1.91, 0.1, -1.9, 1.64, 0.21, 0.21])
        .unwrap();
    assert!(allowed.check().unwrap().self_collisions.is_empty());

    // A link the robot does not have: the SRDF file, its line and the link; nothing allowed.
    let ghost = text.replace(
        "</robot>",
        "<disable_collisions link1=\"lbr_iiwa_link_1\" link2=\"ghost\"/></robot>",
    );
    let path = write(dir.path(), "ghost.srdf", &ghost);
    let mut refused = kuka_scene();
    let e = refused
        .allow_srdf(&Srdf::from_file(&path).unwrap())
        .unwrap_err();
    assert!(
        matches!(&e, RobotError::Srdf(SrdfError::UnknownLink { link, .. }) if link == "ghost"),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(
        msg.starts_with(&path.display().to_string()) && msg.contains("\"ghost\""),
        "{msg}"
    );
    assert_eq!(refused.self_pairs_checked(), 28 - 7);
    let e = Srdf::from_file(dir.path().join("none.srdf")).unwrap_err();
    assert!(
        e.to_string().contains("none.srdf: cannot read the file"),
        "{e}"
    );
}

/// A material's `<texture />` with no file (as some exporters write it) is drawing data: the
/// robot loads, with the same meshes as without it. A robot with no links is refused by name.
#[test]
fn bare_textures_are_ignored_and_empty_robots_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["v.obj", "c1.obj", "c2.obj"] {
        write(dir.path(), name, TRI);
    }
    let textured = TWO_COLLISIONS.replace(
        "<link name=\"b\"/>",
        "<link name=\"b\"><visual><geometry><mesh filename=\"c1.obj\"/></geometry>\
         <material name=\"metal\"><texture /></material></visual></link>",
    );
    let urdf = write(dir.path(), "textured.urdf", &textured);
    let robot = read_with(&urdf, Geometry::Collision, &[]).unwrap();
    assert_eq!(robot.links.len(), 2);
    assert_eq!(robot.links[0].meshes.len(), 2);
    let visual = read_with(&urdf, Geometry::Visual, &[]).unwrap();
    assert_eq!(
        visual.links[1].meshes.len(),
        1,
        "the textured visual is read"
    );

    let empty = write(dir.path(), "empty.urdf", "<robot name=\"e\"></robot>");
    let e = read_with(&empty, Geometry::Collision, &[]).unwrap_err();
    assert!(matches!(e, UrdfError::NotATree { .. }), "{e:?}");
    assert!(
        e.to_string().contains("empty.urdf") && e.to_string().contains("no links"),
        "{e}"
    );
}

/// A robot whose second joint mimics the first (a gripper's fingers): `j2` takes no value of
/// its own, and turns by `multiplier · q + offset`. `extra` is appended inside `<robot>`.
fn mimic_text(mimic: &str, extra: &str) -> String {
    format!(
        r#"<robot name="m">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="a"/><child link="c"/><axis xyz="0 1 0"/>
    <origin xyz="1 0 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/>{mimic}</joint>
  {extra}
</robot>"#
    )
}

#[test]
fn mimic_joints_follow_their_leader() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| write(dir.path(), name, text);
    let urdf = file(
        "mimic.urdf",
        &mimic_text(r#"<mimic joint="j1" multiplier="2" offset="0.5"/>"#, ""),
    );
    let robot = read_with(&urdf, Geometry::Collision, &[]).unwrap();
    let names: Vec<&str> = robot.moving_joints().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["j1"], "the mimic takes no value");
    let poses = robot.link_poses(&[0.3]).unwrap();
    let want = rodrigues(Vector3::y(), 2.0 * 0.3 + 0.5);
    let got = poses[2].rotation();
    assert!((got - want).abs().max() < 1e-15, "{got} against {want}");
    assert_eq!(poses[2].translation().x, 1.0);
    assert!(
        (poses[1].rotation() - rodrigues(Vector3::z(), 0.3))
            .abs()
            .max()
            < 1e-15
    );
    // Defaults: multiplier 1, offset 0.
    let plain = file("plain.urdf", &mimic_text(r#"<mimic joint="j1"/>"#, ""));
    let poses = read_with(&plain, Geometry::Collision, &[])
        .unwrap()
        .link_poses(&[0.25])
        .unwrap();
    assert!(
        (poses[2].rotation() - rodrigues(Vector3::y(), 0.25))
            .abs()
            .max()
            < 1e-15
    );
    assert!(robot.link_poses(&[0.3, 0.1]).is_err(), "one value, not two");

    // A fixed joint's mimic is dropped (talos's grippers): the joint does not move.
    let fixed_mimic = file(
        "fixed_mimic.urdf",
        &mimic_text(
            "",
            r#"<link name="d"/><joint name="j3" type="fixed"><parent link="a"/><child link="d"/><mimic joint="j1"/></joint>"#,
        ),
    );
    let robot = read_with(&fixed_mimic, Geometry::Collision, &[]).unwrap();
    assert_eq!(robot.moving_joints().count(), 2);
    assert!(robot.joints.iter().all(|j| j.mimic.is_none()));

    let refused = [
        (
            r#"<mimic joint="nope"/>"#,
            "",
            "\"nope\", which is not a joint",
        ),
        (
            r#"<mimic joint="j3"/>"#,
            r#"<link name="d"/><joint name="j3" type="fixed"><parent link="a"/><child link="d"/></joint>"#,
            "takes no value of its own",
        ),
        (
            r#"<mimic joint="j3"/>"#,
            r#"<link name="d"/><joint name="j3" type="revolute"><parent link="a"/><child link="d"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j1"/></joint>"#,
            "takes no value of its own",
        ),
    ];
    for (k, (mimic, extra, says)) in refused.iter().enumerate() {
        let bad = file(&format!("bad{k}.urdf"), &mimic_text(mimic, extra));
        let e = read_with(&bad, Geometry::Collision, &[]).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, UrdfError::BadMimic { .. }), "{e:?}");
        assert!(
            msg.contains(&format!("bad{k}.urdf")) && msg.contains("\"j2\""),
            "{msg}"
        );
        assert!(msg.contains(says), "{msg}");
    }
}
