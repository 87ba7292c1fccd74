//! The exact triangle–triangle predicate (`tri_tri_exact`) against an independent exact oracle
//! (`common::sat`: separating axes in big integers), on pairs built to touch or nearly touch,
//! across the whole exact coordinate range:
//!
//! * 100,000 pairs per run (`OBBTREE_PROPTEST_CASES` overrides), built on an integer grid to
//!   share vertices or edges, be coplanar, hold a vertex on an edge or face, cross edges, or be
//!   zero-area (segments, points, both on one line); or from random floats, coplanar or close to each other. Each
//!   is moved by exact maps that keep the answer (axis permutations, sign flips, a power of two
//!   per axis, so one pair mixes magnitudes from `2⁻²⁵⁴` to `2³³⁹`), sometimes shifted (which
//!   rounds), and half of them then nudged by one to three ulps on a few coordinates;
//! * scale invariance: the answer at every power-of-two scaling that keeps the coordinates in
//!   the exact range equals the oracle's;
//! * the oracle itself against the rational LP oracle of `common::exact` on the same pairs.

mod common;

use common::config_with;
use common::exact::{grid_pair, hulls_meet_exact, Relation};
use common::sat::triangles_meet;
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Point, Triangle, MAX_COORDINATE, MIN_NONZERO_COORDINATE};
use proptest::prelude::*;

/// Vertices as coordinate arrays.
type Tri = [[f64; 3]; 3];

/// Largest magnitude of the exact range, `2³³⁹` (as `obbtree_bv::range` documents; written out
/// here so that the tests check the documented number, not the constant).
const EXACT_MAX: f64 = 1.1198723710889021e102;
/// Smallest nonzero magnitude the generators use at the low end of the exact range, `2⁻²⁵⁴`.
const EXACT_MIN: f64 = 3.454467422037778e-77;

/// How a pair was built (printed with a failure, hence read only through `Debug`).
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
enum Build {
    Grid(Relation),
    CollinearPair,
    CrossingEdges,
    PointOfFace,
    CoplanarFloats,
    NearFloats,
    FreeFloats,
}

fn grid(r: i64) -> impl Strategy<Value = [i64; 3]> {
    [-r..=r, -r..=r, -r..=r]
}

fn floats() -> impl Strategy<Value = [f64; 3]> {
    [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64]
}

fn to_f(t: [[i64; 3]; 3]) -> Tri {
    t.map(|v| v.map(|c| c as f64))
}

/// Two zero-area triangles on one line (segments or points on it, overlapping, touching or
/// apart): the case where both are decided as segments in a projection along the line.
fn collinear_pair() -> impl Strategy<Value = (Tri, Tri, Build)> {
    (
        grid(3),
        grid(2),
        [-4i64..=4, -4..=4, -4..=4],
        [-4i64..=4, -4..=4, -4..=4],
    )
        .prop_map(|(base, along, s, t)| {
            let on = |k: [i64; 3]| k.map(|k| [0, 1, 2].map(|i| base[i] + k * along[i]));
            (to_f(on(s)), to_f(on(t)), Build::CollinearPair)
        })
}

/// Edges `p₀p₁` and `q₀q₁` with the same midpoint: they cross there (or overlap, if parallel).
fn crossing_edges() -> impl Strategy<Value = (Tri, Tri, Build)> {
    ([grid(3), grid(3), grid(3)], grid(3), grid(3)).prop_map(|(p, q0, q2)| {
        let q1 = [0, 1, 2].map(|k| p[0][k] + p[1][k] - q0[k]);
        (to_f(p), to_f([q0, q1, q2]), Build::CrossingEdges)
    })
}

/// `q₀` a point of the closed triangle `p` (a vertex, on an edge or inside) with weights in
/// quarters, exact on a grid of multiples of 4.
fn point_of_face() -> impl Strategy<Value = (Tri, Tri, Build)> {
    (
        [grid(3), grid(3), grid(3)],
        [grid(3), grid(3)],
        0i64..=4,
        0i64..=4,
    )
        .prop_map(|(p, [q1, q2], w0, w1)| {
            let w1 = w1.min(4 - w0);
            let w = [w0, w1, 4 - w0 - w1];
            let p = p.map(|v| v.map(|c| 4 * c));
            let q0 = [0, 1, 2].map(|k| (0..3).map(|i| w[i] * p[i][k]).sum::<i64>() / 4);
            let q = [q0, q1.map(|c| 4 * c), q2.map(|c| 4 * c)];
            (to_f(p), to_f(q), Build::PointOfFace)
        })
}

