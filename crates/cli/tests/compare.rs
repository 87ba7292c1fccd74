//! `obbtree compare`: obbtree and parry3d-f64 agree on small meshes; bad input is one line.

use std::process::Command;

fn obbtree(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap()
}

#[test]
fn obbtree_and_parry_agree_on_the_bunny() {
    for mode in ["all", "first"] {
        let out = obbtree(&[
            "compare",
            "assets/bunny.obj",
            "assets/teapot.obj",
            "--random",
            "40",
            "--mode",
            mode,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["poses"], 40, "{json}");
        assert_eq!(json["agreeing_poses"], 40, "{json}");
        assert_eq!(json["differences"].as_array().unwrap().len(), 0, "{json}");
        assert!(json["query_median_us"]["ratio"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn distances_agree_with_parry() {
    let out = obbtree(&[
        "compare",
        "assets/bunny.obj",
        "assets/teapot.obj",
        "--random",
        "20",
        "--distance",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["query"], "distance", "{json}");
    assert_eq!(json["poses"], 20, "{json}");
    assert_eq!(json["agreeing_poses"], 20, "{json}");
    assert_eq!(json["differences"].as_array().unwrap().len(), 0, "{json}");
    let table = obbtree(&[
        "compare",
        "assets/bunny.obj",
        "assets/bunny.obj",
        "--random",
        "3",
        "--distance",
    ]);
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(text.starts_with("3 poses, distance: 3 agree"), "{text}");
}

#[test]
fn compare_table_and_bad_inputs() {
    let out = obbtree(&[
        "compare",
        "assets/bunny.obj",
        "assets/bunny.obj",
        "--random",
        "5",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("5 poses, mode All: 5 agree, 0 differing pairs"),
        "{text}"
    );
    for args in [
        &["compare", "assets/bunny.obj", "no/such.obj"][..],
        &[
            "compare",
            "assets/bunny.obj",
            "assets/bunny.obj",
            "--random",
            "0",
        ],
        &[
            "compare",
            "assets/bunny.obj",
            "assets/bunny.obj",
            "--poses",
            "Cargo.toml",
        ],
    ] {
        let out = obbtree(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}
