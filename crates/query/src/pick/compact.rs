//! A compact 4-wide AABB tree for picking: up to four children's boxes stored in their parent,
//! triangles' vertices copied in leaf order.

use super::ray::MeshRay;
use super::traverse::{RayTree, Visitor};
use super::volume::ROBUST_FAR;
use obbtree_bv::{Aabb, BoundingVolume, TriMesh, Triangle};
use obbtree_tree::{Bvh, NodeKind, MAX_DEPTH};

/// A reference to a child: an internal node (index of its [`Quad`]) or a leaf (a run of
/// [`PickTree::triangles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Child {
    /// Internal: quad index. Leaf: first position.
    start: u32,
    /// Internal: 0. Leaf: number of triangles.
    count: u32,
}

/// Children per node of the [`PickTree`].
const WIDTH: usize = 4;

/// Up to four children of a node in one 128-byte record (two cache lines): their boxes side by
/// side (structure of arrays, so the four slab tests run together: `lo[axis][child]`,
/// `hi[axis][child]`) in `f32` rounded outwards, so each stored box contains the exact one.
/// Unused slots hold the empty box (`lo = +inf`, `hi = -inf`), which every ray misses.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
struct Quad {
    lo: [[f32; WIDTH]; 3],
    hi: [[f32; WIDTH]; 3],
    children: [Child; WIDTH],
}

/// The largest `f32` at most `x` (finite).
fn f32_down(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) <= x {
        y
    } else if y > 0.0 {
        f32::from_bits(y.to_bits() - 1)
    } else if y < 0.0 {
        f32::from_bits(y.to_bits() + 1)
    } else {
        -f32::from_bits(1)
    }
}

/// The smallest `f32` at least `x` (finite).
fn f32_up(x: f64) -> f32 {
    -f32_down(-x)
}

/// The picking layout of a [`Bvh<Aabb>`]: a 4-wide tree whose internal nodes are 128-byte
/// records (two cache lines) holding up to four children's boxes (one memory access per step,
/// four boxes tested together; the boxes are stored in `f32` rounded outwards, tested in `f64`), and each
/// triangle's three vertices are copied in leaf order next to its mesh index, so a leaf's
/// triangles are one contiguous read instead of index lookups into the mesh. Same answers as
/// walking the [`Bvh`] it was made from (the same triangle tests; the slightly larger boxes
/// only cost a few more box tests).
///
/// Memory: 128 bytes per 4-wide node and 76 bytes per triangle
/// ([`PickTree::memory_bytes`]); built in one pass over the source tree.
#[derive(Clone, Debug, PartialEq)]
pub struct PickTree {
    root_box: Aabb,
    root: Child,
    quads: Vec<Quad>,
    /// Vertices of the triangle at each leaf position.
    triangles: Vec<Triangle>,
    /// Mesh index of the triangle at each leaf position.
    indices: Vec<u32>,
}

impl PickTree {
    /// The compact copy of `tree`, which must have been built over `mesh`: the binary tree
    /// collapsed into a 4-wide one (each node takes the children of its largest internal
    /// children until it has four; Wald, Benthin & Boulos, "Getting rid of packets", 2008),
    /// nodes in depth-first order.
    pub fn new(mesh: &TriMesh, tree: &Bvh<Aabb>) -> Self {
        let mut quads = Vec::with_capacity(tree.nodes().len() / 2);
        let root = collapse(tree, 0, &mut quads);
        let indices = tree.triangle_order().to_vec();
        let triangles = indices.iter().map(|&t| mesh.triangle(t as usize)).collect();
        Self {
            root_box: *tree.root().bv(),
            root,
            quads,
            triangles,
            indices,
        }
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.quads.len() * std::mem::size_of::<Quad>()
            + self.triangles.len() * std::mem::size_of::<Triangle>()
            + self.indices.len() * std::mem::size_of::<u32>()
    }

    /// Tests a leaf's triangles.
    #[inline]
    fn leaf(&self, leaf: Child, ray: &MeshRay, visitor: &mut impl Visitor) -> bool {
        let range = leaf.start as usize..(leaf.start + leaf.count) as usize;
        for (tri, &index) in self.triangles[range.clone()]
            .iter()
            .zip(&self.indices[range])
        {
            if let Some(hit) = ray.watertight.cast(tri) {
                if hit.t <= visitor.bound() && visitor.hit(index, tri, hit).is_break() {
                    return true;
                }
            }
        }
        false
    }
}

