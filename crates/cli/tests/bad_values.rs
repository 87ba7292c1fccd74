//! A bad value for every command-line argument that takes one, in every subcommand: the program
//! exits with a non-zero status (2 for what clap refuses, 1 for what the program refuses) and
//! prints one line that names the argument or the file and says what is wrong, checked against
//! its text. The table is checked against the program's own argument list (clap's
//! `CommandFactory`), so an argument added later without a row here fails the test.

mod common;

use clap::CommandFactory;
use common::asset;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// One row: the subcommand, the argument's id (clap's: the field name), the command line after
/// the subcommand, the exit status and the whole error line after `error: `.
struct Row {
    command: &'static str,
    arg: &'static str,
    line: Vec<String>,
    status: i32,
    message: String,
}

/// The table. `{bunny}` and `{kuka}` are bundled files; the other files are made in the
/// temporary folder the program runs in ([`files`]).
fn table() -> Vec<Row> {
    let bunny = asset("bunny.obj").display().to_string();
    let kuka = asset("kuka_iiwa/model.urdf").display().to_string();
    let pose = ["--pose", "0 0 0 0 0 0"];
    let missing = |what: &str| {
        format!("{what}: cannot read the file: No such file or directory (os error 2)")
    };
    let not_written =
        |what: &str| format!("cannot write {what}: No such file or directory (os error 2)");
    let clap_value = |value: &str, arg: &str, why: &str| {
        format!("invalid value '{value}' for '{arg}'{why}; see --help")
    };
    let volumes = "; [possible values: obb, aabb, sphere, kdop6, kdop14, kdop18, kdop26]";
    let modes = "; [possible values: first, all]";
    let poses_expected =
        r#"(expected {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, ...]})"#;
    let rays_expected = r#"(expected {"rays":[{"origin":[x,y,z],"dir":[dx,dy,dz]}, ...]})"#;
    let motions_expected = r#"(expected {"motions":[{"start":{"translation":[x,y,z],"rotation":[rx,ry,rz]}, "end":{...}}, ...]})"#;
    let row = |command, arg, line: &[&str], status, message: String| Row {
        command,
        arg,
        line: line.iter().map(|s| s.to_string()).collect(),
        status,
        message,
    };
    let b = bunny.as_str();
    let k = kuka.as_str();
    vec![
        // info
        row("info", "meshes", &["missing.obj"], 1, missing("missing.obj")),
        row("info", "tree", &[b, "--tree", "foo"], 2, clap_value("foo", "--tree <KIND>", volumes)),
        // collide
        row("collide", "a", &["missing.obj", b, pose[0], pose[1]], 1, missing("missing.obj")),
        row("collide", "b", &[b, "missing.obj", pose[0], pose[1]], 1, missing("missing.obj")),
        row(
            "collide",
            "poses",
            &[b, b, "--poses", "missing.json"],
            1,
            "cannot read poses file missing.json: No such file or directory (os error 2)".into(),
        ),
        row(
            "collide",
            "poses",
            &[b, b, "--poses", "junk.json"],
            1,
            format!("malformed poses file junk.json: expected ident at line 1 column 2 {poses_expected}"),
        ),
        row(
            "collide",
            "pose",
            &[b, b, "--pose", "1 2"],
            1,
            r#"--pose needs six numbers "tx ty tz rx ry rz", got "1 2""#.into(),
        ),
        row(
            "collide",
            "pose",
            &[b, b, "--pose", "0 0 0 0 0 nan"],
            1,
            "pose 0: rotation[2] is NaN, not a finite number".into(),
        ),
        row("collide", "bv", &[b, b, pose[0], pose[1], "--bv", "foo"], 2, clap_value("foo", "--bv <BV>", volumes)),
        row(
            "collide",
            "fit",
            &[b, b, pose[0], pose[1], "--fit", "foo"],
            2,
            clap_value("foo", "--fit <FIT>", "; [possible values: covariance, min-volume, ditetrahedron]"),
        ),
        row("collide", "mode", &[b, b, pose[0], pose[1], "--mode", "foo"], 2, clap_value("foo", "--mode <MODE>", modes)),
        row("collide", "out", &[b, b, pose[0], pose[1], "--out", "no/dir/x.json"], 1, not_written("no/dir/x.json")),
        // distance
        row("distance", "a", &["missing.obj", b, pose[0], pose[1]], 1, missing("missing.obj")),
        row("distance", "b", &[b, "missing.obj", pose[0], pose[1]], 1, missing("missing.obj")),
        row(
            "distance",
            "poses",
            &[b, b, "--poses", "missing.json"],
            1,
            "cannot read poses file missing.json: No such file or directory (os error 2)".into(),
        ),
        row(
            "distance",
            "pose",
            &[b, b, "--pose", "1 2"],
            1,
            r#"--pose needs six numbers "tx ty tz rx ry rz", got "1 2""#.into(),
        ),
        row("distance", "bv", &[b, b, pose[0], pose[1], "--bv", "foo"], 2, clap_value("foo", "--bv <BV>", volumes)),
        row(
            "distance",
            "margin",
            &[b, b, pose[0], pose[1], "--margin", "-1"],
            1,
            "--margin: the margin must be a non-negative finite number, not -1".into(),
        ),
        row(
            "distance",
            "margin",
            &[b, b, pose[0], pose[1], "--margin", "nan"],
            1,
            "--margin: the margin must be a non-negative finite number, not NaN".into(),
        ),
        row("distance", "out", &[b, b, pose[0], pose[1], "--out", "no/dir/x.json"], 1, not_written("no/dir/x.json")),
        // compare
        row("compare", "a", &["missing.obj", b], 1, missing("missing.obj")),
        row("compare", "b", &[b, "missing.obj"], 1, missing("missing.obj")),
        row(
            "compare",
            "rays",
            &[b, "--rays", "missing.json"],
            1,
            "missing.json: cannot read the rays file: No such file or directory (os error 2)".into(),
        ),
        row(
            "compare",
            "rays",
            &[b, "--rays", "junk.json"],
            1,
            format!("junk.json: not a rays file: expected ident at line 1 column 2 {rays_expected}"),
        ),
        row(
            "compare",
            "poses",
            &[b, b, "--poses", "junk.json"],
            1,
            format!("malformed poses file junk.json: expected ident at line 1 column 2 {poses_expected}"),
        ),
        row(
            "compare",
            "random",
            &[b, b, "--random", "x"],
            2,
            clap_value("x", "--random <N>", ": invalid digit found in string"),
        ),
        row(
            "compare",
            "random",
            &[b, b, "--random", "0"],
            1,
            "no poses to compare: give --random N with N > 0 or a non-empty --poses file".into(),
        ),
        row(
            "compare",
            "seed",
            &[b, b, "--seed", "x"],
            2,
            clap_value("x", "--seed <SEED>", ": invalid digit found in string"),
        ),
        row("compare", "mode", &[b, b, "--mode", "foo"], 2, clap_value("foo", "--mode <MODE>", modes)),
        // demo
        row(
            "demo",
            "assets",
            &["--assets", "missing"],
            1,
            "--assets missing: no bunny.obj there; pass the assets/ folder of obbtree (the bundled meshes)".into(),
        ),
        row(
            "demo",
            "out",
            &["--quick", "--assets", "only_bunny", "--out", "only_bunny/bunny.obj/x"],
            1,
            "cannot create only_bunny/bunny.obj/x: Not a directory (os error 20); pass --out DIR".into(),
        ),
        // points
        row("points", "mesh", &["missing.obj", "--points", "points.json"], 1, missing("missing.obj")),
        row(
            "points",
            "points",
            &[b, "--points", "junk.json"],
            1,
            r#"malformed points file junk.json: expected ident at line 1 column 2 (expected {"points":[[x,y,z], ...]})"#.into(),
        ),
        row(
            "points",
            "max_distance",
            &[b, "--points", "points.json", "--max-distance", "-1"],
            1,
            "--max-distance -1: expected a finite distance of at least 0".into(),
        ),
        row("points", "out", &[b, "--points", "points.json", "--out", "no/dir/x.json"], 1, not_written("no/dir/x.json")),
        // sdf
        row("sdf", "mesh", &["missing.obj", "--resolution", "4", "--out", "g.npy"], 1, missing("missing.obj")),
        row(
            "sdf",
            "resolution",
            &[b, "--resolution", "0", "--out", "g.npy"],
            1,
            "--resolution 0: expected at least 1 point along each axis".into(),
        ),
        row(
            "sdf",
            "padding",
            &[b, "--resolution", "4", "--padding", "-1", "--out", "g.npy"],
            1,
            "--padding -1: expected a finite fraction of at least 0".into(),
        ),
        row("sdf", "out", &[b, "--resolution", "4", "--out", "no/dir/g.npy"], 1, not_written("no/dir/g.npy")),
        // pick
        row("pick", "mesh", &["missing.obj", "--pixel", "1", "1"], 1, missing("missing.obj")),
        row(
            "pick",
            "rays",
            &[b, "--rays", "missing.json"],
            1,
            "missing.json: cannot read the rays file: No such file or directory (os error 2)".into(),
        ),
        row(
            "pick",
            "rays",
            &[b, "--rays", "junk.json"],
            1,
            format!("junk.json: not a rays file: expected ident at line 1 column 2 {rays_expected}"),
        ),
        row("pick", "bv", &[b, "--pixel", "1", "1", "--bv", "foo"], 2, clap_value("foo", "--bv <BV>", volumes)),
        row(
            "pick",
            "out",
            &[b, "--pixel", "1", "1", "--out", "no/dir/x.json"],
            1,
            "no/dir/x.json: cannot write: No such file or directory (os error 2)".into(),
        ),
        row(
            "pick",
            "camera",
            &[b, "--pixel", "1", "1", "--camera", "1,2"],
            1,
            "--camera 1,2: expected 6 or 7 finite numbers EX,EY,EZ,TX,TY,TZ[,FOV]".into(),
        ),
        row(
            "pick",
            "camera",
            &[b, "--pixel", "1", "1", "--camera", "0,0,0,0,0,0"],
            1,
            "--camera 0,0,0,0,0,0: the eye must differ from the target and 0 < FOV < 180".into(),
        ),
        row(
            "pick",
            "pixel",
            &[b, "--pixel", "a", "1"],
            2,
            clap_value("a", "--pixel <X> <Y>", ": invalid digit found in string"),
        ),
        row(
            "pick",
            "pixel",
            &[b, "--pixel", "700", "1"],
            1,
            "--pixel 700 1: pixel (700, 1) is outside the 640x480 image".into(),
        ),
        row("pick", "image", &[b, "--image", "no/dir/x.png", "--size", "4x4"], 1, not_written("no/dir/x.png")),
        row(
            "pick",
            "size",
            &[b, "--pixel", "1", "1", "--size", "0x0"],
            1,
            "--size 0x0: the width and the height must be at least 1 pixel".into(),
        ),
        row(
            "pick",
            "size",
            &[b, "--pixel", "1", "1", "--size", "100000x100000"],
            1,
            "--size 100000x100000: 10000000000 pixels is more than the 67108864 (8192x8192) an image may have".into(),
        ),
        row(
            "pick",
            "size",
            &[b, "--pixel", "1", "1", "--size", "abc"],
            1,
            "--size abc: expected WxH, two whole numbers such as 640x480".into(),
        ),
        // ccd
        row(
            "ccd",
            "vertex_face",
            &["--vertex-face", "missing.csv"],
            1,
            "cannot read missing.csv: No such file or directory (os error 2)".into(),
        ),
        row("ccd", "edge_edge", &["--edge-edge", "junk.json"], 1, "junk.json:1: 1 columns, expected 7".into()),
        row(
            "ccd",
            "min_separation",
            &["--edge-edge", "junk.json", "--min-separation", "x"],
            2,
            clap_value("x", "--min-separation <D>", ": invalid float literal"),
        ),
        row("ccd", "a", &["missing.obj", b, "--motions", "motions.json"], 1, missing("missing.obj")),
        row("ccd", "b", &[b, "missing.obj", "--motions", "motions.json"], 1, missing("missing.obj")),
        row(
            "ccd",
            "motions",
            &[b, b, "--motions", "junk.json"],
            1,
            format!("malformed motions file junk.json: expected ident at line 1 column 2 {motions_expected}"),
        ),
        row(
            "ccd",
            "tolerance",
            &[b, b, "--motions", "motions.json", "--tolerance", "-1"],
            1,
            "--tolerance -1: expected a non-negative finite distance".into(),
        ),
        // robot
        row("robot", "urdf", &["missing.urdf"], 1, missing("missing.urdf")),
        row(
            "robot",
            "geometry",
            &[k, "--geometry", "both"],
            2,
            clap_value("both", "--geometry <GEOMETRY>", "; [possible values: collision, visual]"),
        ),
        row(
            "robot",
            "package_dirs",
            &[k, "--geometry", "visual", "--package-dir", "no/dir"],
            1,
            "--package-dir no/dir: not a directory".into(),
        ),
        row("robot", "srdf", &[k, "--geometry", "visual", "--srdf", "missing.srdf"], 1, missing("missing.srdf")),
        row(
            "robot",
            "configs",
            &[k, "--geometry", "visual", "--configs", "missing.json"],
            1,
            "cannot read missing.json: No such file or directory (os error 2)".into(),
        ),
        row("robot", "configs", &[k, "--geometry", "visual", "--configs", "junk.json"], 1, "junk.json: expected ident at line 1 column 2".into()),
        row(
            "robot",
            "scene",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--scene", "missing.json"],
            1,
            "cannot read missing.json: No such file or directory (os error 2)".into(),
        ),
        row(
            "robot",
            "allow",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--allow", "missing.json"],
            1,
            "cannot read missing.json: No such file or directory (os error 2)".into(),
        ),
        row(
            "robot",
            "resolution",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--path", "--resolution", "x"],
            2,
            clap_value("x", "--resolution <R>", ": invalid float literal"),
        ),
        row(
            "robot",
            "resolution",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--path", "--resolution", "-1"],
            1,
            "--resolution -1: the resolution must be a positive finite number of radians (or metres)".into(),
        ),
        row(
            "robot",
            "resolution",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--path", "--resolution", "0"],
            1,
            "--resolution 0: the resolution must be a positive finite number of radians (or metres)".into(),
        ),
        row(
            "robot",
            "tolerance",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--path", "--continuous", "--tolerance", "x"],
            2,
            clap_value("x", "--tolerance <D>", ": invalid float literal"),
        ),
        row(
            "robot",
            "tolerance",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--path", "--continuous", "--tolerance", "-1e-6"],
            1,
            "--tolerance -0.000001: the tolerance must be a positive finite number of metres".into(),
        ),
        row("robot", "out", &[k, "--geometry", "visual", "--configs", "configs.json", "--out", "no/dir/x.json"], 1, not_written("no/dir/x.json")),
        row(
            "robot",
            "margin",
            &[k, "--geometry", "visual", "--configs", "configs.json", "--margin", "NaN"],
            1,
            "--margin: the margin must be a non-negative finite number, not NaN".into(),
        ),
        // scene
        row(
            "scene",
            "scene",
            &["missing.json"],
            1,
            "cannot read missing.json: No such file or directory (os error 2)".into(),
        ),
        row("scene", "scene", &["junk.json"], 1, "junk.json: expected ident at line 1 column 2".into()),
        row(
            "scene",
            "frames",
            &["scene.json", "--frames", "missing.json"],
            1,
            "cannot read missing.json: No such file or directory (os error 2)".into(),
        ),
        row("scene", "frames", &["scene.json", "--frames", "junk.json"], 1, "junk.json: expected ident at line 1 column 2".into()),
        row("scene", "out", &["scene.json", "--out", "no/dir/x.json"], 1, not_written("no/dir/x.json")),
        row(
            "scene",
            "margin",
            &["scene.json", "--margin", "-1"],
            1,
            "--margin: the margin must be a non-negative finite number, not -1".into(),
        ),
    ]
}

