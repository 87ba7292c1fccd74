//! Every loader on every bundled mesh: each mesh is written by the small independent writers
//! below in every format (ascii and binary, plain and gzipped), loaded back, and compared with
//! the original. OFF and PLY keep vertices and triangles exactly; OBJ keeps every triangle's
//! corners; STL keeps them rounded to f32 (its only precision).

mod common;

use common::{asset, BUNDLED};
use obbtree::bv::TriMesh;
use obbtree::load::load_mesh;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

fn write_off(m: &TriMesh) -> Vec<u8> {
    let mut s = format!("OFF\n{} {} 0\n", m.vertices().len(), m.triangles().len());
    m.vertices()
        .iter()
        .for_each(|p| writeln!(s, "{} {} {}", p.x, p.y, p.z).unwrap());
    m.triangles()
        .iter()
        .for_each(|[a, b, c]| writeln!(s, "3 {a} {b} {c}").unwrap());
    s.into_bytes()
}

fn write_obj(m: &TriMesh) -> Vec<u8> {
    common::shapes::obj_text(m).into_bytes()
}

#[derive(Clone, Copy)]
enum Ply {
    Ascii,
    Little,
    Big,
}

fn write_ply(m: &TriMesh, encoding: Ply) -> Vec<u8> {
    let name = match encoding {
        Ply::Ascii => "ascii",
        Ply::Little => "binary_little_endian",
        Ply::Big => "binary_big_endian",
    };
    let mut out = format!(
        "ply\nformat {name} 1.0\ncomment written by tests/formats.rs\nelement vertex {}\nproperty double x\n\
         property double y\nproperty double z\nelement face {}\nproperty list uchar uint vertex_indices\nend_header\n",
        m.vertices().len(),
        m.triangles().len()
    )
    .into_bytes();
    let f64s = |x: f64| match encoding {
        Ply::Big => x.to_be_bytes(),
        _ => x.to_le_bytes(),
    };
    let u32s = |x: u32| match encoding {
        Ply::Big => x.to_be_bytes(),
        _ => x.to_le_bytes(),
    };
    for p in m.vertices() {
        match encoding {
            Ply::Ascii => out.extend(format!("{} {} {}\n", p.x, p.y, p.z).bytes()),
            _ => p.iter().for_each(|&c| out.extend(f64s(c))),
        }
    }
    for t in m.triangles() {
        match encoding {
            Ply::Ascii => out.extend(format!("3 {} {} {}\n", t[0], t[1], t[2]).bytes()),
            _ => {
                out.push(3);
                t.iter().for_each(|&i| out.extend(u32s(i)));
            }
        }
    }
    out
}

fn corners(m: &TriMesh, t: usize) -> [[f32; 3]; 3] {
    let tri = m.triangle(t);
    [tri.a, tri.b, tri.c].map(|p| [p.x as f32, p.y as f32, p.z as f32])
}

fn write_stl_ascii(m: &TriMesh) -> Vec<u8> {
    let mut s = String::from("solid roundtrip\n");
    for t in 0..m.triangles().len() {
        s.push_str("facet normal 0 0 0\nouter loop\n");
        corners(m, t)
            .iter()
            .for_each(|[x, y, z]| writeln!(s, "vertex {x} {y} {z}").unwrap());
        s.push_str("endloop\nendfacet\n");
    }
    s.push_str("endsolid roundtrip\n");
    s.into_bytes()
}

