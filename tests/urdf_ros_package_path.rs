//! `package://` names found through the `ROS_PACKAGE_PATH` environment variable. The variable is
//! process-wide, so this binary holds this one test alone and no other test sees it set.

use obbtree::urdf::{Robot, UrdfOptions};

#[test]
fn ros_package_path_finds_packages_after_the_package_dirs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in [
        "ws/src/arm/meshes",
        "gripper/meshes",
        "mine/arm/meshes",
        "urdf",
    ] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    for f in [
        "ws/src/arm/meshes/a.obj",
        "gripper/meshes/g.obj",
        "mine/arm/meshes/a.obj",
    ] {
        std::fs::write(root.join(f), tri).unwrap();
    }
    let urdf = root.join("urdf/r.urdf");
    std::fs::write(
        &urdf,
        r#"<robot name="r">
  <link name="a"><collision><geometry><mesh filename="package://arm/meshes/a.obj"/></geometry></collision></link>
  <link name="b"><collision><geometry><mesh filename="package://gripper/meshes/g.obj"/></geometry></collision></link>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"#,
    )
    .unwrap();
    // An empty entry, a workspace holding `arm`, and the `gripper` package itself.
    let path = std::env::join_paths([
        root.join("nowhere"),
        root.join("ws/src"),
        root.join("gripper"),
    ])
    .unwrap();
    std::env::set_var("ROS_PACKAGE_PATH", &path);
    let robot = Robot::from_file_with(&urdf, &UrdfOptions::default()).unwrap();
    assert_eq!(
        robot.links[0].meshes[0].file,
        root.join("ws/src/arm/meshes/a.obj")
    );
    assert_eq!(
        robot.links[1].meshes[0].file,
        root.join("gripper/meshes/g.obj")
    );
    // A --package-dir comes first.
    let options = UrdfOptions {
        package_dirs: vec![root.join("mine")],
        ..UrdfOptions::default()
    };
    let robot = Robot::from_file_with(&urdf, &options).unwrap();
    assert_eq!(
        robot.links[0].meshes[0].file,
        root.join("mine/arm/meshes/a.obj")
    );
    // Without the variable, `arm` is nowhere: the error lists what was searched.
    std::env::remove_var("ROS_PACKAGE_PATH");
    let e = Robot::from_file_with(&urdf, &UrdfOptions::default()).unwrap_err();
    assert!(e.to_string().contains("package \"arm\" not found"), "{e}");
}
