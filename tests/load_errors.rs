//! Malformed inputs give the expected typed error, naming the file and the line or element;
//! random corruptions of valid files never panic and never give an invalid mesh.

mod common;

use common::{asset, cases};
use obbtree::bv::MeshError;
use obbtree::load::{load_mesh, LoadError, Location};
use proptest::prelude::*;
use std::io::Write;

/// Writes `bytes` as `name` in a fresh directory and loads it; the error must name the file.
fn load_bytes(name: &str, bytes: &[u8]) -> Result<obbtree::bv::TriMesh, LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let result = load_mesh(&path);
    if let Err(e) = &result {
        assert!(
            e.to_string().contains(&path.display().to_string()),
            "error does not name the file: {e}"
        );
    }
    result
}

fn err(name: &str, bytes: &[u8]) -> LoadError {
    match load_bytes(name, bytes) {
        Ok(mesh) => panic!("{name} loaded as {} triangles", mesh.triangles().len()),
        Err(e) => e,
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn line(n: usize) -> Location {
    Location::Line(n)
}

fn element(kind: &str, index: usize) -> Location {
    Location::Element {
        kind: kind.into(),
        index,
    }
}

const CUBE_OFF: &str =
    "OFF\n# a unit cube\n8 6 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n\
4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 1 2 6 5\n4 2 3 7 6\n4 3 0 4 7\n";

fn ply_ascii(vertices: usize, faces: usize, body: &str) -> String {
    format!(
        "ply\nformat ascii 1.0\nelement vertex {vertices}\nproperty float x\nproperty float y\nproperty float z\n\
         element face {faces}\nproperty list uchar int vertex_indices\nend_header\n{body}"
    )
}

const TETRA_BODY: &str = "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";

/// A binary little-endian PLY tetrahedron with float coordinates and uchar/int index lists.
fn ply_binary(vertex_count: usize, coords: &[[f32; 3]], faces: &[[i32; 3]]) -> Vec<u8> {
    let mut out = format!(
        "ply\nformat binary_little_endian 1.0\nelement vertex {vertex_count}\nproperty float x\nproperty float y\n\
         property float z\nelement face {}\nproperty list uchar int vertex_indices\nend_header\n",
        faces.len()
    )
    .into_bytes();
    coords
        .iter()
        .flatten()
        .for_each(|c| out.extend(c.to_le_bytes()));
    for f in faces {
        out.push(3);
        f.iter().for_each(|i| out.extend(i.to_le_bytes()));
    }
    out
}

const TETRA: [[f32; 3]; 4] = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [0., 0., 1.]];
const TETRA_FACES: [[i32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

fn stl_binary(declared: u32, facets: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut out = b"solid but actually binary".to_vec();
    out.resize(80, b' ');
    out.extend(declared.to_le_bytes());
    for f in facets {
        out.extend([0u8; 12]);
        f.iter().flatten().for_each(|c| out.extend(c.to_le_bytes()));
        out.extend([0u8; 2]);
    }
    out
}

const TRI: [[f32; 3]; 3] = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]];

// ---- valid small files: the fixtures below are corrupted one way each ----

#[test]
fn small_valid_files_load() {
    let cube = load_bytes("cube.off", CUBE_OFF.as_bytes()).unwrap();
    assert_eq!(
        (
            cube.vertices().len(),
            cube.triangles().len(),
            cube.is_closed()
        ),
        (8, 12, true)
    );
    // Quads are fanned in order: face 0 = (0 3 2 1) gives (0 3 2), (0 2 1).
    assert_eq!(&cube.triangles()[..2], &[[0, 3, 2], [0, 2, 1]]);
    let tetra = load_bytes("t.ply", ply_ascii(4, 4, TETRA_BODY).as_bytes()).unwrap();
    assert!(tetra.is_closed());
    let tetra = load_bytes("t.ply", &ply_binary(4, &TETRA, &TETRA_FACES)).unwrap();
    assert_eq!(
        tetra.triangles(),
        &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
    );
    // A binary STL whose header starts with "solid" is still binary (its size says so).
    let tri = load_bytes("t.stl", &stl_binary(1, &[TRI])).unwrap();
    assert_eq!(tri.triangles().len(), 1);
    let ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    assert_eq!(
        load_bytes("t.stl", ascii.as_bytes())
            .unwrap()
            .triangles()
            .len(),
        1
    );
    let pentagon = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\nf 1 -3 -1\n";
    let obj = load_bytes("p.obj", pentagon.as_bytes()).unwrap();
    assert_eq!(
        obj.triangles(),
        &[[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 2, 4]]
    );
    let gz = load_bytes("cube.OFF.gz", &gzip(CUBE_OFF.as_bytes())).unwrap();
    assert_eq!(gz, cube);
}

// ---- truncated binary STL and other STL size mismatches ----

#[test]
fn truncated_binary_stl_names_the_missing_facet() {
    let mut bytes = std::fs::read(asset("differential/diff_arm.stl")).unwrap();
    bytes.truncate(bytes.len() - 30);
    match err("arm.stl", &bytes) {
        LoadError::Truncated {
            element,
            index: 2475,
            expected: 2476,
            ..
        } => assert_eq!(element, "facet"),
        e => panic!("{e:?}"),
    }
    match err("t.stl", &stl_binary(3, &[TRI, TRI])) {
        LoadError::Truncated {
            index: 2,
            expected: 3,
            ..
        } => {}
        e => panic!("{e:?}"),
    }
    assert!(
        matches!(err("t.stl", &stl_binary(1, &[TRI, TRI])), LoadError::TrailingData { at, .. } if at == element("facet", 1))
    );
    assert!(matches!(err("t.stl", &[7u8; 40]), LoadError::Header { .. }));
    assert!(matches!(
        err("t.stl", &stl_binary(0, &[])),
        LoadError::Invalid {
            source: MeshError::Empty,
            ..
        }
    ));
}

#[test]
fn ascii_stl_errors_name_the_facet() {
    let bad = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    assert!(
        matches!(err("t.stl", bad.as_bytes()), LoadError::Syntax { at, .. } if at == element("facet", 0))
    );
    assert!(matches!(
        err("t.stl", b"solid t\nendsolid t\n"),
        LoadError::Invalid {
            source: MeshError::Empty,
            ..
        }
    ));
}

// ---- bad indices ----

#[test]
fn out_of_range_indices() {
    let off = CUBE_OFF.replace("4 3 0 4 7", "4 3 0 4 8");
    // Face 5 (the last quad) becomes triangles 10 and 11; vertex 8 is in the second.
    match err("c.off", off.as_bytes()) {
        LoadError::Invalid {
            source:
                MeshError::IndexOutOfRange {
                    triangle: 11,
                    index: 8,
                    vertex_count: 8,
                },
            ..
        } => {}
        e => panic!("{e:?}"),
    }
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("3 1 2 3", "3 1 2 4"));
    assert!(matches!(
        err("t.ply", ply.as_bytes()),
        LoadError::Invalid {
            source: MeshError::IndexOutOfRange {
                triangle: 3,
                index: 4,
                ..
            },
            ..
        }
    ));
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 9], [1, 2, 3]];
    assert!(matches!(
        err("t.ply", &ply_binary(4, &TETRA, &faces)),
        LoadError::Invalid {
            source: MeshError::IndexOutOfRange {
                triangle: 2,
                index: 9,
                ..
            },
            ..
        }
    ));
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 4\n";
    assert!(matches!(err("t.obj", obj.as_bytes()), LoadError::Syntax { at, .. } if at == line(5)));
}

