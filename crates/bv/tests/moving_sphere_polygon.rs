//! Moving sphere vs. polygon: time of first contact vs. the convex-gap oracle (parry3d-f64
//! point–triangle distances over a fan of the convex polygon).
mod common;

use common::*;
use nalgebra::{Rotation3, Unit};
use obbtree_bv::intersect::moving_sphere_polygon::time_of_contact;
use obbtree_bv::{Point, Sphere, Vector};
use parry3d_f64::query::PointQuery;
use parry3d_f64::shape::Triangle as PTriangle;
use proptest::prelude::*;

fn distance_to_polygon(poly: &[Point], p: &Point) -> f64 {
    (1..poly.len() - 1)
        .map(|i| {
            PTriangle::new(pp(&poly[0]), pp(&poly[i]), pp(&poly[i + 1]))
                .distance_to_local_point(pp(p), true)
        })
        .fold(f64::INFINITY, f64::min)
}

proptest! {
    #![proptest_config(config())]

    /// Convex polygons (vertices on a circle) in random planes.
    #[test]
    fn matches_oracle(mut angles in prop::collection::vec(0.0..std::f64::consts::TAU, 3..8), radius in 0.5..4.0f64,
                      axis in vector(), angle in -3.0..3.0f64, shift in vector(), s in sphere(), v in vector()) {
        angles.sort_by(f64::total_cmp);
        angles.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
        prop_assume!(angles.len() >= 3 && axis.norm() > 1e-3);
        let rot = Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle);
        let poly: Vec<Point> = angles.iter().map(|a| Point::from(rot * Vector::new(a.cos(), a.sin(), 0.0) * radius + shift)).collect();
        prop_assume!(obbtree_bv::intersect::ray_polygon::newell_normal(&poly).norm() > 1e-3);
        let gap = |t: f64| distance_to_polygon(&poly, &(s.center + v * t)) - s.radius;
        check_contact(time_of_contact(&s, &v, &poly), gap, 1e-8)?;
    }
}

#[test]
fn adversarial_cases() {
    let square: Vec<Point> = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]
        .iter()
        .map(|&(x, y)| Point::new(x, y, 0.0))
        .collect();
    let s = |x: f64, y: f64, z: f64| Sphere {
        center: Point::new(x, y, z),
        radius: 1.0,
    };
    let toc = |sp: Sphere, v: [f64; 3]| time_of_contact(&sp, &Vector::from(v), &square);
    assert_eq!(toc(s(1.0, 1.0, 3.0), [0.0, 0.0, -4.0]), Some(0.5)); // face
    assert_eq!(toc(s(1.0, 1.0, -3.0), [0.0, 0.0, 4.0]), Some(0.5)); // face from below
    assert_eq!(toc(s(-3.0, 1.0, 0.0), [4.0, 0.0, 0.0]), Some(0.5)); // edge, moving in the plane
    assert!(close(
        toc(s(-3.0, -3.0, 0.0), [3.0, 3.0, 0.0]).unwrap(),
        (3.0 - 0.5f64.sqrt()) / 3.0,
        1e-15
    )); // vertex
    assert_eq!(toc(s(1.0, -1.0, 5.0), [0.0, 0.0, -10.0]), Some(0.5)); // edge, touching from above the edge
    assert_eq!(toc(s(1.0, -1.0 - 1e-9, 5.0), [0.0, 0.0, -10.0]), None); // just missing the edge
    assert_eq!(toc(s(1.0, 1.0, 0.5), [0.0, 0.0, 5.0]), Some(0.0)); // already intersecting
    assert_eq!(toc(s(4.0, 1.0, 0.5), [5.0, 0.0, 0.0]), None); // moving away in the plane band
                                                              // Degenerate polygon: no contact, no panic.
    let line = [
        Point::origin(),
        Point::new(1.0, 0.0, 0.0),
        Point::new(2.0, 0.0, 0.0),
    ];
    assert_eq!(
        time_of_contact(&s(1.0, 0.0, 3.0), &Vector::new(0.0, 0.0, -4.0), &line),
        None
    );
}