fn write_stl_binary(m: &TriMesh) -> Vec<u8> {
    let mut out = vec![0u8; 80];
    out.extend((m.triangles().len() as u32).to_le_bytes());
    for t in 0..m.triangles().len() {
        out.extend([0u8; 12]);
        corners(m, t)
            .iter()
            .flatten()
            .for_each(|c| out.extend(c.to_le_bytes()));
        out.extend([0u8; 2]);
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// How a reloaded mesh must match the original.
#[derive(Clone, Copy, PartialEq)]
enum Same {
    /// Identical vertex and triangle arrays.
    Exactly,
    /// Same triangles with the same corner coordinates (vertex numbering may differ).
    Corners,
    /// Same triangles with corners equal after rounding to f32.
    CornersF32,
}

fn check(original: &TriMesh, file: &str, bytes: &[u8], same: Same) {
    let dir = tempfile::tempdir().unwrap();
    for (name, data) in [
        (file.to_string(), bytes.to_vec()),
        (format!("{file}.gz"), gzip(bytes)),
    ] {
        let path = dir.path().join(&name);
        std::fs::write(&path, &data).unwrap();
        let loaded = load_mesh(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            loaded.triangles().len(),
            original.triangles().len(),
            "{name}"
        );
        match same {
            Same::Exactly => assert!(loaded == *original, "{name}"),
            Same::Corners => (0..original.triangles().len()).for_each(|t| {
                assert_eq!(
                    loaded.triangle(t),
                    original.triangle(t),
                    "{name} triangle {t}"
                )
            }),
            Same::CornersF32 => (0..original.triangles().len()).for_each(|t| {
                assert_eq!(
                    corners(&loaded, t),
                    corners(original, t),
                    "{name} triangle {t}"
                )
            }),
        }
    }
}

#[test]
fn every_loader_on_every_bundled_mesh() {
    for m in &BUNDLED {
        let original = load_mesh(&asset(m.name)).unwrap();
        check(&original, "m.off", &write_off(&original), Same::Exactly);
        check(
            &original,
            "m.ply",
            &write_ply(&original, Ply::Ascii),
            Same::Exactly,
        );
        check(
            &original,
            "m.ply",
            &write_ply(&original, Ply::Little),
            Same::Exactly,
        );
        check(
            &original,
            "m.ply",
            &write_ply(&original, Ply::Big),
            Same::Exactly,
        );
        check(&original, "m.obj", &write_obj(&original), Same::Corners);
        check(
            &original,
            "m.stl",
            &write_stl_ascii(&original),
            Same::CornersF32,
        );
        check(
            &original,
            "m.stl",
            &write_stl_binary(&original),
            Same::CornersF32,
        );
    }
}

// ---- the loaders against an independent reader ----

/// A mesh as `assets/count.py --dump` reads it.
struct Dumped {
    vertices: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
}

/// Reads `files` with `assets/count.py` (standard-library Python, no code shared with the
/// loaders), or `None` with a loud message if `python3` is missing.
fn independent_reader(files: &[PathBuf]) -> Option<Vec<Dumped>> {
    let run = std::process::Command::new("python3")
        .arg(asset("count.py"))
        .arg("--dump")
        .args(files)
        .output();
    let output = match run {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "\n\n*** SKIPPED: python3 is not installed, so the loaders are NOT compared \
                 with the independent reader assets/count.py ***\n\n"
            );
            return None;
        }
        run => run.unwrap(),
    };
    assert!(
        output.status.success(),
        "count.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = text.lines();
    let dumped = files
        .iter()
        .map(|file| {
            let head: Vec<&str> = lines.next().unwrap().split(' ').collect();
            assert_eq!(head[..2], ["mesh", file.to_str().unwrap()]);
            let (v, t): (usize, usize) = (head[2].parse().unwrap(), head[3].parse().unwrap());
            Dumped {
                vertices: lines.by_ref().take(v).map(row).collect(),
                triangles: lines.by_ref().take(t).map(row).collect(),
            }
        })
        .collect();
    Some(dumped)
}

/// A line of three numbers.
fn row<T: std::str::FromStr>(line: &str) -> [T; 3]
where
    T::Err: std::fmt::Debug,
{
    let columns: Vec<T> = line.split(' ').map(|c| c.parse().unwrap()).collect();
    <[T; 3]>::try_from(columns).unwrap_or_else(|_| panic!("not three numbers: {line}"))
}

/// Loads each of `files` and compares it with the independent reader: the same vertices in the
/// same order (bit for bit) and the same triangles.
fn assert_loaders_agree_with_independent_reader(files: &[PathBuf]) {
    let Some(dumped) = independent_reader(files) else {
        return;
    };
    for (file, expected) in files.iter().zip(dumped) {
        let name = file.display();
        let mesh = load_mesh(file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            mesh.vertices().len(),
            expected.vertices.len(),
            "{name}: vertex count"
        );
        for (i, (p, q)) in mesh.vertices().iter().zip(&expected.vertices).enumerate() {
            assert_eq!(
                [p.x, p.y, p.z].map(f64::to_bits),
                q.map(f64::to_bits),
                "{name}: vertex {i}: {p:?} vs {q:?}"
            );
        }
        assert_eq!(mesh.triangles(), expected.triangles, "{name}: triangles");
    }
}

#[test]
fn bundled_meshes_match_the_independent_reader() {
    let files: Vec<PathBuf> = BUNDLED.iter().map(|m| asset(m.name)).collect();
    assert_loaders_agree_with_independent_reader(&files);
}

/// Small files using what the bundled meshes do not: unreferenced vertices, polygons, negative
/// and forward OBJ indices, `a/t/n` corners, continued lines, CRLF, comments, ignored OBJ
/// statements, extra PLY properties and elements, big-endian PLY, OFF colours, ascii STL with
/// shared and `-0` corners and a decimal that rounds to a different `f32` through `f64`
/// (`1 + 2^-24 + 2^-60`: correctly rounded it is `1 + 2^-23`, via the double `1 + 2^-24` it
/// ties to `1`), gzip.
fn hand_made_files() -> Vec<(&'static str, Vec<u8>)> {
    let obj = b"# hand-made\r\nmtllib x.mtl\no W\xfcrfel\nv 9 9 9\nv 0 0 0 1\nv 1 0 0\nv 0 1 0\nv 1 1 0\n\
vt 0 0\nvn 0 0 1\ng side\ns off\nusemtl red\nf 4/1/1 2/1/1 3/1/1\nf 2//1 3//1 5//1 4//1\nf -1 -4 \\\n -3\n\
l 1 2\np 1\nf 7 2 3\nv 2 2 2\r\nv -0.0 0.1 1e-7 # comment\n"
        .to_vec();
    let stl =
        b"solid a\n  facet normal 0 0 -1\n    outer loop\n      vertex 0 0 0\n      vertex 0 1 0\n\
      vertex 1 0 0\n    endloop\n  endfacet\n  facet normal NaN nan -nan\n    outer loop\n\
      vertex -0 0 0\n      vertex 1 0 0\n      vertex 0.1 0.2 0.30000001\n    endloop\n  endfacet\n\
endsolid a\nsolid b\nfacet normal 0 0 1\nouter loop\nvertex 0.1 0.2 0.30000001\nvertex 1 0 0\n\
vertex 3.4028235e38 -1e-30 1.00000005960464477539062586736\nendloop\nendfacet\nendsolid\n"
            .to_vec();
    let mut stl_binary = b"solid but binary".to_vec();
    stl_binary.resize(80, b' ');
    stl_binary.extend(3u32.to_le_bytes());
    let corners: [[f32; 9]; 3] = [
        [0., 0., 0., 1., 0., 0., 0., 1., 0.],
        [-0., 0., 0., 0., 1., 0., 0., 0., 1.],
        [0.1, 0.2, 0.3, 1., 0., 0., 0., 0., 1.],
    ];
    for facet in corners {
        stl_binary.extend([0u8; 12]);
        facet
            .iter()
            .for_each(|c| stl_binary.extend(c.to_le_bytes()));
        stl_binary.extend([0u8; 2]);
    }
    let ply_ascii =
        b"ply\nformat ascii 1.0\ncomment unreferenced vertex 0, a quad\nelement vertex 5\n\
property float x\nproperty float y\nproperty float z\nproperty uchar red\nelement face 2\n\
property list uchar int vertex_indices\nproperty float quality\nend_header\n\
9 9 9 255\n0 0 0 0\n1 0 0 0\n1.1 1.3 0.7 0\n0.1 1 0 0\n4 1 2 3 4 0.5\n3 4 3 0 1\n"
            .to_vec();
    let mut ply_big = b"ply\nformat binary_big_endian 1.0\nelement material 1\nproperty uchar id\n\
element vertex 4\nproperty double x\nproperty double y\nproperty double z\nelement face 2\n\
property list uchar uint vertex_index\nend_header\n"
        .to_vec();
    ply_big.push(7);
    for p in [[0.1, 0.2, 0.3], [1., 0., 0.], [0., 1., 0.], [5., 5., 5.]] {
        p.iter().for_each(|c: &f64| ply_big.extend(c.to_be_bytes()));
    }
    for face in [[0u32, 1, 2], [2, 1, 0]] {
        ply_big.push(3);
        face.iter().for_each(|i| ply_big.extend(i.to_be_bytes()));
    }
    let off = b"COFF 6 2 0\n# x y z r g b a\n0 0 0 1 0 0 1\n1 0 0 1 0 0 1\n\n1 1 0 1 0 0 1\n\
0 1 0 1 0 0 1\n7 7 7 0 0 0 1\n0.5 0.5 1e-3 0 0 0 1\n5 0 1 2 5 3 0.2 0.2 0.2\n3 5 2 1\n"
        .to_vec();
    let plain = [
        ("hand.obj", obj),
        ("hand.stl", stl),
        ("hand_binary.stl", stl_binary),
        ("hand.ply", ply_ascii),
        ("hand_big.ply", ply_big),
        ("hand.off", off),
    ];
    let gzipped: Vec<_> = plain
        .iter()
        .map(|(name, bytes)| (name, gzip(bytes)))
        .collect();
    let mut files: Vec<(&str, Vec<u8>)> = plain.to_vec();
    for ((name, _), gz) in plain.iter().zip(gzipped) {
        files.push((Box::leak(format!("{name}.GZ").into_boxed_str()), gz.1));
    }
    files
}

#[test]
fn hand_made_files_match_the_independent_reader() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = hand_made_files()
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    assert_loaders_agree_with_independent_reader(&files);
}

