//! Segment–OBB overlap (Gregory's separating axes): vs. parry3d-f64's segment–cuboid
//! distance (GJK), and adversarial cases with rotated and axis-aligned boxes.
mod common;

use common::*;
use obbtree_bv::intersect::{segment_aabb, segment_obb::overlaps};
use obbtree_bv::{Obb, Point, Vector};
use parry3d_f64::shape::Segment;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn agrees_with_parry_distance(p0 in point(), p1 in point(), obb in obb()) {
        let (pose, cub) = obb_pose(&obb);
        let seg = Segment::new(pp(&p0), pp(&p1));
        let d = parry3d_f64::query::distance(&pose, &cub, &parry3d_f64::math::Pose::identity(), &seg).unwrap().distance;
        let got = overlaps(&p0, &p1, &obb);
        if d > 1e-9 { prop_assert!(!got, "distance {}", d); }
        if d == 0.0 {
            // parry reports 0 for penetration; shrink-test: a slightly grown box must overlap.
            let grown = Obb { half_extents: obb.half_extents.add_scalar(1e-9), ..obb };
            prop_assert!(overlaps(&p0, &p1, &grown));
        }
    }

    /// An identity-axes OBB gives exactly the segment–AABB answer.
    #[test]
    fn identity_axes_match_aabb(p0 in point(), p1 in point(), b in aabb()) {
        prop_assert_eq!(overlaps(&p0, &p1, &obb_of(&b)), segment_aabb::overlaps(&p0, &p1, &b));
    }
}

#[test]
fn adversarial_cases() {
    let rot = nalgebra::Rotation3::from_euler_angles(0.4, 0.9, -0.2).into_inner();
    for (scale, offset) in [(1.0, 0.0), (1e-8, 1e-8), (1e8, 2e8)] {
        let obb = Obb {
            center: Point::new(offset, offset, -offset),
            axes: rot,
            half_extents: Vector::new(1.0, 2.0, 3.0) * scale,
        };
        let at = |x: f64, y: f64, z: f64| obb.center + rot * Vector::new(x, y, z) * scale;
        let eps = 1e-6;
        assert!(overlaps(&at(-5.0, 0.0, 0.0), &at(5.0, 0.0, 0.0), &obb)); // through
        assert!(overlaps(
            &at(-5.0, 2.0 - eps, 3.0 - eps),
            &at(5.0, 2.0 - eps, 3.0 - eps),
            &obb
        )); // just inside an edge
        assert!(!overlaps(
            &at(-5.0, 2.0 + eps, 3.0),
            &at(5.0, 2.0 + eps, 3.0),
            &obb
        )); // just outside, parallel to u0
        assert!(overlaps(&at(1.0 - eps, 0.0, 0.0), &at(7.0, 1.0, 1.0), &obb)); // starts inside
        assert!(!overlaps(
            &at(1.0 + eps, 0.0, 0.0),
            &at(7.0, 1.0, 1.0),
            &obb
        )); // starts just outside, leaves
        assert!(!overlaps(&at(2.0, 3.0, 0.0), &at(0.0, 5.0, 0.0), &obb)); // edge-axis separation near the (1, 2) edge
        assert!(overlaps(&at(0.1, 0.2, 0.3), &at(0.1, 0.2, 0.3), &obb)); // point segment inside
    }
    // Exactly representable touching cases with an axis-aligned box: closed set.
    let obb = Obb {
        center: Point::origin(),
        axes: nalgebra::Matrix3::identity(),
        half_extents: Vector::new(1.0, 1.0, 1.0),
    };
    assert!(overlaps(
        &Point::new(1.0, 1.0, 1.0),
        &Point::new(3.0, 2.0, 5.0),
        &obb
    )); // vertex
    assert!(overlaps(
        &Point::new(2.0, 0.0, 1.0),
        &Point::new(0.0, 2.0, 1.0),
        &obb
    )); // touches the edge x=y=1 at z=1
    assert!(!overlaps(
        &Point::new(2.0, 0.5, 1.0),
        &Point::new(0.5, 2.0, 1.0),
        &obb
    )); // passes outside the edge
}
