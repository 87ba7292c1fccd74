//! Two single-tree searches over a model's boxes (the boxes around each node's triangles, in
//! the model's frame): the vertex farthest along a direction (the support mapping of the mesh's
//! convex hull: the slab certificate's exact extremes, and the hull sample of a flat mesh)
//! and the triangle nearest a point, each by the tree's branch and bound, the more promising
//! child first.

use super::boxes::Boxed;
use crate::MeshModel;
use obbtree_bv::distance::point_triangle;
use obbtree_bv::{Aabb, Point, Vector};

/// The vertex of a mesh with the largest projection on a direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extreme {
    /// The largest computed projection `n·v` over the mesh's vertices: no vertex's computed
    /// projection is larger.
    pub projection: f64,
    /// A vertex with that projection.
    pub vertex: Point,
}

/// The vertex of `model`'s mesh with the largest projection on `n` (computed in floating point,
/// `n·v`), found exactly: a node is left out only when its box's projection, allowed for its
/// rounding, is below the best vertex's.
pub(crate) fn highest<V>(model: &MeshModel<V>, n: &Vector) -> Extreme {
    let slack = box_rounding(&model.node_bounds()[0], n);
    let mut best = Extreme {
        projection: f64::NEG_INFINITY,
        vertex: Point::origin(),
    };
    // Keys are negated projections: the least first.
    descend(
        model,
        |b| -(box_highest(b, n) + slack),
        |triangles, _| {
            let found = farthest(triangles.iter().flat_map(|t| t.tri.vertices()), n);
            if found.projection > best.projection {
                best = found;
            }
            -best.projection
        },
    );
    best
}

/// The first of `points` with the largest projection on `n` (computed in floating point; the
/// origin at `−∞` when there are none).
#[inline]
pub(crate) fn farthest<'p>(points: impl IntoIterator<Item = &'p Point>, n: &Vector) -> Extreme {
    let mut best = Extreme {
        projection: f64::NEG_INFINITY,
        vertex: Point::origin(),
    };
    for vertex in points {
        let projection = n.dot(&vertex.coords);
        if projection > best.projection {
            best = Extreme {
                projection,
                vertex: *vertex,
            };
        }
    }
    best
}

/// [`Bvh::branch_and_bound`](obbtree_tree::Bvh::branch_and_bound) over `model`'s tree with
/// the node boxes: `key` bounds a node from its box, `visit` sees each leaf's boxed triangles
/// with the position of the first in the tree's order.
fn descend<V>(
    model: &MeshModel<V>,
    key: impl Fn(&Aabb) -> f64,
    mut visit: impl FnMut(&[Boxed], usize) -> f64,
) {
    let (boxed, bounds) = (model.boxed(), model.node_bounds());
    model.tree().branch_and_bound(
        |node| key(&bounds[node]),
        |range| visit(&boxed[range.clone()], range.start),
    );
}

/// The largest projection of a box's points on `n`.
#[inline]
pub(crate) fn box_highest(b: &Aabb, n: &Vector) -> f64 {
    let centre = (b.mins.coords + b.maxs.coords) * 0.5;
    let half = (b.maxs.coords - b.mins.coords) * 0.5;
    n.dot(&centre) + n.abs().dot(&half)
}

/// A bound on how far [`box_highest`] of a box within `root` and a vertex's computed
/// projection may each be from the exact values: a few ulps of `|n|₁` times the largest
/// coordinate (`16ε` covers the halving, the two dot products and the sum).
pub(crate) fn box_rounding(root: &Aabb, n: &Vector) -> f64 {
    16.0 * f64::EPSILON * n.abs().sum() * root.largest_coordinate()
}

/// The position (in the tree's triangle order) of a triangle of `model`'s mesh nearest `p`.
pub(crate) fn nearest_triangle<V>(model: &MeshModel<V>, p: &Point) -> usize {
    let (mut best, mut best_squared) = (0, f64::INFINITY);
    descend(
        model,
        |b| point_gap(b, p),
        |triangles, start| {
            for (k, t) in triangles.iter().enumerate() {
                let squared = triangle_gap(t, p);
                if squared < best_squared {
                    (best, best_squared) = (start + k, squared);
                }
            }
            best_squared
        },
    );
    best
}

/// The squared distance from `p` to a box.
#[inline]
fn point_gap(b: &Aabb, p: &Point) -> f64 {
    let below = (b.mins - p).sup(&Vector::zeros());
    let above = (p - b.maxs).sup(&Vector::zeros());
    (below + above).norm_squared()
}

/// The squared distance from `p` to a triangle (in floating point).
fn triangle_gap(t: &Boxed, p: &Point) -> f64 {
    let [a, b, c] = *t.tri.vertices();
    let nearest = point_triangle::closest_point(p, &obbtree_bv::Triangle::new(a, b, c));
    (nearest - p).norm_squared()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::soup;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The extreme vertex and the nearest triangle are those brute force finds.
        #[test]
        fn searches_match_brute_force(
            coordinates in prop::collection::vec(-1.0f64..1.0, 9 * 200),
            n in prop::array::uniform3(-1.0f64..1.0),
            p in prop::array::uniform3(-2.0f64..2.0),
        ) {
            let model = soup(&coordinates);
            let n = Vector::from(n);
            let vertices = model.mesh().vertices();
            let most = vertices.iter().map(|v| n.dot(&v.coords)).fold(f64::NEG_INFINITY, f64::max);
            let found = highest(&model, &n);
            prop_assert_eq!(found.projection, most);
            prop_assert_eq!(n.dot(&found.vertex.coords), most);
            let p = Point::from(p);
            let boxed = model.boxed();
            let least = boxed.iter().map(|t| triangle_gap(t, &p)).fold(f64::INFINITY, f64::min);
            prop_assert_eq!(triangle_gap(&boxed[nearest_triangle(&model, &p)], &p), least);
        }
    }
}