#[test]
fn negative_indices() {
    let off = CUBE_OFF.replace("4 3 0 4 7", "4 3 0 -4 7");
    assert!(matches!(err("c.off", off.as_bytes()), LoadError::Syntax { at, .. } if at == line(17)));
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("3 0 3 2", "3 0 -3 2"));
    assert!(matches!(err("t.ply", ply.as_bytes()), LoadError::Syntax { at, .. } if at == line(16)));
    let faces = [[0, 2, 1], [0, -1, 3], [0, 3, 2], [1, 2, 3]];
    assert!(
        matches!(err("t.ply", &ply_binary(4, &TETRA, &faces)), LoadError::Syntax { at, .. } if at == element("face", 1))
    );
}

// ---- NaN and infinite coordinates ----

#[test]
fn non_finite_coordinates() {
    let nan_vertex = |e: LoadError, vertex: usize| match e {
        LoadError::Invalid {
            source: MeshError::NonFiniteVertex { vertex: v, .. },
            ..
        } => assert_eq!(v, vertex),
        e => panic!("{e:?}"),
    };
    nan_vertex(
        err("c.off", CUBE_OFF.replace("1 1 1\n", "1 nan 1\n").as_bytes()),
        6,
    );
    nan_vertex(
        err("c.off", CUBE_OFF.replace("1 1 1\n", "1 inf 1\n").as_bytes()),
        6,
    );
    // The ascii PLY grammar has no NaN: a syntax error on its line.
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("0 1 0\n", "0 NaN 0\n"));
    assert!(matches!(err("t.ply", ply.as_bytes()), LoadError::Syntax { at, .. } if at == line(12)));
    let mut coords = TETRA;
    coords[3][2] = f32::INFINITY;
    nan_vertex(err("t.ply", &ply_binary(4, &coords, &TETRA_FACES)), 3);
    nan_vertex(err("t.obj", b"v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n"), 2);
    nan_vertex(
        err(
            "t.stl",
            &stl_binary(1, &[[[0., 0., 0.], [f32::NAN, 0., 0.], [0., 1., 0.]]]),
        ),
        1,
    );
}

