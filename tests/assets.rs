//! Every bundled mesh loads with the independently counted sizes, closedness and degeneracy.

mod common;

use common::{asset, BUNDLED};
use obbtree::load::load_mesh;

#[test]
fn every_bundled_mesh_loads_with_known_counts() {
    for m in &BUNDLED {
        let mesh = load_mesh(&asset(m.name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mesh.vertices().len(), m.vertices, "{} vertices", m.name);
        assert_eq!(mesh.triangles().len(), m.triangles, "{} triangles", m.name);
        assert_eq!(mesh.is_closed(), m.closed, "{} closed", m.name);
        assert_eq!(
            mesh.degenerate_triangles().len(),
            m.degenerate,
            "{} degenerate",
            m.name
        );
    }
}

#[test]
fn bundled_list_is_complete() {
    // A mesh added to assets/ must be added to BUNDLED (and counted) too.
    let mut found = Vec::new();
    let mut stack = vec![asset("")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.ends_with("large") {
                stack.push(path);
            } else if ["obj", "stl", "gz", "ply", "off"]
                .iter()
                .any(|e| path.extension().is_some_and(|x| x == *e))
            {
                found.push(
                    path.strip_prefix(asset(""))
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .replace('\\', "/"),
                );
            }
        }
    }
    found.sort();
    let mut listed: Vec<String> = BUNDLED.iter().map(|m| m.name.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn obj_triangles_follow_file_face_order() {
    // bunny.obj was written from the npm arrays in order: face k is `f a b c` on line 2 + V + k + 1.
    let text = std::fs::read_to_string(asset("bunny.obj")).unwrap();
    let positions: Vec<[f64; 3]> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let c: Vec<f64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            [c[0], c[1], c[2]]
        })
        .collect();
    let faces: Vec<Vec<usize>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("f "))
        .map(|l| {
            l.split(' ')
                .map(|x| x.parse::<usize>().unwrap() - 1)
                .collect()
        })
        .collect();
    let mesh = load_mesh(&asset("bunny.obj")).unwrap();
    assert_eq!(faces.len(), mesh.triangles().len());
    for (t, face) in faces.iter().enumerate() {
        let tri = mesh.triangle(t);
        for (corner, &v) in [tri.a, tri.b, tri.c].iter().zip(face) {
            assert_eq!([corner.x, corner.y, corner.z], positions[v], "triangle {t}");
        }
    }
}
