//! The closed-form symmetric 3×3 eigenvectors (`fit::eigen3`) against nalgebra's iterative
//! `SymmetricEigen` (an independent method): on random symmetric matrices, matrices with
//! repeated or nearly repeated eigenvalues (rotated diagonal matrices), rank-deficient ones and
//! multiples of the identity, the frame is a rotation, its columns are eigenvectors of the
//! eigenvalues in decreasing order, and those eigenvalues are nalgebra's.

mod common;

use common::config;
use nalgebra::{Matrix3, Rotation3, SymmetricEigen};
use obbtree_bv::fit::eigen3;
use obbtree_bv::Vector;
use proptest::prelude::*;

/// `frame` is a rotation whose column `i` satisfies `A vᵢ ≈ λᵢ vᵢ` with nalgebra's eigenvalues
/// sorted decreasingly; the residual is measured relative to `|A|` (eigenvectors of close
/// eigenvalues are ill-determined, but `A v ≈ λ v` holds for any vector of their eigenspace).
fn check(a: &Matrix3<f64>) -> Result<(), TestCaseError> {
    let f = eigen3::frame(a);
    let scale = a.amax().max(f64::MIN_POSITIVE);
    prop_assert!(
        (f.transpose() * f - Matrix3::identity()).amax() < 1e-12,
        "{f}"
    );
    prop_assert!((f.determinant() - 1.0).abs() < 1e-12);
    let mut expected: Vec<f64> = SymmetricEigen::new(*a)
        .eigenvalues
        .iter()
        .copied()
        .collect();
    expected.sort_by(|x, y| y.total_cmp(x));
    for i in 0..3 {
        let v = f.column(i);
        let lambda = v.dot(&(a * v));
        // Eigenvectors of close eigenvalues are ill-determined: a vector of their joint
        // eigenspace has a Rayleigh quotient between them and a residual up to their gap. For
        // separated eigenvalues both bounds are at rounding level.
        let gap = (0..3)
            .filter(|&j| j != i)
            .map(|j| (expected[j] - expected[i]).abs())
            .fold(f64::INFINITY, f64::min);
        prop_assert!(
            (lambda - expected[i]).abs() <= 1e-9 * scale + gap.min(1e-6 * scale),
            "eigenvalue {i}: {lambda} vs {} for {a}",
            expected[i]
        );
        let residual = (a * v - v * lambda).norm();
        prop_assert!(
            residual <= 1e-9 * scale + gap,
            "residual {residual:e} (gap {gap:e}) for column {i} of {a}"
        );
    }
    Ok(())
}

fn symmetric() -> impl Strategy<Value = Matrix3<f64>> {
    (prop::array::uniform6(-1e3..1e3f64), -12i32..12).prop_map(|(e, k)| {
        let s = 10f64.powi(k);
        Matrix3::new(e[0], e[1], e[2], e[1], e[3], e[4], e[2], e[4], e[5]) * s
    })
}

/// `R diag(d) Rᵀ` with eigenvalues drawn from a few values, so that repeats are common.
fn rotated_diagonal() -> impl Strategy<Value = Matrix3<f64>> {
    let value = prop_oneof![
        Just(0.0),
        Just(1.0),
        Just(-2.0),
        Just(1.0 + 1e-9),
        -5.0..5.0f64
    ];
    (
        prop::array::uniform3(value),
        prop::array::uniform3(-3.2..3.2f64),
    )
        .prop_map(|(d, angles)| {
            let r = Rotation3::new(Vector::from(angles)).into_inner();
            r * Matrix3::from_diagonal(&Vector::from(d)) * r.transpose()
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_symmetric_matrices(a in symmetric()) {
        check(&a)?;
    }

    #[test]
    fn repeated_and_close_eigenvalues(a in rotated_diagonal()) {
        check(&a)?;
    }
}

#[test]
fn special_matrices() {
    let cases = [
        Matrix3::zeros(),
        Matrix3::identity(),
        Matrix3::identity() * 7.5,
        Matrix3::from_diagonal(&Vector::new(3.0, 2.0, 1.0)),
        Matrix3::from_diagonal(&Vector::new(1.0, 2.0, 3.0)),
        Matrix3::from_diagonal(&Vector::new(1.0, 1.0, 0.0)),
        Matrix3::from_diagonal(&Vector::new(0.0, 0.0, 1.0)),
        Matrix3::new(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
        Matrix3::new(2.0, -1.0, 0.0, -1.0, 2.0, -1.0, 0.0, -1.0, 2.0),
    ];
    for a in &cases {
        check(a).unwrap();
    }
    // Zero and non-finite input give the identity frame.
    assert_eq!(eigen3::frame(&Matrix3::zeros()), Matrix3::identity());
    assert_eq!(
        eigen3::frame(&Matrix3::from_element(f64::NAN)),
        Matrix3::identity()
    );
}