/// The [`Child`] for node `i` of `tree`, appending the quads of its subtree to `quads` (the
/// node's own quad first).
fn collapse(tree: &Bvh<Aabb>, i: usize, quads: &mut Vec<Quad>) -> Child {
    let nodes = tree.nodes();
    if let NodeKind::Leaf(range) = nodes[i].kind() {
        return Child {
            start: range.start as u32,
            count: range.len() as u32,
        };
    }
    let mut members = vec![i];
    while members.len() < WIDTH {
        let widest = members
            .iter()
            .enumerate()
            .filter_map(|(k, &m)| {
                nodes[m]
                    .children()
                    .map(|_| (k, nodes[m].bv().surface_area()))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((k, _)) = widest else { break };
        let [l, r] = nodes[members[k]].children().expect("internal");
        members.splice(k..=k, [l, r]);
    }
    let slot = quads.len();
    quads.push(Quad {
        lo: [[f32::INFINITY; WIDTH]; 3],
        hi: [[f32::NEG_INFINITY; WIDTH]; 3],
        children: [Child { start: 0, count: 0 }; WIDTH],
    });
    for (c, &m) in members.iter().enumerate() {
        let bv = nodes[m].bv();
        for k in 0..3 {
            quads[slot].lo[k][c] = f32_down(bv.mins[k]);
            quads[slot].hi[k][c] = f32_up(bv.maxs[k]);
        }
        quads[slot].children[c] = collapse(tree, m, quads);
    }
    Child {
        start: slot as u32,
        count: 0,
    }
}

/// The slab test of [`Aabb`]'s [`RayVolume`](super::RayVolume) implementation on the four
/// boxes of a quad at once: entry parameters, with `t0 <= t1` exactly for the boxes that are
/// hit.
#[inline]
fn entries(quad: &Quad, ray: &MeshRay, t_max: f64) -> ([f64; WIDTH], [f64; WIDTH]) {
    let mut t0 = [0.0f64; WIDTH];
    let mut t1 = [t_max * ROBUST_FAR; WIDTH];
    for k in 0..3 {
        let (near, far) = if ray.negative[k] {
            (&quad.hi[k], &quad.lo[k])
        } else {
            (&quad.lo[k], &quad.hi[k])
        };
        let (o, inv) = (ray.ray.origin[k], ray.inv_dir[k]);
        for c in 0..WIDTH {
            let t_near = (f64::from(near[c]) - o) * inv;
            let t_far = (f64::from(far[c]) - o) * inv * ROBUST_FAR;
            t0[c] = if t_near > t0[c] { t_near } else { t0[c] };
            t1[c] = if t_far < t1[c] { t_far } else { t1[c] };
        }
    }
    (t0, t1)
}

impl RayTree for PickTree {
    fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// The walk of the generic traversal (nearest child first, skip entries beyond the
    /// bound), reading four children's boxes from one record: the hit children are sorted by
    /// entry parameter, the nearest visited next and the others pushed farthest first.
    fn walk(&self, _mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        use super::RayVolume;
        let Some(root_entry) = self.root_box.entry(ray, visitor.bound()) else {
            return;
        };
        let mut stack = [(self.root, 0.0f64); (WIDTH - 1) * (MAX_DEPTH + 1)];
        let mut pending = 0;
        let mut current = (self.root, root_entry);
        loop {
            let (node, entry) = current;
            if entry <= visitor.bound() {
                if node.count > 0 {
                    if self.leaf(node, ray, visitor) {
                        return;
                    }
                } else {
                    let quad = &self.quads[node.start as usize];
                    let (t0, t1) = entries(quad, ray, visitor.bound());
                    // Hit children, kept sorted by decreasing entry (insertion sort of <= 4).
                    let mut hits = [(self.root, 0.0f64); WIDTH];
                    let mut n = 0;
                    for c in 0..WIDTH {
                        if t0[c] <= t1[c] {
                            let mut j = n;
                            while j > 0 && hits[j - 1].1 < t0[c] {
                                hits[j] = hits[j - 1];
                                j -= 1;
                            }
                            hits[j] = (quad.children[c], t0[c]);
                            n += 1;
                        }
                    }
                    if n > 0 {
                        stack[pending..pending + n - 1].copy_from_slice(&hits[..n - 1]);
                        pending += n - 1;
                        current = hits[n - 1];
                        continue;
                    }
                }
            }
            if pending == 0 {
                return;
            }
            pending -= 1;
            current = stack[pending];
        }
    }
}
