//! The coordinates on which the exact predicates are exact, and an O(1) check that a posed mesh's
//! placed coordinates stay among them.
//!
//! # The exact range
//!
//! Shewchuk's adaptive predicates (J. R. Shewchuk, "Adaptive precision floating-point
//! arithmetic and fast robust geometric predicates", 1997, §2 and §4, as implemented by the
//! `robust` crate) and the float filters in front of them
//! ([`predicates::orient3d`](crate::predicates::orient3d),
//! [`tri_tri_exact`](crate::intersect::tri_tri_exact)) are exact under one assumption: no
//! operation overflows or underflows. Neither happens when every input coordinate
//!
//! * is an integer multiple of [`EXACT_GRANULARITY`] `= 2⁻³⁰⁶`, which every `f64` of magnitude
//!   at least [`EXACT_MIN_NONZERO`] `= 2⁻²⁵⁴` (≈ 3.5e-77) is, its ulp being at least `2⁻³⁰⁶`,
//!   and 0 is; and
//! * has magnitude at most [`EXACT_MAX_COORDINATE`] `= 2³³⁹` (≈ 1.1e102).
//!
//! [`TriMesh`](crate::TriMesh)'s range, 0 or `1e-70 ..= 1e100`
//! ([`MIN_NONZERO_COORDINATE`](crate::MIN_NONZERO_COORDINATE),
//! [`MAX_COORDINATE`](crate::MAX_COORDINATE)), lies inside, with room for placement (below).
//!
//! **Overflow.** A coordinate difference is at most `D = 2·2³³⁹ = 2³⁴⁰`. `orient3d`'s largest
//! intermediates are its degree-3 sums (the float determinant, the permanent, the expansion
//! `adet + bdet + cdet`), at most `3 · 2D² · D = 1.5·2¹⁰²²`, below `f64::MAX ≈ 2¹⁰²⁴`; Dekker's
//! split multiplies values up to `2D² = 2⁶⁸¹` by `2²⁷ + 1`. The triangle filter's `|w|₁ · scale`
//! is at most `3D · 2D²`, the same bound. `orient2d` stays at degree 2.
//!
//! **Underflow.** Every quantity the predicates form is an integer multiple of `G^k`
//! (`G = 2⁻³⁰⁶`, `k ≤ 3` its degree in the coordinates): differences and their rounding tails
//! are multiples of `G`; exact products, Dekker's halves and rounded sums keep the multiple.
//! So a nonzero product is at least `G³ = 2⁻⁹¹⁸`, and the smallest error bound the adaptive
//! stages multiply out, `o3derrboundC · permanent ≥ 2⁻¹⁰¹·³ · 2⁻⁹¹⁸`, is still above the
//! smallest normal `2⁻¹⁰²²`: no result is subnormal, so none underflows.
//!
//! Outside the range the predicates can be wrong: with coordinates near `1e-150` a product of
//! two differences and a third rounds to zero and a triangle above another is reported
//! touching it.
//!
//! # Placed coordinates
//!
//! Collision places each vertex `p` of mesh B by `R·p + t` in `f64` (each product rounded, no
//! fused multiply–add, summed in any order), so the predicates see placed coordinates, not the
//! mesh's. [`placed_in_exact_range`] checks a sufficient condition in O(1) from the mesh's
//! bounds, its smallest nonzero coordinate and the pose:
//!
//! * **Magnitude:** `|R_i·p + t_i| ≤ Σ_j |R_ij| a_j + |t_i|` for every `p` in the box, where
//!   `a_j = max(|lo_j|, |hi_j|)`; the rounding of the placement and of this sum is within
//!   `9ε` of it, so `(1 + 16ε)` times the computed sum at most `2³³⁹` bounds every placed
//!   coordinate.
//! * **Granularity:** if the smallest nonzero `|R_ij|` times the smallest nonzero `|p_j|` is
//!   at least `2⁻²⁵³`, every nonzero rounded product `R_ij p_j` has magnitude at least `2⁻²⁵⁴`,
//!   hence is a multiple of `2⁻³⁰⁶`; so is every nonzero `t_i` of magnitude at least `2⁻²⁵⁴`;
//!   and a rounded sum of multiples of `2⁻³⁰⁶` is one (rounding only drops bits below the
//!   result's ulp, and a result whose ulp is finer than `2⁻³⁰⁶` is exact). Cancellation can
//!   make a placed coordinate small, but never finer than `2⁻³⁰⁶`.
//!
//! Mesh A, in its own frame, needs no check: its coordinates are in `TriMesh`'s range.

use crate::{Aabb, Vector};
use nalgebra::Matrix3;

// `TriMesh`'s range lies inside the exact range, checked when the crate compiles.
const _: () = assert!(
    crate::trimesh::MIN_NONZERO_COORDINATE >= EXACT_MIN_NONZERO
        && crate::trimesh::MAX_COORDINATE <= EXACT_MAX_COORDINATE
);

