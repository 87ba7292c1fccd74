//! The descent over time: node pairs of two hierarchies, each over an interval of time, taken
//! earliest interval first, for a B that moves (continuous collision).
//!
//! A pending item is a node pair and a dyadic interval `[t₀, t₁]` of `[0, 1]`. Its bound is the
//! overlap test of the two volumes with B placed at the interval's middle and A's volume grown
//! by how far any point of B can move in half the interval (the caller's
//! [`TimeSlice::margin`]), so a pair left out has no contact anywhere in the interval. A kept
//! pair is split in time (its two halves) while the motion over the interval is larger than
//! an eighth of B's node ([`TIME_SPLIT`]), otherwise in space by the common rule ([`split`]); a pair of leaves goes to the
//! caller's leaf visit, which may free it, ask for its halves or report a hit.
//!
//! Items are taken in order of `t₀`, so when an item is taken, every node pair has been
//! proven free before its `t₀` (every item that started earlier was left out or replaced by
//! items covering the same times). This is the time-subdividing descent of Redon, Kheddar &
//! Coquillart ("Fast continuous collision detection between rigid bodies", 2002) and of the
//! conservative bounds of Schwarzer, Saha & Latombe (2005), over the kernel's split rule.

use super::{split, Split};
use crate::kernel::posed::PosedOverlap;
use obbtree_bv::Pose;
use obbtree_tree::Bvh;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// The deepest interval: `2⁻⁵⁶` of `[0, 1]`. An item that needs a finer one ends the descent
/// undecided ([`Undecided`]).
pub(crate) const MAX_TIME_DEPTH: u8 = 56;

/// A kept pair is halved in time while B's motion over its interval (the margin) exceeds this
/// share of the size of B's node ([`PosedOverlap::size`]), and split in space otherwise: growing
/// a volume by much more than its size makes the bound loose, so time is cut first (the share
/// is measured in `docs/performance.md`).
pub(crate) const TIME_SPLIT: f64 = 0.125;

/// At most this many items are taken in one descent; beyond it the descent ends undecided.
pub(crate) const MAX_ITEMS: usize = 20_000_000;

/// A dyadic interval of time, `[index·2⁻ᵈᵉᵖᵗʰ, (index+1)·2⁻ᵈᵉᵖᵗʰ]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Span {
    pub(crate) depth: u8,
    pub(crate) index: u64,
}

impl Span {
    /// `[0, 1]`.
    pub(crate) const WHOLE: Span = Span { depth: 0, index: 0 };

    /// The interval's ends, exact (dyadic).
    pub(crate) fn ends(&self) -> [f64; 2] {
        let width = self.width();
        [self.index as f64 * width, (self.index + 1) as f64 * width]
    }

    /// `t₁ − t₀ = 2⁻ᵈᵉᵖᵗʰ`.
    pub(crate) fn width(&self) -> f64 {
        (-f64::from(self.depth)).exp2()
    }

    /// The middle `(t₀ + t₁)/2`.
    pub(crate) fn middle(&self) -> f64 {
        (self.index as f64 + 0.5) * self.width()
    }

    /// The two halves, earlier first.
    fn halves(&self) -> [Span; 2] {
        let depth = self.depth + 1;
        [0, 1].map(|k| Span {
            depth,
            index: 2 * self.index + k,
        })
    }
}

/// B's placement over a span, as the overlap test needs it.
pub(crate) struct TimeSlice<R> {
    /// B's pose at the span's middle, in A's frame.
    pub(crate) pose: Pose,
    /// The relative pose prepared with the margin.
    pub(crate) relative: R,
    /// How far any point of B may lie from where `pose` places it, at any time in the span
    /// (with the rounding of computing `pose`).
    pub(crate) margin: f64,
}

/// What the leaf visit says about a pair of leaves over a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeafVerdict {
    /// No contact in the span (or nothing more to learn from this pair).
    Free,
    /// Undecided: visit both halves.
    Split,
    /// The answer is found: end the descent.
    Hit,
}

/// The descent gave up: an item needed an interval finer than [`MAX_TIME_DEPTH`] or the
/// descent took more than [`MAX_ITEMS`] items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undecided;

/// A pending item: a node pair over a span.
#[derive(Clone, Copy, Debug)]
struct Item {
    start: f64,
    span: Span,
    a: u32,
    b: u32,
}

impl PartialEq for Item {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Item {}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Earliest start first (a max-heap of reversed starts); then the wider span.
impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .start
            .total_cmp(&self.start)
            .then(other.span.depth.cmp(&self.span.depth))
    }
}

/// Walks node pairs of `a` and `b` over time, earliest first, until `visit` reports a hit,
/// no item is left, or the next item starts after `until()` (the caller's earliest hit so
/// far). `slice(span)` places B over a span (computed once per span); `visit(span, slice,
/// leaf of a, leaf of b)` decides a pair of leaves whose volumes overlap over the span.
pub(crate) fn earliest<V: PosedOverlap>(
    a: &Bvh<V>,
    b: &Bvh<V>,
    slice: impl Fn(Span) -> TimeSlice<V::Relative>,
    until: impl Fn() -> f64,
    mut visit: impl FnMut(Span, &TimeSlice<V::Relative>, usize, usize) -> LeafVerdict,
) -> Result<(), Undecided> {
    let (na, nb) = (a.nodes(), b.nodes());
    let mut slices: HashMap<Span, TimeSlice<V::Relative>> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let push = |heap: &mut BinaryHeap<Item>, span: Span, a: usize, b: usize| {
        let start = span.ends()[0];
        heap.push(Item {
            start,
            span,
            a: a as u32,
            b: b as u32,
        });
    };
    push(&mut heap, Span::WHOLE, 0, 0);
    let mut taken = 0;
    while let Some(item) = heap.pop() {
        if item.start > until() {
            break;
        }
        taken += 1;
        if taken > MAX_ITEMS {
            return Err(Undecided);
        }
        let (i, j) = (item.a as usize, item.b as usize);
        let here = slices.entry(item.span).or_insert_with(|| slice(item.span));
        let (x, y) = (&na[i], &nb[j]);
        let placed = V::place(y.bv(), &here.relative);
        if !V::overlaps(x.bv(), &placed, &here.relative) {
            continue;
        }
        let in_time = here.margin > TIME_SPLIT * y.bv().size();
        let next = match split(x, y, || x.bv().size() >= y.bv().size()) {
            Split::Leaves => match visit(item.span, here, i, j) {
                LeafVerdict::Free => continue,
                LeafVerdict::Hit => return Ok(()),
                LeafVerdict::Split => None,
            },
            _ if in_time && item.span.depth < MAX_TIME_DEPTH => None,
            Split::A([l, r]) => Some([(l, j), (r, j)]),
            Split::B([l, r]) => Some([(i, l), (i, r)]),
        };
        match next {
            Some(pairs) => pairs
                .into_iter()
                .for_each(|(p, q)| push(&mut heap, item.span, p, q)),
            None if item.span.depth >= MAX_TIME_DEPTH => return Err(Undecided),
            None => item
                .span
                .halves()
                .into_iter()
                .for_each(|half| push(&mut heap, half, i, j)),
        }
    }
    Ok(())
}
