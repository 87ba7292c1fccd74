//! 2D line–line intersection vs. exact integer arithmetic and point equality.
mod common;

use common::*;
use nalgebra::{Point2, Vector2};
use obbtree_bv::intersect::line2d::{intersect, point};
use proptest::prelude::*;

fn p2(n: i32) -> impl Strategy<Value = Point2<f64>> {
    (-n..=n, -n..=n).prop_map(|(x, y)| Point2::new(x.into(), y.into()))
}

proptest! {
    #![proptest_config(config())]

    /// Integer data: parallel iff the exact cross product is zero; otherwise the parameters
    /// are the exact rationals, correctly rounded.
    #[test]
    fn grid_matches_exact(o1 in p2(20), o2 in p2(20), d1 in p2(6), d2 in p2(6)) {
        let (d1, d2) = (d1.coords, d2.coords);
        prop_assume!(d1 != Vector2::zeros() && d2 != Vector2::zeros());
        let cross = int(d1.x) * int(d2.y) - int(d1.y) * int(d2.x);
        let got = intersect(&o1, &d1, &o2, &d2);
        prop_assert_eq!(got.is_none(), cross == 0);
        if let Some((s, t)) = got {
            let w = o2 - o1;
            let (sn, tn) = (int(w.x) * int(d2.y) - int(w.y) * int(d2.x), int(w.x) * int(d1.y) - int(w.y) * int(d1.x));
            prop_assert!(close(s, sn as f64 / cross as f64, 1e-15) && close(t, tn as f64 / cross as f64, 1e-15));
        }
    }

    #[test]
    fn point_is_on_both_lines(o1 in (coord(), coord()), o2 in (coord(), coord()), d1 in (coord(), coord()), d2 in (coord(), coord())) {
        let (o1, o2) = (Point2::new(o1.0, o1.1), Point2::new(o2.0, o2.1));
        let (d1, d2) = (Vector2::new(d1.0, d1.1), Vector2::new(d2.0, d2.1));
        let sin = d1.perp(&d2) / (d1.norm() * d2.norm());
        prop_assume!(sin.abs() > 1e-3);
        let (s, t) = intersect(&o1, &d1, &o2, &d2).unwrap();
        prop_assert!((o1 + d1 * s - (o2 + d2 * t)).norm() < 1e-9 * (1.0 + (o1 + d1 * s).coords.norm()) / sin.abs());
        prop_assert_eq!(point(&o1, &d1, &o2, &d2), Some(o1 + d1 * s));
    }
}

#[test]
fn adversarial_cases() {
    let o = Point2::origin();
    assert_eq!(
        intersect(&o, &Vector2::x(), &Point2::new(0.0, 1.0), &Vector2::x()),
        None
    ); // parallel
    assert_eq!(
        intersect(
            &o,
            &Vector2::x(),
            &Point2::new(5.0, 0.0),
            &(Vector2::x() * -2.0)
        ),
        None
    ); // coincident
    assert_eq!(
        intersect(&o, &Vector2::x(), &Point2::new(3.0, -1.0), &Vector2::y()),
        Some((3.0, 1.0))
    );
    for scale in [1e-8, 1e8] {
        let (s, t) = intersect(
            &Point2::new(scale, 0.0),
            &Vector2::new(scale, scale),
            &Point2::new(0.0, 3.0 * scale),
            &Vector2::new(scale, -scale),
        )
        .unwrap();
        assert!(close(s, 1.0, 1e-12) && close(t, 2.0, 1e-12));
    }
    // Nearly parallel: large but finite, correctly signed parameters.
    let (s, _) = intersect(
        &o,
        &Vector2::x(),
        &Point2::new(0.0, 1.0),
        &Vector2::new(1.0, -1e-12),
    )
    .unwrap();
    assert!(close(s, 1e12, 1e-3));
}
