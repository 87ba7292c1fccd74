//! `obbtree scene`: the JSON contract (`objects`, `build_ms`, `query_total_ms`, `contacts`,
//! `frames`, and `within` with `--margin`) against the exact two-mesh queries run on every pair,
//! `--out`, the summary, and every bad input's one-line error.

use obbtree::load::load_mesh;
use obbtree::{collide, distance, within_margin, CollisionRequest, DistanceRequest, Model, Pose};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

// A runner and an asset path of its own: this file needs nothing else of the shared helpers.

/// Runs the `obbtree` program with `args` and `NO_COLOR` set.
fn obbtree(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// A bundled mesh.
fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets")
        .join(name)
}

fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The one line of a failed run's standard error.
fn error_of(o: &Output) -> String {
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// A unit cube `[0, 1]³` as OBJ text.
const CUBE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n\
f 1 3 2\nf 2 3 4\nf 5 6 7\nf 6 8 7\nf 1 2 5\nf 2 6 5\nf 3 7 4\nf 4 7 8\nf 1 5 3\nf 3 5 7\n\
f 2 4 6\nf 4 8 6\n";

fn pose(t: [f64; 3], r: [f64; 3]) -> Value {
    json!({"translation": t, "rotation": r})
}

/// Writes `value` as JSON to `dir/name` and returns the path as a string.
fn write(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

/// The objects of the test scene: name, mesh path (as written, relative to the scene file or
/// absolute), pose.
fn objects(dir: &Path) -> Vec<(String, String, [f64; 3], [f64; 3])> {
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    std::fs::write(dir.join("meshes/cube.obj"), CUBE).unwrap();
    let teapot = asset("teapot.obj").to_str().unwrap().to_string();
    let cube = "meshes/cube.obj".to_string();
    vec![
        // Listed out of name order: the report sorts by names.
        ("d".into(), cube.clone(), [0.5, 0.2, 0.1], [0.3, 0.2, 0.1]),
        ("a".into(), cube.clone(), [0.0, 0.0, 0.0], [0.0; 3]),
        ("c".into(), cube.clone(), [1.0, 0.0, 0.0], [0.0; 3]), // touches a exactly
        ("b".into(), cube.clone(), [5.0, 0.0, 0.0], [0.0; 3]),
        ("e".into(), teapot.clone(), [30.0, 0.0, 0.0], [0.0; 3]),
        ("f".into(), teapot, [31.0, 0.5, 0.0], [0.0, 0.0, 0.4]),
        ("g".into(), cube, [30.0, 0.0, 0.0], [0.0; 3]),
    ]
}

/// Every touching pair `(a, b, pairs)`, `a < b`, by the exact query on every pair of objects
/// placed as `poses` say.
fn oracle(dir: &Path, poses: &BTreeMap<String, (String, Pose)>) -> Vec<(String, String, usize)> {
    let models = models(dir, poses);
    let all: Vec<_> = poses.iter().collect();
    let mut out = Vec::new();
    for (i, (a, (ma, pa))) in all.iter().enumerate() {
        for (b, (mb, pb)) in &all[i + 1..] {
            let r = collide(
                &models[ma],
                pa,
                &models[mb],
                pb,
                &CollisionRequest::default(),
            )
            .unwrap();
            if r.intersects {
                out.push((a.to_string(), b.to_string(), r.pairs.len()));
            }
        }
    }
    out
}

/// One model per mesh file named in `poses`.
fn models(dir: &Path, poses: &BTreeMap<String, (String, Pose)>) -> BTreeMap<String, Model> {
    let mut models: BTreeMap<String, Model> = BTreeMap::new();
    for (_, (mesh, _)) in poses.iter() {
        models
            .entry(mesh.clone())
            .or_insert_with(|| Model::new(load_mesh(&dir.join(mesh)).unwrap()).unwrap());
    }
    models
}

/// Every pair `(a, b, distance)`, `a < b`, that the exact margin query finds within `margin`,
/// with the distance query's distance, skipping the pairs `allowed` refuses.
fn within_oracle(
    dir: &Path,
    poses: &BTreeMap<String, (String, Pose)>,
    margin: f64,
    allowed: impl Fn(&str, &str) -> bool,
) -> Vec<(String, String, f64)> {
    let models = models(dir, poses);
    let all: Vec<_> = poses.iter().collect();
    let mut out = Vec::new();
    for (i, (a, (ma, pa))) in all.iter().enumerate() {
        for (b, (mb, pb)) in &all[i + 1..] {
            if !allowed(a, b) {
                continue;
            }
            let (ma, mb) = (&models[ma], &models[mb]);
            if within_margin(ma, pa, mb, pb, margin).unwrap().is_some() {
                let d = distance(ma, pa, mb, pb, &DistanceRequest::default()).unwrap();
                out.push((a.to_string(), b.to_string(), d.distance));
            }
        }
    }
    out
}

fn contacts(v: &Value) -> Vec<(String, String, usize)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["a"].as_str().unwrap().to_string(),
                c["b"].as_str().unwrap().to_string(),
                c["pairs"].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

#[test]
fn json_contract_with_frames_matches_every_pair() {
    let dir = tempfile::tempdir().unwrap();
    let objects = objects(dir.path());
    let scene = json!({
        "objects": objects.iter().map(|(n, m, t, r)| json!({"name": n, "mesh": m, "pose": pose(*t, *r)})).collect::<Vec<_>>(),
        "allow": [["g", "e"]],
    });
    let scene_path = write(dir.path(), "scene.json", &scene);
    let frames = json!({"frames": [
        {"b": pose([0.5, 0.5, 0.5], [0.1, 0.0, 0.0])},
        {"c": pose([9.0, 0.0, 0.0], [0.0; 3]), "f": pose([40.0, 0.0, 0.0], [0.0; 3])},
        {},
        {"b": pose([5.0, 0.0, 0.0], [0.0; 3]), "c": pose([1.0, 0.0, 0.0], [0.0; 3])},
    ]});
    let frames_path = write(dir.path(), "frames.json", &frames);
    let out_path = dir.path().join("out.json");
    let report = json_of(&obbtree(&[
        "scene",
        &scene_path,
        "--frames",
        &frames_path,
        "--json",
        "--out",
        out_path.to_str().unwrap(),
    ]));
    assert_eq!(report["objects"], 7);
    assert!(report["build_ms"].as_f64().unwrap() >= 0.0);
    assert!(report["query_total_ms"].as_f64().unwrap() >= 0.0);
    let written: Value = serde_json::from_slice(&std::fs::read(&out_path).unwrap()).unwrap();
    assert_eq!(written["contacts"], report["contacts"]);
    assert_eq!(written["frames"], report["frames"]);

    let mut poses: BTreeMap<String, (String, Pose)> = objects
        .iter()
        .map(|(n, m, t, r)| (n.clone(), (m.clone(), Pose::new(*t, *r).unwrap())))
        .collect();
    let allowed = |c: &(String, String, usize)| !(c.0 == "e" && c.1 == "g");
    let expected: Vec<_> = oracle(dir.path(), &poses)
        .into_iter()
        .filter(allowed)
        .collect();
    // a–c touch at a face, a–d and c–d overlap, e–f overlap; e–g is allowed.
    assert!(expected
        .iter()
        .any(|c| (c.0.as_str(), c.1.as_str()) == ("a", "c")));
    assert!(expected
        .iter()
        .any(|c| (c.0.as_str(), c.1.as_str()) == ("e", "f")));
    assert_eq!(contacts(&report["contacts"]), expected);
    let frames_out = report["frames"].as_array().unwrap();
    assert_eq!(frames_out.len(), 4);
    for (k, frame) in frames["frames"].as_array().unwrap().iter().enumerate() {
        for (name, p) in frame.as_object().unwrap() {
            let t: [f64; 3] = serde_json::from_value(p["translation"].clone()).unwrap();
            let r: [f64; 3] = serde_json::from_value(p["rotation"].clone()).unwrap();
            poses.get_mut(name).unwrap().1 = Pose::new(t, r).unwrap();
        }
        let expected: Vec<_> = oracle(dir.path(), &poses)
            .into_iter()
            .filter(allowed)
            .collect();
        assert_eq!(contacts(&frames_out[k]["contacts"]), expected, "frame {k}");
    }
    // Without --frames there is no "frames" key.
    let alone = json_of(&obbtree(&["scene", &scene_path, "--json"]));
    assert!(alone.get("frames").is_none());
    assert_eq!(alone["contacts"], report["contacts"]);
}

#[test]
fn margin_lists_the_pairs_within_it() {
    let dir = tempfile::tempdir().unwrap();
    let objects = objects(dir.path());
    let scene = json!({
        "objects": objects.iter().map(|(n, m, t, r)| json!({"name": n, "mesh": m, "pose": pose(*t, *r)})).collect::<Vec<_>>(),
        "allow": [["g", "e"]],
    });
    let scene_path = write(dir.path(), "scene.json", &scene);
    let poses: BTreeMap<String, (String, Pose)> = objects
        .iter()
        .map(|(n, m, t, r)| (n.clone(), (m.clone(), Pose::new(*t, *r).unwrap())))
        .collect();
    // b–c are exactly 3 apart (faces at x = 2 and x = 5): within a margin of 3, not of 2.999.
    for margin in ["0", "2.999", "3"] {
        let report = json_of(&obbtree(&[
            "scene",
            &scene_path,
            "--margin",
            margin,
            "--json",
        ]));
        let got: Vec<(String, String, f64)> = report["within"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                (
                    w["a"].as_str().unwrap().to_string(),
                    w["b"].as_str().unwrap().to_string(),
                    w["distance"].as_f64().unwrap(),
                )
            })
            .collect();
        let expected = within_oracle(dir.path(), &poses, margin.parse().unwrap(), |a, b| {
            (a, b) != ("e", "g")
        });
        assert_eq!(got, expected, "margin {margin}");
        let b_c = expected
            .iter()
            .any(|w| (w.0.as_str(), w.1.as_str()) == ("b", "c"));
        assert_eq!(b_c, margin == "3", "margin {margin}: {expected:?}");
        assert!(
            expected.iter().any(|w| w.2 == 0.0),
            "touching pairs are within every margin"
        );
    }
    let text = String::from_utf8(obbtree(&["scene", &scene_path, "--margin", "3"]).stdout).unwrap();
    assert!(text.contains("within 3: "), "{text}");
    assert!(text.contains("  b — c: 3\n"), "{text}");
    // Without --margin there is no "within" key.
    let alone = json_of(&obbtree(&["scene", &scene_path, "--json"]));
    assert!(alone.get("within").is_none());
    for bad in ["-1", "NaN", "inf"] {
        let err = error_of(&obbtree(&["scene", &scene_path, "--margin", bad]));
        assert!(
            err.contains("--margin: the margin must be a non-negative finite number"),
            "{err}"
        );
    }
}

#[test]
fn summary_names_the_touching_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let objects = objects(dir.path());
    let scene = json!({
        "objects": objects.iter().map(|(n, m, t, r)| json!({"name": n, "mesh": m, "pose": pose(*t, *r)})).collect::<Vec<_>>(),
    });
    let scene_path = write(dir.path(), "scene.json", &scene);
    let out = obbtree(&["scene", &scene_path]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("7 objects sharing 2 meshes"), "{text}");
    assert!(text.contains("  a — c: "), "{text}");
    assert!(text.contains("query: "), "{text}");
}

