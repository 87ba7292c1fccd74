//! Intersection point of three planes vs. nalgebra's LU solve and plane residuals.
mod common;

use common::*;
use nalgebra::Matrix3;
use obbtree_bv::intersect::plane::Plane;
use obbtree_bv::intersect::three_planes::point;
use obbtree_bv::{Point, Vector};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_lu_solve(n1 in direction(), n2 in direction(), n3 in direction(), d in (coord(), coord(), coord())) {
        let planes = [Plane::new(n1, d.0), Plane::new(n2, d.1), Plane::new(n3, d.2)];
        let m = Matrix3::from_rows(&[n1.transpose(), n2.transpose(), n3.transpose()]);
        let rel_det = m.determinant() / (n1.norm() * n2.norm() * n3.norm());
        let got = point(&planes[0], &planes[1], &planes[2]);
        if rel_det.abs() > 1e-9 {
            let want = m.lu().solve(&Vector::new(-d.0, -d.1, -d.2)).unwrap();
            let p = got.unwrap();
            let cond = 1.0 / rel_det.abs();
            prop_assert!((p.coords - want).norm() <= 1e-10 * cond * (1.0 + want.norm()), "{:?} vs {:?}", p, want);
            for pl in &planes {
                prop_assert!(pl.eval(&p).abs() <= 1e-10 * cond * pl.normal.norm() * (1.0 + p.coords.norm()));
            }
        } else if rel_det.abs() < 1e-13 {
            prop_assert!(got.is_none());
        }
    }
}

#[test]
fn adversarial_cases() {
    let pl = |n: [f64; 3], d: f64| Plane::new(Vector::from(n), d);
    assert_eq!(
        point(
            &pl([1.0, 0.0, 0.0], -1.0),
            &pl([0.0, 1.0, 0.0], -2.0),
            &pl([0.0, 0.0, 1.0], -3.0)
        ),
        Some(Point::new(1.0, 2.0, 3.0))
    );
    assert_eq!(
        point(
            &pl([1.0, 0.0, 0.0], -1.0),
            &pl([2.0, 0.0, 0.0], -2.0),
            &pl([0.0, 0.0, 1.0], 0.0)
        ),
        None
    ); // parallel pair
    assert_eq!(
        point(
            &pl([1.0, 0.0, 0.0], 0.0),
            &pl([0.0, 1.0, 0.0], 0.0),
            &pl([1.0, 1.0, 0.0], 5.0)
        ),
        None
    ); // common line direction
    assert_eq!(
        point(
            &pl([1.0, 0.0, 0.0], 0.0),
            &pl([0.0, 1.0, 0.0], 0.0),
            &pl([1.0, 1.0, 1e-14], 5.0)
        ),
        None
    ); // below the tolerance
    assert!(point(
        &pl([1.0, 0.0, 0.0], 0.0),
        &pl([0.0, 1.0, 0.0], 0.0),
        &pl([1.0, 1.0, 1e-6], 5.0)
    )
    .is_some());
    for s in [1e-8, 1e8] {
        let p = point(
            &pl([s, 0.0, 0.0], -s),
            &pl([0.0, s, s], -2.0 * s),
            &pl([0.0, 0.0, s], -s),
        )
        .unwrap();
        assert!((p - Point::new(1.0, 1.0, 1.0)).norm() < 1e-12);
    }
}
