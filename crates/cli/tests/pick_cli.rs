//! `obbtree pick`: the JSON contract, one-line errors with a non-zero exit, the PNG render.

mod common;

use common::{asset, obbtree};

#[test]
fn rays_file_gives_the_json_contract() {
    let dir = tempfile::tempdir().unwrap();
    let rays = dir.path().join("rays.json");
    // One ray straight through the bunny's bounding box centre, one away from it.
    std::fs::write(
        &rays,
        r#"{"rays":[{"origin":[-0.09,5.0,10.0],"dir":[0.0,0.0,-1.0]},{"origin":[0,0,0],"dir":[0,0,1]}]}"#,
    )
    .unwrap();
    let bunny = asset("bunny.obj");
    for bv in ["aabb", "obb", "kdop18", "sphere"] {
        let out_file = dir.path().join(format!("{bv}.json"));
        let out = obbtree(&[
            "pick",
            bunny.to_str().unwrap(),
            "--rays",
            rays.to_str().unwrap(),
            "--bv",
            bv,
            "--json",
            "--out",
            out_file.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["bv"], bv);
        assert_eq!(v["tris"], 3674);
        assert!(v["build_ms"].as_f64().unwrap() >= 0.0);
        assert!(v["query_total_ms"].as_f64().unwrap() >= 0.0);
        let hits = v["hits"].as_array().unwrap();
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[1]["hit"], false);
        assert_eq!(hits[1]["triangle"], -1);
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
        assert_eq!(file, v);
    }
}

#[test]
fn bad_input_is_one_line_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bunny = asset("bunny.obj");
    for (text, needle) in [
        (
            r#"{"rays":[{"origin":[0,0,0],"dir":[1,0,0]},{"origin":[0,0,0],"dir":[0,0,0]}]}"#,
            "ray 1",
        ),
        (
            r#"{"rays":[{"origin":[0,0,0],"dir":[1,0]}]}"#,
            "not a rays file",
        ),
        (r#"{"rays":["#, "not a rays file"),
        (
            r#"{"rays":[{"origin":[1e999,0,0],"dir":[1,0,0]}]}"#,
            "not a rays file",
        ),
    ] {
        let rays = dir.path().join("bad.json");
        std::fs::write(&rays, text).unwrap();
        let out = obbtree(&[
            "pick",
            bunny.to_str().unwrap(),
            "--rays",
            rays.to_str().unwrap(),
        ]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let out = obbtree(&["pick", bunny.to_str().unwrap()]);
    assert!(!out.status.success());
    let out = obbtree(&["pick", bunny.to_str().unwrap(), "--pixel", "5000", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside"));
}

#[test]
fn pixel_pick_and_png_render() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("bunny.png");
    let bunny = asset("bunny.obj");
    let out = obbtree(&[
        "pick",
        bunny.to_str().unwrap(),
        "--pixel",
        "80",
        "60",
        "--size",
        "160x120",
        "--image",
        png.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let triangle = v["pixel"]["hit"]["triangle"]
        .as_u64()
        .expect("the centre pixel hits the bunny");
    assert!(triangle < 3674);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
