//! Malformed inputs give the expected typed error, naming the file and the line or element;
//! random corruptions of valid files never panic and never give an invalid mesh.

mod common;

use common::asset;
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
        LoadError::NoFaces { .. }
    ));
}

#[test]
fn ascii_stl_errors_name_the_line() {
    let bad = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    assert!(matches!(err("t.stl", bad.as_bytes()), LoadError::Syntax { at, .. } if at == line(5)));
    // Without a name after `solid` too (stl_io read that as a binary file).
    for empty in ["solid t\nendsolid t\n", "solid\nendsolid\n"] {
        assert!(matches!(
            err("t.stl", empty.as_bytes()),
            LoadError::NoFaces { .. }
        ));
    }
}

// ---- bad indices ----

#[test]
fn out_of_range_indices() {
    // Every text loader names the line of the face, binary PLY the face.
    let off = CUBE_OFF.replace("4 3 0 4 7", "4 3 0 4 8");
    assert!(matches!(err("c.off", off.as_bytes()), LoadError::Syntax { at, .. } if at == line(17)));
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("3 1 2 3", "3 1 2 4"));
    assert!(matches!(err("t.ply", ply.as_bytes()), LoadError::Syntax { at, .. } if at == line(17)));
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 9], [1, 2, 3]];
    assert!(
        matches!(err("t.ply", &ply_binary(4, &TETRA, &faces)), LoadError::Syntax { at, .. } if at == element("face", 2))
    );
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
    // Text files: the line; binary files: the vertex or facet.
    let at = |e: LoadError| match e {
        LoadError::Syntax { at, .. } => at,
        e => panic!("{e:?}"),
    };
    for bad in ["1 nan 1\n", "1 inf 1\n"] {
        let off = CUBE_OFF.replace("1 1 1\n", bad);
        assert_eq!(at(err("c.off", off.as_bytes())), line(10));
    }
    let ply = ply_ascii(4, 4, &TETRA_BODY.replace("0 1 0\n", "0 NaN 0\n"));
    assert_eq!(at(err("t.ply", ply.as_bytes())), line(12));
    let mut coords = TETRA;
    coords[3][2] = f32::INFINITY;
    assert_eq!(
        at(err("t.ply", &ply_binary(4, &coords, &TETRA_FACES))),
        element("vertex", 3)
    );
    assert_eq!(
        at(err("t.obj", b"v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n")),
        line(3)
    );
    let nan = [[0., 0., 0.], [f32::NAN, 0., 0.], [0., 1., 0.]];
    assert_eq!(
        at(err("t.stl", &stl_binary(2, &[TRI, nan]))),
        element("facet", 1)
    );
    // Finite but out of the supported range: the mesh check, naming the vertex in file order.
    match err("t.obj", b"v 0 0 0\nv 1 0 0\nv 0 1e200 0\nf 1 2 3\n") {
        LoadError::Invalid {
            source: MeshError::CoordinateOutOfRange { vertex: 2, .. },
            ..
        } => {}
        e => panic!("{e:?}"),
    }
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
    let empty_mesh = |e| matches!(e, LoadError::NoFaces { .. });
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
        err("mesh.3ds", b"<xml/>"),
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

// ---- every message, word for word ----

/// What a table case loads: a file with these bytes, or a directory.
enum Input {
    File(Vec<u8>),
    Directory,
}

fn file(bytes: impl AsRef<[u8]>) -> Input {
    Input::File(bytes.as_ref().to_vec())
}

/// The message of loading `input` as `name`, with the path and its `: ` taken off (and checked).
fn message(name: &str, input: &Input) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    match input {
        Input::File(bytes) => std::fs::write(&path, bytes).unwrap(),
        Input::Directory => std::fs::create_dir(&path).unwrap(),
    }
    let error = match load_mesh(&path) {
        Ok(mesh) => return format!("loaded {} triangles", mesh.triangles().len()),
        Err(e) => e.to_string(),
    };
    let prefix = format!("{}: ", path.display());
    match error.strip_prefix(&prefix) {
        Some(rest) => rest.to_string(),
        None => format!("does not start with the path: {error}"),
    }
}

