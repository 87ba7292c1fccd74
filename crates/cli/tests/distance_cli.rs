//! `obbtree distance`: the JSON report (distance, margin, margin with pairs), pose string and
//! pose file, every volume, the summary, and one-line errors for bad margins and poses.

mod common;

use common::{asset, cube_obj, cube_on_translation_grid, obbtree, pose_200_refused, unit_cube_gap};
use serde_json::{json, Value};
use std::process::Output;

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort();
    k
}

#[test]
fn distance_report_has_the_contract_shape() {
    let dir = tempfile::tempdir().unwrap();
    let cube = cube_obj(dir.path(), "cube.obj", 1.0);
    let c = cube.to_str().unwrap();
    // B two units beyond A along x: the faces x = 1 and x = 3 are 2 apart.
    let one = json(&obbtree(&[
        "distance",
        c,
        c,
        "--pose",
        "3 0 0 0 0 0",
        "--json",
    ]));
    assert_eq!(
        keys(&one),
        [
            "build_ms",
            "bv",
            "query_total_ms",
            "results",
            "tris_a",
            "tris_b"
        ]
    );
    assert_eq!(
        (one["bv"].clone(), one["tris_a"].clone()),
        (json!("obb"), json!(12))
    );
    let r = &one["results"][0];
    assert_eq!(
        keys(r),
        ["distance", "intersects", "pair", "point_a", "point_b"]
    );
    assert_eq!(
        (r["distance"].as_f64(), r["intersects"].as_bool()),
        (Some(2.0), Some(false))
    );
    assert_eq!(
        r["point_a"][0].as_f64(),
        Some(1.0),
        "points in A's frame: {r}"
    );
    assert_eq!(r["point_b"][0].as_f64(), Some(3.0), "{r}");
    // A pose file: the same pose, one in contact (B turned inside A), one far.
    let poses = dir.path().join("poses.json");
    std::fs::write(&poses, r#"{"poses":[{"translation":[3,0,0],"rotation":[0,0,0]},{"translation":[0.5,0.5,0],"rotation":[0,0,0.7]},{"translation":[0,-10,0],"rotation":[0,0,0]}]}"#).unwrap();
    let out = dir.path().join("out.json");
    for bv in ["obb", "aabb", "kdop18", "sphere"] {
        let many = json(&obbtree(&[
            "distance",
            c,
            c,
            "--poses",
            poses.to_str().unwrap(),
            "--bv",
            bv,
            "--json",
            "--out",
            out.to_str().unwrap(),
        ]));
        assert_eq!(many["bv"], bv);
        // Ties: another volume may report another pair at the same distance.
        assert_eq!(many["results"][0]["distance"], r["distance"], "{bv}");
        assert_eq!(many["results"][1]["intersects"], true, "{bv}");
        assert_eq!(many["results"][1]["distance"].as_f64(), Some(0.0), "{bv}");
        assert_eq!(many["results"][2]["distance"].as_f64(), Some(9.0), "{bv}");
        let written: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(written["results"], many["results"]);
    }
}

#[test]
fn margins_are_decided_exactly_and_list_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let cube = cube_obj(dir.path(), "cube.obj", 1.0);
    let c = cube.to_str().unwrap();
    let ask = |margin: &str, pairs: bool| {
        let mut args = vec![
            "distance",
            c,
            c,
            "--pose",
            "3 0 0 0 0 0",
            "--margin",
            margin,
            "--json",
        ];
        if pairs {
            args.push("--pairs");
        }
        json(&obbtree(&args))["results"][0].clone()
    };
    // The distance is exactly 2: within at 2, not one ulp below.
    let at = ask("2", false);
    assert_eq!(keys(&at), ["pair", "within"]);
    assert_eq!(at["within"], true);
    assert!(at["pair"].is_array());
    let below = ask(&format!("{:?}", 2f64.next_down()), false);
    assert_eq!(below, json!({"within": false, "pair": null}));
    // With --pairs: pairs within the margin, sorted. Triangles 10 and 11 are A's face x = 1,
    // 8 and 9 B's face x = 0 (placed at x = 3): those four pairs are 2 apart; every pair listed
    // has a vertex of A at x = 1 and one of B at x = 0 (its own frame).
    let all = ask("2", true);
    let pairs: Vec<[u64; 2]> = serde_json::from_value(all["pairs"].clone()).unwrap();
    for face_pair in [[10, 8], [10, 9], [11, 8], [11, 9]] {
        assert!(pairs.contains(&face_pair), "{face_pair:?}: {all}");
    }
    let faces = common::cube(1.0).triangles().to_vec();
    let on = |t: u64, x: u32| faces[t as usize].iter().any(|&v| v & 1 == x);
    assert!(pairs.iter().all(|&[i, j]| on(i, 1) && on(j, 0)), "{all}");
    assert!(pairs.windows(2).all(|w| w[0] < w[1]), "{all}");
    assert_eq!(all["within"], true);
    assert!(pairs.iter().any(|p| json!(p) == all["pair"]), "{all}");
    assert_eq!(
        ask("1.5", true),
        json!({"within": false, "pair": null, "pairs": []})
    );
}