#[test]
fn obj_keeps_every_vertex_in_file_order() {
    // Vertex 1 is referenced by no face, and the face uses the others out of order.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.obj");
    std::fs::write(&path, "v 9 9 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 4 2 3\n").unwrap();
    let mesh = load_mesh(&path).unwrap();
    let vertices: Vec<[f64; 3]> = mesh.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
    assert_eq!(
        vertices,
        [[9., 9., 9.], [0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]
    );
    assert_eq!(mesh.triangles(), [[3, 1, 2]]);
}

#[test]
fn obj_faces_with_two_vertices_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.obj");
    std::fs::write(
        &path,
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 4\n",
    )
    .unwrap();
    assert!(
        load_mesh(&path).is_err(),
        "a face with two vertices is not skipped"
    );
}

/// A hand-written COLLADA file in centimetres: one triangle geometry instanced twice (under a
/// node chain `outer ⊃ inner` and under a node of its own), and a geometry never instanced.
const COLLADA: &str = r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimeter" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tri">
      <mesh>
        <source id="tri-pos">
          <float_array id="tri-pos-array" count="9">0 0 0 10 0 0 0 20 0</float_array>
          <technique_common>
            <accessor source="#tri-pos-array" count="3" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#tri-vtx" offset="0"/><p>0 1 2</p></triangles>
      </mesh>
    </geometry>
    <geometry id="unused">
      <mesh>
        <source id="u-pos">
          <float_array id="u-pos-array" count="9">5 5 5 6 5 5 5 6 5</float_array>
          <technique_common>
            <accessor source="#u-pos-array" count="3" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="u-vtx"><input semantic="POSITION" source="#u-pos"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#u-vtx" offset="0"/><p>0 1 2</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="Scene">
      <node id="outer">
        <matrix>0 -1 0 100  1 0 0 0  0 0 1 0  0 0 0 1</matrix>
        <node id="inner">
          <translate>50 0 0</translate>
          <instance_geometry url="#tri"/>
        </node>
      </node>
      <node id="second">
        <translate>0 0 10</translate>
        <scale>2 2 2</scale>
        <instance_geometry url="#tri"/>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#Scene"/></scene>
