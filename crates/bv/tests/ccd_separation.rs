//! Continuous collision with a minimum separation `d > 0`, against an exact oracle that shares
//! no code or method with the engine (which isolates the roots of distance-`d` polynomials):
//! the exact distance of the two primitives at dyadic sample times, as a quadratic programme
//! over the two simplices solved in rationals (`common::distance`).
//!
//! An answer `[lo, hi]` must be at most `1e-12` wide, no sample before `lo` may be within `d`,
//! and some time of `[lo, hi]` must be: the distance is Lipschitz in `t` with the constant `L`
//! of the fastest relative motion of two points, so the distance at `hi` is at most
//! `d + L(hi − lo)`. A miss must have no sample within `d`. Hand-made cases pin exact contact
//! times: grazing a corner (a double root), sliding along an edge or over a face at exactly
//! `d` (a distance polynomial that is identically zero), contact at `t = 1`, degenerate
//! primitives, and the same cases scaled to huge and tiny coordinates.

mod common;

use common::config_with;
use common::distance::dyadic_hull_distance_squared;
use common::exact::{q, Q3};
use num_rational::BigRational;
use num_traits::Zero;
use obbtree_bv::ccd::{
    edge_edge, edge_edge_within, vertex_face, vertex_face_within, Separation, TimeOfImpact,
};
use obbtree_bv::Point;
use proptest::prelude::*;
use std::cell::Cell;

type Q = BigRational;

/// Sample times `k / 64`.
const SAMPLES: i64 = 64;

/// A primitive pair: `start[..split]` against `start[split..]` (1: vertex–face, 2: edge–edge).
#[derive(Clone, Copy, Debug)]
enum Pair {
    VertexFace,
    EdgeEdge,
}

impl Pair {
    fn split(self) -> usize {
        match self {
            Pair::VertexFace => 1,
            Pair::EdgeEdge => 2,
        }
    }

    fn within(self, start: [Point; 4], end: [Point; 4], d: f64) -> Option<TimeOfImpact> {
        let d = Separation::new(d).expect("a valid separation");
        match self {
            Pair::VertexFace => vertex_face_within(start, end, d),
            Pair::EdgeEdge => edge_edge_within(start, end, d),
        }
    }

    fn touching(self, start: [Point; 4], end: [Point; 4]) -> Option<TimeOfImpact> {
        match self {
            Pair::VertexFace => vertex_face(start, end),
            Pair::EdgeEdge => edge_edge(start, end),
        }
    }
}

/// The exact squared distance of the two primitives at the time `t`.
fn distance_squared_at(pair: Pair, start: &[Point; 4], end: &[Point; 4], t: &Q) -> Q {
    let at = |i: usize| -> Q3 {
        let (s, e) = (start[i], end[i]);
        std::array::from_fn(|k| q(s[k]) + t * (q(e[k]) - q(s[k])))
    };
    let points: Vec<Q3> = (0..4).map(at).collect();
    let (a, b) = points.split_at(pair.split());
    dyadic_hull_distance_squared(a, b)
}

/// An upper bound of the Lipschitz constant of the distance in `t`: the largest 1-norm of the
/// relative motion of a point of one primitive and a point of the other.
fn lipschitz(pair: Pair, start: &[Point; 4], end: &[Point; 4]) -> Q {
    let motion = |i: usize| -> Q3 { std::array::from_fn(|k| q(end[i][k]) - q(start[i][k])) };
    let split = pair.split();
    let mut largest = Q::zero();
    for i in 0..split {
        for j in split..4 {
            let (u, v) = (motion(i), motion(j));
            let norm: Q = (0..3)
                .map(|k| num_traits::Signed::abs(&(&u[k] - &v[k])))
                .sum();
            largest = largest.max(norm);
        }
    }
    largest
}

/// What the answer was, for the tally of a random run.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    AtStart,
    Later,
    Miss,
}