#[test]
fn bad_input_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("meshes")).unwrap();
    std::fs::write(dir.path().join("meshes/cube.obj"), CUBE).unwrap();
    let object = |name: &str, mesh: &str| json!({"name": name, "mesh": mesh, "pose": pose([0.0; 3], [0.0; 3])});
    let good = json!({"objects": [object("a", "meshes/cube.obj"), object("b", "meshes/cube.obj")]});
    let good_path = write(dir.path(), "good.json", &good);
    let cases: Vec<(Vec<String>, Vec<&str>)> = vec![
        (
            vec![write(dir.path(), "missing.json", &json!({"objects": [object("a", "meshes/cube.obj"), object("ghost", "meshes/none.obj")]}))],
            vec!["missing.json: objects[1] (\"ghost\"): ", "none.obj"],
        ),
        (
            vec![write(dir.path(), "twice.json", &json!({"objects": [object("a", "meshes/cube.obj"), object("a", "meshes/cube.obj")]}))],
            vec!["twice.json: objects[1]: an object named \"a\" is already in the scene"],
        ),
        (
            vec![write(dir.path(), "allow.json", &json!({"objects": [object("a", "meshes/cube.obj")], "allow": [["a", "ghost"]]}))],
            vec!["allow.json: allow[0]: no object named \"ghost\" in the scene"],
        ),
        (
            vec![write(dir.path(), "bare.json", &json!([object("a", "meshes/cube.obj")]))],
            vec!["bare.json: the file must hold an object {\"objects\": [...]}"],
        ),
        (
            vec![write(dir.path(), "nokey.json", &json!({"things": []}))],
            vec!["nokey.json: the top-level object has no \"objects\" list"],
        ),
        (
            vec![good_path.clone(), "--frames".into(), write(dir.path(), "frames_ghost.json", &json!({"frames": [{}, {"ghost": pose([0.0; 3], [0.0; 3])}]}))],
            vec!["frames_ghost.json: frame 1: no object named \"ghost\" in the scene"],
        ),
        (
            vec![good_path.clone(), "--frames".into(), write(dir.path(), "frames_big.json", &json!({"frames": [{"a": pose([1e200, 0.0, 0.0], [0.0; 3])}]}))],
            vec!["frames_big.json: frame 0: \"a\": translation[0] is 1e200, beyond the supported magnitude"],
        ),
        (
            vec![good_path.clone(), "--frames".into(), write(dir.path(), "frames_far.json", &json!({"frames": [{}, {"b": pose([1e100, 0.0, 0.0], [0.0; 3])}]}))],
            vec!["frames_far.json: frame 1: object \"b\" at its pose: "],
        ),
        (
            vec![good_path.clone(), "--frames".into(), dir.path().join("none.json").to_str().unwrap().to_string()],
            vec!["cannot read ", "none.json"],
        ),
    ];
    for (args, needles) in cases {
        let mut all = vec!["scene".to_string()];
        all.extend(args);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let err = error_of(&obbtree(&all));
        for needle in needles {
            assert!(err.contains(needle), "{all:?}: {err}");
        }
    }
    // JSON has no NaN: the file says "NaN" where a number should be.
    let nan = dir.path().join("nan.json");
    std::fs::write(
        &nan,
        r#"{"objects":[{"name":"a","mesh":"meshes/cube.obj","pose":{"translation":[NaN,0,0],"rotation":[0,0,0]}}]}"#,
    )
    .unwrap();
    let err = error_of(&obbtree(&["scene", nan.to_str().unwrap()]));
    assert!(
        err.contains("nan.json: ") && err.contains("\"NaN\" is not a JSON number"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// `obbtree robot`.

fn kuka() -> String {
    asset("kuka_iiwa/model.urdf").to_str().unwrap().to_string()
}

/// The KUKA's self-collision and contacts with a post at each configuration, against the exact
/// query on every pair of links not joined by a joint (poses from the URDF's forward
/// kinematics) and every link–post pair; with `--margin`, each configuration's clearance
/// against the least exact distance over the same pairs.
#[test]
fn robot_configs_match_every_pair() {
    use obbtree::urdf::Robot;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("meshes")).unwrap();
    std::fs::write(dir.path().join("meshes/cube.obj"), CUBE).unwrap();
    // A unit cube standing at x = 0.45..1.45 beside the arm's base.
    let post = pose([0.45, -0.5, 0.0], [0.0; 3]);
    let scene = write(
        dir.path(),
        "scene.json",
        &json!({"objects": [{"name": "post", "mesh": "meshes/cube.obj", "pose": post}]}),
    );
    let configs = vec![
        vec![0.0; 7],
        vec![-1.69, 1.91, 0.1, -1.9, 1.64, 0.21, 0.21],
        vec![0.0, 1.2, 0.0, -1.0, 0.0, 1.0, 0.0],
        vec![0.0, -1.2, 0.0, 1.0, 0.0, 1.0, 0.0],
        vec![-0.19, -1.74, -0.11, 2.07, -1.25, -0.18, -2.26],
    ];
    let configs_path = write(dir.path(), "configs.json", &json!({ "configs": configs }));
    let allow = write(
        dir.path(),
        "allow.json",
        &json!({"allow": [["lbr_iiwa_link_0", "lbr_iiwa_link_6"]]}),
    );
    let report = json_of(&obbtree(&[
        "robot",
        &kuka(),
        "--geometry",
        "visual",
        "--configs",
        &configs_path,
        "--scene",
        &scene,
        "--allow",
        &allow,
        "--json",
    ]));
    let with_margin = json_of(&obbtree(&[
        "robot",
        &kuka(),
        "--geometry",
        "visual",
        "--configs",
        &configs_path,
        "--scene",
        &scene,
        "--allow",
        &allow,
        "--margin",
        "0.05",
        "--json",
    ]));
    assert!(report["results"][0].get("clearance").is_none());
    assert_eq!(report["joints"].as_array().unwrap().len(), 7);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), configs.len());

    let robot = Robot::from_file(kuka()).unwrap();
    let visuals: Vec<(usize, Pose, Model)> = robot
        .links
        .iter()
        .enumerate()
        .flat_map(|(l, link)| {
            link.meshes
                .iter()
                .map(move |v| (l, v.origin, Model::new(v.mesh.clone()).unwrap()))
        })
        .collect();
    let cube = Model::new(load_mesh(&dir.path().join("meshes/cube.obj")).unwrap()).unwrap();
    let post_pose = Pose::new([0.45, -0.5, 0.0], [0.0; 3]).unwrap();
    let joined = |a: usize, b: usize| {
        robot
            .joints
            .iter()
            .any(|j| (j.parent, j.child) == (a, b) || (j.parent, j.child) == (b, a))
    };
    let name = |l: usize| robot.links[l].name.clone();
    let measured = |ma: &Model, pa: &Pose, mb: &Model, pb: &Pose| {
        distance(ma, pa, mb, pb, &DistanceRequest::default())
            .unwrap()
            .distance
    };
    let (mut selfish, mut touching, mut apart) = (0, 0, 0);
    for (k, (q, result)) in configs.iter().zip(results).enumerate() {
        let links = robot.link_poses(q).unwrap();
        let mut expected_self = Vec::new();
        let mut expected_env = Vec::new();
        let mut clearance = f64::INFINITY;
        for (i, (la, oa, ma)) in visuals.iter().enumerate() {
            let pa = links[*la] * *oa;
            for (lb, ob, mb) in &visuals[i + 1..] {
                let allowed = [name(*la), name(*lb)] == ["lbr_iiwa_link_0", "lbr_iiwa_link_6"];
                if joined(*la, *lb) || allowed {
                    continue;
                }
                let pb = links[*lb] * *ob;
                clearance = clearance.min(measured(ma, &pa, mb, &pb));
                let r = collide(ma, &pa, mb, &pb, &CollisionRequest::default());
                if r.unwrap().intersects {
                    expected_self.push(json!([name(*la), name(*lb)]));
                }
            }
            clearance = clearance.min(measured(ma, &pa, &cube, &post_pose));
            if collide(ma, &pa, &cube, &post_pose, &CollisionRequest::default())
                .unwrap()
                .intersects
            {
                expected_env.push(json!([name(*la), "post"]));
            }
        }
        selfish += expected_self.len();
        touching += expected_env.len();
        assert_eq!(result["self"], Value::from(expected_self), "{q:?}");
        assert_eq!(result["environment"], Value::from(expected_env), "{q:?}");
        // The scene measures each pair with its objects in name order, the oracle in link
        // order: the two may differ by rounding.
        let got = with_margin["results"][k]["clearance"].as_f64().unwrap();
        assert!(
            (got - clearance).abs() <= 1e-12 * (1.0 + clearance),
            "{q:?}: {got} {clearance}"
        );
        assert_eq!(with_margin["results"][k]["self"], result["self"]);
        apart += usize::from(clearance > 0.0);
    }
    assert!(
        selfish > 0 && touching > 0 && apart > 0,
        "{selfish} {touching} {apart}"
    );
}

