//! Moving sphere vs. plane: time of first contact vs. the convex-gap oracle.
mod common;

use common::*;
use obbtree_bv::intersect::moving_sphere_plane::time_of_contact;
use obbtree_bv::intersect::plane::Plane;
use obbtree_bv::{Point, Sphere, Vector};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_oracle(s in sphere(), v in vector(), n in direction(), d in coord()) {
        let plane = Plane::new(n, d);
        let gap = |t: f64| (plane.eval(&(s.center + v * t)) / n.norm()).abs() - s.radius;
        check_contact(time_of_contact(&s, &v, &plane), gap, 1e-9)?;
    }
}

#[test]
fn adversarial_cases() {
    let plane = Plane::new(Vector::z() * 2.0, 0.0); // z = 0, non-unit normal
    let s = |z: f64, r: f64| Sphere {
        center: Point::new(1.0, 2.0, z),
        radius: r,
    };
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::new(0.0, 0.0, -4.0), &plane),
        Some(0.5)
    );
    assert_eq!(
        time_of_contact(&s(-3.0, 1.0), &Vector::new(0.0, 0.0, 4.0), &plane),
        Some(0.5)
    ); // negative side
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::new(0.0, 0.0, -2.0), &plane),
        Some(1.0)
    ); // touches at the end
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::new(0.0, 0.0, -1.999), &plane),
        None
    );
    assert_eq!(
        time_of_contact(&s(1.0, 1.0), &Vector::new(0.0, 0.0, 5.0), &plane),
        Some(0.0)
    ); // touching at start
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::new(5.0, 0.0, 0.0), &plane),
        None
    ); // parallel motion
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::zeros(), &plane),
        None
    );
    assert_eq!(
        time_of_contact(&s(3.0, 1.0), &Vector::new(0.0, 0.0, -10.0), &plane),
        Some(0.2)
    ); // tunnels through
    for k in [1e-8, 1e8] {
        let sk = Sphere {
            center: Point::new(0.0, 0.0, 3.0 * k),
            radius: k,
        };
        assert!(close(
            time_of_contact(&sk, &Vector::new(0.0, 0.0, -4.0 * k), &plane).unwrap(),
            0.5,
            1e-12
        ));
    }
}