/// Checks an answer against the oracle (module docs) and says what kind it was.
fn check(
    pair: Pair,
    start: &[Point; 4],
    end: &[Point; 4],
    d: f64,
    got: Option<TimeOfImpact>,
) -> Result<Kind, String> {
    let d2 = q(d) * q(d);
    let within = |t: &Q| distance_squared_at(pair, start, end, t) <= d2;
    let samples = (0..=SAMPLES).map(|k| Q::new(k.into(), SAMPLES.into()));
    let Some(toi) = got else {
        return match samples.clone().find(|t| within(t)) {
            Some(t) => Err(format!("missed: within {d} at t = {t}")),
            None => Ok(Kind::Miss),
        };
    };
    let (lo, hi) = (q(toi.lo), q(toi.hi));
    if !(toi.lo <= toi.hi && toi.hi - toi.lo <= 1e-12 && toi.lo >= 0.0 && toi.hi <= 1.0) {
        return Err(format!("bad interval {toi:?}"));
    }
    if let Some(t) = samples.clone().find(|t| *t < lo && within(t)) {
        return Err(format!("{toi:?} is late: within {d} at t = {t}"));
    }
    let reach = q(d) + lipschitz(pair, start, end) * (&hi - &lo);
    if distance_squared_at(pair, start, end, &hi) > &reach * &reach {
        return Err(format!("{toi:?}: not within {d} anywhere in it"));
    }
    if within(&Q::zero()) != (toi.hi == 0.0) {
        return Err(format!(
            "{toi:?}: contact at the start must be [0, 0] exactly"
        ));
    }
    Ok(if toi.hi == 0.0 {
        Kind::AtStart
    } else {
        Kind::Later
    })
}

/// A dyadic coordinate of a coarse grid: touching, parallel and coplanar configurations are
/// frequent.
fn coordinate() -> impl Strategy<Value = f64> {
    (-8i32..=8).prop_map(|n| f64::from(n) / 2.0)
}

fn point() -> impl Strategy<Value = Point> {
    [coordinate(), coordinate(), coordinate()].prop_map(|[x, y, z]| Point::new(x, y, z))
}

/// A separation on the grid (exact contacts at sample times are common) or any `f64` in
/// `(0, 2)`.
fn separation() -> impl Strategy<Value = f64> {
    prop_oneof![(1i32..=8).prop_map(|n| f64::from(n) / 8.0), (1e-9f64..2.0),]
}

/// Four points at `t = 0` and at `t = 1`, the first often starting next to the other
/// primitive's first point (within a grid step on each axis).
fn query(pair: Pair) -> impl Strategy<Value = ([Point; 4], [Point; 4])> {
    let split = pair.split();
    let step = (-2i32..=2).prop_map(|n| f64::from(n) / 4.0);
    let points = || [point(), point(), point(), point()];
    (
        points(),
        points(),
        [step.clone(), step.clone(), step],
        any::<bool>(),
    )
        .prop_map(move |(mut start, end, offset, near)| {
            if near {
                start[0] = start[split] + nalgebra::Vector3::from(offset);
            }
            (start, end)
        })
}

/// Runs the oracle on random queries of `pair` and asserts that all three kinds of answer
/// occurred often enough for the run to mean something.
fn random_queries_agree_with_the_oracle(pair: Pair) {
    let counts = [Kind::AtStart, Kind::Later, Kind::Miss].map(|k| (k, Cell::new(0usize)));
    let strategy = (query(pair), separation());
    let mut runner = proptest::test_runner::TestRunner::new(config_with(300));
    runner
        .run(&strategy, |((start, end), d)| {
            let got = pair.within(start, end, d);
            let kind = check(pair, &start, &end, d, got).map_err(TestCaseError::fail)?;
            counts
                .iter()
                .filter(|(k, _)| *k == kind)
                .for_each(|(_, c)| c.set(c.get() + 1));
            Ok(())
        })
        .unwrap();
    for (kind, count) in &counts {
        assert!(
            count.get() >= 20,
            "{pair:?}: only {} answers of kind {kind:?}",
            count.get()
        );
    }
}

#[test]
fn random_vertex_face_queries_agree_with_the_oracle() {
    random_queries_agree_with_the_oracle(Pair::VertexFace);
}

