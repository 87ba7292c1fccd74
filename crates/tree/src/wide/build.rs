//! The compact tree made from a binary AABB tree: nodes collapsed to four children, boxes
//! rounded outwards to `f32`, leaf triangles copied in leaf order.

use super::{Child, LeafTriangle, Leaves, Node, WideTree, WIDTH};
use crate::{BuildError, BuildOptions, Bvh, NodeKind};
use obbtree_bv::{Aabb, BoundingVolume, TriMesh};

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

/// Up to [`WIDTH`] nodes of the binary tree below its internal node `index`: starting from its
/// two children, the internal one of largest surface area is replaced by its two children
/// until there are four (or only leaves).
fn collapse(tree: &Bvh<Aabb>, index: usize) -> ([usize; WIDTH], usize) {
    let nodes = tree.nodes();
    let mut kids = [0usize; WIDTH];
    let Some([l, r]) = nodes[index].children() else {
        unreachable!("collapse starts at an internal node");
    };
    kids[..2].copy_from_slice(&[l, r]);
    let mut count = 2;
    while count < WIDTH {
        let widest = kids[..count]
            .iter()
            .enumerate()
            .filter(|(_, &k)| !nodes[k].is_leaf())
            .max_by(|(_, &a), (_, &b)| {
                let area = |k: usize| nodes[k].bv().surface_area();
                area(a).total_cmp(&area(b))
            })
            .map(|(slot, _)| slot);
        let Some(slot) = widest else { break };
        let Some([l, r]) = nodes[kids[slot]].children() else {
            unreachable!("only internal nodes are opened");
        };
        kids[slot] = l;
        kids[count] = r;
        count += 1;
    }
    (kids, count)
}

impl WideTree {
    /// Builds the binary AABB tree for picking (the default [`BuildOptions`]: SAH splits,
    /// leaves of at most 7 triangles, in parallel) and its compact copy. The leaf size measured
    /// by `examples/pick_leaf_size.rs` (100,000 incoherent rays, one thread, interleaved
    /// rounds): with the leaf filter on two triangles at a time, leaf sizes 4 to 7 pick within
    /// 2% of each other on dragon_res2 and on the 871k dragon, and 7 takes the least memory
    /// (10.6 MB against 12.3 MB for 4 on dragon_res2).
    pub fn build(mesh: &TriMesh) -> Result<Self, BuildError> {
        Ok(Self::new(
            mesh,
            &Bvh::build(mesh, &BuildOptions::default())?,
        ))
    }

    /// The compact copy of `tree`, which must have been built over `mesh`.
    pub fn new(mesh: &TriMesh, tree: &Bvh<Aabb>) -> Self {
        let source = tree.nodes();
        let empty = Node {
            lo: [[f32::INFINITY; WIDTH]; 3],
            hi: [[f32::NEG_INFINITY; WIDTH]; 3],
            children: [Child { start: 0, count: 0 }; WIDTH],
        };
        let mut nodes = Vec::new();
        // Binary internal nodes still to be collapsed, with the index of their wide node.
        let mut open = Vec::new();
        let child = |i: usize, nodes: &mut Vec<Node>, open: &mut Vec<(usize, usize)>| match source
            [i]
            .kind()
        {
            NodeKind::Internal { .. } => {
                nodes.push(empty.clone());
                open.push((i, nodes.len() - 1));
                Child {
                    start: (nodes.len() - 1) as u32,
                    count: 0,
                }
            }
            NodeKind::Leaf(range) => Child {
                start: range.start as u32,
                count: range.len() as u32,
            },
        };
        let root = child(0, &mut nodes, &mut open);
        while let Some((binary, wide)) = open.pop() {
            let (kids, count) = collapse(tree, binary);
            for (lane, &k) in kids[..count].iter().enumerate() {
                let b = source[k].bv();
                let reference = child(k, &mut nodes, &mut open);
                let node = &mut nodes[wide];
                for axis in 0..3 {
                    node.lo[axis][lane] = f32_down(b.mins[axis]);
                    node.hi[axis][lane] = f32_up(b.maxs[axis]);
                }
                node.children[lane] = reference;
            }
        }
        let order = tree.triangle_order();
        let single = mesh
            .vertices()
            .iter()
            .all(|p| p.iter().all(|&x| f64::from(x as f32) == x));
        let triangles = if single {
            Leaves::Single(leaf_triangles(mesh, order, |x| x as f32))
        } else {
            Leaves::Double(leaf_triangles(mesh, order, |x| x))
        };
        Self {
            root_box: *tree.root().bv(),
            root,
            nodes,
            triangles,
        }
    }
}

/// The triangles of `mesh` in leaf `order`, coordinates converted by `convert`.
fn leaf_triangles<T>(
    mesh: &TriMesh,
    order: &[u32],
    convert: impl Fn(f64) -> T + Copy,
) -> Vec<LeafTriangle<T>> {
    order
        .iter()
        .map(|&index| {
            let t = mesh.triangle(index as usize);
            LeafTriangle {
                vertices: [t.a, t.b, t.c].map(|p| [p.x, p.y, p.z].map(convert)),
                index,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{f32_down, f32_up};
    use rand::{Rng, SeedableRng};

    /// `f32_down(x)` is the largest `f32` at most `x` and `f32_up(x)` the smallest at least
    /// `x`, checked by their neighbours: around 0 (tiny values of both signs, which round to a
    /// zero above or below them), at `f32` values, halfway between two, and at random.
    #[test]
    fn rounding_to_f32_brackets_the_value() {
        let mut values = vec![
            0.0, -0.0, 1e-50, -1e-50, 1e-300, -1e-300, 1.0, -1.0, 0.1, -0.1,
        ];
        values.extend([1e38, -1e38, 3.0e38, -3.0e38]);
        values.extend([
            f64::from(f32::MIN_POSITIVE),
            -f64::from(f32::from_bits(1)) / 2.0,
        ]);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(17);
        for _ in 0..10_000 {
            let x = f64::from_bits(rng.gen());
            if x.is_finite() && x.abs() < f64::from(f32::MAX) {
                values.push(x);
            }
        }
        for x in values {
            let down = f32_down(x);
            assert!(
                f64::from(down) <= x && f64::from(down.next_up()) > x,
                "{x:e} down {down:e}"
            );
            let up = f32_up(x);
            assert!(
                f64::from(up) >= x && f64::from(up.next_down()) < x,
                "{x:e} up {up:e}"
            );
        }
    }
}
