//! Ordered depth-first traversal of one tree by one ray: near child first, subtrees entered
//! beyond the current bound skipped. One loop ([`walk`]) serves every tree through
//! [`NodeAccess`]: the binary [`Bvh`] of any [`RayVolume`] and the 4-wide
//! [`PickTree`](super::PickTree).

use super::ray::MeshRay;
use super::volume::RayVolume;
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{TriMesh, Triangle};
use obbtree_tree::{Bvh, MAX_DEPTH};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// What a walk reports to: closest hit, every hit, or any hit. (Public in a private module:
/// [`RayTree`] is sealed.)
pub trait Visitor {
    /// The largest ray parameter still of interest: nodes entered beyond it and triangle hits
    /// beyond it are skipped. It may shrink as hits are reported (closest hit).
    fn bound(&self) -> f64;

    /// Triangle number `triangle` (mesh index), `tri` in the mesh frame, hit at
    /// `hit.t <= bound()`; `Break` ends the walk.
    fn hit(&mut self, triangle: u32, tri: &Triangle, hit: TriangleHit) -> ControlFlow<()>;
}

/// A hierarchy a ray can be walked through: [`Bvh`] of any [`RayVolume`], and the compact
/// [`PickTree`](super::PickTree). Sealed: its method names a crate-private trait.
pub trait RayTree {
    /// Number of triangles the tree indexes (must equal the mesh's).
    fn triangle_count(&self) -> usize;

    /// Reports to `visitor` every triangle hit of `ray` (mesh frame) at `t <= visitor.bound()`,
    /// nearer subtrees first; `mesh` is the mesh the tree was built over.
    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor);
}

/// The most children a node may have.
pub(crate) const MAX_ARITY: usize = 4;

/// The children of a node that a ray enters, with their entry parameters, in child order.
pub(crate) type Entered<N> = SmallVec<[(N, f64); MAX_ARITY]>;

/// What [`walk`] needs from a tree: its root, and per node either its triangles tested
/// (leaf) or the children the ray enters (internal node).
pub(crate) trait NodeAccess {
    /// A node reference.
    type Node: Copy;
    /// Per-ray constants of the tree's volume tests, computed once per walk.
    type RayData;

    /// The per-ray constants for `ray`.
    fn prepare(&self, ray: &MeshRay) -> Self::RayData;

    /// The root and the parameter at which the ray enters it, if it does by `bound`.
    fn root(&self, ray: &MeshRay, data: &Self::RayData, bound: f64) -> Option<(Self::Node, f64)>;

    /// A leaf reports its triangle hits at `t <= visitor.bound()` (`Break` when the visitor
    /// stops); an internal node pushes onto `entered` each child the ray enters by
    /// `visitor.bound()`, with a lower bound of its entry parameter. Conservative: a child
    /// holding a triangle hit at `t <= bound` is always pushed.
    fn expand(
        &self,
        mesh: &TriMesh,
        node: Self::Node,
        ray: &MeshRay,
        data: &Self::RayData,
        visitor: &mut impl Visitor,
        entered: &mut Entered<Self::Node>,
    ) -> ControlFlow<()>;
}

/// Walks `tree` (built over `mesh`) along `ray` (seed 004, "基于层次包围盒的拾取方法", made
/// ordered as in Smits, "Efficiency issues for ray tracing", JGT 1998): of a node's children
/// the one the ray enters first is visited first and the others are kept on a stack with
/// their entry parameters (farthest deepest), and a node is skipped when that parameter exceeds
/// the visitor's bound (for the closest hit: the best `t` so far). Nodes entered exactly at the
/// bound are still visited, so the visitor sees every triangle hit at `t <= bound` and can
/// break ties itself.
///
/// Leaves test their triangles with the watertight test
/// ([`cast_watertight`](obbtree_bv::intersect::ray_triangle::cast_watertight)); volume tests
/// are conservative, so a triangle hit is never lost to rounding in an ancestor's test. The
/// stack holds at most `MAX_ARITY - 1` pending nodes per level, `3·MAX_DEPTH` in all.
pub(crate) fn walk<T: NodeAccess>(
    tree: &T,
    mesh: &TriMesh,
    ray: &MeshRay,
    visitor: &mut impl Visitor,
) {
    let data = tree.prepare(ray);
    let Some(mut current) = tree.root(ray, &data, visitor.bound()) else {
        return;
    };
    let mut stack: SmallVec<[(T::Node, f64); (MAX_ARITY - 1) * MAX_DEPTH + 1]> = SmallVec::new();
    let mut entered = Entered::new();
    loop {
        let (node, entry) = current;
        if entry <= visitor.bound() {
            entered.clear();
            if tree
                .expand(mesh, node, ray, &data, visitor, &mut entered)
                .is_break()
            {
                return;
            }
            // Insertion sort by entry (stable: ties keep child order), then the nearest is
            // visited next and the others wait, farthest deepest.
            for i in 1..entered.len() {
                let mut j = i;
                while j > 0 && entered[j].1 < entered[j - 1].1 {
                    entered.swap(j, j - 1);
                    j -= 1;
                }
            }
            if let Some((&nearest, others)) = entered.split_first() {
                stack.extend(others.iter().rev().copied());
                current = nearest;
                continue;
            }
        }
        match stack.pop() {
            Some(next) => current = next,
            None => return,
        }
    }
}

impl<V: RayVolume> NodeAccess for Bvh<V> {
    type Node = usize;
    type RayData = ();

    fn prepare(&self, _: &MeshRay) {}

    #[inline]
    fn root(&self, ray: &MeshRay, _: &(), bound: f64) -> Option<(usize, f64)> {
        self.root().bv().entry(ray, bound).map(|t| (0, t))
    }

    #[inline]
    fn expand(
        &self,
        mesh: &TriMesh,
        node: usize,
        ray: &MeshRay,
        _: &(),
        visitor: &mut impl Visitor,
        entered: &mut Entered<usize>,
    ) -> ControlFlow<()> {
        let nodes = self.nodes();
        match nodes[node].children() {
            None => {
                for &triangle in self.leaf_triangles(node) {
                    let tri = mesh.triangle(triangle as usize);
                    if let Some(hit) = ray.watertight.cast(&tri) {
                        if hit.t <= visitor.bound() {
                            visitor.hit(triangle, &tri, hit)?;
                        }
                    }
                }
            }
            Some(children) => {
                let bound = visitor.bound();
                for child in children {
                    if let Some(t) = nodes[child].bv().entry(ray, bound) {
                        entered.push((child, t));
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

impl<V: RayVolume> RayTree for Bvh<V> {
    fn triangle_count(&self) -> usize {
        Bvh::triangle_count(self)
    }

    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        walk(self, mesh, ray, visitor);
    }
}