#[test]
fn random_edge_edge_queries_agree_with_the_oracle() {
    random_queries_agree_with_the_oracle(Pair::EdgeEdge);
}

proptest! {
    #![proptest_config(config_with(300))]

    /// A larger separation never meets later, and a separation of 0 is the touching query.
    #[test]
    fn larger_separations_meet_no_later(
        start in [point(), point(), point(), point()],
        end in [point(), point(), point(), point()],
        d in separation(),
    ) {
        for pair in [Pair::VertexFace, Pair::EdgeEdge] {
            prop_assert_eq!(pair.within(start, end, 0.0), pair.touching(start, end));
            let (near, far) = (pair.within(start, end, d), pair.within(start, end, 2.0 * d));
            if let Some(near) = near {
                let far = far.expect("within 2d wherever within d");
                prop_assert!(far.lo <= near.hi, "{pair:?}: {far:?} after {near:?}");
            }
            if let Some(touch) = pair.touching(start, end) {
                let near = near.expect("within d wherever touching");
                prop_assert!(near.lo <= touch.hi, "{pair:?}: {near:?} after {touch:?}");
            }
        }
    }
}

fn p(x: f64, y: f64, z: f64) -> Point {
    Point::new(x, y, z)
}

/// `t` is in the answer, which is at most `1e-12` wide.
fn assert_contact_at(got: Option<TimeOfImpact>, t: f64) {
    let toi = got.unwrap_or_else(|| panic!("no contact; expected one at {t}"));
    assert!(
        toi.lo <= t && t <= toi.hi && toi.hi - toi.lo <= 1e-12,
        "{toi:?}, expected {t}"
    );
}

/// The queries scaled by `2^k` (coordinates and separation): the same contact times.
fn scaled(k: i32, start: [Point; 4], end: [Point; 4], d: f64) -> ([Point; 4], [Point; 4], f64) {
    let s = 2f64.powi(k);
    (start.map(|x| x * s), end.map(|x| x * s), d * s)
}

/// A hand-made case: `(start, end, d, the exact contact time or None)`.
type Case = ([Point; 4], [Point; 4], f64, Option<f64>);

/// Hand-made vertex–face cases.
fn vertex_face_cases() -> Vec<Case> {
    let face = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
    let with = |v: Point| [v, face[0], face[1], face[2]];
    let below = f64::from_bits(0.5f64.to_bits() - 1);
    vec![
        // Falling onto the face: within 1/4 at t = 3/8.
        (
            with(p(0.25, 0.25, 1.0)),
            with(p(0.25, 0.25, -1.0)),
            0.25,
            Some(0.375),
        ),
        // Passing the corner f0 at exactly 1/2 in the plane (tangent: a double root), or not.
        (
            with(p(-1.0, -0.5, 0.0)),
            with(p(1.0, -0.5, 0.0)),
            0.5,
            Some(0.5),
        ),
        (
            with(p(-1.0, -0.5, 0.0)),
            with(p(1.0, -0.5, 0.0)),
            below,
            None,
        ),
        // Sliding beside the edge f0 f1 at exactly 1/2 (its line's polynomial is identically
        // zero): contact from the corner on, at x = 0.
        (
            with(p(-1.0, -0.5, 0.0)),
            with(p(2.0, -0.5, 0.0)),
            0.5,
            Some(1.0 / 3.0),
        ),
        // Gliding at height 1/2 over the plane (its polynomial identically zero), entering over
        // the edge f0 f1 at t = 1/2.
        (
            with(p(0.25, -1.0, 0.5)),
            with(p(0.25, 1.0, 0.5)),
            0.5,
            Some(0.5),
        ),
        // Reaching distance d exactly at t = 1.
        (
            with(p(0.25, 0.25, 2.0)),
            with(p(0.25, 0.25, 1.0)),
            1.0,
            Some(1.0),
        ),
        // Within d at the start.
        (
            with(p(0.25, 0.25, 0.5)),
            with(p(0.25, 0.25, 4.0)),
            0.5,
            Some(0.0),
        ),
        // The face moving away faster than the vertex follows.
        (
            [p(0.25, 0.25, 1.0), face[0], face[1], face[2]],
            [
                p(0.25, 0.25, 0.5),
                p(0.0, 0.0, -1.0),
                p(1.0, 0.0, -1.0),
                p(0.0, 1.0, -1.0),
            ],
            0.75,
            None,
        ),
        // A degenerate face (a segment on the x axis) and a vertex falling onto its middle.
        (
            [
                p(0.5, 0.0, 1.0),
                p(0.0, 0.0, 0.0),
                p(1.0, 0.0, 0.0),
                p(2.0, 0.0, 0.0),
            ],
            [
                p(0.5, 0.0, -1.0),
                p(0.0, 0.0, 0.0),
                p(1.0, 0.0, 0.0),
                p(2.0, 0.0, 0.0),
            ],
            0.25,
            Some(0.375),
        ),
    ]
}