#[test]
fn summary_and_hints() {
    let bunny = asset("bunny.obj");
    let b = bunny.to_str().unwrap();
    let o = obbtree(&["distance", b, b, "--pose", "0.3 0 0 0 0.2 0"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("distance") && text.contains("pose 0"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let poses = dir.path().join("poses.json");
    let list: Vec<String> = (0..30)
        .map(|k| {
            format!(
                r#"{{"translation":[{},0,0],"rotation":[0,{},0]}}"#,
                0.2 + 0.001 * k as f64,
                0.01 * k as f64
            )
        })
        .collect();
    std::fs::write(&poses, format!(r#"{{"poses":[{}]}}"#, list.join(","))).unwrap();
    let p = poses.to_str().unwrap();
    let cold = json(&obbtree(&["distance", b, b, "--poses", p, "--json"]));
    let hinted = json(&obbtree(&[
        "distance", b, b, "--poses", p, "--hints", "--json",
    ]));
    for (x, y) in cold["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(hinted["results"].as_array().unwrap())
    {
        let (dx, dy) = (
            x["distance"].as_f64().unwrap(),
            y["distance"].as_f64().unwrap(),
        );
        assert!((dx - dy).abs() <= 1e-12, "{x} {y}");
    }
}

#[test]
fn bad_margins_and_poses_are_one_line_errors() {
    let b = asset("bunny.obj");
    let b = b.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"poses":[{"translation":[0,0],"rotation":[0,0,0]}]}"#,
    )
    .unwrap();
    let far = dir.path().join("far.json");
    std::fs::write(&far, r#"{"poses":[{"translation":[0,0,0],"rotation":[0,0,0]},{"translation":[1e200,0,0],"rotation":[0,0,0]}]}"#).unwrap();
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = vec!["distance", b, b];
        v.extend_from_slice(extra);
        v
    };
    for (args, expect) in [
        (
            with(&["--pose", "0 0 0 0 0 0", "--margin", "-1"]),
            "--margin: the margin must be a non-negative finite number, not -1",
        ),
        (
            with(&["--pose", "0 0 0 0 0 0", "--margin", "NaN"]),
            "not NaN",
        ),
        (
            with(&["--pose", "0 0 0 0 0 0", "--margin", "inf"]),
            "not inf",
        ),
        (
            with(&["--pose", "0 0 0 0 0 0", "--margin", "-inf"]),
            "not -inf",
        ),
        (with(&["--pose", "1 2 3"]), "six numbers"),
        (
            with(&["--pose", "0 0 nan 0 0 0"]),
            "pose 0: translation[2] is NaN",
        ),
        (
            with(&["--pose", "0 -1e150 0 0 0 0"]),
            "beyond the supported magnitude",
        ),
        (
            with(&["--poses", "/nonexistent/poses.json"]),
            "cannot read poses file",
        ),
        (vec!["distance", b, b], "give the pose of B"),
    ] {
        check_error(&args, expect);
    }
    let (bad, far) = (bad.to_str().unwrap(), far.to_str().unwrap());
    check_error(&["distance", b, b, "--poses", bad], "malformed poses file");
    check_error(&["distance", b, b, "--poses", far], "pose 1");
}

fn check_error(args: &[&str], expect: &str) {
    let o = obbtree(args);
    assert!(!o.status.success(), "{args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(expect), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn shapes_stand_in_for_meshes() {
    let dir = tempfile::tempdir().unwrap();
    let cube = cube_obj(dir.path(), "cube.obj", 1.0);
    let c = cube.to_str().unwrap();
    // The cube spans [-1, 1]; a ball of radius 0.5 about x = 3 is 1.5 away, a unit box about
    // x = 3 is 1.5 away from it too (face x = 2.5).
    for (shape, want) in [
        ("sphere:0.5", 1.5),
        ("box:1:1:1", 1.5),
        ("capsule:0.5:0", 1.5),
    ] {
        let r = json(&obbtree(&[
            "distance",
            c,
            shape,
            "--pose",
            "3 0 0 0 0 0",
            "--json",
        ]));
        assert_eq!(r["tris_b"], 0);
        assert_eq!(r["results"][0]["distance"], json!(want), "{shape}");
        assert_eq!(r["results"][0]["pair"][1], 0, "{shape}");
    }
    let hit = json(&obbtree(&[
        "collide",
        c,
        "sphere:0.5",
        "--pose",
        "1.5 0 0 0 0 0",
        "--json",
    ]));
    assert!(hit["results"][0]["intersects"].as_bool().unwrap());
    // Bad shapes are one-line errors naming them.
    let bad = obbtree(&["distance", c, "sphere:-1", "--pose", "3 0 0 0 0 0"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("radius"));
    // A cylinder of radius 1 at x = 3: its side x = 2 is 1 from the face, to the certified
    // search's accuracy.
    let cyl = json(&obbtree(&[
        "distance",
        c,
        "cylinder:1:1",
        "--pose",
        "3 0 0 0 0 0",
        "--json",
    ]));
    let got = cyl["results"][0]["distance"].as_f64().unwrap();
    assert!((got - 1.0).abs() <= 1e-12 * 4.0, "{got}");
}

/// A pose the query refuses deep in a long file, past the first progress steps, is named by
/// its place in the file.
#[test]
fn a_bad_pose_past_the_first_steps_is_named_by_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let (tet, poses) = pose_200_refused(dir.path());
    let (tet, poses) = (tet.as_str(), poses.as_str());
    check_error(&["distance", tet, tet, "--poses", poses], "pose 200: ");
    let margin = ["distance", tet, tet, "--poses", poses, "--margin", "0.1"];
    check_error(&margin, "pose 200: ");
}

/// Every pose of a long file is answered in its place, whatever progress step holds it: the
/// distance between two unit cubes is the length of their per-axis gaps, within the
/// documented bound `1e-12·(d + L)`.
#[test]
fn every_pose_of_a_long_file_is_answered_in_its_place() {
    for (r, t) in cube_on_translation_grid("distance") {
        let (got, want) = (r["distance"].as_f64().unwrap(), unit_cube_gap(&t));
        assert!(
            (got - want).abs() <= 1e-12 * (want + 4.0),
            "{t:?}: {got} {want}"
        );
    }
}
