//! `obbtree ccd`: the JSON report's shape on a sample query file (with its ground truth), the
//! summary, a minimum separation, and one-line errors for bad files and separations.

mod common;

use common::{error_of, stdout_of};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A sample file of the benchmark of Wang et al. 2021 (crates/bv/tests/data/ccd).
fn sample(kind: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bv/tests/data/ccd/unit-tests");
    root.join(format!("{kind}.csv"))
}

/// The keys of a JSON object (sorted, as serde_json keeps them).
fn keys_of(object: &Value) -> Vec<&str> {
    object
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect()
}

#[test]
fn json_report_has_the_contract_shape_and_matches_the_ground_truth() {
    let path = sample("edge-edge");
    let text = stdout_of(&["ccd", "--edge-edge", path.to_str().unwrap(), "--json"]);
    let report: Value = serde_json::from_str(&text).unwrap();
    let keys = keys_of(&report);
    assert_eq!(keys, ["queries", "query_total_ms", "results"]);
    assert!(report["query_total_ms"].as_f64().unwrap() >= 0.0);
    let results = report["results"].as_array().unwrap();
    assert_eq!((report["queries"].as_u64(), results.len()), (Some(54), 54));
    let truth: Vec<bool> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .step_by(8)
        .map(|l| l.ends_with(",1"))
        .collect();
    for (r, truth) in results.iter().zip(truth) {
        assert_eq!(keys_of(r), ["hit", "toi"]);
        assert_eq!(r["hit"].as_bool(), Some(truth));
        match r["toi"].as_array() {
            Some(toi) => {
                let (lo, hi) = (toi[0].as_f64().unwrap(), toi[1].as_f64().unwrap());
                assert!(truth && 0.0 <= lo && lo <= hi && hi <= 1.0 && hi - lo <= 1e-12);
            }
            None => assert!(!truth && r["toi"].is_null()),
        }
    }
}

#[test]
fn summary_counts_hits_and_disagreements() {
    let path = sample("vertex-face");
    let text = stdout_of(&["ccd", "--vertex-face", path.to_str().unwrap()]);
    assert!(text.contains("vertex-face queries: 125"), "{text}");
    assert!(text.contains("hits: 35"), "{text}");
    assert!(
        text.contains("disagreements with the ground truth (column 7): 0"),
        "{text}"
    );
}

