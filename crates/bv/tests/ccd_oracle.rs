//! Continuous collision against an independent exact oracle, and hand-made adversarial cases.
//!
//! The oracle shares no code or method with the engine (which isolates roots of the coplanarity
//! cubic): it handles primitives that translate rigidly, where the relative motion of one is a
//! translation `p₀ + t d` against the other held still, and the earliest contact is a linear
//! programme. Vertex–face: `min t` over `p₀ + t d = Σ λᵢ vᵢ`, `λ ≥ 0`, `Σ λ = 1`,
//! `0 ≤ t ≤ 1`. Edge–edge: the segments `A + t d_a` and `B + t d_b` meet iff
//! `t (d_a − d_b) ∈ B − A`, the hull of the four `bⱼ − aᵢ`, the same programme with `p₀ = 0`.
//! The minimum of a bounded feasible programme is at a vertex of its polytope, and each vertex
//! is the unique solution of the equations with some of the variables set to zero: the oracle
//! tries every such subset in exact rationals (Gaussian elimination) and keeps the least
//! feasible `t`.

mod common;

use common::config_with;
use common::lp::earliest_hit;
use num_rational::BigRational;
use num_traits::Zero;
use obbtree_bv::ccd::{edge_edge, vertex_face, TimeOfImpact};
use obbtree_bv::{Point, Vector};
use proptest::prelude::*;

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).unwrap()
}

fn q3(p: &Vector) -> [Q; 3] {
    [q(p.x), q(p.y), q(p.z)]
}

/// The oracle's earliest contact of a vertex–face query whose face translates rigidly.
fn vertex_face_oracle(start: &[Point; 4], end: &[Point; 4]) -> Option<Q> {
    let motion = |i: usize| q3(&(end[i] - start[i]));
    let (dv, df) = (motion(0), motion(1));
    let d: [Q; 3] = std::array::from_fn(|i| &dv[i] - &df[i]);
    let face: Vec<[Q; 3]> = start[1..].iter().map(|p| q3(&p.coords)).collect();
    earliest_hit(&q3(&start[0].coords), &d, &face)
}

/// The oracle's earliest contact of an edge–edge query whose edges translate rigidly.
fn edge_edge_oracle(start: &[Point; 4], end: &[Point; 4]) -> Option<Q> {
    let motion = |i: usize| q3(&(end[i] - start[i]));
    let (da, db) = (motion(0), motion(2));
    let d: [Q; 3] = std::array::from_fn(|i| &da[i] - &db[i]);
    let differences: Vec<[Q; 3]> = [(2, 0), (3, 0), (2, 1), (3, 1)]
        .iter()
        .map(|&(b, a)| q3(&(start[b] - start[a])))
        .collect();
    earliest_hit(&std::array::from_fn(|_| Q::zero()), &d, &differences)
}

/// Whether the engine's answer is the oracle's: the same yes/no, and `lo ≤ t* ≤ hi` with the
/// interval at most `1e-12` wide (`[0, 0]` for contact at the start).
fn agrees(got: Option<TimeOfImpact>, want: Option<Q>) -> bool {
    match (got, want) {
        (None, None) => true,
        (Some(toi), Some(t)) => {
            let at_start = !t.is_zero() || (toi.lo == 0.0 && toi.hi == 0.0);
            q(toi.lo) <= t && t <= q(toi.hi) && toi.hi - toi.lo <= 1e-12 && at_start
        }
        _ => false,
    }
}

/// A small dyadic coordinate: many coplanar, collinear and touching configurations.
fn coordinate() -> impl Strategy<Value = f64> {
    (-4i32..=4).prop_map(|n| f64::from(n) / 2.0)
}

fn point() -> impl Strategy<Value = Point> {
    [coordinate(), coordinate(), coordinate()].prop_map(|[x, y, z]| Point::new(x, y, z))
}

/// Four points at `t = 0`, and their positions at `t = 1` with `[0]` moving by one
/// translation, `[1]` by another, and `[2]`, `[3]` like `[first_of_pair]`: the vertex and the
/// face (`pair = 1`), or the two edges (`pair = 2`), each translating rigidly.
fn rigid(pair: usize) -> impl Strategy<Value = ([Point; 4], [Point; 4])> {
    ([point(), point(), point(), point()], point(), point()).prop_map(move |(start, u, v)| {
        let (u, v) = (u.coords, v.coords);
        let end = std::array::from_fn(|i| start[i] + if i < pair { u } else { v });
        (start, end)
    })
}

