//! A compact 4-wide AABB tree for picking: the four children's boxes stored in their parent in
//! `f32`, tested four at a time in `f32`, triangles' vertices copied in leaf order.

use super::ray::MeshRay;
use super::traverse::{walk, Entered, NodeAccess, RayTree, Visitor, MAX_ARITY};
use super::volume::{RayVolume, ROBUST_FAR};
use obbtree_bv::{Aabb, TriMesh, Triangle};
use obbtree_tree::{Bvh, NodeKind};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// A reference to a child: an internal node (index of its [`Wide`] record) or a leaf (a run
/// of [`PickTree::triangles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Child {
    /// Internal: node index. Leaf: first position.
    start: u32,
    /// Internal: 0. Leaf: number of triangles.
    count: u32,
}

impl Child {
    /// An unused slot of a node with fewer than four children (its box is empty).
    const NONE: Child = Child {
        start: u32::MAX,
        count: 0,
    };
}

/// An internal node: up to four children's boxes as structure of arrays
/// (`bounds[side][axis][lane]`, side 0 the lower corner, 1 the upper), in `f32` rounded
/// outwards so each stored box contains the exact one, so one slab step is one 4-lane `f32`
/// operation. Unused lanes hold the empty box (`+inf` lower, `-inf` upper) and [`Child::NONE`].
/// 128 bytes: two cache lines.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
struct Wide {
    bounds: [[[f32; MAX_ARITY]; 3]; 2],
    children: [Child; MAX_ARITY],
}

/// The largest `f32` at most `x` (`x` not NaN).
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

/// The smallest `f32` at least `x` (`x` not NaN).
fn f32_up(x: f64) -> f32 {
    -f32_down(-x)
}

/// Coordinates (of the mesh and of the ray's origin) up to this magnitude are tested in
/// `f32`: no `f32` difference of two of them overflows. Beyond it the boxes are tested in
/// `f64`.
const F32_SAFE: f64 = 1e37;

/// Relative slack `2⁻²¹` of the `f32` reciprocals: it covers the three roundings of a slab
/// distance (`1/d` in `f64` then `f32`, the difference, the product; `≤ 3·2⁻²⁴` together) with
/// room to spare.
const INV_SLACK: f64 = 1.0 / (1u64 << 21) as f64;

/// The per-ray constants of the `f32` slab test, each rounded in the direction that can only
/// widen the tested interval (see [`entries_f32`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slabs32 {
    /// Whether the `f32` test is used (coordinates within [`F32_SAFE`]).
    fast: bool,
    /// Per axis, the side of the box (0 lower, 1 upper) the ray enters the slab through.
    near_side: [usize; 3],
    /// Per axis, the origin rounded for the near planes and for the far planes.
    origin: [[f32; 3]; 2],
    /// Per axis, `1/d` shrunk in magnitude (near planes) and grown (far planes).
    inv: [[f32; 3]; 2],
}

impl Slabs32 {
    fn new(ray: &MeshRay, tree_fast: bool) -> Self {
        let mut out = Slabs32 {
            fast: tree_fast && ray.origin_scale <= F32_SAFE,
            near_side: ray.negative.map(usize::from),
            origin: [[0.0; 3]; 2],
            inv: [[0.0; 3]; 2],
        };
        for k in 0..3 {
            let (o, inv) = (ray.ray.origin[k], ray.inv_dir[k]);
            let (shrunk, grown) = (inv * (1.0 - INV_SLACK), inv * (1.0 + INV_SLACK));
            // Positive direction: near plane = lower side, whose distance shrinks when the
            // origin is rounded up; far plane = upper side, grows when rounded down. A
            // negative direction flips both.
            (
                out.origin[0][k],
                out.origin[1][k],
                out.inv[0][k],
                out.inv[1][k],
            ) = if ray.negative[k] {
                (f32_down(o), f32_up(o), f32_up(shrunk), f32_down(grown))
            } else {
                (f32_up(o), f32_down(o), f32_down(shrunk), f32_up(grown))
            };
        }
        out
    }
}

