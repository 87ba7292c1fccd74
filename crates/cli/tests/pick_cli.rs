//! `obbtree pick`: the JSON contract, one-line errors with a non-zero exit, the PNG render.

mod common;

use common::{asset, error_of, obbtree};

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

/// A ray the query refuses deep in a long file, past the first progress steps, is named by its
/// place in the file. (Its direction's components span more than the query admits; the file's
/// reader accepts it, so the refusal comes from the step that holds it.)
#[test]
fn a_bad_ray_past_the_first_steps_is_named_by_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let ray = |i: usize| {
        let dir = if i == 13_000 {
            [1.0, 1e-305, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        ([0.0; 3], dir)
    };
    let rays = rays_file(dir.path(), &(0..20_000).map(ray).collect::<Vec<_>>());
    let bunny = asset("bunny.obj");
    let err = error_of(&["pick", bunny.to_str().unwrap(), "--rays", &rays]);
    assert!(
        err.contains(": ray 13000: ") && err.lines().count() == 1,
        "{err}"
    );
}

/// Every ray of a long file is answered in its place, whatever progress step holds it: against
/// the unit cube `[0, 1]³`, the slab method (Kay and Kajiya, 1986) gives the entry `t` of each
/// ray from `x = -1` toward `+x`. Origins are dyadic and slopes powers of two, so the slabs'
/// quotients are exact and rays through edges and corners touch exactly (touching counts as a
/// hit).
#[test]
fn every_ray_of_a_long_file_is_answered_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let cube = common::cube_obj(dir.path(), "cube.obj", 1.0);
    let offsets: Vec<f64> = (-8..24)
        .map(|k| f64::from(2 * k + 1) / 16.0 - 0.5)
        .collect();
    let slopes = [-0.5, -0.25, -0.125, 0.0, 0.125, 0.25, 0.5];
    let mut rays = Vec::new();
    for &y in &offsets {
        for &z in &offsets {
            for &dy in &slopes {
                for &dz in &slopes {
                    rays.push(([-1.0, y, z], [1.0, dy, dz]));
                }
            }
        }
    }
    assert!(rays.len() > 20_000);
    let file = rays_file(dir.path(), &rays);
    let out = obbtree(&["pick", cube.to_str().unwrap(), "--rays", &file, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = report["hits"].as_array().unwrap();
    assert_eq!(hits.len(), rays.len());
    for (hit, (o, d)) in hits.iter().zip(&rays) {
        let want = slab_entry(o, d);
        assert_eq!(hit["hit"].as_bool(), Some(want.is_some()), "{o:?} {d:?}");
        if let Some(t) = want {
            let got = hit["t"].as_f64().unwrap();
            assert!(
                (got - t).abs() <= 1e-12 * (t + 1.0),
                "{o:?} {d:?}: {got} {t}"
            );
        }
    }
}

/// `dir/rays.json` holding `rays` as (origin, direction); its path.
fn rays_file(dir: &std::path::Path, rays: &[([f64; 3], [f64; 3])]) -> String {
    let entry = |(o, d): &([f64; 3], [f64; 3])| format!(r#"{{"origin":{o:?},"dir":{d:?}}}"#);
    let entries: Vec<String> = rays.iter().map(entry).collect();
    let path = dir.join("rays.json");
    std::fs::write(&path, format!(r#"{{"rays":[{}]}}"#, entries.join(","))).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Where the ray `o + t·d`, `t ≥ 0`, first meets the closed cube `[0, 1]³`, if it does.
fn slab_entry(o: &[f64; 3], d: &[f64; 3]) -> Option<f64> {
    let (mut near, mut far) = (0.0_f64, f64::INFINITY);
    for axis in 0..3 {
        if d[axis] == 0.0 {
            if !(0.0..=1.0).contains(&o[axis]) {
                return None;
            }
            continue;
        }
        let (a, b) = ((0.0 - o[axis]) / d[axis], (1.0 - o[axis]) / d[axis]);
        near = near.max(a.min(b));
        far = far.min(a.max(b));
    }
    (near <= far).then_some(near)
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

/// A shape in place of the mesh: rays from a file hit its surface (feature 0, the exact `t`
/// of these axis-aligned rays), a pixel picks it, a PNG renders it, a bad spec is one line.
#[test]
fn shapes_are_picked_on_their_surface() {
    let dir = tempfile::tempdir().unwrap();
    let rays = dir.path().join("rays.json");
    // Along x at heights 0, exactly the radius (tangent: a hit) and just above it.
    std::fs::write(
        &rays,
        r#"{"rays":[{"origin":[-5,0,0],"dir":[1,0,0]},{"origin":[-5,1,0],"dir":[1,0,0]},{"origin":[-5,1.0000000000000002,0],"dir":[1,0,0]},{"origin":[0,0,0],"dir":[0,1,0]}]}"#,
    )
    .unwrap();
    let cases: [(&str, [Option<f64>; 4]); 4] = [
        ("sphere:1", [Some(4.0), Some(5.0), None, Some(1.0)]),
        ("cylinder:1:2", [Some(4.0), Some(5.0), None, Some(1.0)]),
        ("capsule:1:2", [Some(4.0), Some(5.0), None, Some(1.0)]),
        ("box:2:2:2", [Some(4.0), Some(4.0), None, Some(1.0)]),
    ];
    for (spec, want) in cases {
        let out = obbtree(&["pick", spec, "--rays", rays.to_str().unwrap(), "--json"]);
        assert!(
            out.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["tris"], 0);
        let hits = v["hits"].as_array().unwrap();
        let got: Vec<Option<f64>> = hits.iter().map(|h| h["t"].as_f64()).collect();
        assert_eq!(got, want, "{spec}");
        for h in hits {
            assert_eq!(h["triangle"], if h["hit"] == true { 0 } else { -1 });
        }
    }
    // A convex hull of a mesh file's vertices, a pixel and a picture.
    let png = dir.path().join("ball.png");
    let out = obbtree(&[
        "pick",
        "sphere:0.5",
        "--pixel",
        "16",
        "16",
        "--image",
        png.to_str().unwrap(),
        "--size",
        "32x32",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a primitive shape"), "{text}");
    assert!(text.contains("pixel (16, 16): triangle 0"), "{text}");
    assert!(text.contains("front face"), "{text}");
    assert!(std::fs::metadata(&png).unwrap().len() > 0);
    let bunny = format!("convex:{}", common::asset("bunny.obj").display());
    let out = obbtree(&["pick", &bunny, "--pixel", "320", "240", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pixel"]["hit"]["triangle"], 0);
    assert_eq!(v["pixel"]["hit"]["front_face"], true);
    let out = obbtree(&["pick", "sphere:-1", "--pixel", "1", "1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("radius"), "{err}");
}
