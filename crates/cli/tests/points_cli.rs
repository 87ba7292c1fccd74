//! `obbtree points`: the JSON report's contract (keys, nulls beyond the maximum distance), signed
//! distances on the closed cube [0, 2]³ written as an OBJ file (exact values at hand-picked points), the
//! summary; an open box signed by its winding number, the centre of its missing face undecided;
//! and one-line errors for a shape and points out of range.

mod common;

use common::stdout_of;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The error of a run that must fail, checked to be one line.
fn error_of(args: &[&str]) -> String {
    let err = common::error_of(args);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}

fn points_file(dir: &Path, points: &str) -> PathBuf {
    let path = dir.join("points.json");
    std::fs::write(&path, format!(r#"{{"points":{points}}}"#)).unwrap();
    path
}

#[test]
fn json_report_has_the_contract_shape_and_exact_signed_distances() {
    let dir = tempfile::tempdir().unwrap();
    let cube = common::cube_obj(dir.path(), "cube.obj", 2.0);
    let points = points_file(dir.path(), "[[1,1,1],[1,1,3],[3,3,1],[1,1,2],[1,1,9]]");
    let (cube, points) = (cube.to_str().unwrap(), points.to_str().unwrap());
    let args = [
        "points",
        cube,
        "--points",
        points,
        "--signed",
        "--max-distance",
        "5",
        "--json",
    ];
    let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["build_ms", "query_total_ms", "results"]);
    let results = report["results"].as_array().unwrap();
    let distances: Vec<Option<f64>> = results.iter().map(|r| r["distance"].as_f64()).collect();
    assert_eq!(
        distances,
        [Some(-1.0), Some(1.0), Some(2f64.sqrt()), Some(0.0), None]
    );
    for r in results {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["distance", "point", "triangle"]);
    }
    assert_eq!(results[1]["point"], serde_json::json!([1.0, 1.0, 2.0]));
    assert!(results[1]["triangle"].as_u64().unwrap() < 12);
    assert!(results[4]["point"].is_null() && results[4]["triangle"].is_null());
    let unsigned = ["points", cube, "--points", points, "--json"];
    let report: Value = serde_json::from_str(&stdout_of(&unsigned)).unwrap();
    assert_eq!(report["results"][0]["distance"].as_f64(), Some(1.0));
    let summary = stdout_of(&["points", cube, "--points", points, "--signed"]);
    assert!(
        summary.contains("5 points, 5 answered") && summary.contains("inside the solid: 1"),
        "{summary}"
    );
}

/// The cube [0, 2]³ without its top face (z = 2): inside it the winding number is near 1, so
/// points there are negative; at the centre of the missing face it is exactly ½, which no bound
/// can decide: that point keeps its unsigned distance and is marked undecided.
#[test]
fn an_open_mesh_is_signed_by_its_winding_number_and_says_when_undecided() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::open_box_obj(dir.path(), "open_box.obj", 2.0);
    let points = points_file(dir.path(), "[[1,1,0.5],[1,1,2],[1,1,5]]");
    let args = [
        "points",
        path.to_str().unwrap(),
        "--points",
        points.to_str().unwrap(),
        "--signed",
        "--json",
    ];
    let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    let results = report["results"].as_array().unwrap();
    let distances: Vec<f64> = results
        .iter()
        .map(|r| r["distance"].as_f64().unwrap())
        .collect();
    assert_eq!(distances, [-0.5, 1.0, 10f64.sqrt()]);
    let undecided: Vec<bool> = results
        .iter()
        .map(|r| r.get("undecided").is_some())
        .collect();
    assert_eq!(undecided, [false, true, false]);
    assert_eq!(results[1]["undecided"], Value::Bool(true));
    let summary = stdout_of(&args[..5]);
    assert!(
        summary.contains("side undecided") && summary.contains(": 1"),
        "{summary}"
    );
}

#[test]
fn bad_meshes_and_points_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bunny = common::asset("bunny.obj");
    let bunny = bunny.to_str().unwrap();
    let good = points_file(dir.path(), "[[0,0,0]]");
    let good = good.to_str().unwrap();
    let err = error_of(&["points", "sphere:1", "--points", good]);
    assert!(err.contains("sphere:1: points needs a mesh"), "{err}");
    let far = points_file(dir.path(), "[[0,0,0],[0,0,0],[1e300,0,0]]");
    let err = error_of(&["points", bunny, "--points", far.to_str().unwrap()]);
    assert!(
        err.contains("point 2: the point [1e300, 0.0, 0.0] must be finite"),
        "{err}"
    );
    // Two bad points among many, the later one first along the spatial order the program
    // answers in: the first in the file is named.
    let mut many = vec!["[0,0,0]"; 10_000];
    (many[6_000], many[9_000]) = ("[1e300,0,0]", "[-1e300,0,0]");
    let many = points_file(dir.path(), &format!("[{}]", many.join(",")));
    let err = error_of(&["points", bunny, "--points", many.to_str().unwrap()]);
    assert!(
        err.contains("point 6000: the point [1e300, 0.0, 0.0]"),
        "{err}"
    );
    let shapeless = points_file(dir.path(), "[[0,0]]");
    let err = error_of(&["points", bunny, "--points", shapeless.to_str().unwrap()]);
    assert!(
        err.contains("malformed points file") && err.contains("line 1 column"),
        "{err}"
    );
}