/// The four slab tests of a node in `f32`: a lower bound of each child's entry parameter,
/// `NaN`-free for the children that are hit, `None` for the others. Never rejects a child box
/// the exact ray meets at some `t` in `[0, t_max]`:
///
/// * Per axis, the exact near distance is `(x - o)·(1/d)` for the near plane `x` (an `f32`).
///   The origin is rounded to the `f32` `o'` on the side that makes `(x - o')·(1/d)` no
///   larger, and `1/d` to an `f32` of magnitude `≤ |1/d|·(1 - 2⁻²¹)`; the `f32` difference and
///   product round by at most `2⁻²⁴` each (relative) or, for subnormal results, `2⁻¹⁵⁰`
///   (absolute), and the sign is always exact. So a positive computed near distance is at most
///   the exact one plus `2⁻¹⁵⁰` (and at most the exact one when it is normal), and a negative
///   one means a negative exact one, which cannot raise the entry above 0. The far distances
///   are rounded the other way (`1/d` grown by `2⁻²¹`), so a non-negative exact far distance
///   is never underestimated and a negative one stays negative.
/// * Hence the computed entry `t0` is at most the exact one plus `2⁻¹⁵⁰`, the computed exit
///   `t1` (also bounded by `t_max` rounded up) at least the exact one minus `2⁻¹⁵⁰`; both are
///   multiples of `2⁻¹⁴⁹`, so `t0 <= t1 + 2⁻¹²⁶` whenever the exact interval is non-empty.
///   Overflow cannot break this: differences stay finite below [`F32_SAFE`], and a product
///   that overflows to `∞` has an exact value beyond `f32::MAX`, where every exact bound it
///   is compared with rounds to `∞` too.
/// * A zero direction component gives `±∞` reciprocals; the distances are then `±∞` with the
///   exact sign, or `NaN` when the origin is on the plane, which the comparisons ignore (the
///   origin is in the closed slab then).
///
/// The returned entry is the computed `t0`, or 0 when it is subnormal, so it never exceeds the
/// exact entry: pruning by it is safe.
#[inline]
fn entries_f32(node: &Wide, ray: &Slabs32, t_max: f64) -> [Option<f64>; MAX_ARITY] {
    let mut t0 = [0.0f32; MAX_ARITY];
    let mut t1 = [f32_up(t_max); MAX_ARITY];
    for k in 0..3 {
        let near = &node.bounds[ray.near_side[k]][k];
        let far = &node.bounds[1 - ray.near_side[k]][k];
        let (on, of) = (ray.origin[0][k], ray.origin[1][k]);
        let (inv_n, inv_f) = (ray.inv[0][k], ray.inv[1][k]);
        for c in 0..MAX_ARITY {
            let t_near = (near[c] - on) * inv_n;
            let t_far = (far[c] - of) * inv_f;
            t0[c] = if t_near > t0[c] { t_near } else { t0[c] };
            t1[c] = if t_far < t1[c] { t_far } else { t1[c] };
        }
    }
    std::array::from_fn(|c| {
        (t0[c] <= t1[c] + f32::MIN_POSITIVE).then(|| {
            if t0[c] < f32::MIN_POSITIVE {
                0.0
            } else {
                f64::from(t0[c])
            }
        })
    })
}

/// The same in `f64` (the slab test of [`Aabb`]'s [`RayVolume`] implementation, with Ize's
/// far factor), for coordinates beyond [`F32_SAFE`].
fn entries_f64(node: &Wide, ray: &MeshRay, t_max: f64) -> [Option<f64>; MAX_ARITY] {
    let side = ray.negative.map(usize::from);
    let mut t0 = [0.0f64; MAX_ARITY];
    let mut t1 = [t_max * ROBUST_FAR; MAX_ARITY];
    for k in 0..3 {
        let (o, inv) = (ray.ray.origin[k], ray.inv_dir[k]);
        for c in 0..MAX_ARITY {
            let t_near = (f64::from(node.bounds[side[k]][k][c]) - o) * inv;
            let t_far = (f64::from(node.bounds[1 - side[k]][k][c]) - o) * inv * ROBUST_FAR;
            t0[c] = if t_near > t0[c] { t_near } else { t0[c] };
            t1[c] = if t_far < t1[c] { t_far } else { t1[c] };
        }
    }
    std::array::from_fn(|c| (t0[c] <= t1[c]).then_some(t0[c]))
}

/// The picking layout of a [`Bvh<Aabb>`]: the binary tree collapsed to a 4-wide one (each
/// node takes its children's children, largest box first, until it has four), each internal
/// node one 128-byte record holding its children's boxes in `f32` rounded outwards and tested
/// four at a time in `f32` with a conservative error bound ([`entries_f32`]); each triangle's
/// three vertices are copied in leaf order next to its mesh index, so a leaf's triangles are
/// one contiguous read. Same answers as walking the [`Bvh`] it was made from (the same exact
/// triangle tests; the slightly larger boxes only cost a few more box tests).
///
/// Memory: 128 bytes per internal node (about a third as many as the binary tree's) and 76
/// bytes per triangle ([`PickTree::memory_bytes`]); built in one pass over the source tree.
#[derive(Clone, Debug, PartialEq)]
pub struct PickTree {
    root_box: Aabb,
    root: Child,
    /// Whether the mesh's coordinates are within [`F32_SAFE`].
    fast: bool,
    nodes: Vec<Wide>,
    /// Vertices of the triangle at each leaf position.
    triangles: Vec<Triangle>,
    /// Mesh index of the triangle at each leaf position.
    indices: Vec<u32>,
}

