//! Small hand-made meshes and mesh helpers for the hostile-geometry tests.

use obbtree::bv::{Point, TriMesh};

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
