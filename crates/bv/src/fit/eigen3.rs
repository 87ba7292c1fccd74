//! Eigenvectors of a symmetric 3×3 matrix in closed form.
//!
//! Eigenvalues from the trigonometric solution of the characteristic cubic (Smith, "Eigenvalues
//! of a symmetric 3 × 3 matrix", CACM 1961): with `q = tr(A)/3` and
//! `p = sqrt(tr((A − qI)²)/6)`, the matrix `B = (A − qI)/p` has eigenvalues
//! `2 cos(φ + 2πk/3)`, `φ = acos(det(B)/2)/3`. Eigenvectors as in Eberly, "A Robust Eigensolver
//! for 3 × 3 Symmetric Matrices" (Geometric Tools, 2014): first the one of the eigenvalue set
//! apart from the other two (the largest when `det(B) ≥ 0`, else the smallest), as the longest
//! cross product of two rows of `B − βI`; then the middle one from the 2×2 matrix `B` restricts
//! to the plane orthogonal to it, whose eigenvectors are well defined even when the two
//! remaining eigenvalues are close; the third completes a right-handed frame.
//!
//! The frame is orthonormal to rounding whatever the input; when eigenvalues coincide it is one
//! of the bases of their eigenspace (a box fitted along any of them is valid). A tree build
//! fits one frame per node, and the closed form costs far fewer instructions than nalgebra's
//! iterative `SymmetricEigen` (see `docs/performance.md`).

use super::covariance::any_perpendicular;
use crate::Vector;
use nalgebra::Matrix3;

/// The unit eigenvectors of the symmetric matrix `a` as the columns of a right-handed rotation,
/// by decreasing eigenvalue; the identity when `a` is a multiple of the identity or not finite.
pub fn frame(a: &Matrix3<f64>) -> Matrix3<f64> {
    let q = a.trace() / 3.0;
    let d = [a[(0, 0)] - q, a[(1, 1)] - q, a[(2, 2)] - q];
    let off = [a[(0, 1)], a[(0, 2)], a[(1, 2)]];
    let p2 = (d[0] * d[0]
        + d[1] * d[1]
        + d[2] * d[2]
        + 2.0 * (off[0] * off[0] + off[1] * off[1] + off[2] * off[2]))
        / 6.0;
    if !(p2 > 0.0 && p2.is_finite()) {
        return Matrix3::identity();
    }
    let p = p2.sqrt();
    let b = Matrix3::new(
        d[0] / p,
        off[0] / p,
        off[1] / p,
        off[0] / p,
        d[1] / p,
        off[2] / p,
        off[1] / p,
        off[2] / p,
        d[2] / p,
    );
    let half_det = (b.determinant() / 2.0).clamp(-1.0, 1.0);
    let phi = half_det.acos() / 3.0;
    let largest = 2.0 * phi.cos();
    let smallest = 2.0 * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos();
    let middle = -(largest + smallest);
    // The eigenvalue set apart: `det(B) ≥ 0` puts the middle one nearer the smallest.
    let apart_is_largest = half_det >= 0.0;
    let apart = if apart_is_largest { largest } else { smallest };
    let Some(e_apart) = null_vector(&b, apart) else {
        return Matrix3::identity();
    };
    let e_middle = middle_vector(&b, &e_apart, middle);
    let e_largest = if apart_is_largest {
        e_apart
    } else {
        e_middle.cross(&e_apart)
    };
    Matrix3::from_columns(&[e_largest, e_middle, e_largest.cross(&e_middle)])
}

/// A unit vector `v` with `(b − βI) v = 0` for a simple eigenvalue `β`: the longest of the cross
/// products of two rows of `b − βI` (the rows span the plane orthogonal to `v`).
fn null_vector(b: &Matrix3<f64>, beta: f64) -> Option<Vector> {
    let m = b - Matrix3::identity() * beta;
    let (r0, r1, r2) = (
        m.row(0).transpose(),
        m.row(1).transpose(),
        m.row(2).transpose(),
    );
    let candidates = [r0.cross(&r1), r0.cross(&r2), r1.cross(&r2)];
    let best = candidates
        .iter()
        .max_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))?;
    let n2 = best.norm_squared();
    (n2 > 0.0 && n2.is_finite()).then(|| best / n2.sqrt())
}

/// The unit eigenvector of `b` for `middle` orthogonal to the unit eigenvector `e` (of another
/// eigenvalue), from the 2×2 matrix `b` restricts to the plane orthogonal to `e`. When the two
/// eigenvalues of that plane coincide (to rounding) every vector of it is an eigenvector.
fn middle_vector(b: &Matrix3<f64>, e: &Vector, middle: f64) -> Vector {
    let u = any_perpendicular(e);
    let v = e.cross(&u);
    let (bu, bv) = (b * u, b * v);
    // The restricted matrix minus middle·I, [[m00, m01], [m01, m11]]: the eigenvector (x, y) is
    // orthogonal to its larger row.
    let (m00, m01, m11) = (u.dot(&bu) - middle, u.dot(&bv), v.dot(&bv) - middle);
    let (x, y) = if m00.abs() >= m11.abs() {
        (-m01, m00)
    } else {
        (m11, -m01)
    };
    let w = u * x + v * y;
    let n2 = w.norm_squared();
    if n2 > f64::MIN_POSITIVE && n2.is_finite() {
        w / n2.sqrt()
    } else {
        u
    }
}