/// [`rigid`], or the same with the first point aimed to end on the midpoint of the other
/// primitive's first edge at `t = 1` (the first edge moving with it): contact, often grazing.
fn rigid_or_aimed(pair: usize) -> impl Strategy<Value = ([Point; 4], [Point; 4])> {
    let aimed = rigid(pair).prop_map(move |(start, mut end)| {
        end[0] = Point::from((end[pair].coords + end[pair + 1].coords) / 2.0);
        if pair == 2 {
            end[1] = end[0] + (start[1] - start[0]);
        }
        (start, end)
    });
    prop_oneof![rigid(pair), aimed]
}

proptest! {
    #![proptest_config(config_with(600))]

    #[test]
    fn vertex_face_matches_the_oracle_on_translations((start, end) in rigid_or_aimed(1)) {
        let want = vertex_face_oracle(&start, &end);
        let got = vertex_face(start, end);
        prop_assert!(agrees(got, want.clone()), "{start:?} {end:?}: got {got:?}, oracle {want:?}");
    }

    #[test]
    fn edge_edge_matches_the_oracle_on_translations((start, end) in rigid_or_aimed(2)) {
        let want = edge_edge_oracle(&start, &end);
        let got = edge_edge(start, end);
        prop_assert!(agrees(got, want.clone()), "{start:?} {end:?}: got {got:?}, oracle {want:?}");
    }

    /// General motions: the answers do not depend on the order of the triangle's vertices or of
    /// the edges' ends, on which edge comes first, nor on a common translation and a scaling
    /// by a power of two (all exact on these inputs).
    #[test]
    fn answers_are_invariant_under_relabelling_and_exact_similarities(
        start in [point(), point(), point(), point()],
        end in [point(), point(), point(), point()],
        shift in point(),
        scale in -60i32..60,
    ) {
        let map = |ps: [Point; 4]| ps.map(|p| Point::from((p + shift.coords).coords * 2f64.powi(scale)));
        let pick = |ps: &[Point; 4], order: [usize; 4]| order.map(|i| ps[i]);
        let vf = vertex_face(start, end);
        for order in [[0, 2, 3, 1], [0, 3, 2, 1], [0, 1, 3, 2]] {
            prop_assert_eq!(vf, vertex_face(pick(&start, order), pick(&end, order)));
        }
        prop_assert_eq!(vf.is_some(), vertex_face(map(start), map(end)).is_some());
        let ee = edge_edge(start, end);
        for order in [[2, 3, 0, 1], [1, 0, 2, 3], [0, 1, 3, 2], [3, 2, 1, 0]] {
            prop_assert_eq!(ee, edge_edge(pick(&start, order), pick(&end, order)));
        }
        prop_assert_eq!(ee.is_some(), edge_edge(map(start), map(end)).is_some());
    }
}

fn p(x: f64, y: f64, z: f64) -> Point {
    Point::new(x, y, z)
}

/// The face `(0,0,0), (1,0,0), (0,1,0)` held still and a vertex moving from `from` to `to`.
fn vertex_against_face(from: Point, to: Point) -> Option<TimeOfImpact> {
    let face = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
    vertex_face(
        [from, face[0], face[1], face[2]],
        [to, face[0], face[1], face[2]],
    )
}

/// The edge `(0,0,0)–(1,0,0)` held still and an edge moving from `from` to `to`.
fn edge_against_edge(from: [Point; 2], to: [Point; 2]) -> Option<TimeOfImpact> {
    let fixed = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)];
    edge_edge(
        [fixed[0], fixed[1], from[0], from[1]],
        [fixed[0], fixed[1], to[0], to[1]],
    )
}

/// `lo ≤ t ≤ hi`, at most `1e-12` apart.
fn at(toi: Option<TimeOfImpact>, t: f64) -> bool {
    toi.is_some_and(|r| r.lo <= t && t <= r.hi && r.hi - r.lo <= 1e-12)
}

const TINY: f64 = 1.0 / (1u64 << 50) as f64;

#[test]
fn contact_exactly_at_the_end_and_just_missed() {
    assert!(at(
        vertex_against_face(p(0.25, 0.25, 1.0), p(0.25, 0.25, 0.0)),
        1.0
    ));
    assert!(vertex_against_face(p(0.25, 0.25, 1.0), p(0.25, 0.25, TINY)).is_none());
    let edge = |z: f64| [p(0.5, -1.0, z), p(0.5, 1.0, z)];
    assert!(at(edge_against_edge(edge(1.0), edge(0.0)), 1.0));
    assert!(edge_against_edge(edge(1.0), edge(TINY)).is_none());
}