/// Two triangles of random floats in one coordinate plane.
fn coplanar_floats() -> impl Strategy<Value = (Tri, Tri, Build)> {
    (
        [floats(), floats(), floats()],
        [floats(), floats(), floats()],
        0usize..3,
        -1.0..1.0f64,
    )
        .prop_map(|(mut p, mut q, axis, level)| {
            for v in p.iter_mut().chain(q.iter_mut()) {
                v[axis] = level;
            }
            (p, q, Build::CoplanarFloats)
        })
}

/// A random triangle and a smaller one around its vertex, an edge midpoint or its centroid.
fn near_floats() -> impl Strategy<Value = (Tri, Tri, Build)> {
    (
        [floats(), floats(), floats()],
        [floats(), floats(), floats()],
        0usize..3,
        0i32..40,
    )
        .prop_map(|(p, offsets, anchor, shrink)| {
            let at = |k: usize| match anchor {
                0 => p[0][k],
                1 => 0.5 * (p[0][k] + p[1][k]),
                _ => (p[0][k] + p[1][k] + p[2][k]) / 3.0,
            };
            let size = 2f64.powi(-shrink);
            let q = offsets.map(|o| [0, 1, 2].map(|k| at(k) + o[k] * size));
            (p, q, Build::NearFloats)
        })
}

fn free_floats() -> impl Strategy<Value = (Tri, Tri, Build)> {
    (
        [floats(), floats(), floats()],
        [floats(), floats(), floats()],
    )
        .prop_map(|(p, q)| (p, q, Build::FreeFloats))
}

/// The pairs before they are moved, weighted toward exact contact.
fn built_pair() -> impl Strategy<Value = (Tri, Tri, Build)> {
    prop_oneof![
        5 => grid_pair().prop_map(|(p, q, rel)| (to_f(p), to_f(q), Build::Grid(rel))),
        1 => collinear_pair(),
        2 => crossing_edges(),
        2 => point_of_face(),
        1 => coplanar_floats(),
        2 => near_floats(),
        1 => free_floats(),
    ]
}

/// Which magnitudes the power-of-two scaling may reach: `TriMesh`'s range or the whole exact
/// range.
#[derive(Clone, Copy, Debug)]
enum Span {
    Mesh,
    Exact,
}

impl Span {
    fn limits(self) -> (f64, f64) {
        match self {
            Span::Mesh => (MIN_NONZERO_COORDINATE, MAX_COORDINATE),
            Span::Exact => (EXACT_MIN, EXACT_MAX),
        }
    }

    /// Whether `x` is 0 or of a magnitude within the span.
    fn holds(self, x: f64) -> bool {
        let (lo, hi) = self.limits();
        x == 0.0 || (lo..=hi).contains(&x.abs())
    }
}

/// The exact and rounding moves applied to a built pair.
#[derive(Clone, Debug)]
struct Moves {
    /// Coordinate permutation (index into the six).
    permutation: usize,
    /// Sign flip per axis.
    flips: [bool; 3],
    /// Shift of one axis by an amount (rounds the coordinates; `None` most of the time).
    shift: Option<(usize, f64)>,
    /// Where in its valid range each axis' power of two lies (0: smallest, 1: largest), or
    /// `None` to leave the magnitudes as built.
    scale: Option<[f64; 3]>,
    span: Span,
    /// `(triangle, vertex, axis, ulps)` nudges, applied last.
    nudges: Vec<(usize, usize, usize, i64)>,
}

fn moves() -> impl Strategy<Value = Moves> {
    let position = prop_oneof![1 => Just(0.0), 1 => Just(1.0), 3 => 0.0..=1.0f64];
    let ulps = prop_oneof![-3i64..=-1, 1i64..=3];
    (
        0usize..6,
        any::<[bool; 3]>(),
        prop::option::weighted(0.25, (0usize..3, -8.0..8.0f64)),
        prop::option::weighted(0.9, [position.clone(), position.clone(), position]),
        prop_oneof![Just(Span::Mesh), Just(Span::Exact)],
        prop_oneof![
            1 => Just(vec![]),
            1 => prop::collection::vec((0usize..2, 0usize..3, 0usize..3, ulps), 1..=3),
        ],
    )
        .prop_map(|(permutation, flips, shift, scale, span, nudges)| Moves {
            permutation,
            flips,
            shift,
            scale,
            span,
            nudges,
        })
}

