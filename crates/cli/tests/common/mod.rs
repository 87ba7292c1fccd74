//! Helpers of the program's tests: the library tests' helpers (bundled assets and their sizes),
//! and a way to run the program.
#![allow(dead_code)] // each test binary uses a different part

#[path = "../../../../tests/common/mod.rs"]
mod library;

pub use library::*;

/// Runs the `obbtree` program with `args` and `NO_COLOR` set, and returns what it did.
pub fn obbtree(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// The standard output of a run of the program that must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let o = obbtree(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The error output of a run that must fail, without a panic.
pub fn error_of(args: &[&str]) -> String {
    let o = obbtree(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The closed cube `[0, side]³` (`TriMesh::cuboid`) written as OBJ to `dir/name`.
pub fn cube_obj(dir: &std::path::Path, name: &str, side: f64) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, shapes::obj_text(&cube(side))).unwrap();
    path
}

/// The cube `[0, side]³` without its top face (z = side), an open mesh, written as OBJ to
/// `dir/name`.
pub fn open_box_obj(dir: &std::path::Path, name: &str, side: f64) -> std::path::PathBuf {
    let closed = cube(side);
    let top = |t: &[u32; 3]| t.iter().all(|&v| closed.vertices()[v as usize].z == side);
    let kept: Vec<[u32; 3]> = closed
        .triangles()
        .iter()
        .filter(|t| !top(t))
        .copied()
        .collect();
    let open = obbtree::bv::TriMesh::new(closed.vertices().to_vec(), kept).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, shapes::obj_text(&open)).unwrap();
    path
}

/// The closed cube `[0, side]³`: vertex `i` at `side · (i & 1, i >> 1 & 1, i >> 2 & 1)`.
pub fn cube(side: f64) -> obbtree::bv::TriMesh {
    let corner = obbtree::bv::Point::new(side, side, side);
    obbtree::bv::TriMesh::cuboid(obbtree::bv::Point::origin(), corner).unwrap()
}

/// A tetrahedron with one coordinate of 1e-70 (the least the meshes admit) written to
/// `dir/tet.obj`, and `dir/poses.json` with 300 poses of B, 3 along x from A, the one at index
/// 200 turned by 1e-10 radians about x: that rotation's entry times the coordinate, 1e-80, is
/// finer than the exact range, so the query refuses the pose (the file's reader accepts it).
/// Returns both paths.
pub fn pose_200_refused(dir: &std::path::Path) -> (String, String) {
    let (mesh, poses) = (dir.join("tet.obj"), dir.join("poses.json"));
    let tet = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1e-70 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n";
    std::fs::write(&mesh, tet).unwrap();
    let pose = |i: usize| {
        let angle = if i == 200 { 1e-10 } else { 0.0 };
        format!(r#"{{"translation":[3,0,0],"rotation":[{angle},0,0]}}"#)
    };
    let all: Vec<String> = (0..300).map(pose).collect();
    std::fs::write(&poses, format!(r#"{{"poses":[{}]}}"#, all.join(","))).unwrap();
    let text = |p: std::path::PathBuf| p.to_str().unwrap().to_owned();
    (text(mesh), text(poses))
}

/// `dir/grid.json`: poses of B translated (not turned) to every point of the dyadic grid
/// `{-1.5, -1.25, …, 1.5}³` (2,197 poses, more than the program's first progress steps), and
/// the translations in file order. Against two unit cubes `[0, 1]³` the grid holds overlaps,
/// faces, edges and corners that touch exactly (a coordinate of ±1), and gaps.
pub fn translation_grid_poses(dir: &std::path::Path) -> (String, Vec<[f64; 3]>) {
    let steps: Vec<f64> = (-6..=6).map(|k| f64::from(k) * 0.25).collect();
    let mut translations = Vec::new();
    for &x in &steps {
        for &y in &steps {
            for &z in &steps {
                translations.push([x, y, z]);
            }
        }
    }
    let entry = |t: &[f64; 3]| {
        format!(
            r#"{{"translation":[{},{},{}],"rotation":[0,0,0]}}"#,
            t[0], t[1], t[2]
        )
    };
    let entries: Vec<String> = translations.iter().map(entry).collect();
    let path = dir.join("grid.json");
    std::fs::write(&path, format!(r#"{{"poses":[{}]}}"#, entries.join(","))).unwrap();
    (path.to_str().unwrap().to_owned(), translations)
}

/// The distance between the cubes `[0, 1]³` and `[0, 1]³ + t`: the length of the per-axis
/// gaps `max(|tᵢ| − 1, 0)` (0 when they overlap or touch).
pub fn unit_cube_gap(t: &[f64; 3]) -> f64 {
    t.iter()
        .map(|c| (c.abs() - 1.0).max(0.0).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The program's `command` (`collide` or `distance`) of the unit cube with itself at every
/// pose of [`translation_grid_poses`], with `--json`: each result and its translation, in file
/// order.
pub fn cube_on_translation_grid(command: &str) -> Vec<(serde_json::Value, [f64; 3])> {
    let dir = tempfile::tempdir().unwrap();
    let cube = cube_obj(dir.path(), "cube.obj", 1.0);
    let cube = cube.to_str().unwrap();
    let (poses, translations) = translation_grid_poses(dir.path());
    let report = stdout_of(&[command, cube, cube, "--poses", &poses, "--json"]);
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), translations.len());
    results.iter().cloned().zip(translations).collect()
}