#[test]
fn grazing_an_edge_or_a_vertex_counts_and_a_hair_beyond_does_not() {
    // Through the edge y = 0 at x = 0.5, then through the vertex (1, 0, 0).
    assert!(at(
        vertex_against_face(p(0.5, 0.0, 1.0), p(0.5, 0.0, -1.0)),
        0.5
    ));
    assert!(at(
        vertex_against_face(p(1.0, 0.0, 1.0), p(1.0, 0.0, -3.0)),
        0.25
    ));
    assert!(vertex_against_face(p(0.5, -TINY, 1.0), p(0.5, -TINY, -1.0)).is_none());
    assert!(vertex_against_face(p(1.0 + TINY, 0.0, 1.0), p(1.0, 0.0, -1.0)).is_none());
    // An edge sweeping down onto the fixed edge's end point only.
    let edge = |z: f64| [p(1.0, -1.0, z), p(1.0, 1.0, z)];
    assert!(at(edge_against_edge(edge(1.0), edge(-1.0)), 0.5));
    let beyond = |z: f64| [p(1.0 + TINY, -1.0, z), p(1.0 + TINY, 1.0, z)];
    assert!(edge_against_edge(beyond(1.0), beyond(-1.0)).is_none());
}

#[test]
fn starting_in_contact_is_time_zero() {
    let toi = vertex_against_face(p(0.25, 0.25, 0.0), p(5.0, 5.0, 5.0)).unwrap();
    assert_eq!((toi.lo, toi.hi), (0.0, 0.0));
    let crossing = [p(0.5, -1.0, 0.0), p(0.5, 1.0, 0.0)];
    let toi = edge_against_edge(crossing, [p(7.0, 1.0, 3.0), p(9.0, 2.0, 1.0)]).unwrap();
    assert_eq!((toi.lo, toi.hi), (0.0, 0.0));
}

#[test]
fn coplanar_sliding_enters_through_an_edge() {
    // In the face's plane: from (-1, 0.25) to (1, 0.25), entering through x = 0 at t = 1/2.
    assert!(at(
        vertex_against_face(p(-1.0, 0.25, 0.0), p(1.0, 0.25, 0.0)),
        0.5
    ));
    // Sliding along the line x + y = 1.5, outside the face: no contact.
    assert!(vertex_against_face(p(1.5, 0.0, 0.0), p(0.0, 1.5, 0.0)).is_none());
    // Along the hypotenuse x + y = 1 from beyond its end: contact when reaching (1, 0).
    assert!(at(
        vertex_against_face(p(2.0, -1.0, 0.0), p(0.0, 1.0, 0.0)),
        0.5
    ));
    // A whole triangle sliding in its plane onto a still vertex: the vertex enters at t = 1/4.
    let f = |dx: f64| {
        [
            p(2.0 + dx, 0.0, 0.0),
            p(3.0 + dx, 0.0, 0.0),
            p(2.0 + dx, 1.0, 0.0),
        ]
    };
    let [a, b, c] = f(0.0);
    let [d, e, g] = f(-8.0);
    let v = p(0.0, 0.5, 0.0);
    assert!(at(vertex_face([v, a, b, c], [v, d, e, g]), 0.25));
}

#[test]
fn parallel_and_collinear_edges() {
    // Parallel, one unit apart, moving together: never meet.
    let above = |y: f64| [p(0.0, y, 0.0), p(1.0, y, 0.0)];
    assert!(edge_against_edge(above(1.0), above(1.0)).is_none());
    // Parallel, approaching, overlapping when they meet at t = 1/2.
    assert!(at(edge_against_edge(above(1.0), above(-1.0)), 0.5));
    // Collinear, end to end: the moving edge's start reaches (1, 0, 0) at t = 3/4.
    let along = |x: f64| [p(x, 0.0, 0.0), p(x + 1.0, 0.0, 0.0)];
    assert!(at(edge_against_edge(along(4.0), along(0.0)), 0.75));
    // Collinear and overlapping from the start.
    let toi = edge_against_edge(along(0.5), along(5.0)).unwrap();
    assert_eq!((toi.lo, toi.hi), (0.0, 0.0));
}