/// `obbtree robot` on the bundled KUKA with `args`, its JSON report.
fn robot_report(args: &[&str]) -> Value {
    let urdf = kuka();
    json_of(&obbtree(
        &[
            &["robot", urdf.as_str(), "--geometry", "visual"],
            args,
            &["--json"],
        ]
        .concat(),
    ))
}

/// `--path`: the first colliding configuration after interpolation is the first one that
/// `--configs` reports in collision when given the interpolated list written out here.
#[test]
fn robot_path_reports_the_first_colliding_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let ends: Vec<Vec<f64>> = vec![vec![0.0; 7], vec![-1.69, 1.91, 0.1, -1.9, 1.64, 0.21, 0.21]];
    let path = write(dir.path(), "path.json", &json!({ "configs": ends }));
    let resolution = 0.05;
    let path_report = |extra: &[&str]| {
        let head = ["--configs", &path, "--path", "--resolution", "0.05"];
        robot_report(&[&head[..], extra].concat())
    };
    let report = path_report(&[]);
    let largest = ends[0]
        .iter()
        .zip(&ends[1])
        .map(|(a, b)| (b - a).abs())
        .fold(0.0, f64::max);
    let n = (largest / resolution).ceil() as usize;
    let mut every = vec![ends[0].clone()];
    for k in 1..n {
        let s = k as f64 / n as f64;
        every.push(
            ends[0]
                .iter()
                .zip(&ends[1])
                .map(|(a, b)| a + (b - a) * s)
                .collect(),
        );
    }
    every.push(ends[1].clone());
    let list = write(dir.path(), "every.json", &json!({ "configs": every }));
    let each = robot_report(&["--configs", &list]);
    let first = each["results"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["self"] != json!([]) || r["environment"] != json!([]))
        .expect("the folded end collides");
    assert_eq!(report["first_collision"], first);
    assert_eq!(report["checked"], first + 1);
    assert_eq!(report["configuration"], json!(every[first]));
    assert_eq!(report["self"], each["results"][first]["self"]);
    assert!(report.get("clearance").is_none(), "only with --margin");

    // --path --margin: the first configuration within the margin and the smallest clearance,
    // against each configuration's clearance up to the first collision.
    let margin = 0.05;
    let clearances: Vec<f64> = robot_report(&["--configs", &list, "--margin", "0.05"])["results"]
        .as_array()
        .unwrap()[..=first]
        .iter()
        .map(|r| r["clearance"].as_f64().unwrap())
        .collect();
    let report = path_report(&["--margin", "0.05"]);
    assert_eq!(report["first_collision"], first);
    let within = clearances.iter().position(|&d| d <= margin).unwrap();
    assert!(
        within < first,
        "the arm comes close before it touches: {clearances:?}"
    );
    assert_eq!(report["first_within_margin"], within);
    let clearance = &report["clearance"];
    assert_eq!(
        clearance["distance"], 0.0,
        "a colliding path has clearance 0"
    );
    assert_eq!(
        clearance["index"],
        clearances.iter().position(|&d| d == 0.0).unwrap()
    );
    assert_eq!(clearance["configuration"], json!(every[first]));
    assert_eq!(clearance["pair"].as_array().unwrap().len(), 2);
    // A clear path: null, every configuration checked.
    let clear = write(
        dir.path(),
        "clear.json",
        &json!({"configs": [vec![0.0; 7], vec![0.3, 0.3, 0.0, 0.0, 0.0, 0.0, 0.0]]}),
    );
    let report = robot_report(&["--configs", &clear, "--path", "--resolution", "0.1"]);
    assert_eq!(report["first_collision"], Value::Null);
    assert_eq!(report["checked"], 1 + 3);
    // A clear path with a margin: the smallest clearance of the four configurations.
    let clear_list = write(
        dir.path(),
        "clear_list.json",
        &json!({"configs": [vec![0.0; 7], vec![0.1, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0],
            vec![0.2, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0], vec![0.3, 0.3, 0.0, 0.0, 0.0, 0.0, 0.0]]}),
    );
    let each = robot_report(&["--configs", &clear_list, "--margin", "10"]);
    let clearances: Vec<f64> = each["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["clearance"].as_f64().unwrap())
        .collect();
    let smallest = clearances.iter().copied().fold(f64::INFINITY, f64::min);
    for (margin, first) in [("10", json!(0)), ("0", Value::Null)] {
        let args = [
            "--configs",
            &clear,
            "--path",
            "--resolution",
            "0.1",
            "--margin",
            margin,
        ];
        let report = robot_report(&args);
        assert_eq!(report["first_within_margin"], first, "margin {margin}");
        if margin == "0" {
            assert_eq!(report["clearance"], Value::Null);
            continue;
        }
        let got = report["clearance"]["distance"].as_f64().unwrap();
        assert!(
            (got - smallest).abs() <= 1e-12 * (1.0 + smallest),
            "{got} {clearances:?}"
        );
        let index = report["clearance"]["index"].as_u64().unwrap() as usize;
        assert!((clearances[index] - smallest).abs() <= 1e-12 * (1.0 + smallest));
    }
}