/// Hand-made edge–edge cases.
fn edge_edge_cases() -> Vec<Case> {
    let (b0, b1) = (p(0.0, -1.0, 0.0), p(0.0, 1.0, 0.0));
    let over = |x: f64, z: f64| [p(x - 1.0, 0.0, z), p(x + 1.0, 0.0, z), b0, b1];
    let (c0, c1) = (p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
    let parallel = |x: f64| [p(x - 1.0, 0.5, 0.0), p(x, 0.5, 0.0), c0, c1];
    vec![
        // Crossing over at height 1/2: touching d = 1/2 from t = 1/4, never within less.
        (over(-2.0, 0.5), over(2.0, 0.5), 0.5, Some(0.25)),
        (over(-2.0, 0.5), over(2.0, 0.5), 0.4375, None),
        // Falling through: within 1/4 at t = 3/8.
        (over(0.0, 1.0), over(0.0, -1.0), 0.25, Some(0.375)),
        // Parallel edges sliding at exactly 1/2 (the lines' polynomial is zero): from the
        // moment the ends meet across, a0's end x = 0 at t = 1/2 (x from -2 to 2).
        (parallel(-2.0), parallel(2.0), 0.5, Some(0.5)),
        // A zero-length edge (a point) falling onto the other.
        (
            [p(0.0, 0.0, 1.0), p(0.0, 0.0, 1.0), b0, b1],
            [p(0.0, 0.0, -1.0), p(0.0, 0.0, -1.0), b0, b1],
            0.5,
            Some(0.25),
        ),
    ]
}

/// Every hand-made case, as given and scaled by huge and tiny powers of two, is answered as
/// expected and passes the oracle.
#[test]
fn hand_made_cases_have_their_exact_contact_times() {
    let pairs = [
        (Pair::VertexFace, vertex_face_cases()),
        (Pair::EdgeEdge, edge_edge_cases()),
    ];
    for (pair, cases) in pairs {
        for (start, end, d, expected) in cases {
            for k in [0, 500, -500, -1000] {
                let (start, end, d) = scaled(k, start, end, d);
                let got = pair.within(start, end, d);
                match expected {
                    Some(t) => assert_contact_at(got, t),
                    None => assert_eq!(got, None, "{pair:?} {start:?} {end:?} {d}"),
                }
                if k == 0 {
                    check(pair, &start, &end, d, got).unwrap();
                }
            }
        }
    }
}

/// Separations of 0, below it, or not finite are refused; `-0.0` is 0.
#[test]
fn only_finite_nonnegative_separations_exist() {
    assert_eq!(Separation::new(-0.0), Some(Separation::ZERO));
    assert_eq!(Separation::new(0.5).map(Separation::get), Some(0.5));
    for bad in [-1e-300, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(Separation::new(bad), None, "{bad}");
    }
}

/// Non-finite coordinates report no contact, as with no separation.
#[test]
fn non_finite_coordinates_report_no_contact() {
    let s = [
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(0.0, 1.0, 0.0),
        p(0.0, 0.0, 0.0),
    ];
    let e = [p(f64::NAN, 0.0, 0.0), s[1], s[2], s[3]];
    for pair in [Pair::VertexFace, Pair::EdgeEdge] {
        assert_eq!(pair.within(s, e, 0.5), None);
    }
}
