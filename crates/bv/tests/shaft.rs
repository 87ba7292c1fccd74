//! Shaft culling: the shaft contains the convex hull of the two boxes (parry3d-f64's hull)
//! and each plane touches both boxes; shaft–AABB / shaft–sphere are sound against corner
//! containment, sampled sphere points and parry's hull distances.
mod common;

use common::*;
use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::plane_aabb::corners;
use obbtree_bv::intersect::shaft::{classify_aabb, classify_sphere, Shaft};
use obbtree_bv::{Aabb, Point, Sphere, Vector};
use proptest::prelude::*;

fn hull_of(a: &Aabb, b: &Aabb) -> parry3d_f64::shape::ConvexPolyhedron {
    let pts: Vec<Point> = corners(a)
        .iter()
        .chain(corners(b).iter())
        .copied()
        .collect();
    hull(&pts)
}

fn solid(b: &Aabb) -> bool {
    (0..3).all(|k| b.maxs[k] - b.mins[k] > 0.05)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn shaft_contains_the_hull_and_touches_both_boxes(a in aabb(), b in aabb(), p in point()) {
        prop_assume!(solid(&a) && solid(&b));
        let shaft = Shaft::new(&a, &b);
        for plane in shaft.planes() {
            for x in [&a, &b] {
                let top = corners(x).iter().map(|q| plane.eval(q)).fold(f64::NEG_INFINITY, f64::max);
                prop_assert!(top.abs() <= 1e-12 * 30.0, "plane misses a box by {}", top);
            }
        }
        let sd = hull_signed_distance(&hull_of(&a, &b), &p);
        if sd < -1e-7 {
            prop_assert!(shaft.contains_point(&p), "hull point {:?} outside the shaft", p);
        }
    }

    #[test]
    fn aabb_classification_is_sound(a in aabb(), b in aabb(), c in aabb()) {
        prop_assume!(solid(&a) && solid(&b));
        let shaft = Shaft::new(&a, &b);
        let got = classify_aabb(&shaft, &c);
        let all_in = corners(&c).iter().all(|q| shaft.contains_point(q));
        prop_assert_eq!(got == RegionRelation::Inside, all_in);
        if got == RegionRelation::Outside {
            prop_assert!(hull_obb_distance(&hull_of(&a, &b), &obb_of(&c)) > -1e-9);
        }
    }

    #[test]
    fn sphere_classification_is_sound(a in aabb(), b in aabb(), s in sphere()) {
        prop_assume!(solid(&a) && solid(&b));
        let shaft = Shaft::new(&a, &b);
        let sd = hull_signed_distance(&hull_of(&a, &b), &s.center);
        let tol = 1e-7;
        // Points on the sphere (26 directions) and its centre.
        let dirs = (0..27).filter(|&i| i != 13).map(|i| Vector::new((i % 3) as f64 - 1.0, (i / 3 % 3) as f64 - 1.0, (i / 9) as f64 - 1.0).normalize());
        let samples: Vec<Point> = dirs.map(|d| s.center + d * s.radius).chain([s.center]).collect();
        match classify_sphere(&shaft, &s) {
            RegionRelation::Outside => prop_assert!(sd > s.radius - tol, "outside but {}", sd),
            RegionRelation::Inside => prop_assert!(samples.iter().all(|q| shaft.contains_point(q)), "inside but a sphere point is outside"),
            RegionRelation::Intersecting => {}
        }
        if sd < s.radius - tol {
            prop_assert!(classify_sphere(&shaft, &s) != RegionRelation::Outside, "meets the hull but reported outside");
        }
    }
}

#[test]
fn adversarial_cases() {
    let a = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    let b = Aabb::new(Point::new(4.0, 4.0, 0.0), Point::new(5.0, 5.0, 1.0));
    let shaft = Shaft::new(&a, &b);
    assert_eq!(shaft.planes().len(), 2); // the two diagonal planes in xy
    let unit =
        |x: f64, y: f64| Aabb::new(Point::new(x, y, 0.25), Point::new(x + 0.5, y + 0.5, 0.75));
    assert_eq!(
        classify_aabb(&shaft, &unit(2.0, 2.0)),
        RegionRelation::Inside
    );
    assert_eq!(
        classify_aabb(&shaft, &unit(4.0, 0.0)),
        RegionRelation::Outside
    ); // in the bounds, outside a plane
    assert_eq!(
        classify_aabb(&shaft, &unit(1.0, 1.0)),
        RegionRelation::Inside
    ); // touching box a's corner
    assert_eq!(
        classify_aabb(&shaft, &unit(6.0, 6.0)),
        RegionRelation::Outside
    );
    // Touching the diagonal plane x - y = 1 (through (1, 0) and (5, 4)) from outside.
    assert_eq!(
        classify_aabb(&shaft, &unit(3.0, 1.5)),
        RegionRelation::Intersecting
    );
    assert_eq!(
        classify_aabb(&shaft, &unit(3.0 + 1e-9, 1.5)),
        RegionRelation::Outside
    );
    let ball = |x: f64, y: f64, r: f64| Sphere {
        center: Point::new(x, y, 0.5),
        radius: r,
    };
    assert_eq!(
        classify_sphere(&shaft, &ball(2.5, 2.5, 0.4)),
        RegionRelation::Inside
    );
    assert_eq!(
        classify_sphere(&shaft, &ball(4.0, 0.0, 0.4)),
        RegionRelation::Outside
    );
    assert_eq!(
        classify_sphere(&shaft, &ball(2.5, 2.5, 0.5)),
        RegionRelation::Inside
    ); // touching z faces from inside
    assert_eq!(
        classify_sphere(&shaft, &ball(2.5, 2.5, 0.6)),
        RegionRelation::Intersecting
    );
    // Identical and nested boxes: no planes, the shaft is the box.
    assert!(Shaft::new(&a, &a).planes().is_empty());
    let inner = Aabb::new(Point::new(0.25, 0.25, 0.25), Point::new(0.5, 0.5, 0.5));
    assert!(Shaft::new(&a, &inner).planes().is_empty());
}
