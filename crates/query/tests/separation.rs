//! Separating planes against the exact brute-force oracle: a plane is certified only for
//! placed models no triangle pair of which meets (every pair through the exact predicate,
//! sharing no code with the certificate); planes are found for most pairs apart; touching
//! cubes on a dyadic grid, at three scales, get none; a hint that no longer separates is
//! replaced; a big flat mesh has no certificate.

mod common;

use common::*;
use obbtree_bv::{Pose, Vector};
use obbtree_query::brute::brute_force;
use obbtree_query::separation::{separates, separating_normal};
use obbtree_query::Model;
use proptest::prelude::*;

/// Two bumpy blobs at random poses, about half apart: every certified plane is for a pair the
/// oracle finds disjoint, [`separates`] accepts the plane found, and planes are found for most
/// of the disjoint pairs. 100 seeds in CI.
#[test]
fn a_certified_plane_means_no_triangle_pair_meets() {
    let tally = std::cell::Cell::new((0, 0));
    runner(100, file!())
        .run(&any::<u64>(), |seed| {
            let (a, b) = (blob(seed, 5, 9, 1.0, 0.3), blob(seed ^ 1, 4, 8, 0.8, 0.3));
            let (ma, mb): (Model, Model) = (model(&a), model(&b));
            let mut r = rng(seed);
            let pose_a = random_pose(&mut r, 3.0);
            for _ in 0..6 {
                let pose_b = pose_a * random_pose(&mut r, 3.0);
                let disjoint = brute_force(&a, &pose_a, &b, &pose_b).is_empty();
                let found = separating_normal(&ma, &pose_a, &mb, &pose_b, None);
                if let Some(n) = found {
                    prop_assert!(disjoint, "a plane {n} for meeting meshes, seed {seed}");
                    prop_assert!(separates(&ma, &pose_a, &mb, &pose_b, &n));
                }
                let (apart, planes) = tally.get();
                tally.set((
                    apart + usize::from(disjoint),
                    planes + usize::from(found.is_some()),
                ));
            }
            Ok(())
        })
        .unwrap();
    let (apart, planes) = tally.get();
    assert!(apart >= 100, "{apart} disjoint poses");
    assert!(
        planes * 2 >= apart,
        "planes for {planes} of {apart} disjoint poses"
    );
}

/// Unit cubes face to face on a dyadic grid touch: no plane, hinted or found. Moved apart by
/// 2⁻³⁰ of their size they are certified along the axis; at 2⁻⁵⁰ the gap is below rounding and
/// the answer stays "no plane" (the full query decides). At scales 1, 2⁻²⁰ and 2²⁰.
#[test]
fn touching_cubes_get_no_plane() {
    for scale in [1.0, 2f64.powi(-20), 2f64.powi(20)] {
        let cube_model: Model = model(&cube(2, 0.5 * scale));
        let at = |x: f64| Pose::from_translation([x * scale, 0.0, 0.0]).unwrap();
        let hint = Vector::x();
        let identity = Pose::identity();
        let plane = |x: f64, hint: Option<&Vector>| {
            separating_normal(&cube_model, &identity, &cube_model, &at(x), hint)
        };
        assert!(!separates(
            &cube_model,
            &identity,
            &cube_model,
            &at(1.0),
            &hint
        ));
        assert_eq!(plane(1.0, Some(&hint)), None, "scale {scale}");
        assert_eq!(plane(1.0, None), None, "scale {scale}");
        assert_eq!(
            plane(1.0 + 2f64.powi(-50), Some(&hint)),
            None,
            "scale {scale}"
        );
        assert_eq!(
            plane(1.0 + 2f64.powi(-30), Some(&hint)),
            Some(hint),
            "scale {scale}"
        );
        let found = plane(1.0 + 2f64.powi(-30), None).expect("a plane along x");
        assert!((found - hint).norm() < 1e-9, "scale {scale}: {found}");
    }
}

/// A hint pointing the wrong way is not returned: the plane found instead points from A towards
/// B (any such plane will do: the search stops at the first that separates).
#[test]
fn a_hint_that_no_longer_separates_is_replaced() {
    let cube_model: Model = model(&cube(2, 0.5));
    let (identity, beside) = (
        Pose::identity(),
        Pose::from_translation([0.5, 3.0, 0.0]).unwrap(),
    );
    let stale = -Vector::y();
    let n = separating_normal(&cube_model, &identity, &cube_model, &beside, Some(&stale))
        .expect("a plane");
    assert!(n.dot(&stale) < 0.0, "{n}");
    assert!(separates(&cube_model, &identity, &cube_model, &beside, &n));
    assert!(!separates(
        &cube_model,
        &identity,
        &cube_model,
        &beside,
        &stale
    ));
}

/// A flat mesh has no hull polytope: with a few vertices they serve as its support set, with
/// many it has no certificate at all.
#[test]
fn a_big_flat_mesh_has_no_plane() {
    let far = Pose::from_translation([0.0, 0.0, 50.0]).unwrap();
    let blob_model: Model = model(&blob(3, 5, 9, 1.0, 0.3));
    let small_flat: Model = model(&terrain(1, 6, 0.0));
    let big_flat: Model = model(&terrain(1, 20, 0.0));
    let identity = Pose::identity();
    let n = separating_normal(&small_flat, &identity, &blob_model, &far, None).expect("a plane");
    assert!(n.z > 0.0, "{n}");
    assert_eq!(
        separating_normal(&big_flat, &identity, &blob_model, &far, None),
        None
    );
    assert!(!separates(
        &big_flat,
        &identity,
        &blob_model,
        &far,
        &Vector::z()
    ));
}