/// The files the rows refer to, in `dir`: a file that is not JSON, a good configuration file
/// for the KUKA (7 joints), an empty scene, one point, and a folder holding only the bunny.
fn files(dir: &Path) {
    std::fs::write(dir.join("junk.json"), "not json").unwrap();
    std::fs::write(dir.join("configs.json"), r#"{"configs":[[0,0,0,0,0,0,0]]}"#).unwrap();
    std::fs::write(dir.join("scene.json"), r#"{"objects":[]}"#).unwrap();
    std::fs::write(dir.join("points.json"), r#"{"points":[[0,0,0]]}"#).unwrap();
    let pose = r#"{"translation":[0,0,0],"rotation":[0,0,0]}"#;
    let motions = format!(r#"{{"motions":[{{"start":{pose},"end":{pose}}}]}}"#);
    std::fs::write(dir.join("motions.json"), motions).unwrap();
    std::fs::create_dir(dir.join("only_bunny")).unwrap();
    std::fs::copy(asset("bunny.obj"), dir.join("only_bunny/bunny.obj")).unwrap();
}

/// Every `(subcommand, argument id)` of the program that takes a value.
fn arguments_with_values() -> BTreeSet<(String, String)> {
    let program = obbtree_cli::Cli::command();
    program
        .get_subcommands()
        .flat_map(|sub| {
            sub.get_arguments()
                .filter(|a| a.get_action().takes_values())
                .map(|a| (sub.get_name().to_string(), a.get_id().to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_argument_with_a_value_refuses_a_bad_one_in_words() {
    let rows = table();
    let covered: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.command.to_string(), r.arg.to_string()))
        .collect();
    let all = arguments_with_values();
    let uncovered: Vec<_> = all.difference(&covered).collect();
    assert!(
        uncovered.is_empty(),
        "arguments without a bad-value row: {uncovered:?}"
    );
    let unknown: Vec<_> = covered.difference(&all).collect();
    assert!(
        unknown.is_empty(),
        "rows for arguments the program does not have: {unknown:?}"
    );

    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let mut wrong = Vec::new();
    for r in &rows {
        let out = Command::new(env!("CARGO_BIN_EXE_obbtree"))
            .arg(r.command)
            .args(&r.line)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let want = format!("error: {}\n", r.message);
        if out.status.code() != Some(r.status) || stderr != want {
            wrong.push(format!(
                "{} {:?}: status {:?} (want {}), stderr {stderr:?} (want {want:?})",
                r.command,
                r.line,
                out.status.code(),
                r.status
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} rows:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

/// `demo --assets DIR` takes the meshes from DIR and nowhere else: a folder holding only the
/// bunny gives a table of one mesh (the demo then stops at `--out`, before any picture).
#[test]
fn demo_takes_its_meshes_from_the_assets_flag() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args([
            "demo",
            "--quick",
            "--assets",
            "only_bunny",
            "--out",
            "only_bunny/bunny.obj/x",
        ])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("bunny.obj") && stdout.contains("1 meshes, 3674 triangles"),
        "{stdout}"
    );
}
