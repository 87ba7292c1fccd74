//! Ordered depth-first traversal of one tree by one ray: near child first, subtrees entered
//! beyond the current bound skipped.

use super::ray::MeshRay;
use super::volume::RayVolume;
use arrayvec::ArrayVec;
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{TriMesh, Triangle};
use obbtree_tree::{Bvh, MAX_DEPTH};
use std::ops::ControlFlow;

/// What a walk reports to: closest hit, every hit, or any hit.
pub(crate) trait Visitor {
    /// The largest ray parameter still of interest: nodes entered beyond it and triangle hits
    /// beyond it are skipped. It may shrink as hits are reported (closest hit).
    fn bound(&self) -> f64;

    /// Triangle number `triangle` (mesh index), `tri` in the mesh frame, hit at
    /// `hit.t <= bound()`; `Break` ends the walk.
    fn hit(&mut self, triangle: u32, tri: &Triangle, hit: TriangleHit) -> ControlFlow<()>;
}

/// A hierarchy a ray can be walked through: [`Bvh`] of any [`RayVolume`], and the wide tree
/// ([`WideTree`](obbtree_tree::WideTree)).
pub(crate) trait RayTree {
    /// Reports to `visitor` every triangle hit of `ray` (mesh frame) at `t <= visitor.bound()`,
    /// nearer subtrees first; `mesh` is the mesh the tree was built over.
    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor);
}

impl<V: RayVolume> RayTree for Bvh<V> {
    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        walk_ordered(&Binary { mesh, tree: self }, ray, visitor);
    }
}

/// Most children a node of any hierarchy the walk serves can have.
const MAX_CHILDREN: usize = 4;

/// A depth-first walk's pending nodes: each step leaves at most `MAX_CHILDREN - 1` children
/// pending, on at most [`MAX_DEPTH`] levels. A fixed, uninitialised buffer: neither zeroed on
/// each query nor a `SmallVec`, which checks for its heap form on each push and pop (what each
/// cost is in `docs/performance.md`).
pub(crate) type Stack<T> = ArrayVec<T, { (MAX_CHILDREN - 1) * MAX_DEPTH }>;

/// The ordered walk's pending children with their entry parameters (a [`Stack`]).
pub(crate) type Pending<R> = Stack<(R, f64)>;

/// A hierarchy as the ordered walk sees it: nodes that are leaves or have up to
/// [`MAX_CHILDREN`] children, and a test telling which children a ray enters, and where.
pub(crate) trait OrderedTree {
    /// A node.
    type Ref: Copy;

    /// The root, if the ray enters it within `bound`.
    fn root(&self, ray: &MeshRay, bound: f64) -> Option<Self::Ref>;

    /// Visits `node`. A leaf: its triangles are tested and hits reported to `visitor`,
    /// `Break` when the visitor ended the walk. An internal node: of its children that `ray`
    /// enters within the visitor's bound, all but the nearest are pushed on `pending`
    /// (farthest first, so the nearer are popped first) and the nearest is returned to visit
    /// next. Conservative: a child the exact ray enters within the bound is never left out.
    fn visit(
        &self,
        node: Self::Ref,
        ray: &MeshRay,
        visitor: &mut impl Visitor,
        pending: &mut Pending<Self::Ref>,
    ) -> ControlFlow<(), Option<Self::Ref>>;
}

/// Walks `tree` along `ray` (picking through a hierarchy, Akenine-Möller, Haines & Hoffman,
/// *Real-Time Rendering*, 3rd ed. 2008, §16.1, made ordered as in Smits, "Efficiency issues
/// for ray tracing", JGT 1998): of the children a ray meets, the nearest is visited next and
/// the others wait on a stack, nearer on top, with their entry parameters; a pending child is
/// skipped when its entry exceeds the visitor's bound (for the closest hit: the best `t` so
/// far). Children entered exactly at the bound are still visited, so the visitor sees every
/// triangle hit at `t <= bound` and can break ties itself. Since the volume tests are
/// conservative, a triangle hit is never lost to rounding in an ancestor's test.
///
#[inline(always)]
pub(crate) fn walk_ordered<T: OrderedTree>(tree: &T, ray: &MeshRay, visitor: &mut impl Visitor) {
    let Some(mut node) = tree.root(ray, visitor.bound()) else {
        return;
    };
    let mut stack = Pending::new();
    loop {
        match tree.visit(node, ray, visitor, &mut stack) {
            ControlFlow::Break(()) => return,
            ControlFlow::Continue(Some(nearest)) => {
                node = nearest;
                continue;
            }
            ControlFlow::Continue(None) => {}
        }
        loop {
            match stack.pop() {
                Some((next, entry)) if entry <= visitor.bound() => {
                    node = next;
                    break;
                }
                Some(_) => {}
                None => return,
            }
        }
    }
}

/// A binary [`Bvh`] of any [`RayVolume`] as the ordered walk sees it: its leaves' triangles
/// read from the mesh and tested with the watertight test
/// ([`cast_watertight`](obbtree_bv::intersect::ray_triangle::cast_watertight)).
struct Binary<'t, V> {
    mesh: &'t TriMesh,
    tree: &'t Bvh<V>,
}

impl<V: RayVolume> OrderedTree for Binary<'_, V> {
    type Ref = usize;

    #[inline(always)]
    fn root(&self, ray: &MeshRay, bound: f64) -> Option<usize> {
        self.tree.root().bv().entry(ray, bound).map(|_| 0)
    }

    #[inline(always)]
    fn visit(
        &self,
        node: usize,
        ray: &MeshRay,
        visitor: &mut impl Visitor,
        pending: &mut Pending<usize>,
    ) -> ControlFlow<(), Option<usize>> {
        match self.tree.node(node).children() {
            None => self.test_leaf(node, ray, visitor).map_continue(|()| None),
            Some(children) => ControlFlow::Continue(self.nearest(children, ray, visitor, pending)),
        }
    }
}

impl<V: RayVolume> Binary<'_, V> {
    /// The leaf's triangles through the watertight test.
    #[inline(always)]
    fn test_leaf(&self, node: usize, ray: &MeshRay, visitor: &mut impl Visitor) -> ControlFlow<()> {
        for &triangle in self.tree.leaf_triangles(node) {
            let tri = self.mesh.triangle(triangle as usize);
            let Some(hit) = ray.watertight.cast(&tri) else {
                continue;
            };
            if hit.t <= visitor.bound() {
                visitor.hit(triangle, &tri, hit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The nearer of the two children the ray enters within the bound, the other pushed.
    #[inline(always)]
    fn nearest(
        &self,
        [left, right]: [usize; 2],
        ray: &MeshRay,
        visitor: &impl Visitor,
        pending: &mut Pending<usize>,
    ) -> Option<usize> {
        let bound = visitor.bound();
        let entry = |child: usize| self.tree.node(child).bv().entry(ray, bound);
        match (entry(left), entry(right)) {
            (Some(l), Some(r)) => {
                let ((near, _), far) = if r < l {
                    ((right, r), (left, l))
                } else {
                    ((left, l), (right, r))
                };
                pending.push(far);
                Some(near)
            }
            (Some(_), None) => Some(left),
            (None, Some(_)) => Some(right),
            (None, None) => None,
        }
    }
}
