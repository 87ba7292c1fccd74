//! Plane–AABB classification: the three methods agree; exact oracle on integer data.
mod common;

use common::*;
use obbtree_bv::intersect::plane::{Plane, PlaneSide};
use obbtree_bv::intersect::plane_aabb::{classify, classify_diagonal, classify_vertices, corners};
use obbtree_bv::{Aabb, Point, Vector};
use proptest::prelude::*;

/// Exact classification for integer data (all quantities exact in f64).
fn exact(plane: &Plane, b: &Aabb) -> PlaneSide {
    let v: Vec<i128> = corners(b)
        .iter()
        .map(|p| {
            int(plane.normal.x) * int(p.x)
                + int(plane.normal.y) * int(p.y)
                + int(plane.normal.z) * int(p.z)
                + int(plane.d)
        })
        .collect();
    let (lo, hi) = (*v.iter().min().unwrap(), *v.iter().max().unwrap());
    if lo > 0 {
        PlaneSide::Positive
    } else if hi < 0 {
        PlaneSide::Negative
    } else if lo == 0 || hi == 0 {
        PlaneSide::Tangent
    } else {
        PlaneSide::Intersecting
    }
}

fn plane() -> impl Strategy<Value = Plane> {
    (direction(), coord()).prop_map(|(n, d)| Plane::new(n, d))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn three_methods_agree(plane in plane(), b in aabb()) {
        let c = classify(&plane, &b);
        prop_assert_eq!(c, classify_diagonal(&plane, &b));
        prop_assert_eq!(c, classify_vertices(&plane, &b));
    }

    /// Planes through a corner or an edge of the box (touching on purpose, from either side):
    /// the three methods must still agree.
    #[test]
    fn touching_planes_agree(n in direction(), b in aabb(), corner in 0..8usize) {
        let plane = Plane::from_point_normal(&corners(&b)[corner], n);
        let c = classify(&plane, &b);
        prop_assert_eq!(c, classify_diagonal(&plane, &b));
        prop_assert_eq!(c, classify_vertices(&plane, &b));
        prop_assert!(c == PlaneSide::Tangent || c == PlaneSide::Intersecting);
    }

    #[test]
    fn grid_matches_exact(n in grid_vector(3), d in -20..20i32, c in grid_point(4), h in grid_vector(2)) {
        prop_assume!(n != Vector::zeros());
        let (plane, b) = (Plane::new(n, d.into()), Aabb::new(c - h.abs(), c + h.abs()));
        let want = exact(&plane, &b);
        prop_assert_eq!(classify(&plane, &b), want);
        prop_assert_eq!(classify_diagonal(&plane, &b), want);
        prop_assert_eq!(classify_vertices(&plane, &b), want);
    }

    /// Dense sampling: points of the box lie on the side the classification claims.
    #[test]
    fn sampled_points_agree(plane in plane(), b in aabb(), s in prop::collection::vec((0.0..=1.0f64, 0.0..=1.0f64, 0.0..=1.0f64), 64)) {
        let side = classify(&plane, &b);
        let scale = plane.normal.norm() * 30.0 + plane.d.abs();
        for (x, y, z) in s {
            let p = b.mins + (b.maxs - b.mins).component_mul(&Vector::new(x, y, z));
            let v = plane.eval(&p);
            match side {
                PlaneSide::Positive => prop_assert!(v > -1e-12 * scale),
                PlaneSide::Negative => prop_assert!(v < 1e-12 * scale),
                _ => {}
            }
        }
    }
}

#[test]
fn adversarial_cases() {
    for scale in [1.0, 1e-8, 1e8] {
        let b = Aabb::new(
            Point::new(1.0, 2.0, 3.0) * scale,
            Point::new(2.0, 3.0, 5.0) * scale,
        );
        let z = |h: f64, sign: f64| Plane::new(Vector::z() * sign, -h * scale * sign);
        let all = |p: &Plane| {
            [
                classify(p, &b),
                classify_diagonal(p, &b),
                classify_vertices(p, &b),
            ]
        };
        assert_eq!(all(&z(3.0, 1.0)), [PlaneSide::Tangent; 3]); // resting on the bottom face
        assert_eq!(all(&z(5.0, -1.0)), [PlaneSide::Tangent; 3]); // top face, flipped normal
        assert_eq!(all(&z(4.0, 1.0)), [PlaneSide::Intersecting; 3]);
        assert_eq!(all(&z(2.0, 1.0)), [PlaneSide::Positive; 3]);
        assert_eq!(all(&z(6.0, 1.0)), [PlaneSide::Negative; 3]);
        // Within the tangent band (1e-12 relative) is tangent; beyond it is not.
        assert_eq!(all(&z(3.0 * (1.0 + 1e-14), 1.0)), [PlaneSide::Tangent; 3]);
        assert_eq!(all(&z(3.0 * (1.0 - 1e-9), 1.0)), [PlaneSide::Positive; 3]);
        // A plane through the edge (x = 2, y = 3) only: tangent along the edge.
        let edge = Plane::from_point_normal(
            &(Point::new(2.0, 3.0, 0.0) * scale),
            Vector::new(1.0, 1.0, 0.0),
        );
        assert_eq!(all(&edge), [PlaneSide::Tangent; 3]);
        // Through the vertex (2, 3, 5) only.
        let vertex = Plane::from_point_normal(
            &(Point::new(2.0, 3.0, 5.0) * scale),
            Vector::new(1.0, 2.0, 3.0),
        );
        assert_eq!(all(&vertex), [PlaneSide::Tangent; 3]);
    }
    // A flat box lying in the plane is tangent.
    let flat = Aabb::new(Point::new(0.0, 0.0, 1.0), Point::new(1.0, 1.0, 1.0));
    assert_eq!(
        classify(&Plane::new(Vector::z(), -1.0), &flat),
        PlaneSide::Tangent
    );
}
