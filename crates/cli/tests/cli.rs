//! The `obbtree` binary: reports, JSON, one-line errors with a non-zero status, NO_COLOR.

mod common;

use common::{asset, obbtree, BUNDLED};
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn info_reports_counts() {
    let bunny = asset("bunny.obj");
    let out = obbtree(&["info", bunny.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("vertices    1839"), "{text}");
    assert!(text.contains("triangles   3674 (0 degenerate)"), "{text}");
    assert!(text.contains("surface     closed"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "NO_COLOR output has escape codes: {text:?}"
    );
}

#[test]
fn info_json_has_one_object_per_mesh() {
    let paths = [
        asset("teapot.obj"),
        asset("differential/diff_motor_cover.stl"),
    ];
    let args: Vec<&str> = ["info", "--json"]
        .into_iter()
        .chain(paths.iter().map(|p| p.to_str().unwrap()))
        .collect();
    let out = obbtree(&args);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let meshes = json.as_array().unwrap();
    assert_eq!(meshes.len(), 2);
    assert_eq!(meshes[0]["triangles"], 992);
    assert_eq!(meshes[0]["closed"], false);
    assert_eq!(meshes[1]["degenerate_triangles"], 3);
    assert_eq!(meshes[1]["closed"], true);
    let (min, max) = (&meshes[0]["bounds_min"], &meshes[0]["bounds_max"]);
    assert_eq!(
        (min[1].as_f64(), max[1].as_f64()),
        (Some(-7.875), Some(7.875))
    );
}

#[test]
fn errors_are_one_line_with_a_non_zero_status() {
    for args in [
        &["info", "no/such/mesh.obj"][..],
        &["info", "Cargo.toml"],
        &["demo", "--assets", "no/such/dir"],
    ] {
        let out = obbtree(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Usage errors are clap's: status 2.
    assert_eq!(obbtree(&["info"]).status.code(), Some(2));
}

#[test]
fn no_subcommand_runs_the_demo_on_every_bundled_mesh() {
    let out = obbtree(&[]);
    assert!(out.status.success());
    let text = stdout(&out);
    for m in &BUNDLED {
        let row = text
            .lines()
            .find(|l| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|s| stands_for(s, m.name))
            })
            .unwrap_or_else(|| panic!("{} missing:\n{text}", m.name));
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            columns[1..4],
            [
                m.vertices.to_string(),
                m.triangles.to_string(),
                m.degenerate.to_string()
            ],
            "{row}"
        );
    }
    assert!(
        text.contains(&format!("{} meshes", BUNDLED.len())),
        "{text}"
    );
    let quick = stdout(&obbtree(&["demo", "--quick"]));
    assert!(
        !quick.contains("dragon_res2") && quick.contains("bunny.obj"),
        "{quick}"
    );
}

/// Whether the demo's mesh table name `shown` stands for the bundled mesh `name`: the path
/// itself, or for a long one its first folder and its last parts around `…`.
fn stands_for(shown: &str, name: &str) -> bool {
    match shown.split_once("/…/") {
        None => shown == name,
        Some((first, last)) => {
            name.starts_with(&format!("{first}/")) && name.ends_with(&format!("/{last}"))
        }
    }
}

#[test]
fn info_tree_json_reports_the_tree_statistics() {
    let dragon = asset("dragon_res4.ply.gz");
    for kind in [
        "obb", "aabb", "sphere", "kdop6", "kdop14", "kdop18", "kdop26",
    ] {
        let out = obbtree(&["info", "--json", "--tree", kind, dragon.to_str().unwrap()]);
        assert!(out.status.success(), "{kind}");
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let mesh = &json[0];
        assert_eq!(mesh["tree"], kind);
        assert!(mesh["build_ms"].as_f64().unwrap() > 0.0);
        let (nodes, leaves) = (
            mesh["nodes"].as_u64().unwrap(),
            mesh["leaves"].as_u64().unwrap(),
        );
        assert_eq!(nodes, 2 * leaves - 1, "{kind}: a binary tree");
        let depth = mesh["depth"].as_u64().unwrap();
        assert!((10..=64).contains(&depth), "{kind}: depth {depth}");
        assert_eq!(mesh["levels"].as_array().unwrap().len() as u64, depth + 1);
        let held: u64 = mesh["leaf_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(size, count)| size as u64 * count.as_u64().unwrap())
            .sum();
        assert_eq!(held, 11102, "{kind}: every triangle in a leaf");
        let bytes = mesh["bytes_per_triangle"].as_f64().unwrap();
        if kind == "obb" {
            assert!(bytes <= 64.0, "the OBBTree budget: {bytes} B per triangle");
        }
    }
}

#[test]
fn info_tree_text_and_bad_kind() {
    let teapot = asset("teapot.obj");
    let out = obbtree(&["info", "--tree", "obb", teapot.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("obb tree, Sah split, leaf size 9"), "{text}");
    assert!(text.contains("bytes per triangle"), "{text}");
    let out = obbtree(&["info", "--tree", "octree", teapot.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("possible values: obb, aabb, sphere, kdop6, kdop14, kdop18, kdop26"));
}
