//! Ray–OBB: slabs vs. parry3d-f64 (Cuboid), vs. an exact oracle for signed-permutation
//! axes, and adversarial cases (a slab end computed as `s - l/r` instead of `(s - l)/r`, a
//! misprint found in textbook pseudo-code, would fail the offset boxes).
mod common;

use common::*;
use nalgebra::Matrix3;
use obbtree_bv::intersect::{ray_aabb, ray_obb::cast};
use obbtree_bv::{Aabb, Obb, Point, Ray, Vector};
use parry3d_f64::query::RayCast;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn agrees_with_parry(ray in ray(), obb in obb()) {
        let (pose, cuboid) = obb_pose(&obb);
        let theirs = cuboid.cast_ray(&pose, &pray(&ray), f64::MAX, true);
        match (cast(&ray, &obb), theirs) {
            (Some(h), Some(t)) => prop_assert!(close(h.t, t, 1e-9), "{} {}", h.t, t),
            (None, None) => {}
            (mine, _) => {
                // Disagreement only for rays grazing the box within rounding.
                let grow = |e: f64| Obb { half_extents: obb.half_extents.map(|h| (h + e).max(0.0)), ..obb };
                prop_assert!(cast(&ray, &grow(1e-9)).is_some() && (mine.is_none() || cast(&ray, &grow(-1e-9)).is_none()),
                    "mine {:?} parry {:?}", mine, theirs);
            }
        }
    }

    /// Boxes whose axes are a signed permutation of the coordinate axes, with integer data:
    /// the answer must equal ray–AABB on the same box exactly.
    #[test]
    fn signed_permutation_matches_aabb(o in grid_point(6), d in grid_vector(3), c in grid_point(4), h in grid_vector(3),
                                       perm in 0..6usize, signs in 0..8u8) {
        prop_assume!(d != Vector::zeros());
        let p = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][perm];
        let axes = Matrix3::from_fn(|r, col| if r == p[col] { if signs >> col & 1 == 1 { -1.0 } else { 1.0 } } else { 0.0 });
        let obb = Obb { center: c, axes, half_extents: h.abs() };
        let world_half = axes.abs() * h.abs();
        let aabb = Aabb::new(c - world_half, c + world_half);
        let ray = Ray::new(o, d);
        prop_assert_eq!(cast(&ray, &obb).map(|h| h.t), ray_aabb::cast(&ray, &aabb).map(|h| h.t));
    }
}

#[test]
fn adversarial_cases() {
    let rot = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1).into_inner();
    for (scale, offset) in [(1.0, 0.0), (1e-8, 2e-8), (1e8, 5e8), (1.0, 1e8)] {
        let center = Point::new(offset, -offset, 2.0 * offset);
        let obb = Obb {
            center,
            axes: rot,
            half_extents: Vector::new(1.0, 2.0, 0.5) * scale,
        };
        let u = |k: usize| rot.column(k).into_owned();
        // Head-on along -u0 from outside: enters at the +u0 face (distance 2*scale -> t=1 for dir length 1*scale).
        let ray = Ray::new(center + u(0) * 3.0 * scale, -u(0) * scale);
        assert!(
            close(
                cast(&ray, &obb).unwrap().t,
                2.0,
                1e-12 + 1e-14 * offset.abs() / scale
            ),
            "offset box {scale} {offset}"
        );
        // Grazing the +u1 face (parallel to it): a rotated face plane is not representable,
        // so "in the plane" means within rounding: just inside hits, just outside misses.
        let inset = 1e-6 * scale + 1e-13 * offset.abs();
        let ray = Ray::new(
            center + u(1) * (2.0 * scale - inset) - u(0) * 5.0 * scale,
            u(0) * scale,
        );
        assert!(cast(&ray, &obb).is_some());
        let ray = Ray::new(
            center + u(1) * (2.0 * scale + inset) - u(0) * 5.0 * scale,
            u(0) * scale,
        );
        assert!(cast(&ray, &obb).is_none());
        // An axis-aligned box's face is exact: a ray in its plane hits.
        let aligned = Obb {
            axes: nalgebra::Matrix3::identity(),
            ..obb
        };
        let ray = Ray::new(
            center + Vector::new(-5.0, 2.0, 0.0) * scale,
            Vector::x() * scale,
        );
        assert!(cast(&ray, &aligned).is_some());
        // Inside -> t = 0; pointing away -> miss.
        assert_eq!(cast(&Ray::new(center, u(2)), &obb).unwrap().t, 0.0);
        assert!(cast(&Ray::new(center + u(0) * 3.0 * scale, u(0)), &obb).is_none());
        // Through a vertex.
        let corner = center + rot * (Vector::new(1.0, 2.0, 0.5) * scale);
        let diag = rot * Vector::new(1.0, 1.0, 1.0) * scale;
        let ray = Ray::new(corner + diag, -diag);
        assert!(cast(&ray, &obb)
            .is_some_and(|h| (h.point - corner).norm() < 1e-9 * (scale + offset.abs())));
    }
}
