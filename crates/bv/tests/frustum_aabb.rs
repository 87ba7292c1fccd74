//! Frustum–AABB (two-vertex test) vs. the brute-force eight-corner test and parry3d-f64's
//! box–hull distance.
mod common;

use common::*;
use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::{frustum_aabb::classify, plane_aabb::corners};
use obbtree_bv::{Aabb, Point};
use proptest::prelude::*;

fn brute_force(f: &Frustum, b: &Aabb) -> RegionRelation {
    let c = corners(b);
    if f.planes().iter().any(|p| c.iter().all(|q| p.eval(q) > 0.0)) {
        RegionRelation::Outside
    } else if c.iter().all(|q| f.contains_point(q)) {
        RegionRelation::Inside
    } else {
        RegionRelation::Intersecting
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_brute_force_and_is_sound((m, fc) in view_projection(), b in aabb()) {
        let f = Frustum::from_view_projection(&m).unwrap();
        let got = classify(&f, &b);
        prop_assert_eq!(got, brute_force(&f, &b));
        let d = hull_obb_distance(&hull(&fc), &obb_of(&b));
        if got == RegionRelation::Outside { prop_assert!(d > -1e-9, "outside but distance {}", d); }
        if d == 0.0 && got == RegionRelation::Outside {
            // parry says touching: the box must be within rounding of a plane.
            let grown = Aabb::new(b.mins.map(|x| x - 1e-9 * (1.0 + x.abs())), b.maxs.map(|x| x + 1e-9 * (1.0 + x.abs())));
            prop_assert!(classify(&f, &grown) != RegionRelation::Outside);
        }
    }
}

#[test]
fn adversarial_cases() {
    let f = Frustum::from_view_projection(&nalgebra::Matrix4::identity()).unwrap();
    let b = |lo: [f64; 3], hi: [f64; 3]| Aabb::new(Point::from(lo), Point::from(hi));
    assert_eq!(
        classify(&f, &b([-1.0; 3], [1.0; 3])),
        RegionRelation::Inside
    ); // the cube itself
    assert_eq!(
        classify(&f, &b([1.0, 0.0, 0.0], [2.0, 1.0, 1.0])),
        RegionRelation::Intersecting
    ); // face contact
    assert_eq!(
        classify(&f, &b([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])),
        RegionRelation::Intersecting
    ); // vertex contact
    assert_eq!(
        classify(&f, &b([1.0 + 1e-12, 0.0, 0.0], [2.0, 1.0, 1.0])),
        RegionRelation::Outside
    );
    assert_eq!(classify(&f, &b([0.5; 3], [0.5; 3])), RegionRelation::Inside); // point box
    assert_eq!(
        classify(&f, &b([-3.0; 3], [3.0; 3])),
        RegionRelation::Intersecting
    ); // enclosing
}
