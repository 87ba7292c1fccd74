//! `obbtree scene`: the JSON contract (`objects`, `build_ms`, `query_total_ms`, `contacts`,
//! `frames`) against the exact two-mesh query run on every pair, `--out`, the summary, and
//! every bad input's one-line error.

use obbtree::load::load_mesh;
use obbtree::{collide, CollisionRequest, Model, Pose};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

// The shared test helpers (`tests/common`) are not used: their `sweep` module does not build
// against the facade as it is (`obbtree::query` does not exist).

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
    let mut models: BTreeMap<String, Model> = BTreeMap::new();
    for (_, (mesh, _)) in poses.iter() {
        models
            .entry(mesh.clone())
            .or_insert_with(|| Model::new(load_mesh(&dir.join(mesh)).unwrap()).unwrap());
    }
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
