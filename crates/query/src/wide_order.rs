//! The order in which a walk over the wide tree (`obbtree_tree::WideTree`) opens a node's
//! children: the nearest met child next, the other met ones stacked farthest first, so that
//! they are opened nearest first after it. The ray walk (`pick/wide_walk.rs`, by entry) and the
//! point walk (`distance/point_wide.rs`, by squared box distance) share it.

use obbtree_tree::wide::{Child, Node, WIDTH};

/// Of `node`'s children, those `met`, ordered by `t` (non-negative where met): the nearest
/// returned with its value (rounded down by at most three ulps, see [`sort_key`]), the others
/// handed to `push` farthest first; `None` when none is met.
#[inline(always)]
pub(crate) fn nearest_child(
    node: &Node,
    t: [f64; WIDTH],
    met: [bool; WIDTH],
    mut push: impl FnMut((Child, f64)),
) -> Option<(Child, f64)> {
    let mut keys = std::array::from_fn(|c| sort_key(c, t[c], met[c]));
    sort_keys(&mut keys);
    let n = met.iter().filter(|&&m| m).count();
    if n == 0 {
        return None;
    }
    for &key in keys[1..n].iter().rev() {
        push(decode(node, key));
    }
    Some(decode(node, keys[0]))
}

/// The low bits of a child's sort key that hold its slot in the node.
const SLOT: u64 = WIDTH as u64 - 1;

/// The sort key of a node's child in slot `slot` at `t` (a ray's entry or a point's squared
/// box distance; met: `t >= 0`): the bits of `t`, which order like the values for
/// non-negative floats, with the slot in the two lowest. Clearing them lowers `t` by at most
/// three units in the last place, a nearer child, so a node is never skipped that the exact
/// value would keep. A missed child gets `u64::MAX`, after every met one.
#[inline(always)]
fn sort_key(slot: usize, t: f64, met: bool) -> u64 {
    if met {
        (t.to_bits() & !SLOT) | slot as u64
    } else {
        u64::MAX
    }
}

/// The child and value a [`sort_key`] stands for.
#[inline(always)]
fn decode(node: &Node, key: u64) -> (Child, f64) {
    (
        node.children[(key & SLOT) as usize],
        f64::from_bits(key & !SLOT),
    )
}

/// Sorts a node's four keys with a network of five compare-exchanges (Knuth, TAOCP vol. 3,
/// §5.3.4), each a pair of conditional moves: no branch. The insertion sort it replaced took
/// a branch per step whose count depends on how many children are met, which incoherent rays
/// mispredict (counts and timings in `docs/performance.md`).
#[inline(always)]
fn sort_keys(keys: &mut [u64; WIDTH]) {
    const _: () = assert!(WIDTH == 4, "the network sorts four keys");
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (a, b) = (keys[i], keys[j]);
        keys[i] = a.min(b);
        keys[j] = a.max(b);
    }
}
