//! Frustum planes from a view-projection matrix (Gribb–Hartmann) vs. clip-space membership.
mod common;

use common::*;
use nalgebra::{Matrix4, Vector4};
use obbtree_bv::intersect::frustum::{Frustum, FrustumError};
use obbtree_bv::Point;
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    /// A point is in the frustum iff its clip coordinates satisfy `-w <= x, y, z <= w`
    /// (checked away from the boundary), and the planes are unit, outward, and pass through
    /// the unprojected NDC corners.
    #[test]
    fn planes_match_clip_space((m, corners) in view_projection(), p in point()) {
        let f = Frustum::from_view_projection(&m).unwrap();
        let c = m * Vector4::new(p.x, p.y, p.z, 1.0);
        let margin = (0..3).map(|k| c.w - c[k].abs()).fold(f64::INFINITY, f64::min);
        if margin.abs() > 1e-9 * (1.0 + c.w.abs()) {
            prop_assert_eq!(f.contains_point(&p), margin > 0.0 && c.w > 0.0, "clip {:?}", c);
        }
        for plane in f.planes() {
            prop_assert!((plane.normal.norm() - 1.0).abs() < 1e-12);
        }
        // Corner i lies on planes (x side, y side, z side) and inside the others.
        for (i, q) in corners.iter().enumerate() {
            let scale = 1.0 + q.coords.norm();
            for (k, plane) in f.planes().iter().enumerate() {
                let on = (k / 2 == 0 && (i & 1) == k % 2) || (k / 2 == 1 && (i >> 1 & 1) == k % 2) || (k / 2 == 2 && (i >> 2 & 1) == k % 2);
                let v = plane.eval(q);
                if on { prop_assert!(v.abs() < 1e-8 * scale, "corner {} plane {} value {}", i, k, v); } else { prop_assert!(v < 1e-8 * scale); }
            }
        }
    }
}

#[test]
fn identity_matrix_is_the_ndc_cube() {
    let f = Frustum::from_view_projection(&Matrix4::identity()).unwrap();
    assert!(f.contains_point(&Point::new(1.0, -1.0, 1.0))); // corner (closed)
    assert!(f.contains_point(&Point::new(0.0, 0.0, 0.0)));
    assert!(!f.contains_point(&Point::new(1.0 + 1e-12, 0.0, 0.0)));
    let n: Vec<_> = f.planes().iter().map(|p| (p.normal, p.d)).collect();
    assert_eq!(n[0], (-nalgebra::Vector3::x(), -1.0)); // left: -x - 1 <= 0
    assert_eq!(n[5], (nalgebra::Vector3::z(), -1.0)); // far: z - 1 <= 0
}

#[test]
fn degenerate_matrices_are_errors() {
    assert_eq!(
        Frustum::from_view_projection(&Matrix4::zeros()),
        Err(FrustumError::DegeneratePlane(0))
    );
    let mut m = Matrix4::identity();
    m[(2, 2)] = 0.0;
    m[(3, 3)] = 0.0; // near/far rows become zero normals
    assert!(matches!(
        Frustum::from_view_projection(&m),
        Err(FrustumError::DegeneratePlane(_))
    ));
    let mut nan = Matrix4::identity();
    nan[(0, 0)] = f64::NAN;
    assert!(Frustum::from_view_projection(&nan).is_err());
}