/// Largest coordinate magnitude on which the exact predicates are exact: `2³³⁹ ≈ 1.12e102`
/// (see the module docs).
pub const EXACT_MAX_COORDINATE: f64 = 1.1198723710889021e102;

/// Every coordinate the exact predicates take must be an integer multiple of this, `2⁻³⁰⁶ ≈
/// 7.7e-93` (see the module docs).
pub const EXACT_GRANULARITY: f64 = 7.670458539527698e-93;

/// Every `f64` of at least this magnitude, `2⁻²⁵⁴ ≈ 3.5e-77`, is a multiple of
/// [`EXACT_GRANULARITY`]: 0 and magnitudes in `EXACT_MIN_NONZERO ..= EXACT_MAX_COORDINATE` are
/// in the exact range.
pub const EXACT_MIN_NONZERO: f64 = 3.454467422037778e-77;

/// The least product of a rotation entry and a mesh coordinate that [`placed_in_exact_range`]
/// accepts, `2⁻²⁵³`: twice [`EXACT_MIN_NONZERO`], so that the rounded product is at least
/// `EXACT_MIN_NONZERO` whatever the rounding of the check's own product.
pub const PLACED_PRODUCT_MIN: f64 = 2.0 * EXACT_MIN_NONZERO;

/// Whether `x` is in the exact range: a multiple of [`EXACT_GRANULARITY`] of magnitude at most
/// [`EXACT_MAX_COORDINATE`] (false for NaN and infinities).
#[inline]
pub fn in_exact_range(x: f64) -> bool {
    // `x / G` is exact (a power of two, no overflow below 2³³⁹ · 2³⁰⁶); it is an integer iff `x`
    // is a multiple of `G`.
    x.abs() <= EXACT_MAX_COORDINATE && (x / EXACT_GRANULARITY).fract() == 0.0
}

/// Why a pose may place a mesh's coordinates outside the exact range.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum RangeError {
    /// The mesh's bounds, its smallest coordinate, the rotation or the translation is not finite.
    #[error("the mesh bounds or the pose is not finite")]
    NotFinite,
    /// A placed coordinate may exceed [`EXACT_MAX_COORDINATE`].
    #[error(
        "placed coordinates on axis {axis} may reach {reach:e}, beyond the exact range's \
         {limit:e}; move the meshes closer to the origin"
    )]
    TooLarge {
        /// The axis (0, 1, 2) of the placed coordinate.
        axis: usize,
        /// The bound on its magnitude.
        reach: f64,
        /// [`EXACT_MAX_COORDINATE`].
        limit: f64,
    },
    /// A product of a rotation entry and a mesh coordinate may round to a number finer than
    /// [`EXACT_GRANULARITY`].
    #[error(
        "the smallest nonzero rotation entry {rotation:e} times the mesh's smallest nonzero \
         coordinate {coordinate:e} is {product:e}, below {limit:e}: placed coordinates may be \
         finer than the exact range allows; rescale the mesh or snap the rotation"
    )]
    TooFine {
        /// Smallest nonzero `|R_ij|`.
        rotation: f64,
        /// Smallest nonzero `|p_j|` of the mesh.
        coordinate: f64,
        /// Their product.
        product: f64,
        /// [`PLACED_PRODUCT_MIN`].
        limit: f64,
    },
    /// A nonzero translation component is smaller than [`EXACT_MIN_NONZERO`].
    #[error(
        "translation component {axis} is {value:e}, nonzero and below {limit:e}: placed \
         coordinates may be finer than the exact range allows; round it to 0"
    )]
    TranslationTooFine {
        /// The axis (0, 1, 2).
        axis: usize,
        /// The component.
        value: f64,
        /// [`EXACT_MIN_NONZERO`].
        limit: f64,
    },
}

/// Whether placing every vertex `p` of a mesh by `rotation · p + translation` (in `f64`, as
/// collision places mesh B in A's frame) certainly gives coordinates in the exact range: a
/// sufficient condition, O(1), from the mesh's vertex `bounds` and its
/// `smallest_nonzero_coordinate` ([`TriMesh::smallest_nonzero_coordinate`](crate::TriMesh::smallest_nonzero_coordinate);
/// `None` when every coordinate is 0). The argument is in the module docs. `rotation` need not
/// be orthonormal. Meshes in [`TriMesh`](crate::TriMesh)'s range pass at the identity, and at
/// any rotation whose nonzero entries are at least `2⁻²⁵³ / smallest_nonzero_coordinate`
/// (about `7e-7` for a mesh with a coordinate of `1e-70`, `7e-74` for one whose smallest is
/// `1e-3`), with a translation within `TriMesh`'s range.
pub fn placed_in_exact_range(
    bounds: &Aabb,
    smallest_nonzero_coordinate: Option<f64>,
    rotation: &Matrix3<f64>,
    translation: &Vector,
) -> Result<(), RangeError> {
    let finite = bounds
        .mins
        .iter()
        .chain(bounds.maxs.iter())
        .all(|x| x.is_finite())
        && rotation.iter().all(|x| x.is_finite())
        && translation.iter().all(|x| x.is_finite())
        && smallest_nonzero_coordinate.is_none_or(f64::is_finite);
    if !finite {
        return Err(RangeError::NotFinite);
    }
    check_magnitude(bounds, rotation, translation)?;
    if let Some(coordinate) = smallest_nonzero_coordinate {
        check_products(coordinate.abs(), rotation)?;
    }
    check_translation(translation)
}