/// Half the surface area of a box (the collapse's priority).
fn half_area(b: &Aabb) -> f64 {
    let e = b.maxs - b.mins;
    e.x * e.y + e.y * e.z + e.z * e.x
}

/// Appends the 4-wide nodes of the subtree at `index` of `tree` to `out` in depth-first
/// order, returning its reference.
fn collapse(tree: &Bvh<Aabb>, index: usize, out: &mut Vec<Wide>) -> Child {
    let nodes = tree.nodes();
    let [left, right] = match nodes[index].kind() {
        NodeKind::Leaf(range) => {
            return Child {
                start: range.start as u32,
                count: range.len() as u32,
            }
        }
        NodeKind::Internal { left, right } => [left, right],
    };
    let mut kids: SmallVec<[usize; MAX_ARITY]> = SmallVec::from_slice(&[left, right]);
    while kids.len() < MAX_ARITY {
        let largest = (0..kids.len())
            .filter(|&i| !nodes[kids[i]].is_leaf())
            .max_by(|&i, &j| {
                half_area(nodes[kids[i]].bv()).total_cmp(&half_area(nodes[kids[j]].bv()))
            });
        let Some(i) = largest else { break };
        let [l, r] = nodes[kids[i]].children().expect("internal");
        kids[i] = l;
        kids.insert(i + 1, r);
    }
    let at = out.len();
    out.push(Wide {
        bounds: [
            [[f32::INFINITY; MAX_ARITY]; 3],
            [[f32::NEG_INFINITY; MAX_ARITY]; 3],
        ],
        children: [Child::NONE; MAX_ARITY],
    });
    for (lane, &kid) in kids.iter().enumerate() {
        let child = collapse(tree, kid, out);
        let b = nodes[kid].bv();
        let wide = &mut out[at];
        wide.children[lane] = child;
        for k in 0..3 {
            wide.bounds[0][k][lane] = f32_down(b.mins[k]);
            wide.bounds[1][k][lane] = f32_up(b.maxs[k]);
        }
    }
    Child {
        start: at as u32,
        count: 0,
    }
}

impl PickTree {
    /// The compact copy of `tree`, which must have been built over `mesh`.
    pub fn new(mesh: &TriMesh, tree: &Bvh<Aabb>) -> Self {
        let mut nodes = Vec::new();
        let root = collapse(tree, 0, &mut nodes);
        let indices = tree.triangle_order().to_vec();
        let triangles = indices.iter().map(|&t| mesh.triangle(t as usize)).collect();
        let root_box = *tree.root().bv();
        let fast = root_box
            .mins
            .iter()
            .chain(root_box.maxs.iter())
            .all(|c| c.abs() <= F32_SAFE);
        Self {
            root_box,
            root,
            fast,
            nodes,
            triangles,
            indices,
        }
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Wide>()
            + self.triangles.len() * std::mem::size_of::<Triangle>()
            + self.indices.len() * std::mem::size_of::<u32>()
    }
}

impl NodeAccess for PickTree {
    type Node = Child;
    type RayData = Slabs32;

    fn prepare(&self, ray: &MeshRay) -> Slabs32 {
        Slabs32::new(ray, self.fast)
    }

    #[inline]
    fn root(&self, ray: &MeshRay, _: &Slabs32, bound: f64) -> Option<(Child, f64)> {
        self.root_box.entry(ray, bound).map(|t| (self.root, t))
    }

    #[inline]
    fn expand(
        &self,
        _: &TriMesh,
        node: Child,
        ray: &MeshRay,
        slabs: &Slabs32,
        visitor: &mut impl Visitor,
        entered: &mut Entered<Child>,
    ) -> ControlFlow<()> {
        if node.count > 0 {
            let range = node.start as usize..(node.start + node.count) as usize;
            for (tri, &index) in self.triangles[range.clone()]
                .iter()
                .zip(&self.indices[range])
            {
                if let Some(hit) = ray.watertight.cast(tri) {
                    if hit.t <= visitor.bound() {
                        visitor.hit(index, tri, hit)?;
                    }
                }
            }
        } else {
            let wide = &self.nodes[node.start as usize];
            let bound = visitor.bound();
            let entries = if slabs.fast {
                entries_f32(wide, slabs, bound)
            } else {
                entries_f64(wide, ray, bound)
            };
            for (&child, entry) in wide.children.iter().zip(entries) {
                if let (Some(t), true) = (entry, child != Child::NONE) {
                    entered.push((child, t));
                }
            }
        }
        ControlFlow::Continue(())
    }
}

impl RayTree for PickTree {
    fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        walk(self, mesh, ray, visitor);
    }
}
