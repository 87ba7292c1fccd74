//! Small hand-made meshes and mesh helpers for the hostile-geometry tests.

use obbtree::bv::{Point, TriMesh, Vector};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

pub fn p(x: f64, y: f64, z: f64) -> Point {
    Point::new(x, y, z)
}

/// A valid mesh (panics on invalid input: the tests build valid ones on purpose).
pub fn mesh(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> TriMesh {
    TriMesh::new(vertices, triangles).unwrap()
}

/// `m` with every vertex moved by `f`, same triangles.
pub fn mapped(m: &TriMesh, f: impl Fn(&Point) -> Point) -> TriMesh {
    mesh(m.vertices().iter().map(f).collect(), m.triangles().to_vec())
}

/// A non-manifold fan: four triangles on the edge (0,0,0)–(0,0,1), and a fifth joining two of
/// them at the origin.
pub fn fan() -> TriMesh {
    mesh(
        vec![
            p(0., 0., 0.),
            p(0., 0., 1.),
            p(1., 0., 0.),
            p(-1., 0., 0.),
            p(0., 1., 0.),
            p(0., -1., 0.),
        ],
        vec![[0, 1, 2], [0, 1, 3], [0, 1, 4], [0, 1, 5], [2, 4, 0]],
    )
}

/// `n` triangles `(a, b, -(a + b))` with random corners that are multiples of 3: every centroid
/// is exactly the origin, so no centroid-based split separates them.
pub fn shared_centroid(n: u32) -> TriMesh {
    let mut rng = Pcg64::seed_from_u64(1);
    let mut vertices = Vec::new();
    for _ in 0..n {
        let a = Vector::from_fn(|_, _| f64::from(3 * rng.gen_range(-50i32..50)));
        let b = Vector::from_fn(|_, _| f64::from(3 * rng.gen_range(-50i32..50)));
        vertices.extend([Point::from(a), Point::from(b), Point::from(-(a + b))]);
    }
    let triangles = (0..n).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
    mesh(vertices, triangles)
}

/// The mesh as OBJ text: a `v` line per vertex (printed so that it reads back to the same
/// `f64`s) and an `f` line per triangle.
pub fn obj_text(m: &TriMesh) -> String {
    let vertices = m
        .vertices()
        .iter()
        .map(|v| format!("v {} {} {}\n", v.x, v.y, v.z));
    let faces = m
        .triangles()
        .iter()
        .map(|[a, b, c]| format!("f {} {} {}\n", a + 1, b + 1, c + 1));
    vertices.chain(faces).collect()
}