/// The six permutations of three axes.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The range of exponents `k` for which `2^k` times every nonzero magnitude in `values` stays
/// within `[lo, hi]` (`None` if the values are all 0 or no `k` fits).
fn exponents(
    values: impl Iterator<Item = f64> + Clone,
    (lo, hi): (f64, f64),
) -> Option<(i32, i32)> {
    let nonzero = values.map(f64::abs).filter(|&x| x > 0.0);
    let smallest = nonzero.clone().fold(f64::INFINITY, f64::min);
    let largest = nonzero.fold(0.0, f64::max);
    if largest == 0.0 {
        return None;
    }
    let fits = |k: i32| scale(smallest, k) >= lo && scale(largest, k) <= hi;
    let mut low = (lo / smallest).log2().ceil() as i32 - 1;
    while !fits(low) && low < 1100 {
        low += 1;
    }
    let mut high = (hi / largest).log2().floor() as i32 + 1;
    while !fits(high) && high > -1100 {
        high -= 1;
    }
    (low <= high && fits(low)).then_some((low, high))
}

/// `x · 2^k`, in steps that keep the intermediate finite and normal when the result is.
fn scale(x: f64, k: i32) -> f64 {
    x * 2f64.powi(k / 2) * 2f64.powi(k - k / 2)
}

/// `x` moved by `ulps` units in the last place.
fn nudge(x: f64, ulps: i64) -> f64 {
    (0..ulps.unsigned_abs()).fold(x, |x, _| if ulps > 0 { x.next_up() } else { x.next_down() })
}

/// The pair after the moves, or `None` if an axis cannot be scaled into the span.
fn moved(p: &Tri, q: &Tri, m: &Moves) -> Option<(Tri, Tri)> {
    let axes = PERMUTATIONS[m.permutation];
    let mut pair = [p, q].map(|t| t.map(|v| axes.map(|a| if m.flips[a] { -v[a] } else { v[a] })));
    if let Some((axis, by)) = m.shift {
        pair.iter_mut().flatten().for_each(|v| v[axis] += by);
    }
    for (axis, position) in m.scale.iter().flatten().enumerate() {
        let values = pair.iter().flatten().map(move |v| v[axis]);
        if let Some((low, high)) = exponents(values, m.span.limits()) {
            let k = low + (position * f64::from(high - low)).round() as i32;
            pair.iter_mut()
                .flatten()
                .for_each(|v| v[axis] = scale(v[axis], k));
        } else if pair.iter().flatten().any(|v| v[axis] != 0.0) {
            return None;
        }
    }
    if !pair.iter().flatten().flatten().all(|&x| m.span.holds(x)) {
        return None;
    }
    for &(t, vertex, axis, ulps) in &m.nudges {
        let x = nudge(pair[t][vertex][axis], ulps);
        if m.span.holds(x) {
            pair[t][vertex][axis] = x;
        }
    }
    Some((pair[0], pair[1]))
}

fn triangle(t: &Tri) -> Triangle {
    Triangle::new(t[0].into(), t[1].into(), t[2].into())
}

fn points(t: &Tri) -> [Point; 3] {
    t.map(Point::from)
}

/// The triangle's vertices rotated by `r` and, for `r >= 3`, reversed.
fn reordered(t: &Tri, r: usize) -> Triangle {
    let v = [t[r % 3], t[(r + 1) % 3], t[(r + 2) % 3]];
    if r >= 3 {
        triangle(&[v[0], v[2], v[1]])
    } else {
        triangle(&v)
    }
}

/// Every coordinate scaled by `2^k`.
fn scaled(t: &Tri, k: i32) -> Triangle {
    triangle(&t.map(|v| v.map(|c| scale(c, k))))
}

/// The exponents of the uniform scalings that keep the pair in the exact range.
fn uniform_exponents(p: &Tri, q: &Tri) -> Option<(i32, i32)> {
    exponents(p.iter().chain(q).flatten().copied(), (EXACT_MIN, EXACT_MAX))
}

