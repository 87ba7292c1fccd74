//! `obbtree collide`: JSON report shape, pose string and pose file, one-line errors.

mod common;

use common::{asset, cube_obj, cube_on_translation_grid, error_of, obbtree, pose_200_refused};
use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn pose_string_and_pose_file_agree() {
    let bunny = asset("bunny.obj");
    let b = bunny.to_str().unwrap();
    let one = json(&obbtree(&[
        "collide",
        b,
        b,
        "--pose",
        "0.05 0 0 0 0 0.3",
        "--json",
    ]));
    assert_eq!(one["bv"], "obb");
    assert_eq!(one["mode"], "all");
    assert_eq!(one["tris_a"], 3674);
    assert!(one["results"][0]["intersects"].as_bool().unwrap());
    assert!(one["results"][0].get("contained").is_none());
    let dir = tempfile::tempdir().unwrap();
    let poses = dir.path().join("poses.json");
    std::fs::write(&poses, r#"{"meta":{},"poses":[{"translation":[0.05,0,0],"rotation":[0,0,0.3]},{"translation":[10,0,0],"rotation":[0,0,0]}]}"#).unwrap();
    let out = dir.path().join("out.json");
    for bv in ["obb", "aabb", "kdop18", "sphere"] {
        let two = json(&obbtree(&[
            "collide",
            b,
            b,
            "--poses",
            poses.to_str().unwrap(),
            "--bv",
            bv,
            "--json",
            "--containment",
            "--out",
            out.to_str().unwrap(),
        ]));
        assert_eq!(
            two["results"][0]["pairs"], one["results"][0]["pairs"],
            "{bv}"
        );
        assert_eq!(two["results"][0]["contained"], "surfaces_intersect", "{bv}");
        // Two closed bunnies 10 apart: checked, neither inside the other.
        assert_eq!(two["results"][1]["intersects"], false);
        assert_eq!(two["results"][1]["contained"], "disjoint", "{bv}");
        let written: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(written["results"], two["results"]);
    }
    let first = json(&obbtree(&[
        "collide",
        b,
        b,
        "--pose",
        "0.05 0 0 0 0 0.3",
        "--mode",
        "first",
        "--json",
    ]));
    assert_eq!(first["results"][0]["pairs"].as_array().unwrap().len(), 1);
    // Minimum-volume boxes: other boxes, the same pairs.
    let tight = json(&obbtree(&[
        "collide",
        b,
        b,
        "--pose",
        "0.05 0 0 0 0 0.3",
        "--fit",
        "min-volume",
        "--json",
    ]));
    assert_eq!(tight["results"], one["results"]);
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    let b = asset("bunny.obj");
    let b = b.to_str().unwrap();
    let teapot = asset("teapot.obj");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"poses":[{"translation":[0,0],"rotation":[0,0,0]}]}"#,
    )
    .unwrap();
    let huge = dir.path().join("huge.json");
    std::fs::write(&huge, r#"{"poses":[{"translation":[0,0,0],"rotation":[0,0,0]},{"translation":[1e999,0,0],"rotation":[0,0,0]}]}"#).unwrap();
    for (args, expect) in [
        (
            vec!["collide", b, b, "--pose", "0 0 nan 0 0 0"],
            "pose 0: translation[2] is NaN",
        ),
        (vec!["collide", b, b, "--pose", "1 2 3"], "six numbers"),
        (
            vec!["collide", b, b, "--pose", "0 -1e150 0 0 0 0"],
            "pose 0: translation[1] is -1e150, beyond the supported magnitude",
        ),
        (
            vec!["collide", b, b, "--poses", bad.to_str().unwrap()],
            "malformed poses file",
        ),
        (
            vec!["collide", b, b, "--poses", huge.to_str().unwrap()],
            "malformed poses file",
        ),
        (
            vec!["collide", b, b, "--poses", "/nonexistent/poses.json"],
            "cannot read poses file",
        ),
        (
            vec!["collide", b, "/nonexistent.obj", "--pose", "0 0 0 0 0 0"],
            "nonexistent",
        ),
        (
            vec![
                "collide",
                b,
                teapot.to_str().unwrap(),
                "--pose",
                "0 0 0 0 0 0",
                "--containment",
            ],
            "not closed",
        ),
        (
            vec![
                "collide",
                b,
                b,
                "--pose",
                "0 0 0 0 0 0",
                "--bv",
                "aabb",
                "--fit",
                "min-volume",
            ],
            "--fit chooses how OBBs are fitted: it needs --bv obb",
        ),
    ] {
        let o = obbtree(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// A pose the query refuses deep in a long file, past the first progress steps, is named by
/// its place in the file.
#[test]
fn a_bad_pose_past_the_first_steps_is_named_by_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let (tet, poses) = pose_200_refused(dir.path());
    let err = error_of(&["collide", &tet, &tet, "--poses", &poses]);
    assert!(
        err.starts_with("error: pose 200: ") && err.lines().count() == 1,
        "{err}"
    );
}

/// Every pose of a long file is answered in its place, whatever progress step holds it: two
/// unit cubes meet exactly when no axis separates them, `max |tᵢ| ≤ 1` (touching counts).
#[test]
fn every_pose_of_a_long_file_is_answered_in_its_place() {
    for (r, t) in cube_on_translation_grid("collide") {
        let meet = t.iter().all(|c| c.abs() <= 1.0);
        assert_eq!(r["intersects"].as_bool(), Some(meet), "{t:?}");
    }
}

/// `--containment` names each answer: B inside A, A inside B, apart, surfaces meeting.
#[test]
fn containment_is_named_in_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let big = cube_obj(dir.path(), "big.obj", 1.0);
    let small = cube_obj(dir.path(), "small.obj", 0.25);
    let (big, small) = (big.to_str().unwrap(), small.to_str().unwrap());
    for (a, b, pose, want) in [
        (big, small, "0.5 0.5 0.5 0 0 0", "b_in_a"),
        (small, big, "-0.375 -0.375 -0.375 0 0 0", "a_in_b"),
        (big, small, "3 0 0 0 0 0", "disjoint"),
        (big, small, "0.9 0.5 0.5 0 0 0", "surfaces_intersect"),
    ] {
        let out = json(&obbtree(&[
            "collide",
            a,
            b,
            "--pose",
            pose,
            "--containment",
            "--json",
        ]));
        assert_eq!(out["results"][0]["contained"], want, "{pose}");
        assert_eq!(
            out["results"][0]["intersects"],
            want == "surfaces_intersect",
            "{pose}"
        );
    }
}
