//! Covariance-based OBB frames: the area-weighted covariance of triangles (Gottschalk, Lin &
//! Manocha 1996; Ericson, *Real-Time Collision Detection* (2005), §4.4.3), the plain vertex
//! covariance (what PQP and FCL use), and the eigen frame of either.

use crate::{Point, Vector};
use nalgebra::Matrix3;

/// Area-weighted covariance of the surface made of `triangles` (the continuous form of
/// Gottschalk et al. 1996, "OBBTree", §4, as corrected on the authors' errata page: the
/// equations printed on p. 173 of the proceedings are wrong):
///
/// `C_ij = (1/A_M) Σ_k A_k/12 · (9 m_i m_j + p_i p_j + q_i q_j + r_i r_j) − M_i M_j`
///
/// with `A_k`, `m` the area and centroid of triangle `k = (p, q, r)`, `A_M = Σ A_k` and `M` the
/// area-weighted mean of the centroids. Computed as [`moments_covariance`] of each triangle's
/// [`TriangleMoments`] (the same numbers, bit for bit, as a hierarchy that precomputes them).
///
/// Returns `None` when the total area is zero (all triangles degenerate) or the sums overflow:
/// the caller then falls back to [`vertex_covariance`].
pub fn triangle_covariance(triangles: &[[Point; 3]]) -> Option<Matrix3<f64>> {
    let moments: Vec<TriangleMoments> = triangles.iter().map(TriangleMoments::of).collect();
    moments_covariance(&moments)
}

/// Entries `(i, j)`, `i ≤ j`, of a symmetric 3×3 matrix, in the order [`TriangleMoments`] stores them.
const UPPER: [(usize, usize); 6] = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)];

/// One triangle's share of the area-weighted covariance: its area `A`, centroid `m`, and its
/// second moment about its own centroid, `A/12 · Σ_v (v − m)(v − m)ᵀ` over its three vertices
/// (the upper triangle). Gottschalk's term `A/12 · (9 m mᵀ + Σ_v v vᵀ)` is this plus `A m mᵀ`,
/// so a set's covariance is a sum of these records (the parallel-axis theorem): hierarchies
/// compute them once per triangle instead of once per node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleMoments {
    /// Area of the triangle.
    pub area: f64,
    /// Centroid, summed as thirds so that huge finite coordinates do not overflow.
    pub centroid: Point,
    /// `A/12 · Σ_v (v − m)(v − m)ᵀ`, entries `(0,0) (0,1) (0,2) (1,1) (1,2) (2,2)`.
    pub spread: [f64; 6],
}

impl TriangleMoments {
    /// The moments of triangle `t`.
    pub fn of(t: &[Point; 3]) -> Self {
        let [p, q, r] = t;
        let centroid = Point::from(p.coords / 3.0 + q.coords / 3.0 + r.coords / 3.0);
        let area = 0.5 * (q - p).cross(&(r - p)).norm();
        let [dp, dq, dr] = t.map(|v| v - centroid);
        let w = area / 12.0;
        let spread = UPPER.map(|(i, j)| w * (dp[i] * dp[j] + dq[i] * dq[j] + dr[i] * dr[j]));
        Self {
            area,
            centroid,
            spread,
        }
    }
}

/// The area-weighted covariance ([`triangle_covariance`]) of the triangles whose
/// [`TriangleMoments`] are given:
/// `(1/A_M) Σ_k (S_k + A_k (m_k − o)(m_k − o)ᵀ) − (M − o)(M − o)ᵀ`, with `S_k` the spread, taken
/// relative to the first centroid `o` so that a small set far from the origin loses no precision
/// to cancellation. `None` when the total area is zero or a sum is not finite.
pub fn moments_covariance(moments: &[TriangleMoments]) -> Option<Matrix3<f64>> {
    let origin = moments.first()?.centroid;
    let (mut area, mut sum, mut upper) = (0.0, Vector::zeros(), [0.0; 6]);
    for m in moments {
        let d = m.centroid - origin;
        let a = m.area;
        area += a;
        sum += d * a;
        for ((acc, &(i, j)), s) in upper.iter_mut().zip(&UPPER).zip(m.spread) {
            *acc += s + a * d[i] * d[j];
        }
    }
    if !(area > 0.0 && area.is_finite()) {
        return None;
    }
    let mean = sum / area;
    let mut covariance = Matrix3::zeros();
    for (&acc, &(i, j)) in upper.iter().zip(&UPPER) {
        covariance[(i, j)] = acc / area - mean[i] * mean[j];
        covariance[(j, i)] = covariance[(i, j)];
    }
    covariance
        .iter()
        .all(|c| c.is_finite())
        .then_some(covariance)
}

/// Covariance of the points themselves (each point weighted equally), relative to the first
/// point for precision. Sensitive to uneven tessellation: a densely meshed detail pulls the axes.
pub fn vertex_covariance(points: &[Point]) -> Matrix3<f64> {
    let Some(origin) = points.first() else {
        return Matrix3::zeros();
    };
    let n = points.len() as f64;
    let (sum, second) = points
        .iter()
        .fold((Vector::zeros(), Matrix3::zeros()), |(s, c), p| {
            let d = p - origin;
            (s + d, c + d * d.transpose())
        });
    let mean = sum / n;
    second / n - mean * mean.transpose()
}

/// The eigenvectors of a symmetric covariance matrix as orthonormal (to rounding), right-handed
/// columns, ordered by decreasing eigenvalue (the closed form of [`super::eigen3`], which builds
/// the frame orthonormal, on the matrix scaled to unit magnitude so that tiny and huge meshes
/// are solved alike). A zero or non-finite matrix (one point, repeated points) gives the
/// identity frame; repeated eigenvalues give some orthonormal basis of their eigenspace, which
/// any box fitted along it accepts.
pub fn eigen_frame(covariance: &Matrix3<f64>) -> Matrix3<f64> {
    let scale = covariance.amax();
    if !(scale > 0.0 && scale.is_finite()) {
        return Matrix3::identity();
    }
    super::eigen3::frame(&(covariance / scale))
}

/// The right-handed orthonormal frame nearest in spirit to `m`'s columns: Gram–Schmidt on the
/// first two columns, third = first × second. Columns that are zero, non-finite or parallel are
/// replaced by a stable completion, so the result is always a rotation matrix.
pub fn orthonormalize(m: &Matrix3<f64>) -> Matrix3<f64> {
    let u0 = m
        .column(0)
        .try_normalize(f64::EPSILON)
        .filter(|v| v.iter().all(|c| c.is_finite()));
    let Some(u0) = u0 else {
        return Matrix3::identity();
    };
    let v1 = m.column(1) - u0 * u0.dot(&m.column(1));
    let u1 = v1
        .try_normalize(1e-8 * m.column(1).norm())
        .filter(|v| v.iter().all(|c| c.is_finite()))
        .unwrap_or_else(|| any_perpendicular(&u0));
    Matrix3::from_columns(&[u0, u1, u0.cross(&u1)])
}

/// A unit vector perpendicular to the unit vector `u` (crossing it with the coordinate axis it
/// is least aligned with).
pub(super) fn any_perpendicular(u: &Vector) -> Vector {
    let axis = Vector::ith(u.iamin(), 1.0);
    u.cross(&axis).normalize()
}
