//! 2D OBB–OBB overlap: the separating-axis test in the plane, where the four edge normals are
//! the only candidates (the 2D case of Gottschalk, Lin & Manocha 1996; Ericson, *Real-Time
//! Collision Detection* (2005), §5.2.1).

use nalgebra::{Matrix2, Point2, Vector2};

/// A closed oriented rectangle: `center + s₀·axes.column(0) + s₁·axes.column(1)` with
/// `|sᵢ| <= half_extents[i]`; the columns of `axes` are orthonormal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb2 {
    /// Centre (`P` in [`overlaps`]).
    pub center: Point2<f64>,
    /// Unit axes as columns (`Ax, Ay` in [`overlaps`]).
    pub axes: Matrix2<f64>,
    /// Half-width and half-height (`W, H` in [`overlaps`]).
    pub half_extents: Vector2<f64>,
}

/// Whether two closed oriented rectangles overlap: the four candidate separating axes `Ax, Ay,
/// Bx, By`, each testing `|T·L| > |W_A Ax·L| + |H_A Ay·L| + |W_B Bx·L| + |H_B By·L|` with
/// `T = P_B - P_A`, evaluated in A's frame.
///
/// Conservative: the radii are padded by a bound on the rounding of `T` and of the projections
/// (`4ε(|T|₁ + Σ half-extents)`), so overlapping or touching rectangles are never reported apart.
pub fn overlaps(a: &Obb2, b: &Obb2) -> bool {
    let d = b.center - a.center;
    let t = a.axes.tr_mul(&d);
    let rel = a.axes.tr_mul(&b.axes);
    let r = rel.abs();
    let pad = 4.0 * f64::EPSILON * (d.abs().sum() + a.half_extents.sum() + b.half_extents.sum());
    let (ha, hb) = (&a.half_extents, &b.half_extents);
    let apart_on_a =
        (0..2).any(|i| t[i].abs() > ha[i] + hb[0] * r[(i, 0)] + hb[1] * r[(i, 1)] + pad);
    let apart_on_b = (0..2)
        .any(|j| t.dot(&rel.column(j)).abs() > ha[0] * r[(0, j)] + ha[1] * r[(1, j)] + hb[j] + pad);
    !(apart_on_a || apart_on_b)
}