// ---- empty files and empty meshes ----

#[test]
fn empty_files() {
    for name in ["e.obj", "e.stl", "e.ply", "e.off", "e.ply.gz"] {
        let bytes = if name.ends_with(".gz") {
            gzip(b"")
        } else {
            Vec::new()
        };
        assert!(
            matches!(err(name, &bytes), LoadError::EmptyFile { .. }),
            "{name}"
        );
    }
    let empty_mesh = |e| {
        matches!(
            e,
            LoadError::Invalid {
                source: MeshError::Empty,
                ..
            }
        )
    };
    assert!(empty_mesh(err("e.off", b"OFF\n0 0 0\n")));
    assert!(empty_mesh(err("e.obj", b"# nothing\nv 1 2 3\n")));
    assert!(empty_mesh(err(
        "e.ply",
        ply_ascii(1, 0, "1 2 3\n").as_bytes()
    )));
}

// ---- wrong magic, bad gzip, missing or unknown files ----

#[test]
fn wrong_magic_and_bad_gzip() {
    let bad_magic = |e, want: &str| matches!(e, LoadError::BadMagic { magic, .. } if magic == want);
    assert!(bad_magic(
        err(
            "t.ply",
            ply_ascii(4, 4, TETRA_BODY)
                .replacen("ply", "plx", 1)
                .as_bytes()
        ),
        "ply"
    ));
    assert!(bad_magic(
        err("c.off", CUBE_OFF.replacen("OFF", "FOO", 1).as_bytes()),
        "OFF"
    ));
    assert!(bad_magic(err("c.off", b"# only a comment\n"), "OFF"));
    assert!(matches!(
        err("c.off", b"4OFF\n1 1 0\n"),
        LoadError::Header { .. }
    ));
    assert!(matches!(
        err("c.off", b"OFF BINARY\n"),
        LoadError::Header { .. }
    ));
    assert!(matches!(
        err("c.off.gz", CUBE_OFF.as_bytes()),
        LoadError::Gzip { .. }
    ));
    let mut cut = gzip(CUBE_OFF.as_bytes());
    cut.truncate(cut.len() / 2);
    assert!(matches!(err("c.off.gz", &cut), LoadError::Gzip { .. }));
}

#[test]
fn missing_and_unknown_files() {
    let dir = tempfile::tempdir().unwrap();
    match load_mesh(&dir.path().join("missing.obj")) {
        Err(LoadError::Io { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound)
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        err("mesh.dae", b"<xml/>"),
        LoadError::UnknownFormat { .. }
    ));
    assert!(matches!(
        err("mesh.gz", &gzip(b"x")),
        LoadError::UnknownFormat { .. }
    ));
}

// ---- header counts that do not match the data ----

#[test]
fn wrong_counts() {
    let more_faces = CUBE_OFF.replace("8 6 0", "8 7 0");
    assert!(
        matches!(err("c.off", more_faces.as_bytes()), LoadError::Truncated { index: 6, expected: 7, ref element, .. } if element == "face")
    );
    let fewer_faces = CUBE_OFF.replace("8 6 0", "8 5 0");
    assert!(
        matches!(err("c.off", fewer_faces.as_bytes()), LoadError::TrailingData { at, .. } if at == line(17))
    );
    let more_vertices = CUBE_OFF.replace("8 6 0", "9 6 0");
    assert!(
        matches!(err("c.off", more_vertices.as_bytes()), LoadError::Truncated { ref element, .. } if element == "face")
    );
    let bad_counts = CUBE_OFF.replace("8 6 0", "8 x");
    assert!(
        matches!(err("c.off", bad_counts.as_bytes()), LoadError::Syntax { at, .. } if at == line(3))
    );
    let two_corners = CUBE_OFF.replace("4 3 0 4 7", "2 3 0");
    assert!(
        matches!(err("c.off", two_corners.as_bytes()), LoadError::Syntax { at, .. } if at == line(17))
    );

    assert!(matches!(
        err("t.ply", ply_ascii(4, 5, TETRA_BODY).as_bytes()),
        LoadError::Truncated {
            index: 4,
            expected: 5,
            ..
        }
    ));
    assert!(
        matches!(err("t.ply", ply_ascii(4, 3, TETRA_BODY).as_bytes()), LoadError::TrailingData { at, .. } if at == line(17))
    );
    // One vertex too many declared: the first face line is read as a vertex (4 numbers), then
    // the last face is missing.
    assert!(matches!(
        err("t.ply", ply_ascii(5, 4, TETRA_BODY).as_bytes()),
        LoadError::Syntax { .. } | LoadError::Truncated { .. }
    ));
    // Binary: face 0 is read as vertex 4, and the next bytes as a face with 0 corners.
    assert!(
        matches!(err("t.ply", &ply_binary(5, &TETRA, &TETRA_FACES)), LoadError::Syntax { at, .. } if at == element("face", 0))
    );
    let mut extra = ply_binary(4, &TETRA, &TETRA_FACES);
    extra.push(0);
    assert!(matches!(
        err("t.ply", &extra),
        LoadError::TrailingData { .. }
    ));
    let mut cut = ply_binary(4, &TETRA, &TETRA_FACES);
    cut.truncate(cut.len() - 5);
    assert!(
        matches!(err("t.ply", &cut), LoadError::Truncated { index: 3, expected: 4, ref element, .. } if element == "face")
    );
}

