//! Triangle–triangle: the exact predicate against an exact rational oracle (zero disagreements),
//! Möller and ERIT against the exact predicate (disagreements only within rounding distance of
//! touching), and the intersection segment.

mod common;

use common::exact::*;
use common::{config_with, runner_with};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::intersect::tri_tri_segment::{self, Intersection};
use obbtree_bv::intersect::{tri_tri_erit, tri_tri_exact, tri_tri_moller};
use obbtree_bv::{Point, Triangle, Vector};
use proptest::prelude::*;

fn oracle(p: &Triangle, q: &Triangle) -> bool {
    hulls_meet_exact(&p.vertices(), &q.vertices())
}

/// Every vertex order of both triangles and both argument orders give the same answer.
fn exact_all_orders(p: &Triangle, q: &Triangle, perm: usize) -> [bool; 3] {
    let rot = |t: &Triangle, k: usize| {
        let v = t.vertices();
        let v = [v[k % 3], v[(k + 1) % 3], v[(k + 2) % 3]];
        if k >= 3 {
            Triangle::new(v[0], v[2], v[1])
        } else {
            Triangle::new(v[0], v[1], v[2])
        }
    };
    let (pp, qq) = (rot(p, perm % 6), rot(q, perm / 6));
    [
        tri_tri_exact::intersects(p, q),
        tri_tri_exact::intersects(&qq, &pp),
        tri_tri_exact::intersects(&pp, &qq),
    ]
}

proptest! {
    #![proptest_config(config_with(1000))]

    /// Grid pairs: shared vertices and edges, coplanar, vertex-on-edge, collinear and point
    /// triangles, at scales 1e-8 … 1e8 and shifted by 1e8.
    #[test]
    fn exact_matches_oracle_on_grid((p, q, rel) in grid_pair(), placement in grid_scale(), perm in 0usize..36) {
        let (p, q) = (place(&p, placement), place(&q, placement));
        let want = oracle(&p, &q);
        for got in exact_all_orders(&p, &q, perm) {
            prop_assert_eq!(got, want, "{:?} {:?} {:?} {:?}", rel, placement, p, q);
        }
    }

    /// Generic floating-point vertices, with the second triangle often nudged to be near the first.
    #[test]
    fn exact_matches_oracle_on_floats(p in float_triangle(), q in float_triangle(), placement in grid_scale(), perm in 0usize..36) {
        let (p, q) = (place_f(&p, placement), place_f(&q, placement));
        let want = oracle(&p, &q);
        for got in exact_all_orders(&p, &q, perm) {
            prop_assert_eq!(got, want, "{:?} {:?} {:?}", placement, p, q);
        }
    }
}

