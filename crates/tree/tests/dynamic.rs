//! The dynamic tree against brute force over its live proxies, after random sequences of
//! insertions, removals and updates (touching, identical, zero-size, huge and tiny boxes):
//! pairs, moved pairs, box queries, pairs between two trees, ray queries (also against exact
//! rational slabs on a dyadic grid), nearest proxies and nearest pairs; and its structure read
//! through the public node accessors: boxes are the unions of their children's, parent links,
//! heights and the AVL balance of every node, the Fibonacci height bound, the free list.
//!
//! Every oracle here is written for the test and shares no code with the tree.

use num_rational::Ratio;
use obbtree_bv::{Aabb, Point, Ray, Vector};
use obbtree_tree::dynamic::DynamicNodeKind;
use obbtree_tree::{DynamicOptions, DynamicTree, ProxyError, ProxyId};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

#[path = "../../../tests/common/knob.rs"]
mod knob;

// ---------------------------------------------------------------------------------------------
// Oracles.

/// Closed boxes share a point.
fn boxes_meet(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|i| !(a.maxs[i] < b.mins[i] || b.maxs[i] < a.mins[i]))
}

fn ordered(a: ProxyId, b: ProxyId) -> (ProxyId, ProxyId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Every unordered pair of meeting boxes, each once, sorted.
fn brute_pairs(boxes: &BTreeMap<ProxyId, Aabb>) -> Vec<(ProxyId, ProxyId)> {
    let all: Vec<_> = boxes.iter().collect();
    let mut pairs = Vec::new();
    for (i, (a, box_a)) in all.iter().enumerate() {
        for (b, box_b) in &all[i + 1..] {
            if boxes_meet(box_a, box_b) {
                pairs.push(ordered(**a, **b));
            }
        }
    }
    pairs.sort();
    pairs
}

/// Every pair (a in `first`, b in `second`) of meeting boxes, sorted.
fn brute_pairs_between(
    first: &BTreeMap<ProxyId, Aabb>,
    second: &BTreeMap<ProxyId, Aabb>,
) -> Vec<(ProxyId, ProxyId)> {
    let mut pairs = Vec::new();
    for (a, box_a) in first {
        for (b, box_b) in second {
            if boxes_meet(box_a, box_b) {
                pairs.push((*a, *b));
            }
        }
    }
    pairs.sort();
    pairs
}

fn brute_query(boxes: &BTreeMap<ProxyId, Aabb>, query: &Aabb) -> Vec<ProxyId> {
    boxes
        .iter()
        .filter(|(_, b)| boxes_meet(b, query))
        .map(|(id, _)| *id)
        .collect()
}

/// Parameter at which the segment `origin + t dir`, `t >= 0`, enters the closed box, by slabs
/// written out axis by axis.
fn brute_ray_entry(ray: &Ray, b: &Aabb) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    for i in 0..3 {
        let (o, d) = (ray.origin[i], ray.dir[i]);
        if d == 0.0 {
            if o < b.mins[i] || o > b.maxs[i] {
                return None;
            }
            continue;
        }
        let (t_low, t_high) = ((b.mins[i] - o) / d, (b.maxs[i] - o) / d);
        let (near, far) = if t_low <= t_high {
            (t_low, t_high)
        } else {
            (t_high, t_low)
        };
        if near > enter {
            enter = near;
        }
        if far < exit {
            exit = far;
        }
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

/// Euclidean distance between closed boxes, gap by gap.
fn brute_distance(a: &Aabb, b: &Aabb) -> f64 {
    let gap = |i: usize| {
        if a.maxs[i] < b.mins[i] {
            b.mins[i] - a.maxs[i]
        } else if b.maxs[i] < a.mins[i] {
            a.mins[i] - b.maxs[i]
        } else {
            0.0
        }
    };
    let (x, y, z) = (gap(0), gap(1), gap(2));
    (x * x + y * y + z * z).sqrt()
}

fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    (0..3).all(|i| outer.mins[i] <= inner.mins[i] && inner.maxs[i] <= outer.maxs[i])
}

/// The fewest leaves of an AVL tree of height `h`: 1, 2, 3, 5, 8, ...
fn fewest_avl_leaves(h: usize) -> u64 {
    let (mut a, mut b) = (1u64, 2u64);
    for _ in 0..h {
        (a, b) = (b, a + b);
    }
    a
}

// ---------------------------------------------------------------------------------------------
// Structure.

/// Walks the tree through the public accessors: every record is either reached once from the
/// root or on the free list once; each internal box is exactly the union of its children's;
/// parents, heights and AVL balance are right; leaves are the live proxies and their boxes are
/// the proxies' fat boxes, which contain the tight boxes; the height obeys the Fibonacci bound.
fn check_structure<T>(tree: &DynamicTree<T>) {
    let capacity = tree.node_capacity();
    let mut seen = vec![false; capacity];
    let mut leaves = 0;
    let mut stack: Vec<usize> = tree.root().into_iter().collect();
    if let Some(root) = tree.root() {
        assert_eq!(tree.node(root).unwrap().parent, None);
    } else {
        assert!(tree.is_empty());
    }
    while let Some(index) = stack.pop() {
        assert!(!seen[index], "node {index} reached twice");
        seen[index] = true;
        let node = tree.node(index).expect("reachable node is live");
        match node.kind {
            DynamicNodeKind::Internal([l, r]) => {
                let (left, right) = (tree.node(l).unwrap(), tree.node(r).unwrap());
                assert_eq!(left.parent, Some(index));
                assert_eq!(right.parent, Some(index));
                let union = Aabb::new(
                    left.aabb.mins.inf(&right.aabb.mins),
                    left.aabb.maxs.sup(&right.aabb.maxs),
                );
                assert_eq!(node.aabb, union, "node {index} is not its children's union");
                assert_eq!(node.height, 1 + left.height.max(right.height));
                assert!(
                    left.height.abs_diff(right.height) <= 1,
                    "node {index} unbalanced: {} against {}",
                    left.height,
                    right.height
                );
                stack.extend([l, r]);
            }
            DynamicNodeKind::Leaf(id) => {
                leaves += 1;
                assert_eq!(node.height, 0);
                assert_eq!(tree.leaf_of(id), Some(index));
                assert_eq!(tree.fat_aabb(id), Some(&node.aabb));
                assert!(contains(&node.aabb, tree.tight_aabb(id).unwrap()));
            }
        }
    }
    assert_eq!(leaves, tree.len());
    for free in tree.free_nodes() {
        assert!(free < capacity);
        assert!(
            !seen[free],
            "record {free} both live and free, or free twice"
        );
        assert!(tree.node(free).is_none());
        seen[free] = true;
    }
    assert!(
        seen.iter().all(|&s| s),
        "a record is neither in the tree nor free"
    );
    if !tree.is_empty() {
        assert!(
            fewest_avl_leaves(tree.height()) <= tree.len() as u64,
            "height {} for {} proxies",
            tree.height(),
            tree.len()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Random operation sequences.

/// How to make a box, resolved against the boxes made before (`index` wraps around them).
#[derive(Clone, Debug)]
enum BoxSpec {
    Random {
        center: [f64; 3],
        half: [f64; 3],
    },
    Identical(usize),
    /// Shares the face `high` / low of box `of` on `axis`, centred on it on the other axes.
    Touching {
        of: usize,
        axis: usize,
        high: bool,
        half: [f64; 3],
    },
    Point([f64; 3]),
    /// A random box scaled by 1e-60 or 1e90.
    Scaled {
        center: [f64; 3],
        half: [f64; 3],
        scale: f64,
    },
}

#[derive(Clone, Debug)]
enum Op {
    Insert(BoxSpec),
    Remove(usize),
    Update(usize, BoxSpec),
    /// An update that refits in place rather than reinserting (`update_in_place`).
    UpdateInPlace(usize, BoxSpec),
    /// Moves a proxy's box by a small offset, with the offset as displacement or not.
    Nudge(usize, [f64; 3], bool),
    ClearMoved,
    Rebuild,
    /// A non-finite, inverted or out-of-range box, inserted or given to an update.
    Invalid(usize, u8),
}

fn coordinate() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![(-20i32..=20).prop_map(f64::from), -20.0..20.0f64]
}

fn half_extent() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        Just(0.0),
        (1i32..=4).prop_map(|k| f64::from(k) * 0.5),
        0.0..3.0f64
    ]
}

fn triple<S: Strategy<Value = f64> + Clone>(s: S) -> impl Strategy<Value = [f64; 3]> {
    [s.clone(), s.clone(), s]
}

fn box_spec() -> impl Strategy<Value = BoxSpec> {
    prop_oneof![
        6 => (triple(coordinate()), triple(half_extent()))
            .prop_map(|(center, half)| BoxSpec::Random { center, half }),
        1 => any::<usize>().prop_map(BoxSpec::Identical),
        2 => (any::<usize>(), 0..3usize, any::<bool>(), triple(half_extent()))
            .prop_map(|(of, axis, high, half)| BoxSpec::Touching { of, axis, high, half }),
        1 => triple(coordinate()).prop_map(BoxSpec::Point),
        1 => (triple(coordinate()), triple(half_extent()), prop_oneof![Just(1e-60), Just(1e90)])
            .prop_map(|(center, half, scale)| BoxSpec::Scaled { center, half, scale }),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => box_spec().prop_map(Op::Insert),
        2 => any::<usize>().prop_map(Op::Remove),
        3 => (any::<usize>(), box_spec()).prop_map(|(i, b)| Op::Update(i, b)),
        2 => (any::<usize>(), box_spec()).prop_map(|(i, b)| Op::UpdateInPlace(i, b)),
        4 => (any::<usize>(), triple(-0.3..0.3f64), any::<bool>())
            .prop_map(|(i, d, predicted)| Op::Nudge(i, d, predicted)),
        1 => Just(Op::ClearMoved),
        1 => Just(Op::Rebuild),
        1 => (any::<usize>(), 0..4u8).prop_map(|(i, kind)| Op::Invalid(i, kind)),
    ]
}

fn options() -> impl Strategy<Value = DynamicOptions> {
    (
        prop_oneof![Just(0.0), Just(0.5)],
        prop_oneof![Just(0.0), Just(0.1)],
        prop_oneof![Just(0.0), Just(2.0)],
    )
        .prop_map(
            |(margin, relative_margin, displacement_scale)| DynamicOptions {
                margin,
                relative_margin,
                displacement_scale,
            },
        )
}

fn centred(center: &[f64; 3], half: &[f64; 3], scale: f64) -> Aabb {
    let c = Vector::from(*center) * scale;
    let h = Vector::from(*half) * scale;
    Aabb::new(Point::from(c - h), Point::from(c + h))
}

fn resolve(spec: &BoxSpec, made: &[Aabb]) -> Aabb {
    let earlier = |i: usize| made.get(i % made.len().max(1)).copied();
    let unit = Aabb::new(Point::origin(), Point::new(1.0, 1.0, 1.0));
    match spec {
        BoxSpec::Random { center, half } => centred(center, half, 1.0),
        BoxSpec::Identical(i) => earlier(*i).unwrap_or(unit),
        BoxSpec::Touching {
            of,
            axis,
            high,
            half,
        } => {
            let base = earlier(*of).unwrap_or(unit);
            let mut b = centred(&base.center_coords(), half, 1.0);
            let (lo, hi) = if *high {
                (base.maxs[*axis], base.maxs[*axis] + 2.0 * half[*axis])
            } else {
                (base.mins[*axis] - 2.0 * half[*axis], base.mins[*axis])
            };
            b.mins[*axis] = lo;
            b.maxs[*axis] = hi;
            b
        }
        BoxSpec::Point(p) => centred(p, &[0.0; 3], 1.0),
        BoxSpec::Scaled {
            center,
            half,
            scale,
        } => centred(center, half, *scale),
    }
}

trait CenterCoords {
    fn center_coords(&self) -> [f64; 3];
}

impl CenterCoords for Aabb {
    fn center_coords(&self) -> [f64; 3] {
        [0, 1, 2].map(|i| 0.5 * (self.mins[i] + self.maxs[i]))
    }
}

fn invalid_box(kind: u8) -> Aabb {
    let p = Point::new(0.0, 1.0, 2.0);
    match kind {
        0 => Aabb::new(p, Point::new(f64::NAN, 1.0, 2.0)),
        1 => Aabb::new(Point::new(f64::NEG_INFINITY, 0.0, 0.0), p),
        2 => Aabb::new(p, Point::new(0.0, 0.5, 3.0)),
        _ => Aabb::new(p, Point::new(1e101, 1.0, 2.0)),
    }
}

/// What the test knows independently of the tree: live proxies with their tight boxes and
/// payloads, and the proxies that must count as moved.
#[derive(Default)]
struct Model {
    tight: BTreeMap<ProxyId, Aabb>,
    payload: BTreeMap<ProxyId, usize>,
    moved: BTreeSet<ProxyId>,
    live: Vec<ProxyId>,
    removed: Vec<ProxyId>,
    made: Vec<Aabb>,
}

impl Model {
    fn pick(&self, i: usize) -> Option<ProxyId> {
        (!self.live.is_empty()).then(|| self.live[i % self.live.len()])
    }
}

fn apply(tree: &mut DynamicTree<usize>, model: &mut Model, op: &Op, serial: usize) {
    match op {
        Op::Insert(spec) => {
            let b = resolve(spec, &model.made);
            model.made.push(b);
            insert(tree, model, b, serial);
        }
        Op::Remove(i) => {
            if let Some(id) = model.pick(*i) {
                assert_eq!(tree.remove(id), Some(model.payload[&id]));
                model.live.retain(|&x| x != id);
                model.tight.remove(&id);
                model.payload.remove(&id);
                model.moved.remove(&id);
                model.removed.push(id);
                assert_eq!(tree.remove(id), None);
                assert!(!tree.contains(id));
            }
        }
        Op::Update(i, spec) => {
            if let Some(id) = model.pick(*i) {
                let b = resolve(spec, &model.made);
                model.made.push(b);
                relocate(tree, model, id, b, Relocation::Reinsert(None));
            }
        }
        Op::UpdateInPlace(i, spec) => {
            if let Some(id) = model.pick(*i) {
                let b = resolve(spec, &model.made);
                model.made.push(b);
                relocate(tree, model, id, b, Relocation::InPlace);
            }
        }
        Op::Nudge(i, d, predicted) => {
            if let Some(id) = model.pick(*i) {
                let d = Vector::from(*d);
                let old = model.tight[&id];
                let b = Aabb::new(old.mins + d, old.maxs + d);
                relocate(
                    tree,
                    model,
                    id,
                    b,
                    Relocation::Reinsert(predicted.then_some(d)),
                );
            }
        }
        Op::ClearMoved => {
            tree.clear_moved();
            model.moved.clear();
        }
        Op::Rebuild => tree.rebuild(),
        Op::Invalid(i, kind) => {
            let bad = invalid_box(*kind);
            let len = tree.len();
            assert!(tree.insert(bad, usize::MAX).is_err());
            if let Some(id) = model.pick(*i) {
                let fat = *tree.fat_aabb(id).unwrap();
                assert!(tree.update(id, bad).is_err());
                let nan = Vector::new(0.0, f64::NAN, 0.0);
                assert!(matches!(
                    tree.update_with_displacement(id, model.tight[&id], &nan),
                    Err(ProxyError::NonFiniteDisplacement(_))
                ));
                assert_eq!(tree.tight_aabb(id), Some(&model.tight[&id]));
                assert_eq!(tree.fat_aabb(id), Some(&fat));
            }
            if let Some(&gone) = model.removed.last() {
                assert_eq!(
                    tree.update(gone, model.made[0]),
                    Err(ProxyError::UnknownProxy(gone))
                );
            }
            assert_eq!(tree.len(), len);
        }
    }
}

fn insert(tree: &mut DynamicTree<usize>, model: &mut Model, b: Aabb, serial: usize) {
    let id = tree.insert(b, serial).unwrap();
    model.tight.insert(id, b);
    model.payload.insert(id, serial);
    model.moved.insert(id);
    model.live.push(id);
}

/// How an update reaches the tree.
enum Relocation {
    /// `update`, or `update_with_displacement` with the displacement.
    Reinsert(Option<Vector>),
    /// `update_in_place`.
    InPlace,
}

/// Updates the proxy and checks the answer: the fat box is kept exactly when the update says
/// the tree did not change, and then it holds the new tight box.
fn relocate(
    tree: &mut DynamicTree<usize>,
    model: &mut Model,
    id: ProxyId,
    b: Aabb,
    how: Relocation,
) {
    let old_fat = *tree.fat_aabb(id).unwrap();
    let changed = match how {
        Relocation::Reinsert(Some(d)) => tree.update_with_displacement(id, b, &d).unwrap(),
        Relocation::Reinsert(None) => tree.update(id, b).unwrap(),
        Relocation::InPlace => tree.update_in_place(id, b).unwrap(),
    };
    let fat = *tree.fat_aabb(id).unwrap();
    if changed {
        model.moved.insert(id);
    } else {
        assert_eq!(fat, old_fat);
    }
    assert!(contains(&fat, &b));
    model.tight.insert(id, b);
}

/// Fat boxes of the live proxies, as the tree reports them (the data the oracles work on).
fn fat_boxes(tree: &DynamicTree<usize>, model: &Model) -> BTreeMap<ProxyId, Aabb> {
    model
        .tight
        .keys()
        .map(|&id| (id, *tree.fat_aabb(id).unwrap()))
        .collect()
}

/// Every query against brute force over the live proxies.
fn check_queries(tree: &DynamicTree<usize>, model: &Model, queries: &[Aabb], rays: &[Ray]) {
    assert_eq!(tree.len(), model.tight.len());
    for (id, b) in &model.tight {
        assert_eq!(tree.tight_aabb(*id), Some(b));
        assert_eq!(tree.payload(*id), Some(&model.payload[id]));
    }
    let fat = fat_boxes(tree, model);
    // Pairs, and the pairs of tight boxes among them.
    let pairs = tree.pairs();
    assert_eq!(pairs, brute_pairs(&fat));
    let tight_pairs: Vec<_> = pairs
        .iter()
        .copied()
        .filter(|(a, b)| boxes_meet(&model.tight[a], &model.tight[b]))
        .collect();
    assert_eq!(tight_pairs, brute_pairs(&model.tight));
    // Moved pairs.
    let moved: BTreeSet<ProxyId> = tree.moved().collect();
    assert_eq!(moved, model.moved);
    let expected_moved: Vec<_> = brute_pairs(&fat)
        .into_iter()
        .filter(|(a, b)| model.moved.contains(a) || model.moved.contains(b))
        .collect();
    assert_eq!(tree.moved_pairs(), expected_moved);
    // Box queries: the given ones and every live fat box.
    for q in queries.iter().chain(fat.values()) {
        let mut found: Vec<_> = tree.overlapping(q).collect();
        found.sort();
        assert_eq!(found, brute_query(&fat, q));
    }
    for ray in rays {
        check_ray(tree, &fat, ray);
    }
    for q in queries.iter().chain(fat.values().take(3)) {
        check_nearest(tree, &fat, q);
    }
    check_nearest_pairs(
        &|limit, visit| tree.nearest_pairs(limit, visit),
        &brute_pair_distances(&fat, &fat, true),
        true,
    );
}

/// Visits everything within `max_t`, in order, with the oracle's entry parameters; then the
/// shrinking and stopping callbacks.
fn check_ray(tree: &DynamicTree<usize>, fat: &BTreeMap<ProxyId, Aabb>, ray: &Ray) {
    for max_t in [f64::INFINITY, 1.0, 0.0] {
        let expected: BTreeMap<ProxyId, f64> = fat
            .iter()
            .filter_map(|(id, b)| brute_ray_entry(ray, b).map(|t| (*id, t)))
            .filter(|&(_, t)| t <= max_t)
            .collect();
        let mut visited = Vec::new();
        tree.cast_ray(ray, max_t, |id, t| {
            visited.push((id, t));
            max_t
        });
        check_best_first_order(&visited, &expected);
        // Shrinking to the first entry: exactly the proxies entered there.
        let first = expected.values().copied().fold(f64::INFINITY, f64::min);
        let mut shrunk = Vec::new();
        tree.cast_ray(ray, max_t, |id, t| {
            shrunk.push(id);
            t
        });
        let nearest: BTreeSet<_> = expected
            .iter()
            .filter(|&(_, &t)| t == first)
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(shrunk.iter().copied().collect::<BTreeSet<_>>(), nearest);
        assert_eq!(shrunk.len(), nearest.len());
        let mut stopped = 0;
        tree.cast_ray(ray, max_t, |_, _| {
            stopped += 1;
            -1.0
        });
        assert_eq!(stopped, expected.len().min(1));
    }
}

fn check_nearest(tree: &DynamicTree<usize>, fat: &BTreeMap<ProxyId, Aabb>, q: &Aabb) {
    let distances: BTreeMap<ProxyId, f64> = fat
        .iter()
        .map(|(id, b)| (*id, brute_distance(q, b)))
        .collect();
    let mut visited = Vec::new();
    tree.nearest_to_aabb(q, f64::INFINITY, |id, d| {
        visited.push((id, d));
        f64::INFINITY
    });
    check_best_first_order(&visited, &distances);
    // Within a limit: the median distance.
    let mut sorted: Vec<f64> = distances.values().copied().collect();
    sorted.sort_by(f64::total_cmp);
    if let Some(&limit) = sorted.get(sorted.len() / 2) {
        let expected: BTreeMap<_, _> = distances
            .iter()
            .filter(|&(_, &d)| d <= limit)
            .map(|(k, v)| (*k, *v))
            .collect();
        let mut within = Vec::new();
        tree.nearest_to_aabb(q, limit, |id, d| {
            within.push((id, d));
            limit
        });
        check_best_first_order(&within, &expected);
        // Shrinking to the first distance: exactly the nearest ones.
        let mut shrunk = 0;
        tree.nearest_to_aabb(q, f64::INFINITY, |_, d| {
            shrunk += 1;
            d
        });
        assert_eq!(shrunk, sorted.iter().filter(|&&d| d == sorted[0]).count());
    }
    // From a point: the box's lowest corner.
    let p = q.mins;
    let point_box = Aabb::new(p, p);
    let mut from_point = Vec::new();
    tree.nearest_to_point(&p, f64::INFINITY, |id, d| {
        from_point.push((id, d));
        f64::INFINITY
    });
    let expected: BTreeMap<_, _> = fat
        .iter()
        .map(|(id, b)| (*id, brute_distance(&point_box, b)))
        .collect();
    check_best_first_order(&from_point, &expected);
}

/// The callback of a nearest-pairs query.
type PairVisitor<'a> = dyn FnMut(ProxyId, ProxyId, f64) -> f64 + 'a;

/// Pairs by increasing box distance, within one tree (`unordered`: keyed by smaller, larger id)
/// or between two: everything, within the median distance, and shrinking to the first distance.
fn check_nearest_pairs(
    visit_all: &dyn Fn(f64, &mut PairVisitor),
    expected: &BTreeMap<(ProxyId, ProxyId), f64>,
    unordered: bool,
) {
    let key = |a, b| if unordered { ordered(a, b) } else { (a, b) };
    let mut visited = Vec::new();
    visit_all(f64::INFINITY, &mut |a, b, d| {
        visited.push((key(a, b), d));
        f64::INFINITY
    });
    check_best_first_order(&visited, expected);
    let mut sorted: Vec<f64> = expected.values().copied().collect();
    sorted.sort_by(f64::total_cmp);
    let Some(&limit) = sorted.get(sorted.len() / 2) else {
        return;
    };
    let within: BTreeMap<_, _> = expected
        .iter()
        .filter(|&(_, &d)| d <= limit)
        .map(|(k, v)| (*k, *v))
        .collect();
    let mut visited = Vec::new();
    visit_all(limit, &mut |a, b, d| {
        visited.push((key(a, b), d));
        limit
    });
    check_best_first_order(&visited, &within);
    let mut shrunk = 0;
    visit_all(f64::INFINITY, &mut |_, _, d| {
        shrunk += 1;
        d
    });
    assert_eq!(shrunk, sorted.iter().filter(|&&d| d == sorted[0]).count());
}

fn brute_pair_distances(
    first: &BTreeMap<ProxyId, Aabb>,
    second: &BTreeMap<ProxyId, Aabb>,
    unordered: bool,
) -> BTreeMap<(ProxyId, ProxyId), f64> {
    let mut distances = BTreeMap::new();
    for (a, box_a) in first {
        for (b, box_b) in second {
            if !unordered || a < b {
                distances.insert((*a, *b), brute_distance(box_a, box_b));
            }
        }
    }
    distances
}

/// `visited` holds each expected proxy (or pair) once with its expected key, keys never
/// decreasing.
fn check_best_first_order<K: Ord + std::fmt::Debug>(
    visited: &[(K, f64)],
    expected: &BTreeMap<K, f64>,
) {
    assert_eq!(
        visited.len(),
        expected.len(),
        "{visited:?} against {expected:?}"
    );
    for window in visited.windows(2) {
        assert!(window[0].1 <= window[1].1, "out of order: {visited:?}");
    }
    for (id, key) in visited {
        assert_eq!(expected.get(id), Some(key), "{id:?}");
    }
}

fn query_boxes() -> impl Strategy<Value = Vec<Aabb>> {
    prop::collection::vec(
        (
            triple(coordinate()),
            triple(prop_oneof![Just(0.0), 0.0..8.0f64]),
        )
            .prop_map(|(c, h)| centred(&c, &h, 1.0)),
        3,
    )
}

fn rays() -> impl Strategy<Value = Vec<Ray>> {
    let direction = prop_oneof![Just(0.0), (-3i32..=3).prop_map(f64::from), -1.0..1.0f64];
    prop::collection::vec(
        (triple(coordinate()), triple(direction))
            .prop_filter("non-zero direction", |(_, d)| d.iter().any(|&c| c != 0.0))
            .prop_map(|(o, d)| Ray::new(Point::from(o), Vector::from(d))),
        3,
    )
}

proptest! {
    #![proptest_config(knob::config(256))]

    #[test]
    fn operations_match_brute_force(
        options in options(),
        ops in prop::collection::vec(op(), 1..120),
        queries in query_boxes(),
        rays in rays(),
    ) {
        let mut tree = DynamicTree::with_options(options);
        let mut model = Model::default();
        for (serial, op) in ops.iter().enumerate() {
            apply(&mut tree, &mut model, op, serial);
            check_structure(&tree);
            if serial == ops.len() / 2 {
                check_queries(&tree, &model, &queries, &rays);
            }
        }
        check_queries(&tree, &model, &queries, &rays);
        tree.rebuild();
        check_structure(&tree);
        check_queries(&tree, &model, &queries, &rays);
    }

    #[test]
    fn pairs_between_trees_match_brute_force(
        options in options(),
        first in prop::collection::vec(box_spec(), 0..40),
        second in prop::collection::vec(box_spec(), 0..40),
        churn in prop::collection::vec(op(), 0..30),
    ) {
        let mut made = Vec::new();
        let mut boxes = |specs: &[BoxSpec]| -> Vec<Aabb> {
            specs.iter().map(|s| { let b = resolve(s, &made); made.push(b); b }).collect()
        };
        let (first, second) = (boxes(&first), boxes(&second));
        let (a, _) = DynamicTree::from_boxes(first.iter().map(|b| (*b, ())), options).unwrap();
        let mut b = DynamicTree::with_options(options);
        let mut model = Model { made: second.clone(), ..Model::default() };
        for (serial, b_box) in second.iter().enumerate() {
            insert(&mut b, &mut model, *b_box, serial);
        }
        for (serial, op) in churn.iter().enumerate() {
            apply(&mut b, &mut model, op, second.len() + serial);
        }
        check_structure(&a);
        check_structure(&b);
        let fat_a: BTreeMap<_, _> = a.iter().map(|(id, _)| (id, *a.fat_aabb(id).unwrap())).collect();
        let fat_b = fat_boxes(&b, &model);
        prop_assert_eq!(a.pairs_with(&b), brute_pairs_between(&fat_a, &fat_b));
        let swapped: Vec<_> = brute_pairs_between(&fat_b, &fat_a);
        prop_assert_eq!(b.pairs_with(&a), swapped);
        check_nearest_pairs(
            &|limit, visit| a.nearest_pairs_with(&b, limit, visit),
            &brute_pair_distances(&fat_a, &fat_b, false),
            false,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Rays on a dyadic grid against exact rational slabs.

/// Entry parameter of the ray into the box as an exact rational, coordinates given in eighths.
fn exact_ray_entry(
    origin: [i64; 3],
    dir: [i64; 3],
    mins: [i64; 3],
    maxs: [i64; 3],
) -> Option<Ratio<i64>> {
    let (mut enter, mut exit): (Ratio<i64>, Option<Ratio<i64>>) = (Ratio::from_integer(0), None);
    for i in 0..3 {
        if dir[i] == 0 {
            if origin[i] < mins[i] || origin[i] > maxs[i] {
                return None;
            }
            continue;
        }
        // t = (coordinate - origin) / (8 dir), all in eighths.
        let t = |c: i64| Ratio::new(c - origin[i], 8 * dir[i]);
        let (a, b) = (t(mins[i]), t(maxs[i]));
        let (near, far) = if a <= b { (a, b) } else { (b, a) };
        enter = enter.max(near);
        exit = Some(exit.map_or(far, |e: Ratio<i64>| e.min(far)));
        if exit.is_some_and(|e| enter > e) {
            return None;
        }
    }
    Some(enter)
}

proptest! {
    #![proptest_config(knob::config(128))]

    #[test]
    fn rays_on_a_grid_match_exact_slabs(
        margin in prop_oneof![Just(0.0), Just(0.25)],
        boxes in prop::collection::vec(
            (prop::array::uniform3(-64i64..64), prop::array::uniform3(0i64..24)), 1..60),
        moves in prop::collection::vec((any::<usize>(), prop::array::uniform3(-4i64..=4)), 0..40),
        rays in prop::collection::vec(
            (prop::array::uniform3(-80i64..80), prop::array::uniform3(-3i64..=3))
                .prop_filter("non-zero direction", |(_, d)| d.iter().any(|&c| c != 0)),
            1..6),
        max_t in prop_oneof![Just(f64::INFINITY), Just(2.5), Just(0.5), Just(0.0)],
    ) {
        let eighths = |v: [i64; 3]| Point::new(v[0] as f64 / 8.0, v[1] as f64 / 8.0, v[2] as f64 / 8.0);
        let options = DynamicOptions { margin, relative_margin: 0.0, displacement_scale: 0.0 };
        let mut corners: Vec<([i64; 3], [i64; 3])> =
            boxes.iter().map(|(lo, size)| (*lo, [0, 1, 2].map(|i| lo[i] + size[i]))).collect();
        let (mut tree, ids) = DynamicTree::from_boxes(
            corners.iter().map(|(lo, hi)| (Aabb::new(eighths(*lo), eighths(*hi)), ())), options).unwrap();
        for (i, step) in moves {
            let i = i % corners.len();
            let (lo, hi) = &mut corners[i];
            for k in 0..3 {
                lo[k] += step[k];
                hi[k] += step[k];
            }
            tree.update(ids[i], Aabb::new(eighths(*lo), eighths(*hi))).unwrap();
        }
        check_structure(&tree);
        // Fat boxes in eighths: the margin is two eighths or none, and moves never shrink it.
        let fat: Vec<([i64; 3], [i64; 3])> = ids.iter().map(|&id| {
            let b = tree.fat_aabb(id).unwrap();
            let to_eighths = |p: &Point| [0, 1, 2].map(|k| {
                let e = p[k] * 8.0;
                assert_eq!(e, e.round());
                e as i64
            });
            (to_eighths(&b.mins), to_eighths(&b.maxs))
        }).collect();
        for (origin, dir) in rays {
            let ray = Ray::new(eighths(origin), Vector::new(dir[0] as f64, dir[1] as f64, dir[2] as f64));
            let expected: BTreeMap<ProxyId, Ratio<i64>> = ids.iter().zip(&fat)
                .filter_map(|(&id, &(lo, hi))| exact_ray_entry(origin, dir, lo, hi).map(|t| (id, t)))
                .filter(|(_, t)| (*t.numer() as f64 / *t.denom() as f64) <= max_t)
                .collect();
            let mut visited = Vec::new();
            tree.cast_ray(&ray, max_t, |id, t| { visited.push((id, t)); max_t });
            prop_assert_eq!(visited.len(), expected.len());
            for w in visited.windows(2) {
                prop_assert!(w[0].1 <= w[1].1);
            }
            for (id, t) in &visited {
                let exact = expected.get(id).expect("visited proxy is hit exactly");
                prop_assert_eq!(*t, *exact.numer() as f64 / *exact.denom() as f64);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic cases.

fn unit_box_at(x: f64, y: f64, z: f64) -> Aabb {
    Aabb::new(Point::new(x, y, z), Point::new(x + 1.0, y + 1.0, z + 1.0))
}

/// The `i`-th box of a sequence.
type Layout = Box<dyn Fn(usize, &mut Pcg64) -> Aabb>;

/// Boxes inserted in sorted order along a line (the worst order for unbalanced insertion),
/// identical boxes and random ones stay AVL-balanced through insertions and removals.
#[test]
fn height_stays_within_the_avl_bound() {
    let tight = DynamicOptions {
        margin: 0.0,
        relative_margin: 0.0,
        displacement_scale: 0.0,
    };
    let mut rng = Pcg64::seed_from_u64(7);
    let layouts: [Layout; 3] = [
        Box::new(|i, _| unit_box_at(i as f64 * 2.0, 0.0, 0.0)),
        Box::new(|_, _| unit_box_at(0.0, 0.0, 0.0)),
        Box::new(|_, rng| unit_box_at(rng.gen_range(-50.0..50.0), rng.gen_range(-50.0..50.0), 0.0)),
    ];
    for layout in &layouts {
        let mut tree = DynamicTree::with_options(tight);
        let mut ids = Vec::new();
        for i in 0..2000 {
            ids.push(tree.insert(layout(i, &mut rng), i).unwrap());
            if i % 97 == 0 {
                check_structure(&tree);
            }
        }
        check_structure(&tree);
        assert!(tree.height() <= 15, "height {}", tree.height()); // 1.4405 log2(2002) = 15.8
        for id in ids.iter().step_by(3) {
            tree.remove(*id).unwrap();
        }
        check_structure(&tree);
        for (i, id) in ids.iter().enumerate().skip(1).step_by(3) {
            tree.update(*id, layout(i + 5000, &mut rng)).unwrap();
        }
        check_structure(&tree);
    }
}

/// `from_boxes` gives a balanced tree for every count up to 300, scattered, identical or
/// degenerate (all on one point), and the insertion operations may follow it.
#[test]
fn rebuild_is_balanced_for_every_count() {
    let mut rng = Pcg64::seed_from_u64(11);
    for n in 0..300 {
        let layouts: [Vec<Aabb>; 3] = [
            (0..n)
                .map(|_| {
                    unit_box_at(
                        rng.gen_range(-9.0..9.0),
                        rng.gen_range(-9.0..9.0),
                        rng.gen_range(-9.0..9.0),
                    )
                })
                .collect(),
            vec![unit_box_at(1.0, 2.0, 3.0); n],
            vec![Aabb::new(Point::origin(), Point::origin()); n],
        ];
        for boxes in layouts {
            let (mut tree, ids) =
                DynamicTree::from_boxes(boxes.iter().map(|b| (*b, ())), DynamicOptions::default())
                    .unwrap();
            check_structure(&tree);
            assert_eq!(ids.len(), n);
            tree.insert(unit_box_at(0.0, 0.0, 0.0), ()).unwrap();
            if let Some(&id) = ids.first() {
                tree.remove(id);
            }
            check_structure(&tree);
        }
    }
}

/// The rebuild's surface-area cost is below that of the same boxes inserted one by one.
#[test]
fn rebuild_beats_insertion_on_surface_area() {
    let mut rng = Pcg64::seed_from_u64(3);
    let boxes: Vec<Aabb> = (0..2000)
        .map(|_| {
            unit_box_at(
                rng.gen_range(-40.0..40.0),
                rng.gen_range(-40.0..40.0),
                rng.gen_range(-40.0..40.0),
            )
        })
        .collect();
    let mut inserted = DynamicTree::new();
    for b in &boxes {
        inserted.insert(*b, ()).unwrap();
    }
    let (rebuilt, _) =
        DynamicTree::from_boxes(boxes.iter().map(|b| (*b, ())), DynamicOptions::default()).unwrap();
    assert!(
        rebuilt.sah_cost() < inserted.sah_cost(),
        "rebuilt {} inserted {}",
        rebuilt.sah_cost(),
        inserted.sah_cost()
    );
}

#[test]
fn callbacks_stop_early() {
    let (tree, _) = DynamicTree::from_boxes(
        (0..20).map(|i| (unit_box_at(0.5 * f64::from(i), 0.0, 0.0), i)),
        DynamicOptions::default(),
    )
    .unwrap();
    let mut seen = 0;
    let flow = tree.for_each_pair(|_, _| {
        seen += 1;
        ControlFlow::Break(())
    });
    assert_eq!((flow, seen), (ControlFlow::Break(()), 1));
    let mut seen = 0;
    let flow = tree.for_each_moved_pair(|_, _| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((flow, seen), (ControlFlow::Break(()), 3));
    let mut seen = 0;
    let flow = tree.for_each_pair_with(&tree, |_, _| {
        seen += 1;
        ControlFlow::Break(())
    });
    assert_eq!((flow, seen), (ControlFlow::Break(()), 1));
    assert_eq!(
        tree.overlapping(&unit_box_at(0.0, 0.0, 0.0))
            .take(2)
            .count(),
        2
    );
}

/// Errors name what is wrong, and refused boxes leave the tree as it was.
#[test]
fn invalid_bounds_are_refused() {
    let mut tree = DynamicTree::new();
    let id = tree.insert(unit_box_at(0.0, 0.0, 0.0), 1).unwrap();
    let nan = Aabb::new(Point::new(f64::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    assert!(matches!(tree.insert(nan, 2), Err(ProxyError::NonFinite(b)) if b.maxs == nan.maxs));
    let inverted = Aabb::new(Point::new(0.0, 2.0, 0.0), Point::new(1.0, 1.0, 1.0));
    assert_eq!(
        tree.update(id, inverted),
        Err(ProxyError::Inverted {
            aabb: inverted,
            axis: 1
        })
    );
    let infinite = Aabb::new(
        Point::new(0.0, 0.0, 0.0),
        Point::new(f64::INFINITY, 1.0, 1.0),
    );
    assert!(tree
        .update(id, infinite)
        .unwrap_err()
        .to_string()
        .contains("NaN or infinite"));
    assert_eq!(tree.len(), 1);
    assert_eq!(tree.tight_aabb(id), Some(&unit_box_at(0.0, 0.0, 0.0)));
    assert_eq!(tree.remove(id), Some(1));
    assert_eq!(
        tree.update(id, unit_box_at(0.0, 0.0, 0.0)),
        Err(ProxyError::UnknownProxy(id))
    );
    check_structure(&tree);
}

/// A displacement no longer than the box's largest side is a step of a motion and stretches
/// the fat box ahead along it; a longer one is a jump and leaves only the margin (a box
/// stretched along a jump would sweep the space it jumped across).
#[test]
fn steps_stretch_the_fat_box_and_jumps_do_not() {
    let options = DynamicOptions::default();
    let margin = options.relative_margin; // the unit box's largest side is 1
    let mut tree = DynamicTree::with_options(options);
    let id = tree.insert(unit_box_at(0.0, 0.0, 0.0), 1).unwrap();
    for (to, stretched) in [(1.0, true), (1.0 + 1e-9, false), (40.0, false)] {
        let start = unit_box_at(0.0, 0.0, 0.0);
        tree.update(id, start).unwrap();
        let moved = unit_box_at(to, 0.0, 0.0);
        assert!(tree
            .update_with_displacement(id, moved, &Vector::new(to, 0.0, 0.0))
            .unwrap());
        let fat = *tree.fat_aabb(id).unwrap();
        let reach = if stretched {
            options.displacement_scale * to
        } else {
            0.0
        };
        assert_eq!(fat.mins.x, to - margin, "step {to}");
        assert_eq!(fat.maxs.x, to + 1.0 + margin + reach, "step {to}");
        assert_eq!(
            (fat.mins.y, fat.maxs.y),
            (-margin, 1.0 + margin),
            "step {to}"
        );
    }
    check_structure(&tree);
}
