//! Ordered depth-first traversal of one tree by one ray: near child first, subtrees entered
//! beyond the current bound skipped.

use super::ray::MeshRay;
use super::volume::RayVolume;
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

/// A hierarchy a ray can be walked through: [`Bvh`] of any [`RayVolume`], and the compact
/// [`PickTree`](super::PickTree).
pub(crate) trait RayTree {
    /// Reports to `visitor` every triangle hit of `ray` (mesh frame) at `t <= visitor.bound()`,
    /// nearer subtrees first; `mesh` is the mesh the tree was built over.
    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor);
}

impl<V: RayVolume> RayTree for Bvh<V> {
    fn walk(&self, mesh: &TriMesh, ray: &MeshRay, visitor: &mut impl Visitor) {
        walk(mesh, self, ray, visitor);
    }
}

/// Walks `tree` (built over `mesh`) along `ray` (picking through a hierarchy, *Real-Time
/// Rendering*, 3rd ed. 2008, §16.1, made ordered as in Smits, "Efficiency issues for ray tracing", JGT 1998): of two children the
/// one the ray enters first is visited first and the other is kept on a stack with its entry
/// parameter, and a node is skipped when that parameter exceeds the visitor's bound (for the
/// closest hit: the best `t` so far). Nodes entered exactly at the bound are still visited, so
/// the visitor sees every triangle hit at `t <= bound` and can break ties itself.
///
/// Leaves test their triangles with the watertight test
/// ([`cast_watertight`](obbtree_bv::intersect::ray_triangle::cast_watertight)); volume tests are conservative ([`RayVolume`]), so a triangle hit is
/// never lost to rounding in an ancestor's test. The stack holds at most one pending node per
/// level: [`MAX_DEPTH`] entries.
fn walk<V: RayVolume>(mesh: &TriMesh, tree: &Bvh<V>, ray: &MeshRay, visitor: &mut impl Visitor) {
    let nodes = tree.nodes();
    let Some(root_entry) = nodes[0].bv().entry(ray, visitor.bound()) else {
        return;
    };
    let mut stack = [(0usize, 0.0f64); MAX_DEPTH + 1];
    let mut pending = 0;
    let mut current = (0usize, root_entry);
    loop {
        let (index, entry) = current;
        if entry <= visitor.bound() {
            match nodes[index].children() {
                None => {
                    for &triangle in tree.leaf_triangles(index) {
                        let tri = mesh.triangle(triangle as usize);
                        let Some(hit) = ray.watertight.cast(&tri) else {
                            continue;
                        };
                        if hit.t <= visitor.bound() && visitor.hit(triangle, &tri, hit).is_break() {
                            return;
                        }
                    }
                }
                Some([left, right]) => {
                    let bound = visitor.bound();
                    let l = nodes[left].bv().entry(ray, bound).map(|t| (left, t));
                    let r = nodes[right].bv().entry(ray, bound).map(|t| (right, t));
                    match (l, r) {
                        (Some(l), Some(r)) => {
                            let (near, far) = if r.1 < l.1 { (r, l) } else { (l, r) };
                            stack[pending] = far;
                            pending += 1;
                            current = near;
                            continue;
                        }
                        (Some(only), None) | (None, Some(only)) => {
                            current = only;
                            continue;
                        }
                        (None, None) => {}
                    }
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
