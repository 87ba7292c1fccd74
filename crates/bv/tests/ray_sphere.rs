//! Ray–sphere: the optimised test vs. the plain quadratic, vs. parry3d-f64, and adversarial cases.
mod common;

use common::*;
use obbtree_bv::intersect::ray_sphere::{cast, intersects};
use obbtree_bv::{Point, Ray, Sphere, Vector};
use parry3d_f64::query::RayCast;
use proptest::prelude::*;

/// Independent oracle: the quadratic `|o + t d - c|² = r²` (the mathematical solution of
/// *Real-Time Rendering*, 3rd ed. (2008), §16.6).
fn quadratic(ray: &Ray, s: &Sphere) -> Option<f64> {
    let m = ray.origin - s.center;
    let (a, b, c) = (
        ray.dir.norm_squared(),
        m.dot(&ray.dir),
        m.norm_squared() - s.radius * s.radius,
    );
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - a * c;
    if disc < 0.0 || b > 0.0 {
        return None;
    }
    Some((-b - disc.sqrt()) / a)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn agrees_with_quadratic_and_parry(ray in ray(), s in sphere()) {
        let mine = cast(&ray, &s);
        prop_assert_eq!(mine.is_some(), intersects(&ray, &s));
        let ball = parry3d_f64::shape::Ball::new(s.radius);
        let theirs = ball.cast_ray(&parry3d_f64::math::Pose::from_translation(pp(&s.center)), &pray(&ray), f64::MAX, true);
        for other in [quadratic(&ray, &s), theirs] {
            match (mine, other) {
                (Some(h), Some(t)) => prop_assert!(close(h.t, t, 1e-6), "{} {}", h.t, t),
                (None, None) => {}
                _ => {
                    // Only tangent rays may differ: the line passes at distance ~r.
                    let l = s.center - ray.origin;
                    let dist = (l - ray.dir * (l.dot(&ray.dir) / ray.dir.norm_squared())).norm();
                    prop_assert!((dist - s.radius).abs() <= 1e-9 * (1.0 + s.radius), "{:?} {:?} {:?}", mine, other, dist);
                }
            }
        }
        if let Some(h) = mine {
            prop_assert!(((h.point - s.center).norm() - s.radius).abs() <= 1e-9 * (1.0 + l_norm(&ray, &s)) || h.t == 0.0);
        }
    }
}

fn l_norm(ray: &Ray, s: &Sphere) -> f64 {
    (s.center - ray.origin).norm() + s.radius
}

#[test]
fn adversarial_cases() {
    // Powers of two near 1e-8 and 1e8 keep the tangent configuration exact.
    for scale in [1.0, 2f64.powi(-27), 2f64.powi(27)] {
        let s = Sphere {
            center: Point::new(1.0, 2.0, 3.0) * scale,
            radius: scale,
        };
        let c = s.center;
        let hit = |o: Point, d: Vector| cast(&Ray::new(o, d), &s).map(|h| h.t);
        assert!(close(
            hit(c - Vector::x() * 3.0 * scale, Vector::x() * scale).unwrap(),
            2.0,
            1e-12
        ));
        // Tangent ray touches at exactly one point (closed ball).
        assert!(close(
            hit(c + Vector::new(-3.0, 1.0, 0.0) * scale, Vector::x() * scale).unwrap(),
            3.0,
            1e-12
        ));
        assert!(hit(
            c + Vector::new(-3.0, 1.0 + 1e-6, 0.0) * scale,
            Vector::x() * scale
        )
        .is_none());
        // Inside and on the surface: t = 0.
        assert_eq!(hit(c, Vector::y()), Some(0.0));
        assert_eq!(hit(c + Vector::z() * scale, Vector::z()), Some(0.0));
        // Behind the origin: miss.
        assert!(hit(c + Vector::x() * 2.0 * scale, Vector::x()).is_none());
        // Far sphere, tiny angle: the perpendicular-vector m² keeps precision.
        let far = Sphere {
            center: Point::new(1e6, 0.0, 0.0) * scale,
            radius: scale,
        };
        assert!(cast(
            &Ray::new(Point::origin(), Vector::new(1e6, 0.999, 0.0)),
            &far
        )
        .is_some());
        assert!(cast(
            &Ray::new(Point::origin(), Vector::new(1e6, 1.001, 0.0)),
            &far
        )
        .is_none());
    }
    // A zero-radius sphere is a point.
    let p = Sphere {
        center: Point::new(1.0, 1.0, 1.0),
        radius: 0.0,
    };
    assert_eq!(
        cast(&Ray::new(Point::origin(), Vector::new(1.0, 1.0, 1.0)), &p).map(|h| h.t),
        Some(1.0)
    );
}