#[test]
fn zero_length_edges_and_degenerate_triangles() {
    // A zero-length edge (a point) falling through the fixed edge at x = 0.5 at t = 1/3.
    let point = |z: f64| [p(0.5, 0.0, z), p(0.5, 0.0, z)];
    assert!(at(edge_against_edge(point(1.0), point(-2.0)), 1.0 / 3.0));
    assert!(edge_against_edge([p(0.5, TINY, 1.0); 2], [p(0.5, TINY, -2.0); 2]).is_none());
    // Both edges points, at x = 3 − 3t and x = 1.5t: they coincide at t = 2/3.
    let (a, b) = (|x: f64| [p(x, 0.0, 0.0); 2], |x: f64| [p(x, 0.0, 0.0); 2]);
    let (start, end) = ([a(3.0), b(0.0)].concat(), [a(0.0), b(1.5)].concat());
    let toi = edge_edge(start.try_into().unwrap(), end.try_into().unwrap());
    assert!(at(toi, 2.0 / 3.0), "{toi:?}");
    // A collinear triangle (the segment (0,0,0)–(2,0,0) with a vertex at (1,0,0)) crossed
    // by a vertex at x = 1.5, and missed by one beside it.
    let flat = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(2.0, 0.0, 0.0)];
    let with = |v: Point| [v, flat[0], flat[1], flat[2]];
    assert!(at(
        vertex_face(with(p(1.5, 0.0, 2.0)), with(p(1.5, 0.0, -2.0))),
        0.5
    ));
    assert!(vertex_face(with(p(1.5, TINY, 2.0)), with(p(1.5, TINY, -2.0))).is_none());
    // A triangle collapsed to a point, and a vertex passing through it.
    let dot = [p(1.0, 1.0, 1.0); 3];
    let through = |v: Point| [v, dot[0], dot[1], dot[2]];
    assert!(at(
        vertex_face(through(p(0.0, 0.0, 0.0)), through(p(4.0, 4.0, 4.0))),
        0.25
    ));
}

#[test]
fn static_queries_are_the_static_tests() {
    let still = |v: Point| vertex_against_face(v, v);
    assert!(at(still(p(0.25, 0.25, 0.0)), 0.0));
    assert!(still(p(0.25, 0.25, TINY)).is_none());
    assert!(at(still(p(0.5, 0.5, 0.0)), 0.0)); // on the hypotenuse
}

#[test]
fn huge_and_tiny_coordinates() {
    let (big, small) = (2f64.powi(100), 2f64.powi(-100)); // ≈ 1.3e30, 7.9e-31
    let face = [p(-big, -big, 0.0), p(big, -big, 0.0), p(0.0, big, 0.0)];
    let with = |v: Point| [v, face[0], face[1], face[2]];
    // A vertex crossing a huge face at a tiny height: contact at t = 1/2.
    assert!(at(
        vertex_face(with(p(0.0, 0.0, small)), with(p(0.0, 0.0, -small))),
        0.5
    ));
    // Stopping a tiny height short of it, and reaching it exactly at the end.
    assert!(vertex_face(with(p(0.0, 0.0, 3.0 * small)), with(p(0.0, 0.0, small))).is_none());
    assert!(at(
        vertex_face(with(p(0.0, 0.0, 3.0 * small)), with(p(0.0, 0.0, 0.0))),
        1.0
    ));
    // 1e30 and 1e-30 as written (not powers of two): the same cases scaled.
    let (big, small) = (1e30, 1e-30);
    let face = [p(-big, -big, 0.0), p(big, -big, 0.0), p(0.0, big, 0.0)];
    let with = |v: Point| [v, face[0], face[1], face[2]];
    assert!(at(
        vertex_face(with(p(0.0, 0.0, small)), with(p(0.0, 0.0, -small))),
        0.5
    ));
    let edge = |z: f64| [p(-big, 1.0, z), p(big, 1.0, z)];
    let fixed = [p(0.0, -small, 0.0), p(0.0, small, 0.0)];
    let start = [edge(small)[0], edge(small)[1], fixed[0], fixed[1]];
    let end = [edge(-small)[0], edge(-small)[1], fixed[0], fixed[1]];
    assert!(edge_edge(start, end).is_none()); // y = 1 never reaches |y| ≤ 1e-30
    let edge = |z: f64| [p(-big, small, z), p(big, small, z)];
    let start = [edge(small)[0], edge(small)[1], fixed[0], fixed[1]];
    let end = [edge(-small)[0], edge(-small)[1], fixed[0], fixed[1]];
    assert!(at(edge_edge(start, end), 0.5)); // grazes the fixed edge's end
}

#[test]
fn a_tangential_contact_at_a_double_root_of_the_cubic() {
    // Still edge (0,0,0)–(1,0,0); the third vertex (0, 2t − 1, 1) and the vertex (x, 0, 2t − 1):
    // the coplanarity cubic is (2t − 1)², touching zero at t = 1/2 without changing sign, when
    // the vertex lies on the line of the still edge.
    let (a, b) = (p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
    let (c0, c1) = (p(0.0, -1.0, 1.0), p(0.0, 1.0, 1.0));
    let query = |x: f64| vertex_face([p(x, 0.0, -1.0), a, b, c0], [p(x, 0.0, 1.0), a, b, c1]);
    assert!(at(query(0.5), 0.5));
    assert!(at(query(1.0), 0.5));
    assert!(query(1.0 + TINY).is_none());
    assert!(query(-TINY).is_none());
}
