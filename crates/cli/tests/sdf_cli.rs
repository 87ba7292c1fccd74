//! `obbtree sdf`: the NumPy file (read here by hand from the `.npy` format's own description:
//! magic, header dictionary, little-endian float64 values in C order) holds the exact signed
//! distances of the closed cube [0, 2]³ on hand-picked grid points, and the centre of an open
//! box's missing face is NaN (undecided); the JSON report's keys and grid; one-line errors.

mod common;

use common::stdout_of;
use serde_json::Value;
use std::path::Path;

/// The shape and values of a float64 C-order `.npy` file.
fn read_npy(path: &Path) -> (Vec<usize>, Vec<f64>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        _ => (
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
            12,
        ),
    };
    let header = std::str::from_utf8(&bytes[start..start + header_len]).unwrap();
    assert!(
        header.contains("'descr': '<f8'") && header.contains("'fortran_order': False"),
        "{header}"
    );
    let shape_text = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let shape: Vec<usize> = shape_text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let values = bytes[start + header_len..]
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    (shape, values)
}

/// `obbtree sdf MESH --resolution N --padding P --out OUT --json`.
fn sdf_args<'a>(
    mesh: &'a Path,
    resolution: &'a str,
    padding: &'a str,
    out: &'a Path,
) -> [&'a str; 9] {
    let path = |p: &'a Path| p.to_str().unwrap();
    [
        "sdf",
        path(mesh),
        "--resolution",
        resolution,
        "--padding",
        padding,
        "--out",
        path(out),
        "--json",
    ]
}

/// Resolution 5 and padding 0.25 around [0, 2]³: the grid runs from -0.5 to 2.5 by 0.75 on
/// every axis, so its points are exact in binary and their distances known.
#[test]
fn the_grid_file_holds_exact_signed_distances_and_the_report_its_grid() {
    let dir = tempfile::tempdir().unwrap();
    let cube = common::cube_obj(dir.path(), "cube.obj", 2.0);
    let out = dir.path().join("grid.npy");
    let args = sdf_args(&cube, "5", "0.25", &out);
    let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "build_ms",
            "inside",
            "max",
            "min",
            "query_total_ms",
            "resolution",
            "spacing",
            "undecided"
        ]
    );
    assert_eq!(report["min"], serde_json::json!([-0.5, -0.5, -0.5]));
    assert_eq!(report["max"], serde_json::json!([2.5, 2.5, 2.5]));
    assert_eq!(report["spacing"].as_f64(), Some(0.75));
    // Inside: the 27 points at 0.25, 1.0 and 1.75 on every axis.
    assert_eq!(
        (report["inside"].as_u64(), report["undecided"].as_u64()),
        (Some(27), Some(0))
    );
    let (shape, values) = read_npy(&out);
    assert_eq!(shape, [5, 5, 5]);
    let at = |i: usize, j: usize, k: usize| values[(i * 5 + j) * 5 + k];
    assert_eq!(at(2, 2, 2), -1.0); // the centre (1, 1, 1)
    assert_eq!(at(1, 1, 1), -0.25); // (0.25, 0.25, 0.25)
    assert_eq!(at(0, 2, 2), 0.5); // (-0.5, 1, 1)
    assert_eq!(at(0, 0, 0), 0.75f64.sqrt()); // (-0.5, -0.5, -0.5) to the corner
    assert_eq!(at(4, 2, 1), 0.5); // (2.5, 1, 0.25)
    let summary = stdout_of(&args[..8]);
    assert!(
        summary.contains("5×5×5 signed distances") && summary.contains("inside the solid: 27"),
        "{summary}"
    );
}

/// The cube [0, 2]³ without its top face, resolution 3 and padding 0: the grid points are 0,
/// 1 and 2 on every axis, and (1, 1, 2), the centre of the missing face, has winding number
/// exactly ½: NaN, counted as undecided; (1, 1, 1) is inside.
#[test]
fn an_open_mesh_leaves_the_undecided_points_nan() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::open_box_obj(dir.path(), "open_box.obj", 2.0);
    let out = dir.path().join("grid.npy");
    let args = sdf_args(&path, "3", "0", &out);
    let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    assert_eq!(report["undecided"].as_u64(), Some(1));
    let (_, values) = read_npy(&out);
    let at = |i: usize, j: usize, k: usize| values[(i * 3 + j) * 3 + k];
    assert!(at(1, 1, 2).is_nan());
    assert_eq!(at(1, 1, 1), -1.0);
    assert_eq!(values.iter().filter(|v| v.is_nan()).count(), 1);
}

/// A grid too large to hold even a slab of in memory is refused before any file is written.
#[test]
fn a_grid_too_large_for_memory_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let cube = common::cube_obj(dir.path(), "cube.obj", 2.0);
    let out = dir.path().join("huge.npy");
    let err = common::error_of(&sdf_args(&cube, "10000000000", "0.1", &out)[..8]);
    assert!(
        err.contains("--resolution 10000000000") && err.contains("do not fit in memory"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!out.exists());
}

#[test]
fn a_shape_is_a_one_line_error() {
    let err = common::error_of(&["sdf", "sphere:1", "--resolution", "4", "--out", "x.npy"]);
    assert!(
        err.contains("sphere:1: sdf needs a mesh") && err.trim_end().lines().count() == 1,
        "{err}"
    );
}
