//! Moving sphere vs. moving sphere: time of first contact vs. the convex-gap oracle and
//! parry3d-f64's ball–ball shape cast.
mod common;

use common::*;
use obbtree_bv::intersect::moving_sphere_sphere::time_of_contact;
use obbtree_bv::{Point, Sphere, Vector};
use parry3d_f64::math::Pose;
use parry3d_f64::query::ShapeCastOptions;
use parry3d_f64::shape::Ball;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_oracle_and_parry(a in sphere(), va in vector(), b in sphere(), vb in vector()) {
        let got = time_of_contact(&a, &va, &b, &vb);
        let gap = |t: f64| ((a.center + va * t) - (b.center + vb * t)).norm() - a.radius - b.radius;
        check_contact(got, gap, 1e-9)?;
        let theirs = parry3d_f64::query::cast_shapes(&Pose::from_translation(pp(&a.center)), pv(&va), &Ball::new(a.radius),
            &Pose::from_translation(pp(&b.center)), pv(&vb), &Ball::new(b.radius), ShapeCastOptions::with_max_time_of_impact(1.0)).unwrap();
        if gap(0.0) > 1e-9 && first_contact(gap, 1e-9).is_ok() {
            prop_assert_eq!(got.is_some(), theirs.is_some());
            if let (Some(g), Some(t)) = (got, theirs) { prop_assert!((g - t.time_of_impact).abs() < 1e-6, "{} vs {}", g, t.time_of_impact); }
        }
    }
}

#[test]
fn adversarial_cases() {
    let s = |x: f64, r: f64| Sphere {
        center: Point::new(x, 0.0, 0.0),
        radius: r,
    };
    let v = |x: f64| Vector::new(x, 0.0, 0.0);
    assert_eq!(
        time_of_contact(&s(0.0, 1.0), &v(4.0), &s(4.0, 1.0), &v(0.0)),
        Some(0.5)
    );
    assert_eq!(
        time_of_contact(&s(0.0, 1.0), &v(1.0), &s(4.0, 1.0), &v(-1.0)),
        Some(1.0)
    ); // touch at the end
    assert_eq!(
        time_of_contact(&s(0.0, 1.0), &v(2.0), &s(4.0, 1.0), &v(2.0)),
        None
    ); // same velocity
    assert_eq!(
        time_of_contact(&s(0.0, 1.0), &v(0.0), &s(2.0, 1.0), &v(0.0)),
        Some(0.0)
    ); // touching, at rest
    assert_eq!(
        time_of_contact(&s(0.0, 1.0), &v(-5.0), &s(1.0, 1.0), &v(0.0)),
        Some(0.0)
    ); // overlapping, separating
       // Grazing pass: the relative path is tangent to the summed sphere.
    let a = Sphere {
        center: Point::new(-5.0, 2.0, 0.0),
        radius: 1.0,
    };
    assert_eq!(
        time_of_contact(&a, &v(10.0), &s(0.0, 1.0), &v(0.0)),
        Some(0.5)
    );
    let a = Sphere {
        center: Point::new(-5.0, 2.0 + 1e-9, 0.0),
        radius: 1.0,
    };
    assert_eq!(time_of_contact(&a, &v(10.0), &s(0.0, 1.0), &v(0.0)), None);
}
