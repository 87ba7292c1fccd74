//! 2D segment–segment: Antonio's parametric test vs. the exact orientation test vs. exact
//! integer arithmetic, with touching and collinear cases.
mod common;

use common::*;
use nalgebra::Point2;
use obbtree_bv::intersect::segment2d::{intersect, overlaps};
use proptest::prelude::*;

fn p2(n: i32) -> impl Strategy<Value = Point2<f64>> {
    (-n..=n, -n..=n).prop_map(|(x, y)| Point2::new(x.into(), y.into()))
}

/// Exact oracle on integers: orientation signs plus collinear overlap.
fn exact(p1: &Point2<f64>, p2: &Point2<f64>, q1: &Point2<f64>, q2: &Point2<f64>) -> bool {
    let o = |a: &Point2<f64>, b: &Point2<f64>, c: &Point2<f64>| {
        ((int(b.x) - int(a.x)) * (int(c.y) - int(a.y))
            - (int(b.y) - int(a.y)) * (int(c.x) - int(a.x)))
        .signum()
    };
    let (a, b, c, d) = (o(p1, p2, q1), o(p1, p2, q2), o(q1, q2, p1), o(q1, q2, p2));
    if a == 0 && b == 0 && c == 0 && d == 0 {
        return (0..2)
            .all(|k| p1[k].min(p2[k]) <= q1[k].max(q2[k]) && q1[k].min(q2[k]) <= p1[k].max(p2[k]));
    }
    a * b <= 0 && c * d <= 0
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn grid_matches_exact(p1 in p2(4), p2_ in p2(4), q1 in p2(4), q2 in p2(4)) {
        let want = exact(&p1, &p2_, &q1, &q2);
        prop_assert_eq!(overlaps(&p1, &p2_, &q1, &q2), want);
        let f = (q2 - q1).perp(&(p2_ - p1));
        if f != 0.0 {
            // Non-parallel: Antonio's parametric test is exact on integers too.
            prop_assert_eq!(intersect(&p1, &p2_, &q1, &q2).is_some(), want);
        }
        if let Some((s, t)) = intersect(&p1, &p2_, &q1, &q2) {
            let (a, b) = (p1 + (p2_ - p1) * s, q1 + (q2 - q1) * t);
            prop_assert!((a - b).norm() < 1e-12);
        }
    }

    #[test]
    fn floats_agree(p1 in (coord(), coord()), p2_ in (coord(), coord()), q1 in (coord(), coord()), q2 in (coord(), coord())) {
        let [p1, p2_, q1, q2] = [p1, p2_, q1, q2].map(|(x, y)| Point2::new(x, y));
        let param = intersect(&p1, &p2_, &q1, &q2);
        if param.is_some() != overlaps(&p1, &p2_, &q1, &q2) {
            // Only within rounding of an endpoint touching the other segment.
            let (s, t) = param.unwrap_or_else(|| { let (a, b, c) = (q2 - q1, p2_ - p1, p1 - q1); let f = a.perp(&b); (-c.perp(&a) / f, -c.perp(&b) / f) });
            prop_assert!([s, 1.0 - s, t, 1.0 - t].iter().any(|x| x.abs() < 1e-9), "s {} t {}", s, t);
        }
    }
}

#[test]
fn adversarial_cases() {
    let p = |x: f64, y: f64| Point2::new(x, y);
    for scale in [1.0, 2f64.powi(-27), 2f64.powi(27)] {
        let s = |a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)| {
            overlaps(
                &p(a.0 * scale, a.1 * scale),
                &p(b.0 * scale, b.1 * scale),
                &p(c.0 * scale, c.1 * scale),
                &p(d.0 * scale, d.1 * scale),
            )
        };
        assert!(s((0.0, 0.0), (2.0, 2.0), (0.0, 2.0), (2.0, 0.0))); // crossing
        assert!(s((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 5.0))); // T touching
        assert!(s((0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (3.0, 1.0))); // endpoints meet
        assert!(s((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (3.0, 0.0))); // collinear overlap
        assert!(s((0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (3.0, 0.0))); // collinear touching
        assert!(!s((0.0, 0.0), (2.0, 0.0), (2.5, 0.0), (3.0, 0.0))); // collinear disjoint
        assert!(!s((0.0, 0.0), (2.0, 0.0), (0.0, 1.0), (2.0, 1.0))); // parallel
        assert!(s((1.0, 1.0), (1.0, 1.0), (0.0, 0.0), (2.0, 2.0))); // point on segment
        assert!(!s((1.0, 1.5), (1.0, 1.5), (0.0, 0.0), (2.0, 2.0)));
        let t = intersect(
            &p(0.0, 0.0),
            &p(2.0 * scale, 0.0),
            &p(1.0 * scale, 0.0),
            &p(scale, 5.0 * scale),
        );
        assert_eq!(t, Some((0.5, 0.0)));
    }
}