#[test]
fn ply_headers_missing_what_a_mesh_needs() {
    let header = |e| matches!(e, LoadError::Header { .. });
    assert!(header(err(
        "t.ply",
        ply_ascii(4, 4, TETRA_BODY)
            .replace("float z", "int z")
            .as_bytes()
    )));
    assert!(header(err(
        "t.ply",
        ply_ascii(4, 4, TETRA_BODY)
            .replace("float z", "float w")
            .as_bytes()
    )));
    assert!(header(err(
        "t.ply",
        ply_ascii(4, 4, TETRA_BODY)
            .replace("vertex_indices", "corners")
            .as_bytes()
    )));
    assert!(header(err(
        "t.ply",
        ply_ascii(4, 4, TETRA_BODY)
            .replace("element face", "element facet")
            .as_bytes()
    )));
    assert!(header(err(
        "t.ply",
        b"ply\nformat ascii 1.0\nelement vertex 1\n"
    )));
    assert!(header(err("t.ply", b"ply\nformat ascii 9.0\nend_header\n")));
}

#[test]
fn syntax_errors_name_the_line() {
    let off = CUBE_OFF.replace("1 0 1\n", "1 zero 1\n");
    assert!(matches!(err("c.off", off.as_bytes()), LoadError::Syntax { at, .. } if at == line(9)));
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("1 0 0\n", "1 0 oops\n"));
    assert!(matches!(err("t.ply", ply.as_bytes()), LoadError::Syntax { at, .. } if at == line(11)));
    let obj = "v 0 0 0\n\n# comment\nv 1 0\nv 0 1 0\nf 1 2 3\n";
    assert!(matches!(err("t.obj", obj.as_bytes()), LoadError::Syntax { at, .. } if at == line(4)));
    let off = b"OFF\n3 1\n0 0 0\n1 0 0\n\xff 1 0\n3 0 1 2\n";
    assert!(matches!(err("t.off", off), LoadError::Syntax { at, .. } if at == line(5)));
}

// ---- random corruption: never a panic, never an invalid mesh ----

fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("c.off", CUBE_OFF.as_bytes().to_vec()),
        ("t.ply", ply_ascii(4, 4, TETRA_BODY).into_bytes()),
        ("b.ply", ply_binary(4, &TETRA, &TETRA_FACES)),
        ("t.stl", stl_binary(2, &[TRI, TRI])),
        (
            "t.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4 1\n".to_vec(),
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn corrupted_files_fail_cleanly(which in 0usize..5, cut in 0.0f64..1.0, flips in prop::collection::vec((0.0f64..1.0, any::<u8>()), 0..4)) {
        let (name, mut bytes) = fixtures().swap_remove(which);
        for (at, byte) in flips {
            let i = ((bytes.len() - 1) as f64 * at) as usize;
            bytes[i] = byte;
        }
        bytes.truncate(((bytes.len() as f64) * (0.5 + cut / 2.0)) as usize + 1);
        if let Ok(mesh) = load_bytes(name, &bytes) {
            // Whatever loads is a valid mesh.
            let n = mesh.vertices().len();
            prop_assert!(mesh.triangles().iter().flatten().all(|&i| (i as usize) < n));
            prop_assert!(mesh.vertices().iter().all(|p| p.iter().all(|c| c.is_finite())));
        }
    }
}