</COLLADA>
"##;

/// COLLADA vertices come out in metres in the root frame: worked out by hand from the file.
#[test]
fn collada_instances_in_metres_in_the_root_frame() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tri.dae");
    std::fs::write(&path, COLLADA).unwrap();
    let mesh = load_mesh(&path).unwrap();
    // outer · inner · p: inner moves (0,0,0) (10,0,0) (0,20,0) to x + 50; outer turns
    // (x, y) to (−y, x) and adds 100 along x; then cm → m. second: 10 up after doubling.
    let want = [
        [1.0, 0.5, 0.0],
        [1.0, 0.6, 0.0],
        [0.8, 0.5, 0.0],
        [0.0, 0.0, 0.1],
        [0.2, 0.0, 0.1],
        [0.0, 0.4, 0.1],
    ];
    assert_eq!(
        mesh.vertices().len(),
        want.len(),
        "the unused geometry is left out"
    );
    for (got, want) in mesh.vertices().iter().zip(want) {
        let d = (got.coords - nalgebra::Vector3::from(want)).norm();
        assert!(d < 1e-12, "{got} {want:?}");
    }
    assert_eq!(mesh.triangles(), [[0, 1, 2], [3, 4, 5]]);

    // Without a scene every geometry is there once, in metres; refused transforms name the line.
    let bare = COLLADA
        .split("<library_visual_scenes>")
        .next()
        .unwrap()
        .to_string()
        + "</COLLADA>";
    std::fs::write(&path, bare).unwrap();
    let mesh = load_mesh(&path).unwrap();
    assert_eq!(mesh.triangles().len(), 2);
    let largest = mesh
        .vertices()
        .iter()
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max);
    assert!((largest - 0.2).abs() < 1e-12, "20 cm is 0.2 m: {largest}");
    std::fs::write(
        &path,
        COLLADA.replace("<scale>2 2 2</scale>", "<skew>1 0 0 1 0 0 0</skew>"),
    )
    .unwrap();
    let e = load_mesh(&path).unwrap_err().to_string();
    assert!(
        e.contains("tri.dae") && e.contains("<skew> is not supported"),
        "{e}"
    );
    let line = 1 + COLLADA.lines().position(|l| l.contains("<scale>")).unwrap();
    assert!(e.contains(&format!(": line {line}: ")), "{e}");
}
