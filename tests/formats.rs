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
    let mut s = String::new();
    m.vertices()
        .iter()
        .for_each(|p| writeln!(s, "v {} {} {}", p.x, p.y, p.z).unwrap());
    m.triangles()
        .iter()
        .for_each(|[a, b, c]| writeln!(s, "f {} {} {}", a + 1, b + 1, c + 1).unwrap());
    s.into_bytes()
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