/// Signed gap between two triangles: their distance when apart, minus the penetration depth
/// (smallest overlap over the separating-axis candidates) when they intersect. Floating point.
fn gap(p: &Triangle, q: &Triangle, intersecting: bool) -> f64 {
    if !intersecting {
        return distance(p, q);
    }
    let (pv, qv) = (p.vertices(), q.vertices());
    let edges = |v: &[Point; 3]| [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let mut axes = vec![p.scaled_normal(), q.scaled_normal()];
    for e in edges(&pv) {
        for f in edges(&qv) {
            axes.push(e.cross(&f));
        }
    }
    -axes
        .iter()
        .filter(|a| a.norm() > 0.0)
        .map(|a| {
            let a = a.normalize();
            let proj = |v: &[Point; 3]| {
                let d = v.map(|x| a.dot(&x.coords));
                (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
            };
            let ((a0, a1), (b0, b1)) = (proj(&pv), proj(&qv));
            a1.min(b1) - a0.max(b0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Distance between disjoint triangles: the least over the vertex–triangle and edge–edge pairs
/// (Ericson, *Real-Time Collision Detection*, §5.1.5 and §5.1.9), in floating point, computed
/// relative to a vertex so that it does not depend on the position.
fn distance(p: &Triangle, q: &Triangle) -> f64 {
    let o = p.a;
    let rel = |t: &Triangle| t.vertices().map(|v| v - o);
    let (pv, qv) = (rel(p), rel(q));
    let mut best = f64::INFINITY;
    for (a, b) in [(&pv, &qv), (&qv, &pv)] {
        for v in a {
            best = best.min((v - closest_on_triangle(v, b)).norm());
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            best = best.min(segment_distance(
                &pv[i],
                &pv[(i + 1) % 3],
                &qv[j],
                &qv[(j + 1) % 3],
            ));
        }
    }
    best
}

/// Closest point to `p` on the triangle `t` (Ericson §5.1.5, Voronoi regions); degenerate
/// triangles fall back to their edges.
fn closest_on_triangle(p: &Vector, t: &[Vector; 3]) -> Vector {
    let (a, b, c) = (t[0], t[1], t[2]);
    let n = (b - a).cross(&(c - a));
    if n.norm_squared() == 0.0 {
        return [(a, b), (b, c), (c, a)]
            .iter()
            .map(|(s, e)| closest_on_segment(p, s, e))
            .min_by(|x, y| (x - p).norm().total_cmp(&(y - p).norm()))
            .unwrap();
    }
    // Inside the prism over the triangle: project onto the plane; else the nearest edge.
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(s, e)| (e - s).cross(&(p - s)).dot(&n) >= 0.0);
    if inside {
        return p - n * (n.dot(&(p - a)) / n.norm_squared());
    }
    [(a, b), (b, c), (c, a)]
        .iter()
        .map(|(s, e)| closest_on_segment(p, s, e))
        .min_by(|x, y| (x - p).norm().total_cmp(&(y - p).norm()))
        .unwrap()
}

fn closest_on_segment(p: &Vector, a: &Vector, b: &Vector) -> Vector {
    let d = b - a;
    let l = d.norm_squared();
    if l == 0.0 {
        return *a;
    }
    a + d * ((p - a).dot(&d) / l).clamp(0.0, 1.0)
}

/// Distance between segments `ab` and `cd` (Ericson §5.1.9, with the parallel case).
fn segment_distance(a: &Vector, b: &Vector, c: &Vector, d: &Vector) -> f64 {
    let (d1, d2, r) = (b - a, d - c, a - c);
    let (aa, ee, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t) = if aa == 0.0 && ee == 0.0 {
        (0.0, 0.0)
    } else if aa == 0.0 {
        (0.0, (f / ee).clamp(0.0, 1.0))
    } else {
        let cc = d1.dot(&r);
        if ee == 0.0 {
            ((-cc / aa).clamp(0.0, 1.0), 0.0)
        } else {
            let bb = d1.dot(&d2);
            let denom = aa * ee - bb * bb;
            let mut s = if denom > 0.0 {
                ((bb * f - cc * ee) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (bb * s + f) / ee;
            if t < 0.0 {
                t = 0.0;
                s = (-cc / aa).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((bb - cc) / aa).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    ((a + d1 * s) - (c + d2 * t)).norm()
}

/// "Within rounding distance of touching": 1e-9 of the pair's size, or 64 ulps of the largest
/// coordinate (the float methods work in absolute coordinates, so their rounding scales with
/// the coordinates, not with the triangles).
fn near_touching_tolerance(p: &Triangle, q: &Triangle) -> f64 {
    let pts: Vec<Point> = p.vertices().into_iter().chain(q.vertices()).collect();
    let lo = pts.iter().fold(pts[0], |a, b| a.inf(b));
    let hi = pts.iter().fold(pts[0], |a, b| a.sup(b));
    let magnitude = pts.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
    1e-9 * (hi - lo).max() + 64.0 * f64::EPSILON * magnitude
}

/// Möller and ERIT agree with the exact predicate except on configurations within rounding
/// distance of touching ([`near_touching_tolerance`]); the disagreements are counted and reported.
#[test]
fn float_methods_disagree_only_near_touching() {
    let mut runner = runner_with(5000, file!());
    let strategy = prop_oneof![
        (grid_pair(), grid_scale()).prop_map(|((p, q, _), s)| (place(&p, s), place(&q, s))),
        (float_triangle(), float_triangle(), grid_scale())
            .prop_map(|(p, q, s)| (place_f(&p, s), place_f(&q, s))),
    ];
    let counts = std::cell::RefCell::new([0usize; 4]);
    runner
        .run(&strategy, |(p, q)| {
            let exact = tri_tri_exact::intersects(&p, &q);
            let mut c = counts.borrow_mut();
            c[0] += 1;
            c[3] += exact as usize;
            for (i, method) in [tri_tri_moller::intersects, tri_tri_erit::intersects]
                .iter()
                .enumerate()
            {
                if method(&p, &q) != exact {
                    c[1 + i] += 1;
                    let g = gap(&p, &q, exact);
                    prop_assert!(
                        g.abs() <= near_touching_tolerance(&p, &q),
                        "method {i} exact {exact} gap {g:e} {p:?} {q:?}"
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    let c = counts.into_inner();
    println!(
        "{} cases ({} intersecting): Möller disagreed {} times, ERIT {} times, all near touching",
        c[0], c[3], c[1], c[2]
    );
}

/// Hand-made cases with known answers.
#[test]
fn adversarial_cases() {
    let t = |a: [f64; 3], b: [f64; 3], c: [f64; 3]| Triangle::new(a.into(), b.into(), c.into());
    let base = t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    let cases: Vec<(&str, Triangle, bool)> = vec![
        (
            "shared vertex only",
            t([0.0, 0.0, 0.0], [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]),
            true,
        ),
        (
            "shared edge, other side",
            t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]),
            true,
        ),
        (
            "touching at edge midpoint from above",
            t([0.5, 0.0, 0.0], [0.5, -1.0, 1.0], [0.5, 1.0, 1.0]),
            true,
        ),
        (
            "vertex on face",
            t([0.25, 0.25, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]),
            true,
        ),
        (
            "vertex just above face",
            t([0.25, 0.25, 1e-30], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]),
            false,
        ),
        (
            "piercing",
            t([0.25, 0.25, -1.0], [0.25, 0.25, 1.0], [2.0, 2.0, 0.0]),
            true,
        ),
        (
            "coplanar overlapping",
            t([0.2, 0.2, 0.0], [2.0, 0.2, 0.0], [0.2, 2.0, 0.0]),
            true,
        ),
        (
            "coplanar contained",
            t([0.1, 0.1, 0.0], [0.2, 0.1, 0.0], [0.1, 0.2, 0.0]),
            true,
        ),
        (
            "coplanar touching at a vertex",
            t([1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0]),
            true,
        ),
        (
            "coplanar touching along an edge",
            t([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]),
            true,
        ),
        (
            "coplanar disjoint by an ulp",
            t(
                [0.5 + 1e-16, 0.5 + 1e-16, 0.0],
                [1.0, 1.0, 0.0],
                [2.0, 0.5, 0.0],
            ),
            false,
        ),
        (
            "coplanar disjoint",
            t([2.0, 2.0, 0.0], [3.0, 2.0, 0.0], [2.0, 3.0, 0.0]),
            false,
        ),
        (
            "zero-area segment piercing",
            t([0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.2, 0.2, 0.0]),
            true,
        ),
        (
            "zero-area segment in plane, crossing",
            t([-1.0, 0.5, 0.0], [2.0, 0.5, 0.0], [0.5, 0.5, 0.0]),
            true,
        ),
        (
            "zero-area segment in plane, outside",
            t([-1.0, 2.0, 0.0], [2.0, 2.0, 0.0], [0.5, 2.0, 0.0]),
            false,
        ),
        (
            "point on edge",
            t([0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0]),
            true,
        ),
        (
            "point off edge",
            t(
                [0.5, 0.5 + 1e-16, 0.0],
                [0.5, 0.5 + 1e-16, 0.0],
                [0.5, 0.5 + 1e-16, 0.0],
            ),
            false,
        ),
        (
            "parallel planes",
            t([0.0, 0.0, 1e-12], [1.0, 0.0, 1e-12], [0.0, 1.0, 1e-12]),
            false,
        ),
    ];
    for scale in [1.0, 1e-8, 1e8] {
        for shift in [0.0, 1e8] {
            let tr = |t: &Triangle| {
                let f = |p: Point| Point::from(p.coords * scale + Vector::repeat(shift));
                Triangle::new(f(t.a), f(t.b), f(t.c))
            };
            for (name, q, want) in &cases {
                let (p, q) = (tr(&base), tr(q));
                let want_here = oracle(&p, &q);
                if scale == 1.0 && shift == 0.0 {
                    assert_eq!(want_here, *want, "oracle on {name}");
                }
                assert_eq!(
                    tri_tri_exact::intersects(&p, &q),
                    want_here,
                    "{name} at scale {scale} shift {shift}"
                );
                assert_eq!(
                    tri_tri_exact::intersects(&q, &p),
                    want_here,
                    "{name} swapped at scale {scale} shift {shift}"
                );
            }
        }
    }
}

/// The oracle itself on cases whose answer is obvious, so that it cannot silently agree with a
/// wrong implementation.
#[test]
fn oracle_sanity() {
    let t = |a: [f64; 3], b: [f64; 3], c: [f64; 3]| Triangle::new(a.into(), b.into(), c.into());
    let base = t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    assert!(oracle(&base, &base));
    assert!(oracle(
        &base,
        &t([1.0, 0.0, 0.0], [5.0, 5.0, 5.0], [6.0, 5.0, 5.0])
    ));
    assert!(!oracle(
        &base,
        &t([1.0, 0.0, 1e-9], [5.0, 5.0, 5.0], [6.0, 5.0, 5.0])
    ));
    assert!(oracle(
        &base,
        &t([0.5, 0.5, -1.0], [0.5, 0.5, 1.0], [0.5, 0.5, 1.0])
    ));
    assert!(!oracle(
        &base,
        &t(
            [0.5, 0.5 + 1e-15, -1.0],
            [0.5, 0.5 + 1e-15, 1.0],
            [0.5, 0.5, 1.0]
        )
    ));
}

/// The intersection segment in exact rational arithmetic: each triangle's vertices on, and edges
/// across, the other's plane, cut exactly; the overlap of the two intervals along `n_p × n_q`.
fn exact_segment(p: &Triangle, q: &Triangle) -> Option<(Q3, Q3)> {
    let (pv, qv) = (p.vertices().map(|v| q3(&v)), q.vertices().map(|v| q3(&v)));
    let normal = |v: &[Q3; 3]| cross(&sub(&v[1], &v[0]), &sub(&v[2], &v[0]));
    let (np, nq) = (normal(&pv), normal(&qv));
    let dir = cross(&np, &nq);
    let cut = |v: &[Q3; 3], n: &Q3, o: &Q3| -> Vec<Q3> {
        let d: Vec<BigRational> = v.iter().map(|x| dot(n, &sub(x, o))).collect();
        let mut pts = vec![];
        for i in 0..3 {
            let j = (i + 1) % 3;
            if d[i].is_zero() {
                pts.push(v[i].clone());
            }
            if (d[i].is_positive() && d[j].is_negative())
                || (d[i].is_negative() && d[j].is_positive())
            {
                let f = &d[i] / (&d[i] - &d[j]);
                pts.push([0, 1, 2].map(|k| &v[i][k] + (&v[j][k] - &v[i][k]) * &f));
            }
        }
        pts
    };
    let (a, b) = (cut(&pv, &nq, &qv[0]), cut(&qv, &np, &pv[0]));
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let key = |x: &Q3| dot(&dir, x);
    let min = |v: &Vec<Q3>| v.iter().min_by(|x, y| key(x).cmp(&key(y))).unwrap().clone();
    let max = |v: &Vec<Q3>| v.iter().max_by(|x, y| key(x).cmp(&key(y))).unwrap().clone();
    let (lo_a, lo_b, hi_a, hi_b) = (min(&a), min(&b), max(&a), max(&b));
    let lo = if key(&lo_a) >= key(&lo_b) { lo_a } else { lo_b };
    let hi = if key(&hi_a) <= key(&hi_b) { hi_a } else { hi_b };
    (key(&lo) <= key(&hi)).then_some((lo, hi))
}

proptest! {
    #![proptest_config(config_with(1000))]

    /// The classification agrees with the exact predicate, and for well-conditioned pairs (planes
    /// not nearly parallel, no slivers, no vertex within rounding of the other plane) the
    /// segment's ends equal the exact ones up to rounding.
    #[test]
    fn segment_matches_exact_segment(
        pair in prop_oneof![
            (grid_pair(), grid_scale()).prop_map(|((p, q, _), s)| (place(&p, s), place(&q, s))),
            (float_triangle(), float_triangle(), grid_scale()).prop_map(|(p, q, s)| (place_f(&p, s), place_f(&q, s))),
        ]
    ) {
        let (p, q) = pair;
        let got = tri_tri_segment::intersection(&p, &q);
        let hit = tri_tri_exact::intersects(&p, &q);
        prop_assert_eq!(got != Intersection::Disjoint, hit);
        if let Intersection::Segment(a, b) = got {
            let (np, nq) = (p.scaled_normal(), q.scaled_normal());
            let sin = np.cross(&nq).norm() / (np.norm() * nq.norm());
            // Well-conditioned only: planes not nearly parallel, no slivers.
            let shape = |t: &Triangle| t.scaled_normal().norm() / ((t.b - t.a).norm() * (t.c - t.a).norm());
            // A vertex off the other plane by a rounding-sized distance makes its edge's crossing
            // point ill-conditioned: only exact zeros or clear distances.
            let clear = |t: &Triangle, o: &Triangle| {
                let (n, no) = (o.scaled_normal(), q3(&o.a));
                let nq = cross(&sub(&q3(&o.b), &no), &sub(&q3(&o.c), &no));
                t.vertices().iter().all(|v| {
                    let w = v - o.a;
                    dot(&nq, &sub(&q3(v), &no)).is_zero() || n.dot(&w).abs() > 1e-6 * n.norm() * w.norm()
                })
            };
            prop_assume!(sin > 1e-6 && shape(&p) > 1e-6 && shape(&q) > 1e-6 && clear(&p, &q) && clear(&q, &p));
            let (ea, eb) = exact_segment(&p, &q).expect("intersecting, not coplanar");
            let tol = near_touching_tolerance(&p, &q) / sin;
            let close = |x: &Point, e: &Q3| (0..3).all(|k| (x[k] - approx(&e[k])).abs() <= tol);
            prop_assert!(close(&a, &ea) && close(&b, &eb), "{:?} vs exact {:?} {:?}", got, (approx(&ea[0]), approx(&ea[1]), approx(&ea[2])), (approx(&eb[0]), approx(&eb[1]), approx(&eb[2])));
        }
    }
}

#[test]
fn segment_adversarial() {
    let t = |a: [f64; 3], b: [f64; 3], c: [f64; 3]| Triangle::new(a.into(), b.into(), c.into());
    let base = t([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
    // Piercing: the segment runs across the base at x = 0.5 for y in [0, 1.5].
    let pierce = t([0.5, -1.0, -1.0], [0.5, -1.0, 1.0], [0.5, 3.0, 0.0]);
    match tri_tri_segment::intersection(&base, &pierce) {
        Intersection::Segment(a, b) => {
            let (lo, hi) = if a.y < b.y { (a, b) } else { (b, a) };
            assert!(
                (lo - Point::new(0.5, 0.0, 0.0)).norm() < 1e-12
                    && (hi - Point::new(0.5, 1.5, 0.0)).norm() < 1e-12,
                "{lo} {hi}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Touching at a single vertex: a degenerate segment.
    let touch = t([1.0, 0.5, 0.0], [1.0, 0.5, 1.0], [2.0, 2.0, 1.0]);
    assert_eq!(
        tri_tri_segment::intersection(&base, &touch),
        Intersection::Segment(Point::new(1.0, 0.5, 0.0), Point::new(1.0, 0.5, 0.0))
    );
    assert_eq!(
        tri_tri_segment::intersection(&base, &t([0.5, 0.5, 0.0], [3.0, 0.5, 0.0], [0.5, 3.0, 0.0])),
        Intersection::Coplanar
    );
    assert_eq!(
        tri_tri_segment::intersection(
            &base,
            &t([0.5, 0.5, -1.0], [0.5, 0.5, 1.0], [0.5, 0.5, 0.0])
        ),
        Intersection::Degenerate
    );
    assert_eq!(
        tri_tri_segment::intersection(&base, &t([0.5, 0.5, 1.0], [3.0, 0.5, 1.0], [0.5, 3.0, 2.0])),
        Intersection::Disjoint
    );
}
