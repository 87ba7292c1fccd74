//! Frustum–OBB vs. the brute-force eight-corner test, frustum–AABB for identity axes, and
//! parry3d-f64's box–hull distance.
mod common;

use common::*;
use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::{frustum_aabb, frustum_obb::classify, plane_obb::corners};
use obbtree_bv::{Obb, Point, Vector};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn matches_corners_and_is_sound((m, fc) in view_projection(), obb in obb()) {
        let f = Frustum::from_view_projection(&m).unwrap();
        let got = classify(&f, &obb);
        let c = corners(&obb);
        let scale = 1e-9 * (1.0 + obb.center.coords.norm() + obb.half_extents.norm());
        let outside = f.planes().iter().any(|p| c.iter().all(|q| p.eval(q) > scale));
        let maybe_outside = f.planes().iter().any(|p| c.iter().all(|q| p.eval(q) > -scale));
        let inside = c.iter().all(|q| f.planes().iter().all(|p| p.eval(q) <= -scale));
        let maybe_inside = c.iter().all(|q| f.planes().iter().all(|p| p.eval(q) <= scale));
        prop_assert!(!outside || got == RegionRelation::Outside);
        prop_assert!(got != RegionRelation::Outside || maybe_outside);
        prop_assert!(!inside || got == RegionRelation::Inside);
        prop_assert!(got != RegionRelation::Inside || maybe_inside);
        if got == RegionRelation::Outside {
            prop_assert!(hull_obb_distance(&hull(&fc), &obb) > -1e-9);
        }
    }

    #[test]
    fn identity_axes_match_aabb((m, _fc) in view_projection(), b in aabb()) {
        let f = Frustum::from_view_projection(&m).unwrap();
        prop_assert_eq!(classify(&f, &obb_of(&b)), frustum_aabb::classify(&f, &b));
    }
}

#[test]
fn adversarial_cases() {
    let f = Frustum::from_view_projection(&nalgebra::Matrix4::identity()).unwrap();
    let rot = nalgebra::Rotation3::from_axis_angle(&Vector::z_axis(), std::f64::consts::FRAC_PI_4)
        .into_inner();
    let h = std::f64::consts::FRAC_1_SQRT_2;
    // A diamond touching the x = 1 face with its edge from the inside.
    let inside = Obb {
        center: Point::new(1.0 - h * (1.0 + 1e-9), 0.0, 0.0),
        axes: rot,
        half_extents: Vector::new(0.5, 0.5, 0.5),
    };
    assert_eq!(classify(&f, &inside), RegionRelation::Inside);
    let touching = Obb {
        center: Point::new(1.0 + h, 0.0, 0.0),
        ..inside
    };
    assert_eq!(classify(&f, &touching), RegionRelation::Intersecting);
    let outside = Obb {
        center: Point::new(1.0 + h * (1.0 + 1e-9), 0.0, 0.0),
        ..inside
    };
    assert_eq!(classify(&f, &outside), RegionRelation::Outside);
}
