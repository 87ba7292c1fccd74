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
    let (area, sum, upper) = moment_sums(moments, &origin);
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

/// The sums behind [`moments_covariance`], relative to `origin`: the total area, `Σ A_k d_k` and
/// the upper triangle of `Σ (S_k + A_k d_k d_kᵀ)`, `d_k = m_k − origin`. On a CPU with AVX2
/// (chosen at run time) the entries are summed four to a register, each rounded as in the
/// portable loop (Rust does not fuse `a * b + c`): the same sums, bit for bit.
fn moment_sums(moments: &[TriangleMoments], origin: &Point) -> (f64, Vector, [f64; 6]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[allow(unsafe_code)]
        // SAFETY: the CPU has AVX2, the one feature `moment_sums_avx2` is compiled for.
        return unsafe { moment_sums_avx2(moments, origin) };
    }
    moment_sums_portable(moments, origin)
}

/// [`moment_sums`]'s portable loop.
fn moment_sums_portable(moments: &[TriangleMoments], origin: &Point) -> (f64, Vector, [f64; 6]) {
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
    (area, sum, upper)
}

/// [`moment_sums`] on a CPU with AVX2: `a·d` in one register (its fourth lane 0), the products
/// `(a dᵢ) dⱼ` of the six entries [`UPPER`] lists in two, each lane's operands picked by a
/// permutation, so every lane computes what the portable loop computes for its entry.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn moment_sums_avx2(moments: &[TriangleMoments], origin: &Point) -> (f64, Vector, [f64; 6]) {
    use std::arch::x86_64::*;
    // Lanes (low to high) of the permutations: `i` of entries 0–3 and 4–5, `j` of the same.
    const I_0123: i32 = 0b01_00_00_00;
    const J_0123: i32 = 0b01_10_01_00;
    const I_45: i32 = 0b10_10_10_01;
    const J_45: i32 = 0b10_10_10_10;
    let o = _mm256_set_pd(0.0, origin.z, origin.y, origin.x);
    let mut area = 0.0;
    let mut sum = _mm256_setzero_pd();
    let (mut upper_0123, mut upper_45) = (_mm256_setzero_pd(), _mm256_setzero_pd());
    for m in moments {
        let (c, s) = (&m.centroid, &m.spread);
        let d = _mm256_sub_pd(_mm256_set_pd(0.0, c.z, c.y, c.x), o);
        let a = m.area;
        area += a;
        let ad = _mm256_mul_pd(d, _mm256_set1_pd(a));
        sum = _mm256_add_pd(sum, ad);
        let products_0123 = _mm256_mul_pd(
            _mm256_permute4x64_pd::<I_0123>(ad),
            _mm256_permute4x64_pd::<J_0123>(d),
        );
        let products_45 = _mm256_mul_pd(
            _mm256_permute4x64_pd::<I_45>(ad),
            _mm256_permute4x64_pd::<J_45>(d),
        );
        let spread_0123 = _mm256_set_pd(s[3], s[2], s[1], s[0]);
        let spread_45 = _mm256_set_pd(0.0, 0.0, s[5], s[4]);
        upper_0123 = _mm256_add_pd(upper_0123, _mm256_add_pd(spread_0123, products_0123));
        upper_45 = _mm256_add_pd(upper_45, _mm256_add_pd(spread_45, products_45));
    }
    use crate::lanes::lanes;
    let [s0, s1, s2, _] = lanes(sum);
    let [u0, u1, u2, u3] = lanes(upper_0123);
    let [u4, u5, _, _] = lanes(upper_45);
    (area, Vector::new(s0, s1, s2), [u0, u1, u2, u3, u4, u5])
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

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::test_support::where_avx2;
    use proptest::prelude::*;

    proptest! {
        /// The AVX2 sums and the portable sums of the triangles' moments are the same, bit for
        /// bit, at any scale and far from the origin.
        #[test]
        fn moment_sums_avx2_equal_the_portable_loop(
            raw in prop::collection::vec(prop::array::uniform9(-1.0e3..1.0e3f64), 1..40),
            scale in prop::sample::select(vec![1e-150, 1e-9, 1.0, 1e9, 1e150]),
            offset in prop::sample::select(vec![0.0, 1.0, 1e6]),
        ) {
            let moments: Vec<TriangleMoments> = raw
                .iter()
                .map(|c| {
                    let v = |k: usize| Point::new(c[k], c[k + 1], c[k + 2] + offset) * scale;
                    TriangleMoments::of(&[v(0), v(3), v(6)])
                })
                .collect();
            let origin = moments[0].centroid;
            let portable = moment_sums_portable(&moments, &origin);
            #[allow(unsafe_code)]
            // SAFETY: `where_avx2` runs it only where the CPU has AVX2.
            if let Some(avx2) = where_avx2(|| unsafe { moment_sums_avx2(&moments, &origin) }) {
                prop_assert_eq!(bits(avx2), bits(portable));
            }
        }
    }

    /// Every number of a sum, as bits (NaN equals NaN when they overflow alike).
    fn bits((area, sum, upper): (f64, Vector, [f64; 6])) -> Vec<u64> {
        std::iter::once(area)
            .chain(sum.iter().copied())
            .chain(upper)
            .map(f64::to_bits)
            .collect()
    }
}
