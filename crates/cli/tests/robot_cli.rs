//! `obbtree robot` on robots as shipped: collision meshes by default, `package://` names found
//! through `--package-dir` and `ROS_PACKAGE_PATH`, an SRDF's disabled pairs, and the listing's
//! JSON shape (`joints`, `values`, `links`, `pairs_checked`); floating and planar joints listed
//! value by value and moved by configurations and paths; bad input is a one-line error naming
//! the file, never a panic.

mod common;

use common::{asset, cube_obj};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

/// Runs `obbtree robot` with `args` and `ROS_PACKAGE_PATH` set to `ros` (unset for `None`).
fn robot(args: &[&str], ros: Option<&Path>) -> Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_obbtree"));
    command.arg("robot").args(args).env("NO_COLOR", "1");
    match ros {
        Some(path) => command.env("ROS_PACKAGE_PATH", path),
        None => command.env_remove("ROS_PACKAGE_PATH"),
    };
    command.output().unwrap()
}

fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The one line of a failed run's standard error (exit status 1: refused, not a panic).
fn error_of(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Three links in a chain `a – b – c`; `a` has two collision meshes and a visual one, `b` and
/// `c` one collision mesh each, all in package `arm`.
const ARM: &str = r#"<robot name="arm">
  <link name="a">
    <visual><geometry><mesh filename="package://arm/meshes/v.obj"/></geometry></visual>
    <collision><geometry><mesh filename="package://arm/meshes/c.obj"/></geometry></collision>
    <collision><origin xyz="0 0 3"/><geometry><mesh filename="package://arm/meshes/c.obj"/></geometry></collision>
  </link>
  <link name="b"><collision><origin xyz="0 0 10"/><geometry><mesh filename="package://arm/meshes/c.obj"/></geometry></collision></link>
  <link name="c"><collision><origin xyz="0 0 20"/><geometry><mesh filename="package://arm/meshes/c.obj"/></geometry></collision></link>
  <joint name="ab" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="bc" type="prismatic"><parent link="b"/><child link="c"/><axis xyz="1 0 0"/><limit lower="0" upper="2" effort="1" velocity="1"/></joint>
</robot>"#;

/// A package directory `pkgs/arm/meshes` with the arm's meshes, the URDF in `urdf/`, and an
/// SRDF disabling `a – c`.
fn arm(dir: &Path) -> (String, String, String) {
    let meshes = dir.join("pkgs/arm/meshes");
    std::fs::create_dir_all(&meshes).unwrap();
    std::fs::create_dir_all(dir.join("urdf")).unwrap();
    cube_obj(&meshes, "c.obj", 1.0);
    cube_obj(&meshes, "v.obj", 1.0);
    let urdf = dir.join("urdf/arm.urdf");
    std::fs::write(&urdf, ARM).unwrap();
    let srdf = dir.join("arm.srdf");
    std::fs::write(
        &srdf,
        r#"<robot name="arm"><disable_collisions link1="c" link2="a" reason="Never"/></robot>"#,
    )
    .unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    (s(&urdf), s(&dir.join("pkgs")), s(&srdf))
}

#[test]
fn listing_reports_links_and_the_pairs_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (urdf, pkgs, srdf) = arm(dir.path());
    let listed = json_of(&robot(&[&urdf, "--package-dir", &pkgs, "--json"], None));
    let keys: Vec<&str> = listed
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["joints", "links", "pairs_checked", "robot", "values"]
    );
    assert_eq!(listed["values"], json!(["ab", "bc"]));
    assert_eq!(
        listed["joints"],
        json!([{"name": "ab", "type": "revolute", "limits": [-1.0, 1.0]},
               {"name": "bc", "type": "prismatic", "limits": [0.0, 2.0]}])
    );
    let cube = Path::new(&pkgs).join("arm/meshes/c.obj");
    let cube = cube.to_str().unwrap();
    assert_eq!(
        listed["links"],
        json!([{"name": "a", "meshes": [cube, cube], "shapes": []},
               {"name": "b", "meshes": [cube], "shapes": []},
               {"name": "c", "meshes": [cube], "shapes": []}])
    );
    // Objects a, a#1, b, c: of the 6 pairs, a–a#1 is one link's, a–b and a#1–b and b–c are
    // joined: a–c and a#1–c are left.
    assert_eq!(listed["pairs_checked"], 2);
    let with_srdf = json_of(&robot(
        &[&urdf, "--package-dir", &pkgs, "--srdf", &srdf, "--json"],
        None,
    ));
    assert_eq!(with_srdf["pairs_checked"], 0);
    // Visuals on request: one mesh on `a`, none on `b` and `c`.
    let visual = json_of(&robot(
        &[
            &urdf,
            "--package-dir",
            &pkgs,
            "--geometry",
            "visual",
            "--json",
        ],
        None,
    ));
    let v = Path::new(&pkgs).join("arm/meshes/v.obj");
    assert_eq!(visual["links"][0]["meshes"], json!([v.to_str().unwrap()]));
    assert_eq!(visual["pairs_checked"], 0);
    // ROS_PACKAGE_PATH finds the package too; the text summary counts meshes and pairs.
    let text = robot(&[&urdf], Some(Path::new(&pkgs)));
    let text = String::from_utf8(json_of_text(&text)).unwrap();
    assert!(
        text.contains("2 moving joints taking 2 values")
            && text.contains("  q1  ab (revolute) [-1, 1]\n  q2  bc (prismatic) [0, 2]\n")
            && text.contains("collision geometry: 4 meshes and 0 primitives on 3 links; self-collision checks 2 pairs"),
        "{text}"
    );
    // With --configs the report keeps its shape.
    let configs = dir.path().join("configs.json");
    std::fs::write(&configs, r#"{"configs":[[0, 0], [0, 2]]}"#).unwrap();
    let report = json_of(&robot(
        &[
            &urdf,
            "--package-dir",
            &pkgs,
            "--srdf",
            &srdf,
            "--configs",
            configs.to_str().unwrap(),
            "--json",
        ],
        None,
    ));
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["build_ms", "joints", "query_total_ms", "results"]);
    assert_eq!(report["results"][0], json!({"self": [], "environment": []}));
    // A value beyond a joint's limits ([0, 2] for bc) is refused by name, unless asked.
    std::fs::write(&configs, r#"{"configs":[[0, 0], [0, 2.5]]}"#).unwrap();
    let args = [
        &urdf,
        "--package-dir",
        &pkgs,
        "--configs",
        configs.to_str().unwrap(),
    ];
    let err = error_of(&robot(&args, None));
    assert!(
        err.contains("configs[1]")
            && err.contains("joint \"bc\": value 2.5 is outside its limits [0, 2]"),
        "{err}"
    );
    let ignored = [&args[..], &["--ignore-limits", "--json"]].concat();
    assert_eq!(
        json_of(&robot(&ignored, None))["results"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// A successful run's standard output.
fn json_of_text(o: &Output) -> Vec<u8> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout.clone()
}

#[test]
fn bad_robots_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (urdf, pkgs, _) = arm(dir.path());
    // A package directory without the package: the URDF, the link, the package and every
    // directory searched.
    let none = dir.path().join("none");
    std::fs::create_dir(&none).unwrap();
    let err = error_of(&robot(
        &[&urdf, "--package-dir", none.to_str().unwrap()],
        None,
    ));
    for needle in [
        urdf.as_str(),
        "link \"a\"",
        "package \"arm\" not found",
        none.join("arm").to_str().unwrap(),
        dir.path().join("urdf").to_str().unwrap(),
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    // An SRDF naming a link the robot does not have.
    let ghost = dir.path().join("ghost.srdf");
    std::fs::write(
        &ghost,
        "<robot>\n<disable_collisions link1=\"a\" link2=\"ghost\"/></robot>",
    )
    .unwrap();
    let err = error_of(&robot(
        &[
            &urdf,
            "--package-dir",
            &pkgs,
            "--srdf",
            ghost.to_str().unwrap(),
        ],
        None,
    ));
    assert!(
        err.contains(&format!("{}: line 2: ", ghost.display())),
        "{err}"
    );
    assert!(err.contains("link \"ghost\""), "{err}");
    // A primitive whose size is refused: the link and the element.
    let cylinder = dir.path().join("urdf/cylinder.urdf");
    std::fs::write(
        &cylinder,
        ARM.replace(
            r#"<mesh filename="package://arm/meshes/c.obj"/></geometry></collision></link>
  <link name="c">"#,
            r#"<cylinder radius="1" length="0"/></geometry></collision></link>
  <link name="c">"#,
        ),
    )
    .unwrap();
    let err = error_of(&robot(
        &[cylinder.to_str().unwrap(), "--package-dir", &pkgs],
        None,
    ));
    assert!(
        err.contains("link \"b\": collision <cylinder>: the shape's length is 0"),
        "{err}"
    );
    // The bundled KUKA's collision meshes are not bundled: asked for, they are missing.
    let kuka = asset("kuka_iiwa/model.urdf");
    let err = error_of(&robot(&[kuka.to_str().unwrap()], None));
    assert!(
        err.contains("model.urdf") && err.contains("link_0.stl"),
        "{err}"
    );
    let wrong = robot(&[&urdf, "--geometry", "both"], None);
    assert_eq!(wrong.status.code(), Some(2), "a usage error");
    let err = String::from_utf8(wrong.stderr).unwrap();
    assert!(
        err.contains("[possible values: collision, visual]"),
        "{err}"
    );
}

/// A floating base and a cart on a planar joint (no `<axis>`: the base's x, y plane, 3 m out
/// along x), boxes of 1 m; a post 5 m above the world's origin.
const ROVER: &str = r#"<robot name="rover">
  <link name="world"/>
  <link name="base"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="cart"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="post"><collision><origin xyz="0 0 5"/><geometry><box size="1 1 1"/></geometry></collision></link>
  <joint name="free" type="floating"><parent link="world"/><child link="base"/></joint>
  <joint name="slide" type="planar"><parent link="base"/><child link="cart"/><origin xyz="3 0 0"/></joint>
  <joint name="mount" type="fixed"><parent link="world"/><child link="post"/></joint>
</robot>"#;

#[test]
fn floating_and_planar_joints_take_their_values_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let urdf = dir.path().join("rover.urdf");
    std::fs::write(&urdf, ROVER).unwrap();
    let urdf = urdf.to_str().unwrap();
    let listed = json_of(&robot(&[urdf, "--json"], None));
    assert_eq!(
        listed["joints"],
        json!([{"name": "free", "type": "floating"}, {"name": "slide", "type": "planar"}])
    );
    assert_eq!(
        listed["values"],
        json!([
            "free/trans_x",
            "free/trans_y",
            "free/trans_z",
            "free/rot_x",
            "free/rot_y",
            "free/rot_z",
            "free/rot_w",
            "slide/x",
            "slide/y",
            "slide/theta"
        ])
    );
    let text = String::from_utf8(json_of_text(&robot(&[urdf], None))).unwrap();
    assert!(
        text.contains("2 moving joints taking 10 values")
            && text.contains(
                "  q1..q7  free (floating): trans_x trans_y trans_z rot_x rot_y rot_z rot_w\n  \
                 q8..q10  slide (planar): x y theta\n"
            ),
        "{text}"
    );

    let configs = dir.path().join("configs.json");
    let configs = configs.to_str().unwrap();
    let run = |text: &str, extra: &[&str]| {
        std::fs::write(configs, text).unwrap();
        robot(&[&[urdf, "--configs", configs], extra].concat(), None)
    };
    // The base lifted 5 m meets the post; the cart, 3 m out along the base's x axis, meets it
    // when the base is lifted 2 m and turned a quarter about y the way that points x up
    // (quaternion [0, -s, 0, s]), not the other way.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let report = json_of(&run(
        &json!({"configs": [
            [0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
            [0, 0, 5, 0, 0, 0, 1, 0, 0, 0],
            [0, 0, 2, 0, s, 0, s, 0, 0, 0],
            [0, 0, 2, 0, -s, 0, s, 0, 0, 0],
        ]})
        .to_string(),
        &["--json"],
    ));
    let touching: Vec<&Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["self"])
        .collect();
    assert_eq!(
        touching,
        [
            &json!([]),
            &json!([["base", "post"]]),
            &json!([]),
            &json!([["cart", "post"]])
        ]
    );
    // A path turning the base a full half turn about z in steps of at most 0.5 rad: 7 steps.
    let path = run(
        r#"{"configs": [[0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]]}"#,
        &["--path", "--resolution", "0.5", "--json"],
    );
    assert_eq!(json_of(&path)["checked"], 8);

    // Refusals name the joint and the value.
    for (text, says) in [
        ("[[0, 0, 0, 0, 0, 0, 1, 0, 0]]", "expected 10 finite joint values, got 9; value 9 (slide/theta of joint \"slide\") is the first missing"),
        ("[[0, 0, 0, 0, 0, 0]]", "value 6 (free/rot_w of joint \"free\") is the first missing"),
        ("[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]", "joint \"free\": the quaternion [qx, qy, qz, qw] = [0.0, 0.0, 0.0, 0.0] (values 3 to 6)"),
        ("[[0, 0, 0, 0.1, 0.2, 0.3, 1, 0, 0, 0]]", "has squared norm 1.14"),
    ] {
        let err = error_of(&run(&format!(r#"{{"configs": {text}}}"#), &[]));
        assert!(err.contains("configs[0]") && err.contains("rover.urdf") && err.contains(says), "{err}");
    }
}

/// Links `a` (a cylinder of radius 0.5 along z) and `c` (a unit box centred at x = 2), joined
/// through `b`: the one pair checked is `a – c`, its side 1 from the box's face.
const CAN_AND_BOX: &str = r#"<robot name="can">
  <link name="a"><collision><geometry><cylinder radius="0.5" length="1"/></geometry></collision></link>
  <link name="b"><collision><origin xyz="0 0 10"/><geometry><sphere radius="0.25"/></geometry></collision></link>
  <link name="c"><collision><origin xyz="2 0 0"/><geometry><box size="1 1 1"/></geometry></collision></link>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="bc" type="prismatic"><parent link="b"/><child link="c"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"#;

/// `--margin` measures cylinders: the clearance of a cylinder and a box is the gap between
/// the side and the face, and a configuration is within the margin exactly when it is.
#[test]
fn margins_measure_cylinder_collision_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let urdf = dir.path().join("can.urdf");
    std::fs::write(&urdf, CAN_AND_BOX).unwrap();
    let configs = dir.path().join("configs.json");
    std::fs::write(&configs, r#"{"configs": [[0.0], [-0.5], [0.25]]}"#).unwrap();
    let (urdf, configs) = (urdf.to_str().unwrap(), configs.to_str().unwrap());
    let report = json_of(&robot(
        &[urdf, "--configs", configs, "--margin", "0.6", "--json"],
        None,
    ));
    let clearances: Vec<f64> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["clearance"].as_f64().unwrap())
        .collect();
    for (got, want) in clearances.iter().zip([1.0, 0.5, 1.25]) {
        assert!((got - want).abs() <= 1e-12 * 4.0, "{clearances:?}");
    }
    let text = robot(&[urdf, "--configs", configs, "--margin", "0.6"], None);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    assert!(out.contains("1 with a clearance of at most 0.6"), "{out}");
}