#[test]
fn bad_files_are_one_line_errors_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let good = "0,1,0,1,0,1,0\n";
    let cases = [
        (
            write("den.csv", &format!("{good}1,3,0,1,0,1,0\n")),
            "den.csv:2: denominator 3",
        ),
        (
            write("zero.csv", "1,0,0,1,0,1,0\n"),
            "zero.csv:1: denominator 0",
        ),
        (
            write("cols.csv", "1,1,0,1,0,1\n"),
            "cols.csv:1: 6 columns, expected 7",
        ),
        (
            write("word.csv", "1,x,0,1,0,1,0\n"),
            "word.csv:1: \"x\" is not an integer",
        ),
        (
            write("rows.csv", &good.repeat(9)),
            "rows.csv:9: the last query has 1 of its 8 rows (9 rows in all",
        ),
    ];
    for (path, expected) in &cases {
        let err = error_of(&["ccd", "--vertex-face", path]);
        assert!(err.contains(expected), "{path}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let missing = error_of(&["ccd", "--edge-edge", "no/such/file.csv"]);
    assert!(
        missing.contains("cannot read no/such/file.csv"),
        "{missing}"
    );
}

/// With a minimum separation every contact of the ground truth is reported no later, and some
/// near misses become contacts.
#[test]
fn a_minimum_separation_reports_every_contact_and_near_misses() {
    let path = sample("edge-edge");
    let path = path.to_str().unwrap();
    let run = |d: &str| -> Vec<Value> {
        let args = ["ccd", "--edge-edge", path, "--json", "--min-separation", d];
        let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
        report["results"].as_array().unwrap().clone()
    };
    let lo = |r: &Value| r["toi"][0].as_f64().unwrap();
    let (touching, near) = (run("0"), run("0.01"));
    let mut more = 0;
    for (t, n) in touching.iter().zip(&near) {
        match (t["hit"].as_bool().unwrap(), n["hit"].as_bool().unwrap()) {
            (true, true) => assert!(lo(n) <= lo(t), "{n} after {t}"),
            (true, false) => panic!("a contact not within 0.01: {t} {n}"),
            (false, hit) => more += usize::from(hit),
        }
    }
    assert!(more > 0, "no near miss within 0.01");
    let summary = stdout_of(&["ccd", "--edge-edge", path, "--min-separation", "0.01"]);
    assert!(
        summary.contains("contacts of the ground truth (column 7) not reported: 0"),
        "{summary}"
    );
}

#[test]
fn bad_separations_and_a_missing_query_file_are_errors() {
    let path = sample("vertex-face");
    for bad in ["-1e-3", "inf", "NaN"] {
        let args = [
            "ccd",
            "--vertex-face",
            path.to_str().unwrap(),
            "--min-separation",
            bad,
        ];
        let err = error_of(&args);
        assert!(
            err.contains(&format!("--min-separation {}", bad.parse::<f64>().unwrap()))
                && err.contains("expected a finite distance of at least 0"),
            "{err}"
        );
    }
    let none = error_of(&["ccd", "--json"]);
    assert!(
        none.contains("--vertex-face") && none.contains("--edge-edge"),
        "{none}"
    );
    let both = ["ccd", "--vertex-face", "a.csv", "--edge-edge", "b.csv"];
    assert!(error_of(&both).contains("cannot be used with"));
}

/// One motion: start translation and rotation vector, end translation and rotation vector.
type MotionRow = ([f64; 3], [f64; 3], [f64; 3], [f64; 3]);

/// A motion file of the motions `motions`.
fn motions_file(dir: &Path, motions: &[MotionRow]) -> PathBuf {
    let pose = |t: [f64; 3], r: [f64; 3]| serde_json::json!({"translation": t, "rotation": r});
    let list: Vec<Value> = motions
        .iter()
        .map(|&(t0, r0, t1, r1)| serde_json::json!({"start": pose(t0, r0), "end": pose(t1, r1)}))
        .collect();
    let path = dir.join("motions.json");
    std::fs::write(&path, serde_json::json!({ "motions": list }).to_string()).unwrap();
    path
}

#[test]
fn motions_report_has_the_contract_shape_and_catches_what_sampling_misses() {
    let dir = tempfile::tempdir().unwrap();
    // A: the cube [0, 1]³; B: a cube of side 1/8, crossing A in one step, passing beside it,
    // starting across its face x = 1, and turning through it.
    let a = common::cube_obj(dir.path(), "a.obj", 1.0);
    let b = common::cube_obj(dir.path(), "b.obj", 0.125);
    let still = [0.0; 3];
    let motions = motions_file(
        dir.path(),
        &[
            ([-2.0, 0.5, 0.5], still, [2.0, 0.5, 0.5], still),
            ([-2.0, 3.0, 0.5], still, [2.0, 3.0, 0.5], still),
            ([0.9, 0.5, 0.5], still, [5.0, 0.5, 0.5], still),
            ([-2.0, 0.5, 0.5], still, [2.0, 0.5, 0.5], [0.0, 0.0, 2.0]),
        ],
    );
    let args = [
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--motions",
        motions.to_str().unwrap(),
    ];
    let text = stdout_of(&[&["ccd"], &args[..], &["--json"]].concat());
    let report: Value = serde_json::from_str(&text).unwrap();
    let keys = keys_of(&report);
    assert_eq!(keys, ["build_ms", "query_total_ms", "results"]);
    let results = report["results"].as_array().unwrap();
    for r in results {
        assert_eq!(keys_of(r), ["hit", "pair", "toi"]);
    }
    let toi = |i: usize| -> Option<[f64; 2]> {
        serde_json::from_value(results[i]["toi"].clone()).unwrap()
    };
    // B's front (x + 1/8) reaches A's face x = 0 at -2 + 4t + 1/8 = 0.
    let [lo, hi] = toi(0).unwrap();
    assert!(
        lo <= 15.0 / 32.0 && 15.0 / 32.0 <= hi && hi - lo <= 1e-12,
        "{lo} {hi}"
    );
    assert_eq!((results[1]["hit"].as_bool(), toi(1)), (Some(false), None));
    assert_eq!(toi(2), Some([0.0, 0.0]));
    assert_eq!(results[3]["hit"].as_bool(), Some(true));
    let pair = results[0]["pair"].as_array().unwrap();
    assert!(pair[0].as_u64().unwrap() < 12 && pair[1].as_u64().unwrap() < 12);
    let summary = stdout_of(&[&["ccd"], &args[..]].concat());
    assert!(
        summary.contains("motions: 4") && summary.contains("hits: 3"),
        "{summary}"
    );
}

#[test]
fn motions_errors_name_the_motion() {
    let dir = tempfile::tempdir().unwrap();
    let a = common::cube_obj(dir.path(), "a.obj", 1.0);
    let motions = motions_file(
        dir.path(),
        &[([0.0; 3], [0.0; 3], [1e200, 0.0, 0.0], [0.0; 3])],
    );
    let err = error_of(&[
        "ccd",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--motions",
        motions.to_str().unwrap(),
    ]);
    assert!(
        err.contains("motion 0, end: translation[0] is 1e200"),
        "{err}"
    );
    let err = error_of(&[
        "ccd",
        a.to_str().unwrap(),
        "--motions",
        motions.to_str().unwrap(),
    ]);
    assert!(
        err.contains("required arguments were not provided"),
        "{err}"
    );
}
