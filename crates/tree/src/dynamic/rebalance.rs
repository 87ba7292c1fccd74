//! The walk from a changed node to the root: at each node, the best tree rotation (Kensler,
//! "Tree rotations for improving bounding volume hierarchies", 2008) among those that keep it
//! AVL-balanced, then the node's box and height from its children's.

use super::{DynamicTree, NULL};
use obbtree_bv::BoundingVolume;

/// An exchange of two subtrees under a node `A` with children `B` and `C`: a child with a
/// child of the other child (four choices), or a grandchild under `B` with one under `C` (two
/// choices that give different partitions). These are Kensler's six rotations.
#[derive(Clone, Copy, Debug)]
struct Rotation {
    upper: u32,
    lower: u32,
}

/// Whether two sibling heights are AVL-balanced.
fn balanced(h1: u32, h2: u32) -> bool {
    h1.abs_diff(h2) <= 1
}

impl<T> DynamicTree<T> {
    /// Rotates and refits the nodes from `index` up to the root, stopping early where two
    /// nodes in a row were not rotated and kept their box and height: the nodes above, their
    /// children and grandchildren are then as they were, so their boxes still hold and their
    /// rotations were weighed on the same boxes before.
    pub(super) fn rebalance_upwards(&mut self, mut index: u32) {
        let mut child_unchanged = false;
        while index != NULL {
            let before = (self.nodes[index].aabb, self.nodes[index].height);
            let rotation = self.best_rotation(index);
            if let Some(rotation) = rotation {
                self.exchange(index, rotation);
            }
            self.refit(index);
            let unchanged =
                rotation.is_none() && (self.nodes[index].aabb, self.nodes[index].height) == before;
            if unchanged && child_unchanged {
                return;
            }
            child_unchanged = unchanged;
            index = self.nodes[index].parent;
        }
    }

    /// The node's box and height from its children's.
    pub(super) fn refit(&mut self, index: u32) {
        let [a, b] = self.nodes[index].children();
        let (a, b) = (&self.nodes[a], &self.nodes[b]);
        let (aabb, height) = (a.aabb.merge(&b.aabb), 1 + a.height.max(b.height));
        let node = &mut self.nodes[index];
        node.aabb = aabb;
        node.height = height;
    }

    /// The rotation at `a` that lowers the summed surface area of the nodes it changes the
    /// most, among those after which `a` and its children are AVL-balanced and `a` is no
    /// taller than its children make it now; `None` to leave `a` as it is. If `a` is
    /// unbalanced (its children's heights differ by 2, as one insertion or removal below a
    /// balanced tree leaves it), a balancing rotation is returned whatever its area: swapping
    /// the shorter child with the taller child's taller child always qualifies.
    fn best_rotation(&self, a: u32) -> Option<Rotation> {
        let height = |i: u32| self.nodes[i].height;
        let area = |i: u32| self.nodes[i].aabb.surface_area();
        let union_area =
            |i: u32, j: u32| self.nodes[i].aabb.merge(&self.nodes[j].aabb).surface_area();
        let [b, c] = self.nodes[a].children();
        let tallest_child = height(b).max(height(c));
        let mut best = None;
        let mut best_change = if balanced(height(b), height(c)) {
            0.0
        } else {
            f64::INFINITY
        };
        let mut consider = |upper: u32, lower: u32, change: f64| {
            if change < best_change {
                best_change = change;
                best = Some(Rotation { upper, lower });
            }
        };
        // A child `x` with a grandchild `y` under its sibling `s` (whose other child is `z`):
        // `s` becomes {x, z}, `a` becomes {y, s}.
        for (x, s) in [(b, c), (c, b)] {
            if self.nodes[s].is_leaf() {
                continue;
            }
            let [f, g] = self.nodes[s].children();
            for (y, z) in [(f, g), (g, f)] {
                let s_height = 1 + height(x).max(height(z));
                if balanced(height(x), height(z))
                    && balanced(height(y), s_height)
                    && height(y).max(s_height) <= tallest_child
                {
                    consider(x, y, union_area(x, z) - area(s));
                }
            }
        }
        // A grandchild `d` under `b` (beside `e`) with a grandchild `y` under `c` (beside `z`):
        // `b` becomes {y, e}, `c` becomes {d, z}.
        if !self.nodes[b].is_leaf() && !self.nodes[c].is_leaf() {
            let [d, e] = self.nodes[b].children();
            let [f, g] = self.nodes[c].children();
            for (y, z) in [(f, g), (g, f)] {
                let (b_height, c_height) =
                    (1 + height(y).max(height(e)), 1 + height(d).max(height(z)));
                if balanced(height(y), height(e))
                    && balanced(height(d), height(z))
                    && balanced(b_height, c_height)
                    && b_height.max(c_height) <= tallest_child
                {
                    consider(
                        d,
                        y,
                        union_area(y, e) + union_area(d, z) - area(b) - area(c),
                    );
                }
            }
        }
        debug_assert!(best_change.is_finite(), "no balancing rotation at node {a}");
        best
    }

    /// Applies `rotation` below `a`: the two subtrees change places and the children of `a`
    /// whose children changed are refitted (`a` itself is refitted by the caller).
    fn exchange(&mut self, a: u32, Rotation { upper, lower }: Rotation) {
        let (upper_parent, lower_parent) = (self.nodes[upper].parent, self.nodes[lower].parent);
        self.nodes[upper_parent].replace_child(upper, lower);
        self.nodes[lower_parent].replace_child(lower, upper);
        self.nodes[upper].parent = lower_parent;
        self.nodes[lower].parent = upper_parent;
        for changed in [upper_parent, lower_parent] {
            if changed != a {
                self.refit(changed);
            }
        }
    }
}
