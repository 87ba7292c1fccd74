//! Frustum–sphere: the octant test equals the six-plane test; both are sound against
//! parry3d-f64's exact point–hull distance (Outside ⇒ disjoint, Inside ⇔ contained).
mod common;

use common::*;
use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::frustum_sphere::{classify, classify_octant};
use obbtree_bv::{Point, Sphere};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn octant_equals_six_planes_and_is_sound((m, corners) in view_projection(), s in sphere()) {
        let f = Frustum::from_view_projection(&m).unwrap();
        let (six, oct) = (classify(&f, &s), classify_octant(&f, &s));
        if six != oct {
            // Only exact ties of the two distances of a pair, at ±r, may round differently.
            let d: Vec<f64> = f.planes().iter().map(|p| p.eval(&s.center)).collect();
            prop_assert!(d.iter().any(|&x| (x.abs() - s.radius).abs() < 1e-9 * (1.0 + x.abs())), "{:?} {:?}", six, oct);
        }
        let h = hull(&corners);
        let sd = hull_signed_distance(&h, &s.center);
        let tol = 1e-7 * (1.0 + s.center.coords.norm() + s.radius);
        match six {
            RegionRelation::Outside => prop_assert!(sd > s.radius - tol, "outside but distance {}", sd),
            RegionRelation::Inside => prop_assert!(sd < -s.radius + tol, "inside but distance {}", sd),
            RegionRelation::Intersecting => prop_assert!(sd > -s.radius - tol, "intersecting but fully inside: {}", sd),
        }
        if sd < s.radius - tol { prop_assert!(six != RegionRelation::Outside); }
        if sd < -s.radius - tol { prop_assert_eq!(six, RegionRelation::Inside); }
    }
}

#[test]
fn adversarial_cases() {
    let f = Frustum::from_view_projection(&nalgebra::Matrix4::identity()).unwrap(); // the cube [-1, 1]^3
    let s = |x: f64, y: f64, z: f64, r: f64| Sphere {
        center: Point::new(x, y, z),
        radius: r,
    };
    for test in [classify, classify_octant] {
        assert_eq!(test(&f, &s(0.0, 0.0, 0.0, 0.5)), RegionRelation::Inside);
        assert_eq!(test(&f, &s(0.0, 0.0, 0.0, 1.0)), RegionRelation::Inside); // touching from inside
        assert_eq!(
            test(&f, &s(2.0, 0.0, 0.0, 1.0)),
            RegionRelation::Intersecting
        ); // touching from outside
        assert_eq!(
            test(&f, &s(2.0 + 1e-12, 0.0, 0.0, 1.0)),
            RegionRelation::Outside
        );
        assert_eq!(
            test(&f, &s(0.0, 0.0, 0.9, 0.2)),
            RegionRelation::Intersecting
        );
        assert_eq!(
            test(&f, &s(1.6, 1.6, 0.0, 0.8)),
            RegionRelation::Intersecting
        ); // outside near an edge (conservative)
        assert_eq!(test(&f, &s(0.0, 0.0, 0.0, 0.0)), RegionRelation::Inside); // point sphere
        assert_eq!(test(&f, &s(1.0, 1.0, 1.0, 0.0)), RegionRelation::Inside); // point at a corner (closed)
    }
}
