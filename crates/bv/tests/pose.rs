//! `Pose`'s checks: every proper rotation is accepted, and a matrix that is not orthonormal
//! within the tolerance, a reflection, or a non-finite entry is refused with its reason; the
//! deviation reported equals the largest entry of `RᵀR − I` computed by nalgebra's product.

use nalgebra::{Matrix3, Rotation3, Vector3};
use obbtree_bv::pose::ORTHONORMAL_TOLERANCE;
use obbtree_bv::{Pose, PoseError};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn reference_deviation(r: &Matrix3<f64>) -> f64 {
    (r.transpose() * r - Matrix3::identity()).abs().max()
}

fn check(r: Matrix3<f64>) -> Result<Pose, PoseError> {
    Pose::from_parts(Vector3::new(1.0, -2.0, 3.0), r)
}

#[test]
fn proper_rotations_are_accepted() {
    let mut rng = Pcg64::seed_from_u64(3);
    for _ in 0..10_000 {
        let axis_angle = Vector3::from_fn(|_, _| rng.gen_range(-4.0..4.0));
        let r = *Rotation3::new(axis_angle).matrix();
        let pose = check(r).unwrap();
        assert_eq!(pose.rotation(), &r);
    }
}

#[test]
fn deviation_is_the_largest_entry_of_rtr_minus_identity() {
    let mut rng = Pcg64::seed_from_u64(5);
    for _ in 0..10_000 {
        let axis_angle = Vector3::from_fn(|_, _| rng.gen_range(-4.0..4.0));
        let mut r = *Rotation3::new(axis_angle).matrix();
        let (i, j) = (rng.gen_range(0..3), rng.gen_range(0..3));
        r[(i, j)] += rng.gen_range(-1e-9..1e-9);
        let expected = reference_deviation(&r);
        match check(r) {
            Ok(_) => assert!(
                expected <= ORTHONORMAL_TOLERANCE * (1.0 + 1e-6),
                "{expected:e}"
            ),
            Err(PoseError::NotOrthonormal { deviation }) => {
                assert!(
                    expected >= ORTHONORMAL_TOLERANCE * (1.0 - 1e-6),
                    "{expected:e}"
                );
                assert!(
                    (deviation - expected).abs() <= 1e-15,
                    "{deviation:e} {expected:e}"
                );
            }
            Err(other) => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_tolerance_is_where_refusal_starts() {
    // (1 + δ)² − 1 ≈ 2δ.
    let stretched = |delta: f64| Matrix3::from_diagonal(&Vector3::new(1.0 + delta, 1.0, 1.0));
    assert!(check(stretched(0.49 * ORTHONORMAL_TOLERANCE)).is_ok());
    assert!(matches!(
        check(stretched(0.51 * ORTHONORMAL_TOLERANCE)),
        Err(PoseError::NotOrthonormal { .. })
    ));
    // Off the diagonal too.
    let mut sheared = Matrix3::identity();
    sheared[(0, 1)] = 2.0 * ORTHONORMAL_TOLERANCE;
    assert!(matches!(
        check(sheared),
        Err(PoseError::NotOrthonormal { .. })
    ));
}

#[test]
fn reflections_and_bad_entries_are_refused() {
    let mirror = Matrix3::from_diagonal(&Vector3::new(-1.0, 1.0, 1.0));
    assert_eq!(
        check(mirror).unwrap_err(),
        PoseError::Reflection { determinant: -1.0 }
    );
    let swap = Matrix3::new(0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(check(swap), Err(PoseError::Reflection { .. })));
    let mut nan = Matrix3::identity();
    nan[(2, 1)] = f64::NAN;
    assert!(matches!(
        check(nan),
        Err(PoseError::NonFinite {
            part: "rotation",
            ..
        })
    ));
    // Entries so large that the dot products overflow (∞ − ∞ in the cross terms).
    let huge = Matrix3::new(1e200, 1e200, 0.0, 1e200, -1e200, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(check(huge), Err(PoseError::NotOrthonormal { .. })));
    assert!(matches!(
        Pose::from_parts(Vector3::new(0.0, f64::INFINITY, 0.0), Matrix3::identity()),
        Err(PoseError::NonFinite {
            part: "translation",
            ..
        })
    ));
}
