//! Ray–k-DOP: exact rational oracle on integer data (integer axes), equality with ray–AABB
//! for 6-DOPs, and dense sampling on random floats.
mod common;

use common::*;
use obbtree_bv::intersect::{
    ray_aabb,
    ray_kdop::{cast, interval},
};
use obbtree_bv::{Kdop, Kdop14, Kdop18, Kdop26, Kdop6, Point, Ray, Vector};
use proptest::prelude::*;

/// The tight k-DOP of some points.
fn fit<const A: usize>(points: &[Point]) -> Kdop<A> {
    let axes = Kdop::<A>::axes();
    Kdop {
        min: std::array::from_fn(|i| {
            points
                .iter()
                .map(|p| axes[i].dot(&p.coords))
                .fold(f64::INFINITY, f64::min)
        }),
        max: std::array::from_fn(|i| {
            points
                .iter()
                .map(|p| axes[i].dot(&p.coords))
                .fold(f64::NEG_INFINITY, f64::max)
        }),
    }
}

fn exact<const A: usize>(ray: &Ray, k: &Kdop<A>) -> Option<Q> {
    let axes = Kdop::<A>::axes();
    let slabs: Vec<_> = (0..A)
        .map(|i| {
            (
                int(axes[i].dot(&ray.origin.coords)),
                int(axes[i].dot(&ray.dir)),
                int(k.min[i]),
                int(k.max[i]),
            )
        })
        .collect();
    exact_slabs(&slabs)
}

fn check_exact<const A: usize>(ray: &Ray, pts: &[Point]) -> Result<(), TestCaseError> {
    let k = fit::<A>(pts);
    let want = exact(ray, &k);
    let got = cast(ray, &k);
    prop_assert_eq!(got.is_some(), want.is_some(), "A={} {:?} {:?}", A, ray, k);
    if let (Some(g), Some(w)) = (got, want) {
        prop_assert_eq!(g.t, w.to_f64());
    }
    Ok(())
}

fn inside<const A: usize>(k: &Kdop<A>, p: &Point, tol: f64) -> bool {
    Kdop::<A>::axes().iter().enumerate().all(|(i, a)| {
        let s = a.dot(&p.coords);
        k.min[i] - tol <= s && s <= k.max[i] + tol
    })
}

fn check_sampled<const A: usize>(ray: &Ray, pts: &[Point]) -> Result<(), TestCaseError> {
    let k = fit::<A>(pts);
    let hit = interval(ray, &k);
    let t_max = 40.0 / ray.dir.norm();
    for i in 0..=400 {
        let t = t_max * i as f64 / 400.0;
        if inside(&k, &ray.point_at(t), -1e-9) {
            prop_assert!(
                hit.is_some_and(|(t0, t1)| t0 <= t + 1e-9 && t <= t1 + 1e-9),
                "sample {} inside but {:?}",
                t,
                hit
            );
        }
    }
    if let Some((t0, t1)) = hit {
        for t in [t0, t1, 0.5 * (t0 + t1)] {
            prop_assert!(inside(
                &k,
                &ray.point_at(t),
                1e-9 * (1.0 + ray.point_at(t).coords.norm())
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn grid_matches_exact(o in grid_point(6), d in grid_vector(2), pts in prop::collection::vec(grid_point(3), 1..6)) {
        prop_assume!(d != Vector::zeros());
        let ray = Ray::new(o, d);
        check_exact::<3>(&ray, &pts)?;
        check_exact::<7>(&ray, &pts)?;
        check_exact::<9>(&ray, &pts)?;
        check_exact::<13>(&ray, &pts)?;
    }

    #[test]
    fn dense_sampling(ray in ray(), pts in prop::collection::vec(point(), 1..8)) {
        check_sampled::<7>(&ray, &pts)?;
        check_sampled::<9>(&ray, &pts)?;
        check_sampled::<13>(&ray, &pts)?;
    }

    #[test]
    fn kdop6_equals_aabb(ray in ray(), b in aabb()) {
        let k = Kdop6 { min: [b.mins.x, b.mins.y, b.mins.z], max: [b.maxs.x, b.maxs.y, b.maxs.z] };
        prop_assert_eq!(cast(&ray, &k), ray_aabb::cast(&ray, &b));
    }
}

#[test]
fn adversarial_cases() {
    let tet = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    for scale in [1.0, 2f64.powi(-27), 2f64.powi(27)] {
        let pts: Vec<Point> = tet.iter().map(|p| p * scale).collect();
        let (k14, k18, k26): (Kdop14, Kdop18, Kdop26) = (fit(&pts), fit(&pts), fit(&pts));
        // Through the slanted face's centroid direction: the diagonal slab x+y+z <= 1 cuts it.
        let ray = Ray::new(
            Point::new(1.0, 1.0, 1.0) * scale,
            -Vector::new(1.0, 1.0, 1.0) * scale,
        );
        let t = 2.0 / 3.0;
        assert!(
            close(cast(&ray, &k14).unwrap().t, t, 1e-15)
                && close(cast(&ray, &k26).unwrap().t, t, 1e-15)
        );
        // The 18-DOP has no (1,1,1) axis: it stops at the x+y <= 1 face diagonal planes.
        assert!(cast(&ray, &k18).unwrap().t < t);
        // Grazing the x = 0 face (parallel), inside then outside.
        let graze = Ray::new(Point::new(0.0, 0.25, -1.0) * scale, Vector::z() * scale);
        assert!(cast(&graze, &k14).is_some());
        let off = Ray::new(Point::new(-0.001, 0.25, -1.0) * scale, Vector::z() * scale);
        assert!(cast(&off, &k14).is_none());
        // Inside -> 0; pointing away -> miss.
        assert_eq!(
            cast(
                &Ray::new(Point::new(0.1, 0.1, 0.1) * scale, Vector::x()),
                &k26
            )
            .unwrap()
            .t,
            0.0
        );
        assert!(cast(
            &Ray::new(Point::new(2.0, 2.0, 2.0) * scale, Vector::x()),
            &k26
        )
        .is_none());
    }
}
