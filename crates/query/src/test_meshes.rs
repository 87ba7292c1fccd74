//! Meshes the unit tests share.

use crate::MeshModel;
use obbtree_bv::{Point, TriMesh};

/// A soup of triangles, three points of `coordinates` (nine numbers) each.
pub(crate) fn soup(coordinates: &[f64]) -> MeshModel {
    let vertices: Vec<Point> = coordinates
        .chunks_exact(3)
        .map(|c| Point::new(c[0], c[1], c[2]))
        .collect();
    let triangles = (0..vertices.len() as u32 / 3)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    MeshModel::new(TriMesh::new(vertices, triangles).unwrap()).unwrap()
}

/// The closed box `[0, size₀] × [0, size₁] × [0, size₂]`, twelve triangles.
pub(crate) fn closed_box(size: [f64; 3]) -> TriMesh {
    let corners = (0..8)
        .map(|k| {
            Point::new(
                f64::from(k & 1) * size[0],
                f64::from((k >> 1) & 1) * size[1],
                f64::from(k >> 2) * size[2],
            )
        })
        .collect();
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let triangles = quads
        .iter()
        .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
        .collect();
    TriMesh::new(corners, triangles).unwrap()
}

/// A height field over `n × n` grid squares, two triangles each, the vertex of grid point
/// `(i, j)` (`0 ≤ i, j ≤ n`) being `vertex(i, j)`, asked for row by row: neighbouring
/// triangles share vertices.
pub(crate) fn grid(n: u32, mut vertex: impl FnMut(u32, u32) -> Point) -> TriMesh {
    let vertices = (0..=n)
        .flat_map(|i| (0..=n).map(move |j| (i, j)))
        .map(|(i, j)| vertex(i, j))
        .collect();
    let at = |i: u32, j: u32| i * (n + 1) + j;
    let triangles = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .flat_map(|(i, j)| {
            [
                [at(i, j), at(i + 1, j), at(i + 1, j + 1)],
                [at(i, j), at(i + 1, j + 1), at(i, j + 1)],
            ]
        })
        .collect();
    TriMesh::new(vertices, triangles).expect("a grid's triangles are valid")
}

/// A wavy height field of `n × n` squares, two triangles each ([`grid`]): neighbouring
/// triangles share vertices, as in the meshes robots are made of.
pub(crate) fn wavy_field(n: u32) -> TriMesh {
    let height = |i: u32, j: u32| (f64::from(i) * 0.7).sin() + (f64::from(j) * 1.3).cos();
    grid(n, |i, j| {
        Point::new(f64::from(i), f64::from(j), height(i, j))
    })
}