const TRIANGLE_OBJ: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

fn stl_ascii(vertices: &str) -> String {
    format!("solid t\nfacet normal 0 0 1\nouter loop\n{vertices}endloop\nendfacet\nendsolid t\n")
}

const STL_CORNERS: &str = "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n";

fn faults() -> Vec<(&'static str, Input, &'static str)> {
    let obj = |face: &str| file(format!("{TRIANGLE_OBJ}{face}\n"));
    let off = |from: &str, to: &str| file(CUBE_OFF.replace(from, to));
    let ply = |from: &str, to: &str| file(ply_ascii(4, 4, &TETRA_BODY.replace(from, to)));
    let mut nan_corner = [TRI];
    nan_corner[0][1][0] = f32::NAN;
    let mut inf_vertex = TETRA;
    inf_vertex[3][2] = f32::INFINITY;
    let mut cut_gz = gzip(CUBE_OFF.as_bytes());
    cut_gz.truncate(cut_gz.len() / 2);
    vec![
        // OBJ
        ("junk.obj", file(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "line 1: \"�PNG\" is not an OBJ statement; expected v, f, vt, vn, l, p, o, g, s, usemtl, mtllib or a # comment (is this a text OBJ file?)"),
        ("t.obj", obj("f 1 3"), "line 5: a face has 2 vertices; it needs at least 3 (a line is `l`)"),
        ("t.obj", obj("f 1 2 4"), "line 5: face index 4 refers to vertex 4, but there are only 3 vertices"),
        ("t.obj", obj("f 0 1 2"), "line 5: face index 0 is invalid: OBJ indices start at 1 (negative ones count back from the last vertex)"),
        ("t.obj", obj("f 1 2 12345678901234567890"), "line 5: face index 12345678901234567890 is too large (at most 4294967295)"),
        ("t.obj", obj("f 1 2 4294967296"), "line 5: face index 4294967296 is too large (at most 4294967295)"),
        ("t.obj", obj("f 1 2 x"), "line 5: face corner \"x\" is not a vertex index; expected v, v/vt, v/vt/vn or v//vn with v a whole number"),
        ("t.obj", obj("f 1 2 3.0"), "line 5: face corner \"3.0\" is not a vertex index; expected v, v/vt, v/vt/vn or v//vn with v a whole number"),
        ("t.obj", obj("f 1/1/1/1 2 3"), "line 5: face corner \"1/1/1/1\" is not a vertex index; expected v, v/vt, v/vt/vn or v//vn with v a whole number"),
        ("t.obj", obj("f -1 -2 -4"), "line 5: face index -4 counts back past the first vertex: only 3 vertices come before this line"),
        ("t.obj", file(format!("f 1 2 5\n{TRIANGLE_OBJ}")), "line 1: face index 5 refers to vertex 5, but there are only 3 vertices"),
        ("t.obj", obj("v 1 0"), "line 5: a vertex needs three coordinates x y z, found \"v 1 0\""),
        ("t.obj", obj("v 1 zero 0"), "line 5: vertex coordinate \"zero\" is not a number"),
        ("t.obj", obj("v 0 nan 0"), "line 5: vertex coordinate is NaN; coordinates must be finite numbers"),
        ("t.obj", obj("v inf 0 0"), "line 5: vertex coordinate is infinite; coordinates must be finite numbers"),
        ("t.obj", obj("v 1e400 0 0"), "line 5: vertex coordinate 1e400 is too large for f64; coordinates must be finite numbers"),
        ("t.obj", obj("v 1 2 3 4 5 6 7 8"), "line 5: a vertex has 8 numbers; expected x y z, optionally followed by w or by a colour r g b"),
        ("t.obj", obj("surf 0 1 0 1 1 2 3"), "line 5: free-form surfaces (surf) are not read; export the mesh as polygons (f)"),
        ("t.obj", file("# nothing\nv 1 2 3\n"), "no faces: an OBJ mesh needs at least one `f` line with three or more vertices"),
        ("t.obj", obj("v 1e200 0 0"), "vertex 3 has coordinate 1e200, outside the supported range (0, or a magnitude from 1e-70 to 1e100); rescale the mesh"),
        // a continued line and CRLF line ends: lines are counted as the file has them
        (
            "t.obj",
            file("v 0 0 \\\n 0\nv 1 0 0\r\nv 0 1 0\r\n\r\nf 1 2 x\r\n"),
            "line 6: face corner \"x\" is not a vertex index; expected v, v/vt, v/vt/vn or v//vn with v a whole number",
        ),
        // STL ascii
        ("t.stl", file("solid\nendsolid\n"), "no facets: an ascii STL needs at least one `facet normal ... endfacet`"),
        (
            "t.stl",
            file(stl_ascii("vertex 0 0 0\nvertex NaN 0 0\nvertex 0 1 0\n")),
            "line 5: vertex coordinate is NaN; coordinates must be finite numbers",
        ),
        (
            "t.stl",
            file(stl_ascii("vertex 0 0 0\nvertex 1e39 0 0\nvertex 0 1 0\n")),
            "line 5: vertex coordinate 1e39 is too large for f32 (the precision of STL); coordinates must be finite numbers",
        ),
        (
            "t.stl",
            file(stl_ascii("vertex 0 0 0\nvertex 1 0\nvertex 0 1 0\n")),
            "line 5: expected `vertex x y z`, found \"vertex 1 0\"",
        ),
        ("t.stl", file(stl_ascii("vertex 0 0 0\nvertex 1 0 0\n")), "line 6: expected `vertex x y z`, found \"endloop\""),
        (
            "t.stl",
            file(stl_ascii(STL_CORNERS).replace("outer loop\n", "")),
            "line 3: expected `outer loop`, found \"vertex 0 0 0\"",
        ),
        (
            "t.stl",
            file(stl_ascii(STL_CORNERS).replace("normal 0 0 1", "normal 0 x 1")),
            "line 2: expected `facet normal nx ny nz` or `endsolid`, found \"facet normal 0 x 1\"",
        ),
        (
            "t.stl",
            file(stl_ascii(STL_CORNERS).replace("endsolid t\n", "")),
            "line 8: the file ends here, but `facet normal nx ny nz` or `endsolid` should follow (is it cut short?)",
        ),
        ("t.stl", file(stl_ascii(STL_CORNERS) + "junk\n"), "line 10: expected `solid` or the end of the file, found \"junk\""),
        // STL binary
        ("t.stl", file(stl_binary(3, &[TRI, TRI])), "the file ends before facet 2, but its header declares 3 of them (is it cut short?)"),
        ("t.stl", file(stl_binary(1, &[TRI, TRI])), "facet 1: data after the last declared element; do the header's counts match the file?"),
        ("t.stl", file(stl_binary(1, &nan_corner)), "facet 0: corner 1 has a coordinate that is NaN; coordinates must be finite numbers"),
        ("t.stl", file([7u8; 40]), "40 bytes is too short for a binary STL header (84 bytes), and it is not ascii STL (\"solid\" ... \"facet\")"),
        ("t.stl", file(stl_binary(0, &[])), "no facets: the binary STL header declares 0 facets"),
        // PLY ascii
        ("t.ply", ply("3 1 2 3\n", "3 1 2 4\n"), "line 17: face 3: corner 2 refers to vertex 4, but there are only 4 vertices"),
        ("t.ply", ply("3 0 3 2", "3 0 -3 2"), "line 16: face 2: a vertex index is negative; PLY indices count from 0"),
        ("t.ply", ply("3 0 3 2", "2 0 3"), "line 16: face 2: 2 corners, but a face needs at least 3"),
        ("t.ply", ply("0 1 0\n", "0 NaN 0\n"), "line 12: vertex 2: \"NaN\": ascii PLY has no NaN or infinity; values must be finite numbers"),
        ("t.ply", ply("1 0 0\n", "1 0 oops\n"), "line 11: vertex 1: \"oops\" is not a number"),
        ("t.ply", file(ply_ascii(4, 5, TETRA_BODY)), "the file ends before face 4, but its header declares 5 of them (is it cut short?)"),
        ("t.ply", file(ply_ascii(4, 3, TETRA_BODY)), "line 17: data after the last declared element; do the header's counts match the file?"),
        (
            "t.ply",
            file(ply_ascii(4, 4, TETRA_BODY).replacen("ply", "plx", 1)),
            "it does not start with \"ply\", as every PLY file does (is the file name's extension right?)",
        ),
        (
            "t.ply",
            file(ply_ascii(4, 4, TETRA_BODY).replace("float z", "float w")),
            "the vertex element has no \"z\" property; obbtree reads x, y and z",
        ),
        (
            "t.ply",
            file(ply_ascii(4, 4, TETRA_BODY).replace("float z", "int z")),
            "vertex property \"z\" is int; obbtree reads float or double",
        ),
        (
            "t.ply",
            file(ply_ascii(4, 4, TETRA_BODY).replace("vertex_indices", "corners")),
            "the face element has no \"vertex_indices\" (or \"vertex_index\") list property",
        ),
        ("t.ply", file(ply_ascii(1, 0, "1 2 3\n")), "no faces: the header declares 0 faces"),
        ("t.ply", file(b"ply\nformat ascii 9.0\nend_header\n"), "the header declares no \"vertex\" element"),
        // PLY binary
        (
            "t.ply",
            file(ply_binary(
                4,
                &TETRA,
                &[[0, 2, 1], [0, 1, 3], [0, 3, 9], [1, 2, 3]],
            )),
            "face 2: corner 2 refers to vertex 9, but there are only 4 vertices",
        ),
        (
            "t.ply",
            file(ply_binary(
                4,
                &TETRA,
                &[[0, 2, 1], [0, -1, 3], [0, 3, 2], [1, 2, 3]],
            )),
            "face 1: a vertex index is negative; PLY indices count from 0",
        ),
        ("t.ply", file(ply_binary(4, &inf_vertex, &TETRA_FACES)), "vertex 3: a coordinate is infinite; coordinates must be finite numbers"),
        ("t.ply", file(ply_binary(5, &TETRA, &TETRA_FACES)), "face 0: 0 corners, but a face needs at least 3"),
        (
            "t.ply",
            file(&ply_binary(4, &TETRA, &TETRA_FACES)[..180]),
            "the file ends before vertex 0, but its header declares 4 of them (is it cut short?)",
        ),
        (
            "t.ply",
            file(&ply_binary(4, &TETRA, &TETRA_FACES)[..264]),
            "the file ends before face 3, but its header declares 4 of them (is it cut short?)",
        ),
        (
            "t.ply",
            file([ply_binary(4, &TETRA, &TETRA_FACES), vec![0]].concat()),
            "byte 269: data after the last declared element; do the header's counts match the file?",
        ),
        // OFF
        ("c.off", off("4 3 0 4 7", "4 3 0 4 8"), "line 17: face 5 refers to vertex 8, but there are only 8 vertices"),
        ("c.off", off("4 3 0 4 7", "4 3 0 -4 7"), "line 17: face 5: vertex index -4 is negative; OFF indices count from 0"),
        ("c.off", off("4 3 0 4 7", "4 3 0 4 12345678901"), "line 17: face 5: vertex index 12345678901 is too large (at most 4294967295)"),
        ("c.off", off("4 3 0 4 7", "4 3 0 4 x"), "line 17: face 5: vertex index \"x\" is not a whole number"),
        ("c.off", off("4 3 0 4 7", "4 3 0 4"), "line 17: face 5: expected 4 vertex indices, found \"4 3 0 4\""),
        ("c.off", off("4 3 0 4 7", "2 3 0"), "line 17: face 5 has 2 corners; a face needs at least 3"),
        ("c.off", off("1 1 1\n", "1 nan 1\n"), "line 10: vertex 6: coordinate is NaN; coordinates must be finite numbers"),
        ("c.off", off("1 1 1\n", "1 -inf 1\n"), "line 10: vertex 6: coordinate is infinite; coordinates must be finite numbers"),
        ("c.off", off("1 0 1\n", "1 zero 1\n"), "line 9: vertex 5: coordinate \"zero\" is not a number"),
        ("c.off", off("1 0 1\n", "1 0\n"), "line 9: vertex 5: expected three coordinates, found \"1 0\""),
        ("c.off", off("8 6 0", "8 7 0"), "the file ends before face 6, but its header declares 7 of them (is it cut short?)"),
        ("c.off", off("8 6 0", "8 5 0"), "line 17: data after the last declared element; do the header's counts match the file?"),
        ("c.off", off("8 6 0", "8 x"), "line 3: expected the vertex and face counts (\"V F [E]\")"),
        ("c.off", off("OFF", "FOO"), "it does not start with \"OFF\", as every OFF file does (is the file name's extension right?)"),
        ("c.off", file("OFF BINARY\n"), "line 1: \"OFF BINARY\" is not a 3D ascii OFF header; obbtree reads [ST][C][N]OFF"),
        ("c.off", file("4OFF\n1 1 0\n"), "line 1: \"4OFF\" is not a 3D ascii OFF header; obbtree reads [ST][C][N]OFF"),
        ("c.off", file("OFF\n0 0 0\n"), "no faces: the header declares 0 faces"),
        (
            "c.off",
            file(b"OFF\n3 1\n0 0 0\n1 0 0\n\xff 1 0\n3 0 1 2\n"),
            "line 5: not valid UTF-8 text (is this a text OFF file?)",
        ),
        // gzip
        ("c.off.gz", file(CUBE_OFF), "not valid gzip data: invalid gzip header"),
        ("c.off.gz", file(cut_gz), "not valid gzip data: incomplete deflate stream"),
        (
            "t.obj.gz",
            file(gzip(format!("{TRIANGLE_OBJ}f 1 2 4\n").as_bytes())),
            "line 5: face index 4 refers to vertex 4, but there are only 3 vertices",
        ),
        ("t.stl.gz", file(gzip(b"solid\nendsolid\n")), "no facets: an ascii STL needs at least one `facet normal ... endfacet`"),
        ("e.ply.gz", file(gzip(b"")), "the file is empty"),
        // the file itself
        ("e.obj", file(b""), "the file is empty"),
        ("mesh.3ds", file(b"<xml/>"), "unknown mesh format; use a file ending in .obj, .stl, .ply, .off or .dae (optionally followed by .gz)"),
        ("mesh.gz", file(gzip(b"x")), "unknown mesh format; use a file ending in .obj, .stl, .ply, .off or .dae (optionally followed by .gz)"),
        ("mesh.dae", file(b"<xml/>"), "the root element is <xml>, not <COLLADA>"),
        ("mesh.dae.gz", file(gzip(b"<COLLADA><x>")), "not a valid XML file: the root node was opened but never closed"),
        ("dir", Input::Directory, "is a directory, not a mesh file"),
        ("dir.obj", Input::Directory, "is a directory, not a mesh file"),
    ]
}

#[test]
fn every_fault_of_every_loader_says_what_is_wrong() {
    let wrong: Vec<String> = faults()
        .iter()
        .filter_map(|(name, input, expected)| {
            let got = message(name, input);
            (got != *expected).then(|| format!("{name}:\n   got  {got:?}\n   want {expected:?}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong messages:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
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
    #![proptest_config(common::knob::config(256))]

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
