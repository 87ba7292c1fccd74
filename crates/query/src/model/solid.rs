//! What containment needs to know about a model's mesh, found on first use: whether it is
//! closed, and one vertex of each connected component.

use obbtree_bv::TriMesh;

/// What containment needs to know about a mesh.
pub(crate) struct SolidFacts {
    /// Whether the mesh is closed ([`TriMesh::is_closed`]).
    pub closed: bool,
    /// One vertex index per connected component ([`component_seeds`]).
    pub component_seeds: Vec<u32>,
}

impl SolidFacts {
    /// The facts of `mesh`.
    pub fn of(mesh: &TriMesh) -> Self {
        Self {
            closed: mesh.is_closed(),
            component_seeds: component_seeds(mesh),
        }
    }
}

/// One vertex index per connected component of `mesh` (triangles sharing a vertex index are
/// connected), the smallest of each, in increasing order.
pub(crate) fn component_seeds(mesh: &TriMesh) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..mesh.vertices().len() as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    for t in mesh.triangles() {
        for k in 1..3 {
            let (x, y) = (root(&mut parent, t[0]), root(&mut parent, t[k]));
            // The smaller index becomes the root, so each root is its component's smallest.
            parent[x.max(y) as usize] = x.min(y);
        }
    }
    let mut used = vec![false; parent.len()];
    mesh.triangles()
        .iter()
        .flatten()
        .for_each(|&v| used[v as usize] = true);
    (0..parent.len() as u32)
        .filter(|&v| used[v as usize] && root(&mut parent, v) == v)
        .collect()
}
