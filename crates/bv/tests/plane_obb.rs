//! Plane–OBB classification: the three methods agree (random and touching planes), agree with
//! plane–AABB for identity axes, and with dense sampling.
mod common;

use common::*;
use obbtree_bv::intersect::plane::{Plane, PlaneSide};
use obbtree_bv::intersect::{
    plane_aabb,
    plane_obb::{classify, classify_transformed_normal, classify_vertices, corners},
};
use obbtree_bv::{Obb, Point, Vector};
use proptest::prelude::*;

fn plane() -> impl Strategy<Value = Plane> {
    (direction(), coord()).prop_map(|(n, d)| Plane::new(n, d))
}

fn all(p: &Plane, o: &Obb) -> [PlaneSide; 3] {
    [
        classify(p, o),
        classify_transformed_normal(p, o),
        classify_vertices(p, o),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn three_methods_agree(plane in plane(), obb in obb()) {
        let r = all(&plane, &obb);
        prop_assert!(r[0] == r[1] && r[1] == r[2], "{:?}", r);
    }

    #[test]
    fn touching_planes_agree(n in direction(), obb in obb(), corner in 0..8usize) {
        let plane = Plane::from_point_normal(&corners(&obb)[corner], n);
        let r = all(&plane, &obb);
        prop_assert!(r[0] == r[1] && r[1] == r[2], "{:?}", r);
        prop_assert!(r[0] == PlaneSide::Tangent || r[0] == PlaneSide::Intersecting);
    }

    /// Planes parallel to a face through that face: tangent by all three methods.
    #[test]
    fn face_planes_are_tangent(obb in obb(), k in 0..3usize, flip in any::<bool>()) {
        let u = obb.axes.column(k).into_owned() * if flip { -1.0 } else { 1.0 };
        let plane = Plane::from_point_normal(&(obb.center + u * obb.half_extents[k]), u);
        prop_assert_eq!(all(&plane, &obb), [PlaneSide::Tangent; 3]);
    }

    #[test]
    fn identity_axes_match_aabb(plane in plane(), b in aabb()) {
        prop_assert_eq!(classify(&plane, &obb_of(&b)), plane_aabb::classify(&plane, &b));
    }

    #[test]
    fn sampled_points_agree(plane in plane(), obb in obb(), s in prop::collection::vec((-1.0..=1.0f64, -1.0..=1.0f64, -1.0..=1.0f64), 64)) {
        let side = classify(&plane, &obb);
        let scale = plane.normal.norm() * 30.0 + plane.d.abs();
        let mut seen = (false, false);
        for (x, y, z) in s.into_iter().chain([(1.0, 1.0, 1.0)]) {
            let p = obb.center + obb.axes * obb.half_extents.component_mul(&Vector::new(x, y, z));
            let v = plane.eval(&p);
            seen = (seen.0 || v > 1e-9 * scale, seen.1 || v < -1e-9 * scale);
            match side {
                PlaneSide::Positive => prop_assert!(v > -1e-12 * scale),
                PlaneSide::Negative => prop_assert!(v < 1e-12 * scale),
                _ => {}
            }
        }
        if seen.0 && seen.1 { prop_assert_eq!(side, PlaneSide::Intersecting); }
    }
}

#[test]
fn adversarial_cases() {
    let rot = nalgebra::Rotation3::from_euler_angles(0.5, 0.2, -1.3).into_inner();
    for scale in [1.0, 1e-8, 1e8] {
        let obb = Obb {
            center: Point::new(1.0, -2.0, 3.0) * scale,
            axes: rot,
            half_extents: Vector::new(1.0, 2.0, 0.5) * scale,
        };
        let u = |k: usize| rot.column(k).into_owned();
        let at = |a: f64| Plane::from_point_normal(&(obb.center + u(2) * a * scale), u(2));
        assert_eq!(all(&at(0.5), &obb), [PlaneSide::Tangent; 3]);
        assert_eq!(all(&at(-0.5), &obb), [PlaneSide::Tangent; 3]);
        assert_eq!(all(&at(0.0), &obb), [PlaneSide::Intersecting; 3]);
        assert_eq!(all(&at(0.6), &obb), [PlaneSide::Negative; 3]);
        assert_eq!(all(&at(-0.6), &obb), [PlaneSide::Positive; 3]);
        // Through one vertex only, normal along the box diagonal: tangent.
        let diag = rot * Vector::new(1.0, 2.0, 0.5);
        let vertex = Plane::from_point_normal(&(obb.center + diag * scale), diag);
        assert_eq!(all(&vertex, &obb), [PlaneSide::Tangent; 3]);
    }
    // Zero-extent box (a point) on the plane: tangent.
    let point = Obb {
        center: Point::new(0.0, 0.0, 1.0),
        axes: rot,
        half_extents: Vector::zeros(),
    };
    assert_eq!(
        all(&Plane::new(Vector::z(), -1.0), &point),
        [PlaneSide::Tangent; 3]
    );
}