/// The magnitude condition of the module docs, axis by axis.
fn check_magnitude(
    bounds: &Aabb,
    rotation: &Matrix3<f64>,
    translation: &Vector,
) -> Result<(), RangeError> {
    let extent = bounds.mins.coords.abs().sup(&bounds.maxs.coords.abs());
    let slack = 1.0 + 16.0 * f64::EPSILON;
    for axis in 0..3 {
        let sum = (0..3)
            .map(|j| rotation[(axis, j)].abs() * extent[j])
            .sum::<f64>()
            + translation[axis].abs();
        let reach = sum * slack;
        if reach > EXACT_MAX_COORDINATE {
            return Err(RangeError::TooLarge {
                axis,
                reach,
                limit: EXACT_MAX_COORDINATE,
            });
        }
    }
    Ok(())
}

/// The granularity condition on the products `R_ij p_j`.
fn check_products(coordinate: f64, rotation: &Matrix3<f64>) -> Result<(), RangeError> {
    let Some(smallest) = rotation
        .iter()
        .map(|x| x.abs())
        .filter(|&x| x > 0.0)
        .min_by(f64::total_cmp)
    else {
        return Ok(());
    };
    let product = smallest * coordinate;
    if product < PLACED_PRODUCT_MIN {
        return Err(RangeError::TooFine {
            rotation: smallest,
            coordinate,
            product,
            limit: PLACED_PRODUCT_MIN,
        });
    }
    Ok(())
}

/// The granularity condition on the translation.
fn check_translation(translation: &Vector) -> Result<(), RangeError> {
    match (0..3).find(|&i| translation[i] != 0.0 && translation[i].abs() < EXACT_MIN_NONZERO) {
        Some(axis) => Err(RangeError::TranslationTooFine {
            axis,
            value: translation[axis],
            limit: EXACT_MIN_NONZERO,
        }),
        None => Ok(()),
    }
}

/// `⌊log₂ |x|⌋` for a finite nonzero `x`, exactly, from its bits: the exponent field of a
/// normal number, the leading one of a subnormal's significand (IEEE 754-2008 §3.4). (A
/// `log2` call is slower and may round up just below a power of two.)
pub fn binary_exponent(x: f64) -> i32 {
    debug_assert!(x.is_finite() && x != 0.0, "no binary exponent of {x}");
    let bits = x.abs().to_bits();
    let field = (bits >> 52) as i32;
    if field > 0 {
        field - 1023
    } else {
        -1074 + 63 - bits.leading_zeros() as i32
    }
}

/// Two powers of two whose product is `2ᵉ`, each representable for `|e| <= 2046` (`2ᵉ` alone is
/// not for the largest and smallest `e`): `x · f₀ · f₁` is `x·2ᵉ`, exact unless the result
/// leaves the normal range.
pub fn power_of_two_factors(e: i32) -> [f64; 2] {
    debug_assert!(
        e.abs() <= 2046,
        "2^{e} does not split into two normal powers"
    );
    let power = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    let half = e / 2;
    [power(half), power(e - half)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constants are the powers of two the module docs name.
    #[test]
    fn constants_are_the_stated_powers_of_two() {
        assert_eq!(EXACT_MAX_COORDINATE, 2f64.powi(339));
        assert_eq!(EXACT_GRANULARITY, 2f64.powi(-306));
        assert_eq!(EXACT_MIN_NONZERO, 2f64.powi(-254));
        assert_eq!(PLACED_PRODUCT_MIN, 2f64.powi(-253));
    }

    /// `TriMesh`'s range lies inside the exact range (its ends, and by the constant assertion
    /// below the module docs, the whole of it).
    #[test]
    fn mesh_range_is_inside() {
        for x in [
            crate::MIN_NONZERO_COORDINATE,
            crate::MAX_COORDINATE,
            0.0,
            -0.0,
        ] {
            assert!(in_exact_range(x) && in_exact_range(-x), "{x:e}");
        }
    }
}
