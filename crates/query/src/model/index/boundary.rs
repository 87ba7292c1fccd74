//! The boundary of each node's part of the surface ([`boundary_per_node`]), from which the
//! winding number's walk bounds how fast the winding number can change off the surface.

use super::rss::node_ranges;
use obbtree_bv::TriMesh;
use obbtree_tree::Bvh;
use std::collections::HashMap;

/// The boundary length held by each node, by node index. An edge `{a, b}` whose triangles use
/// `a → b` and `b → a` unequally is a boundary edge, of weight its length times that excess;
/// it is counted once, at the first triangle in the tree's order that uses it, so it lies in
/// the box of every node that counts it. Vertices at equal coordinates count as one, so the
/// seams of a mesh whose vertices are repeated along them (as texture seams leave them) are
/// not boundary: their two sides are the same segment, run both ways. All zero on a closed
/// mesh.
pub(crate) fn boundary_per_node<V>(mesh: &TriMesh, tree: &Bvh<V>) -> Vec<f64> {
    let per_triangle = boundary_per_triangle(mesh, tree.triangle_order());
    node_ranges(tree)
        .iter()
        .map(|range| per_triangle[range.clone()].iter().sum())
        .collect()
}

/// Each triangle's boundary weight, by position in `order` (the tree's triangle order).
fn boundary_per_triangle(mesh: &TriMesh, order: &[u32]) -> Vec<f64> {
    // Per edge, its use `a → b` less its use `b → a` (`a < b`), and where it was first seen.
    let same = mesh.first_at_same_coordinates();
    let mut excess: HashMap<(u32, u32), (i64, usize)> = HashMap::new();
    for (position, &t) in order.iter().enumerate() {
        let corners = mesh.triangles()[t as usize].map(|v| same[v as usize]);
        for k in 0..3 {
            let (a, b) = (corners[k], corners[(k + 1) % 3]);
            if a != b {
                let edge = excess.entry((a.min(b), a.max(b))).or_insert((0, position));
                edge.0 += if a < b { 1 } else { -1 };
            }
        }
    }
    let mut per_triangle = vec![0.0; order.len()];
    for (&(a, b), &(count, position)) in excess.iter().filter(|(_, e)| e.0 != 0) {
        let length = (mesh.vertices()[a as usize] - mesh.vertices()[b as usize]).norm();
        per_triangle[position] += count.unsigned_abs() as f64 * length;
    }
    per_triangle
}
