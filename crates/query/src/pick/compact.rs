//! A compact AABB tree for picking: both children's boxes stored in their parent, triangles'
//! vertices copied in leaf order.

use super::ray::MeshRay;
use super::traverse::{RayTree, Visitor};
use super::volume::{ROBUST_FAR, ROBUST_NEAR};
use obbtree_bv::{Aabb, TriMesh, Triangle};
use obbtree_tree::{Bvh, NodeKind, MAX_DEPTH};

/// A reference to a child: an internal node (index of its [`Pair`]) or a leaf (a run of
/// [`PickTree::triangles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Child {
    /// Internal: pair index. Leaf: first position.
    start: u32,
    /// Internal: 0. Leaf: number of triangles.
    count: u32,
}

/// The two children of an internal node in one 64-byte cache line: their boxes side by side
/// (structure of arrays, so both slab tests run together: `lo[axis][child]`,
/// `hi[axis][child]`) in `f32` rounded outwards, so each stored box contains the exact one.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
struct Pair {
    lo: [[f32; 2]; 3],
    hi: [[f32; 2]; 3],
    children: [Child; 2],
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

/// The picking layout of a [`Bvh<Aabb>`]: each internal node is one 64-byte record (a cache
/// line) holding its two children's boxes (one memory access per step, both boxes tested
/// together; the boxes are stored in `f32` rounded outwards, tested in `f64`), and each
/// triangle's three vertices are copied in leaf order next to its mesh index, so a leaf's
/// triangles are one contiguous read instead of index lookups into the mesh. Same answers as
/// walking the [`Bvh`] it was made from (the same triangle tests; the slightly larger boxes
/// only cost a few more box tests).
///
/// Memory: 64 bytes per internal node and 76 bytes per triangle
/// ([`PickTree::memory_bytes`]); built in one pass over the source tree.
#[derive(Clone, Debug, PartialEq)]
pub struct PickTree {
    root_box: Aabb,
    root: Child,
    pairs: Vec<Pair>,
    /// Vertices of the triangle at each leaf position.
    triangles: Vec<Triangle>,
    /// Mesh index of the triangle at each leaf position.
    indices: Vec<u32>,
}

impl PickTree {
    /// The compact copy of `tree`, which must have been built over `mesh`.
    pub fn new(mesh: &TriMesh, tree: &Bvh<Aabb>) -> Self {
        let nodes = tree.nodes();
        // Pair index of every internal node, in node order (so pairs keep the tree's layout).
        let mut pair_of = vec![u32::MAX; nodes.len()];
        let mut count = 0u32;
        for (i, node) in nodes.iter().enumerate() {
            if !node.is_leaf() {
                pair_of[i] = count;
                count += 1;
            }
        }
        let child = |i: usize| match nodes[i].kind() {
            NodeKind::Internal { .. } => Child {
                start: pair_of[i],
                count: 0,
            },
            NodeKind::Leaf(range) => Child {
                start: range.start as u32,
                count: range.len() as u32,
            },
        };
        let pairs = nodes
            .iter()
            .filter_map(|node| node.children())
            .map(|[l, r]| {
                let (a, b) = (nodes[l].bv(), nodes[r].bv());
                Pair {
                    lo: [0, 1, 2].map(|k| [f32_down(a.mins[k]), f32_down(b.mins[k])]),
                    hi: [0, 1, 2].map(|k| [f32_up(a.maxs[k]), f32_up(b.maxs[k])]),
                    children: [child(l), child(r)],
                }
            })
            .collect();
        let indices = tree.triangle_order().to_vec();
        let triangles = indices.iter().map(|&t| mesh.triangle(t as usize)).collect();
        Self {
            root_box: *tree.root().bv(),
            root: child(0),
            pairs,
            triangles,
            indices,
        }
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.pairs.len() * std::mem::size_of::<Pair>()
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

/// The slab test of [`Aabb`]'s [`RayVolume`](super::RayVolume) implementation on both boxes
/// of a pair at once: entry parameters, `NaN`-free only for the boxes that are hit.
#[inline]
fn entries(pair: &Pair, ray: &MeshRay, t_max: f64) -> [Option<f64>; 2] {
    let mut t0 = [0.0f64; 2];
    let mut t1 = [t_max * ROBUST_FAR; 2];
    for k in 0..3 {
        let (near, far) = if ray.negative[k] {
            (&pair.hi[k], &pair.lo[k])
        } else {
            (&pair.lo[k], &pair.hi[k])
        };
        let (o, inv) = (ray.ray.origin[k], ray.inv_dir[k]);
        for c in 0..2 {
            let t_near = (f64::from(near[c]) - o) * inv;
            let t_far = (f64::from(far[c]) - o) * inv * ROBUST_FAR;
            t0[c] = if t_near > t0[c] { t_near } else { t0[c] };
            t1[c] = if t_far < t1[c] { t_far } else { t1[c] };
        }
    }
    [0, 1].map(|c| (t0[c] <= t1[c]).then_some(t0[c] * ROBUST_NEAR))
}

impl RayTree for PickTree {
    fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// The walk of the generic traversal (near child first, skip entries beyond the bound),
    /// reading both children's boxes from one record.
    fn walk(&self, _mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        use super::RayVolume;
        let Some(root_entry) = self.root_box.entry(ray, visitor.bound()) else {
            return;
        };
        let mut stack = [(self.root, 0.0f64); MAX_DEPTH + 1];
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
                    let pair = &self.pairs[node.start as usize];
                    let [l, r] = entries(pair, ray, visitor.bound());
                    let [left, right] = pair.children;
                    match (l, r) {
                        (Some(tl), Some(tr)) => {
                            let (near, far) = if tr < tl {
                                ((right, tr), (left, tl))
                            } else {
                                ((left, tl), (right, tr))
                            };
                            stack[pending] = far;
                            pending += 1;
                            current = near;
                            continue;
                        }
                        (Some(t), None) => {
                            current = (left, t);
                            continue;
                        }
                        (None, Some(t)) => {
                            current = (right, t);
                            continue;
                        }
                        (None, None) => {}
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
