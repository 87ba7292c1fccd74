//! The dual descent of two hierarchies: one rule for which node of a pair to split ([`split`]),
//! and two drivers that differ only in the order they take pending pairs and in what bounds a
//! pair: [`depth_first`] (a stack; a pair is kept or left out by a conservative overlap test:
//! collision, self-collision, margins, proximity pairs) and [`best_first`] (a priority queue of
//! lower bounds: distance). A query plugs in a leaf visit and, for the best-first walk, a
//! [`Visitor`](best_first::Visitor) that decides what prunes.

pub(crate) mod best_first;
pub(crate) mod depth_first;
pub(crate) mod in_time;

use obbtree_tree::Node;

/// What a descent does with a node pair it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// Pair A's children (by node index) with B's node.
    A([usize; 2]),
    /// Pair A's node with B's children.
    B([usize; 2]),
    /// Both are leaves: visit their triangle pairs.
    Leaves,
}

/// Which node of the pair (`x` of A, `y` of B) to split: A's when B's is a leaf, B's when A's
/// is, otherwise the larger (`a_is_larger`, asked only then). Descending the larger volume keeps
/// the two volumes of a pair of similar size (Gottschalk, Lin & Manocha 1996, §5: "descend the
/// larger box").
#[inline(always)]
pub(crate) fn split<V>(x: &Node<V>, y: &Node<V>, a_is_larger: impl FnOnce() -> bool) -> Split {
    match (x.children(), y.children()) {
        (Some(children), None) => Split::A(children),
        (Some(children), Some(_)) if a_is_larger() => Split::A(children),
        (_, Some(children)) => Split::B(children),
        (None, None) => Split::Leaves,
    }
}