#[test]
fn robot_lists_joints_and_refuses_bad_input() {
    let listed = json_of(&obbtree(&[
        "robot",
        &kuka(),
        "--geometry",
        "visual",
        "--json",
    ]));
    assert_eq!(listed["joints"][0]["name"], "lbr_iiwa_joint_1");
    assert_eq!(listed["joints"][6]["type"], "revolute");
    let text =
        String::from_utf8(obbtree(&["robot", &kuka(), "--geometry", "visual"]).stdout).unwrap();
    assert!(
        text.contains("7 moving joints") && text.contains("q7  lbr_iiwa_joint_7"),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("meshes")).unwrap();
    std::fs::write(dir.path().join("meshes/cube.obj"), CUBE).unwrap();
    let good = write(dir.path(), "good.json", &json!({"configs": [vec![0.0; 7]]}));
    let short = write(
        dir.path(),
        "short.json",
        &json!({"configs": [vec![0.0; 7], vec![0.0; 6]]}),
    );
    let nan = dir.path().join("nan.json");
    std::fs::write(&nan, r#"{"configs":[[0,0,0,NaN,0,0,0]]}"#).unwrap();
    let ghost = write(
        dir.path(),
        "ghost.json",
        &json!({"allow": [["lbr_iiwa_link_1", "ghost"]]}),
    );
    let clash = write(
        dir.path(),
        "clash.json",
        &json!({"objects": [{"name": "lbr_iiwa_link_3", "mesh": "meshes/cube.obj"}]}),
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--configs", &short], "short.json: configs[1]: "),
        (
            vec!["--configs", &short, "--path", "--resolution", "0.1"],
            "short.json: configuration 1: ",
        ),
        (
            vec!["--configs", nan.to_str().unwrap()],
            "\"NaN\" is not a JSON number",
        ),
        (
            vec!["--configs", &good, "--allow", &ghost],
            "ghost.json: allow[0]: no link or fixture named \"ghost\"",
        ),
        (
            vec!["--configs", &good, "--scene", &clash],
            "clash.json: objects[0]: an object named \"lbr_iiwa_link_3\" is already in the scene",
        ),
        (
            vec!["--configs", &good, "--path", "--resolution", "-1"],
            "the resolution must be a positive finite number",
        ),
    ];
    let urdf = kuka();
    for (args, needle) in cases {
        let mut all = vec!["robot", urdf.as_str(), "--geometry", "visual"];
        all.extend(args);
        let err = error_of(&obbtree(&all));
        assert!(
            err.contains("expected 7 finite joint values") || !needle.contains("configs[1]"),
            "{err}"
        );
        assert!(err.contains(needle), "{all:?}: {err}");
    }
    let err = error_of(&obbtree(&["robot", "no/such.urdf"]));
    assert!(err.contains("no/such.urdf: cannot read the file"), "{err}");
}

/// The demo's scene row: obbtree's scene and parry's broad phase with its mesh pairs find the
/// same touching pairs in every frame.
#[test]
fn demo_scene_row_agrees_with_parry() {
    let dir = tempfile::tempdir().unwrap();
    let out = obbtree(&["demo", "--quick", "--out", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.starts_with("scene, 200 objects x 10 frames"))
        .unwrap_or_else(|| panic!("no scene row:\n{text}"));
    assert!(
        row.trim_end().ends_with(" 0 frame") && !row.contains(" 0 hit"),
        "{row}"
    );
}

/// The README's tour runs on the bundled cell: the post reaches the duck in the last frame
/// only (listed per frame in the summary), and the arm's path meets the duck.
#[test]
fn bundled_cell_of_the_tour() {
    let scene = asset("scenes/cell.json");
    let frames = asset("scenes/cell_frames.json");
    let (scene, frames) = (scene.to_str().unwrap(), frames.to_str().unwrap());
    let v = json_of(&obbtree(&["scene", scene, "--frames", frames, "--json"]));
    assert_eq!(v["contacts"], json!([]));
    let touching: Vec<usize> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["contacts"].as_array().unwrap().len())
        .collect();
    assert_eq!(touching, [0, 0, 0, 1]);
    assert_eq!(v["frames"][3]["contacts"][0]["a"], "duck");
    assert_eq!(v["frames"][3]["contacts"][0]["b"], "post");
    let text = String::from_utf8(obbtree(&["scene", scene, "--frames", frames]).stdout).unwrap();
    assert!(text.contains("  frame 0: nothing touches"), "{text}");
    assert!(text.contains("  frame 3: duck — post ("), "{text}");

    let configs = asset("scenes/kuka_configs.json");
    let path = json_of(&obbtree(&[
        "robot",
        &kuka(),
        "--geometry",
        "visual",
        "--configs",
        configs.to_str().unwrap(),
        "--scene",
        scene,
        "--path",
        "--resolution",
        "0.02",
        "--json",
    ]));
    assert!(path["first_collision"].as_u64().unwrap() > 0, "{path}");
}

/// The closest pair `(a, b, distance)`, `a < b`, among every pair `allowed` admits, by the
/// distance query run on each (the first by names among equal distances); `None` when no pair
/// is admitted.
fn closest_oracle(
    dir: &Path,
    poses: &BTreeMap<String, (String, Pose)>,
    allowed: impl Fn(&str, &str) -> bool,
) -> Option<(String, String, f64)> {
    let models = models(dir, poses);
    let all: Vec<_> = poses.iter().collect();
    let mut best: Option<(String, String, f64)> = None;
    for (i, (a, (ma, pa))) in all.iter().enumerate() {
        for (b, (mb, pb)) in &all[i + 1..] {
            if !allowed(a, b) {
                continue;
            }
            let d = distance(
                &models[ma],
                pa,
                &models[mb],
                pb,
                &DistanceRequest::default(),
            )
            .unwrap()
            .distance;
            if best.as_ref().is_none_or(|(.., least)| d < *least) {
                best = Some((a.to_string(), b.to_string(), d));
            }
        }
    }
    best
}

/// A report's `"closest"` entry as `(a, b, distance)`; `None` for `null`.
fn closest_of(v: &Value) -> Option<(String, String, f64)> {
    if v.is_null() {
        return None;
    }
    Some((
        v["a"].as_str().unwrap().to_string(),
        v["b"].as_str().unwrap().to_string(),
        v["distance"].as_f64().unwrap(),
    ))
}

fn assert_same_closest(
    got: Option<(String, String, f64)>,
    expected: Option<(String, String, f64)>,
    what: &str,
) {
    match (got, expected) {
        (Some((ga, gb, gd)), Some((ea, eb, ed))) => {
            assert_eq!((ga, gb), (ea, eb), "{what}");
            assert!(
                (gd - ed).abs() <= 1e-12 * ed.max(1.0),
                "{what}: {gd} against {ed}"
            );
        }
        (got, expected) => assert_eq!(got, expected, "{what}"),
    }
}

#[test]
fn min_distance_names_the_closest_pair_of_every_frame() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("meshes")).unwrap();
    std::fs::write(dir.path().join("meshes/cube.obj"), CUBE).unwrap();
    let teapot = asset("teapot.obj").to_str().unwrap().to_string();
    let cube = "meshes/cube.obj".to_string();
    let objects: Vec<(String, String, [f64; 3], [f64; 3])> = vec![
        ("a".into(), cube.clone(), [0.0; 3], [0.0; 3]),
        ("b".into(), cube.clone(), [3.0, 0.0, 0.0], [0.0; 3]),
        ("c".into(), cube.clone(), [0.0, 5.0, 0.0], [0.3, 0.2, 0.1]),
        ("d".into(), teapot, [60.0, 0.0, 0.0], [0.0, 0.0, 0.4]),
        ("e".into(), cube.clone(), [30.0, 0.0, 10.0], [0.0; 3]),
        // 0.4 from a, but allowed; 0.6 from b: the closest pair at the scene's poses.
        ("f".into(), cube, [1.4, 0.0, 0.0], [0.0; 3]),
    ];
    let scene = json!({
        "objects": objects.iter().map(|(n, m, t, r)| json!({"name": n, "mesh": m, "pose": pose(*t, *r)})).collect::<Vec<_>>(),
        "allow": [["f", "a"]],
    });
    let scene_path = write(dir.path(), "scene.json", &scene);
    let frames = json!({"frames": [
        {"c": pose([0.2, 1.3, 0.1], [0.3, 0.2, 0.1])},
        {"c": pose([0.0, 9.0, 0.0], [0.0; 3]), "e": pose([42.0, 0.5, 0.0], [0.2, 0.0, 0.3])},
        {},
        // b touches f at the face x = 2.4.
        {"b": pose([2.4, 0.3, 0.2], [0.0; 3])},
        {"b": pose([8.0, 0.0, 0.0], [0.0; 3]), "f": pose([0.0, 0.0, -1.7], [0.1, 0.0, 0.0])},
    ]});
    let frames_path = write(dir.path(), "frames.json", &frames);
    let report = json_of(&obbtree(&[
        "scene",
        &scene_path,
        "--frames",
        &frames_path,
        "--min-distance",
        "--json",
    ]));
    assert!(report["closest_total_ms"].as_f64().unwrap() >= 0.0);
    let mut poses: BTreeMap<String, (String, Pose)> = objects
        .iter()
        .map(|(n, m, t, r)| (n.clone(), (m.clone(), Pose::new(*t, *r).unwrap())))
        .collect();
    let admitted = |a: &str, b: &str| (a, b) != ("a", "f");
    let expected = closest_oracle(dir.path(), &poses, admitted);
    assert_eq!(
        expected.as_ref().map(|c| (c.0.as_str(), c.1.as_str())),
        Some(("b", "f"))
    );
    assert_same_closest(closest_of(&report["closest"]), expected, "scene's poses");
    let mut answers = Vec::new();
    for (k, frame) in frames["frames"].as_array().unwrap().iter().enumerate() {
        for (name, p) in frame.as_object().unwrap() {
            let t: [f64; 3] = serde_json::from_value(p["translation"].clone()).unwrap();
            let r: [f64; 3] = serde_json::from_value(p["rotation"].clone()).unwrap();
            poses.get_mut(name).unwrap().1 = Pose::new(t, r).unwrap();
        }
        let expected = closest_oracle(dir.path(), &poses, admitted);
        let got = closest_of(&report["frames"][k]["closest"]);
        assert_same_closest(got, expected.clone(), &format!("frame {k}"));
        answers.push(expected.unwrap());
    }
    // The frames change the closest pair, and one of them touches.
    assert!(answers
        .windows(2)
        .any(|w| (&w[0].0, &w[0].1) != (&w[1].0, &w[1].1)));
    assert!(answers.iter().any(|c| c.2 == 0.0), "{answers:?}");
    // The contacts are those of a run without --min-distance, which has no "closest" key.
    let plain = json_of(&obbtree(&[
        "scene",
        &scene_path,
        "--frames",
        &frames_path,
        "--json",
    ]));
    assert_eq!(plain["contacts"], report["contacts"]);
    for k in 0..5 {
        assert_eq!(
            plain["frames"][k]["contacts"],
            report["frames"][k]["contacts"]
        );
        assert!(plain["frames"][k].get("closest").is_none());
    }
    assert!(plain.get("closest").is_none() && plain.get("closest_total_ms").is_none());
    // A scene with a single object has no pair: "closest" is null.
    let lone = json!({"objects": [{"name": "a", "mesh": "meshes/cube.obj"}]});
    let lone_path = write(dir.path(), "lone.json", &lone);
    let report = json_of(&obbtree(&["scene", &lone_path, "--min-distance", "--json"]));
    assert!(report["closest"].is_null(), "{report}");
    let text =
        String::from_utf8(obbtree(&["scene", &scene_path, "--min-distance"]).stdout).unwrap();
    assert!(text.contains("closest pair: b — f, "), "{text}");
}

