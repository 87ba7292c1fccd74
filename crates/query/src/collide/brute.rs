//! The exact brute-force oracle: every triangle pair through the exact predicate.

use crate::kernel::leaf::placed_triangle;
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Pose, TriMesh, Triangle};

/// Every intersecting pair `[triangle of a, triangle of b]`, sorted, by testing all `|a|·|b|`
/// pairs with the exact predicate, B placed in A's frame exactly as [`collide`](super::collide)
/// places it. Quadratic: for tests and small meshes.
pub fn brute_force(a: &TriMesh, pose_a: &Pose, b: &TriMesh, pose_b: &Pose) -> Vec<[u32; 2]> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let bt: Vec<Triangle> = (0..b.triangles().len())
        .map(|t| placed_triangle(b, t, &b_in_a))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..a.triangles().len() {
        let ta = a.triangle(i);
        for (j, tb) in bt.iter().enumerate() {
            if tri_tri_exact::intersects(&ta, tb) {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}

/// Every intersecting pair `[i, j]`, `i < j`, of triangles of `mesh` that share no vertex index,
/// sorted: the oracle of [`self_collide`](super::self_collide).
pub fn brute_force_self(mesh: &TriMesh) -> Vec<[u32; 2]> {
    let n = mesh.triangles().len();
    let tris: Vec<Triangle> = (0..n).map(|t| mesh.triangle(t)).collect();
    let mut pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if !super::self_collide::share_vertex(mesh, i as u32, j as u32)
                && tri_tri_exact::intersects(&tris[i], &tris[j])
            {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}