fn moved_pair() -> impl Strategy<Value = (Tri, Tri, Build, Moves)> {
    (built_pair(), moves()).prop_filter_map("an axis out of range", |((p, q, build), m)| {
        moved(&p, &q, &m).map(|(p, q)| (p, q, build, m))
    })
}

/// Moved pairs left at their built magnitudes (about 1), which every power of two from about
/// `2⁻²⁵⁰` to `2³³⁵` keeps in range.
fn unscaled_pair() -> impl Strategy<Value = (Tri, Tri, Build, Moves)> {
    (built_pair(), moves()).prop_filter_map("out of range", |((p, q, build), mut m)| {
        m.scale = None;
        m.span = Span::Exact;
        moved(&p, &q, &m).map(|(p, q)| (p, q, build, m))
    })
}

proptest! {
    #![proptest_config(config_with(100_000))]

    /// The predicate equals the oracle, in both argument orders and any vertex order, and at the
    /// smallest and largest uniform power-of-two scaling in range.
    #[test]
    fn exact_matches_separating_axes((p, q, build, m) in moved_pair(), order in 0usize..36) {
        let want = triangles_meet(&points(&p), &points(&q));
        let got = tri_tri_exact::intersects(&triangle(&p), &triangle(&q));
        prop_assert_eq!(got, want, "{:?} {:?}\np = {:?}\nq = {:?}", build, m, p, q);
        let swapped = tri_tri_exact::intersects(&reordered(&q, order / 6), &reordered(&p, order % 6));
        prop_assert_eq!(swapped, want, "swapped, order {}: {:?} {:?}\np = {:?}\nq = {:?}", order, build, m, p, q);
        if let Some((low, high)) = uniform_exponents(&p, &q) {
            for k in [low, high] {
                let at_k = tri_tri_exact::intersects(&scaled(&p, k), &scaled(&q, k));
                prop_assert_eq!(at_k, want, "scaled by 2^{}: {:?}\np = {:?}\nq = {:?}", k, build, p, q);
            }
        }
    }
}

proptest! {
    #![proptest_config(config_with(500))]

    /// Scale invariance: at every power of two that keeps the coordinates in the exact range,
    /// the answer is the oracle's answer for the unscaled pair.
    #[test]
    fn every_power_of_two_gives_the_same_answer((p, q, build, _) in unscaled_pair()) {
        let want = triangles_meet(&points(&p), &points(&q));
        let (low, high) = uniform_exponents(&p, &q).expect("moved pairs are in range");
        for k in low..=high {
            let got = tri_tri_exact::intersects(&scaled(&p, k), &scaled(&q, k));
            prop_assert_eq!(got, want, "scaled by 2^{}: {:?}\np = {:?}\nq = {:?}", k, build, p, q);
        }
    }

    /// The separating-axis oracle equals the rational LP oracle (`common::exact`) on the same
    /// pairs: two exact oracles of different methods.
    #[test]
    fn oracles_agree((p, q, build, _) in moved_pair()) {
        prop_assert_eq!(
            triangles_meet(&points(&p), &points(&q)),
            hulls_meet_exact(&points(&p), &points(&q)),
            "{:?}\np = {:?}\nq = {:?}", build, p, q
        );
    }
}

/// The generator reaches both answers for every way of building a pair (a generator that, say,
/// only produced disjoint pairs would let a predicate answering `false` pass), and in
/// proportions that keep both answers frequent.
#[test]
fn generator_reaches_both_answers_for_every_build() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    let mut runner = TestRunner::deterministic();
    let strategy = moved_pair();
    let mut counts: BTreeMap<String, [usize; 2]> = BTreeMap::new();
    for _ in 0..4000 {
        let (p, q, build, _) = strategy.new_tree(&mut runner).unwrap().current();
        let kind = format!("{build:?}");
        let kind = kind.split('(').next().unwrap_or_default().to_owned();
        counts.entry(kind).or_default()[usize::from(triangles_meet(&points(&p), &points(&q)))] += 1;
    }
    println!("build: [disjoint, meeting] {counts:?}");
    assert_eq!(counts.len(), 7, "{counts:?}");
    for (kind, [apart, meet]) in &counts {
        assert!(
            *apart * 20 >= apart + meet && *meet * 20 >= apart + meet,
            "{kind}: {apart} apart, {meet} meeting"
        );
    }
}