/// `--path --continuous` on the tour's arm path: the `--path` report with the first contact's
/// bracket in its segment, every key of `--path` kept; the collision sampling at 0.01 rad finds
/// lies at or after the bracket; free paths give a null bracket; bad uses are refused.
#[test]
fn robot_path_continuous_brackets_the_first_contact() {
    let scene = asset("scenes/cell.json");
    let configs = asset("scenes/kuka_configs.json");
    let kuka = kuka();
    let head = [
        "robot",
        &kuka,
        "--geometry",
        "visual",
        "--configs",
        configs.to_str().unwrap(),
        "--scene",
        scene.to_str().unwrap(),
        "--path",
    ];
    let run = |tail: &[&str]| obbtree(&[&head[..], tail].concat());
    let continuous = json_of(&run(&["--continuous", "--json"]));
    let sampled = json_of(&run(&["--resolution", "0.01", "--json"]));
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let mut want = keys(&sampled);
    want.push("first_collision_t".into());
    want.sort();
    let mut got = keys(&continuous);
    got.sort();
    assert_eq!(got, want);
    assert_eq!(continuous["first_collision"], 0, "{continuous}");
    assert_eq!(continuous["checked"], 1);
    assert_eq!(continuous["environment"], sampled["environment"]);
    let t = &continuous["first_collision_t"];
    let (lo, hi) = (t[0].as_f64().unwrap(), t[1].as_f64().unwrap());
    assert!(0.0 < lo && lo <= hi && hi - lo < 1e-4, "{t}");
    // Segment 0 turns joint 4 by 1.0 rad, sampled in 100 steps: index k is s = k / 100.
    let index = sampled["first_collision"].as_u64().unwrap();
    assert!(index as f64 / 100.0 >= lo, "{sampled}");
    let q = continuous["configuration"].as_array().unwrap();
    assert!((q[3].as_f64().unwrap() + hi).abs() < 1e-12, "{continuous}");
    let text = String::from_utf8(run(&["--continuous", "--tolerance", "1e-5"]).stdout).unwrap();
    assert!(
        text.starts_with(
            "first collision in the segment from configuration 0 of the path, between s = "
        ),
        "{text}"
    );
    assert!(text.contains("(continuous, tolerance 0.00001)"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let clear = write(
        dir.path(),
        "clear.json",
        &json!({"configs": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.1, 0.0, -0.1, 0.0, 0.1, 0.0]]}),
    );
    let free = json_of(&obbtree(&[
        "robot",
        &kuka,
        "--geometry",
        "visual",
        "--configs",
        &clear,
        "--path",
        "--continuous",
        "--json",
    ]));
    assert_eq!(free["first_collision"], Value::Null);
    assert_eq!(free["first_collision_t"], Value::Null);
    assert_eq!(free["checked"], 2);

    for (tail, message) in [
        (
            vec!["--continuous", "--tolerance", "0"],
            "--tolerance 0: the tolerance must be a positive finite number",
        ),
        (
            vec!["--continuous", "--tolerance", "-1"],
            "--tolerance -1: the tolerance must be a positive finite number",
        ),
        (vec![], "--path needs --resolution R, or --continuous"),
        (
            vec!["--continuous", "--resolution", "0.1"],
            "cannot be used with",
        ),
        (
            vec!["--continuous", "--margin", "0.1"],
            "cannot be used with",
        ),
    ] {
        let error = error_of(&run(&tail));
        assert!(error.contains(message), "{tail:?}: {error}");
    }
    let without_path = obbtree(&[
        "robot",
        &kuka,
        "--geometry",
        "visual",
        "--configs",
        &clear,
        "--continuous",
    ]);
    assert!(
        error_of(&without_path).contains("--path"),
        "{without_path:?}"
    );
}
