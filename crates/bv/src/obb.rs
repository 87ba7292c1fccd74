//! Oriented bounding box.

use crate::fit::covariance::TriangleMoments;
use crate::fit::{self, ObbFit};
use crate::{Point, Pose, Vector};
use nalgebra::{Matrix3, UnitQuaternion};
use serde::{Deserialize, Serialize};

/// Oriented box: `center + Σ s_i axes.column(i)` with `|s_i| <= half_extents[i]` (closed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Obb {
    /// Centre of the box.
    pub center: Point,
    /// Orthonormal, right-handed axes as the columns of a rotation matrix.
    pub axes: Matrix3<f64>,
    /// Non-negative half-lengths along each axis.
    pub half_extents: Vector,
}

impl Obb {
    /// `p` in the box's frame: `axesᵀ (p - center)`. [`Obb::contains_point`](crate::BoundingVolume::contains_point)
    /// and [`Obb::from_axes`] use exactly this arithmetic, which is what makes fitted boxes contain
    /// their input points with zero tolerance.
    pub fn local(&self, p: &Point) -> Vector {
        self.axes.tr_mul(&(p - self.center))
    }

    /// The smallest box with the given `axes` (orthonormal, right-handed columns) that contains
    /// `points` (non-empty): the centre and half-lengths come from the extreme projections onto
    /// the axes: along each axis the centre is `(l_min + l_max) / 2` and the half-length
    /// `(l_max - l_min) / 2` (Gottschalk, Lin & Manocha 1996; Ericson, *Real-Time Collision
    /// Detection* (2005), §4.4.3).
    ///
    /// A second pass widens each half-length to cover the rounding of the centre, so every input
    /// point satisfies `contains_point(p, 0.0)` exactly.
    pub fn from_axes<'a>(
        axes: Matrix3<f64>,
        points: impl IntoIterator<Item = &'a Point> + Clone,
    ) -> Self {
        let (lo, hi) = extents_along(&axes, points.clone());
        let center = Point::from(axes * ((lo + hi) * 0.5));
        let mut obb = Self {
            center,
            axes,
            half_extents: (hi - lo) * 0.5,
        };
        for p in points {
            obb.half_extents = obb.half_extents.sup(&obb.local(p).abs());
        }
        obb
    }

    /// The box along the frame `method` finds in one pass (the eigen frame of the triangles'
    /// `covariance`, or the ditetrahedron frame) if there is one, else `method`'s fit through
    /// [`fit::obb`] (its fallback for zero area or collinear extremes, and for coordinates at
    /// the ends of the range).
    fn fit_frame_or(
        triangles: &[[Point; 3]],
        method: ObbFit,
        covariance: impl FnOnce() -> Option<Matrix3<f64>>,
    ) -> Self {
        let points = triangles.as_flattened();
        let covariance_frame = || covariance().map(|c| fit::covariance::eigen_frame(&c));
        let frame = match method {
            ObbFit::TriangleCovariance => covariance_frame(),
            ObbFit::Ditetrahedron if triangles.len() >= fit::dito::MIN_TRIANGLES => {
                fit::dito::dito_frame_sampled(points, 3)
            }
            ObbFit::Ditetrahedron => covariance_frame(),
            _ => None,
        };
        match frame {
            Some(axes) => Obb::from_frame(axes, points),
            None => {
                let points: Vec<Point> = triangles.iter().flatten().copied().collect();
                fit::obb(&points, Some(triangles), method)
            }
        }
    }

    /// [`Obb::from_axes`] in one pass over the points instead of two, for axes that are
    /// orthonormal to rounding (a fitted frame): the widening pass is replaced by padding each
    /// half-length with a bound on the rounding of `contains_point`'s arithmetic, so every point
    /// still satisfies `contains_point(p, 0.0)`, in boxes a few ulps of the coordinates larger.
    ///
    /// The bound (Higham, "Accuracy and Stability of Numerical Algorithms", §3.1: a 3-term dot
    /// product errs by at most `γ₃ Σ|aᵢ||bᵢ|`, `γₙ ≈ n ε`): the projections `axesᵀ p` of pass one,
    /// the centre `axes · mid`, and the re-projection `axesᵀ (p − centre)` each err by a few `ε`
    /// times `|p| + |centre|`, plus the axes' departure from orthonormality `δ = max|AᵀA − I|`
    /// times the same. `|p|₂ ≤ √3 max|l| (1 + δ)` for the pass-one projections `l`, so
    /// `(64 ε + 4 δ) · 2 (max|l| + |centre|)` covers them all with a wide margin. Axes with
    /// `δ > 1e-6` go through [`Obb::from_axes`].
    fn from_frame<'a>(
        axes: Matrix3<f64>,
        points: impl IntoIterator<Item = &'a Point> + Clone,
    ) -> Self {
        let delta = (axes.tr_mul(&axes) - Matrix3::identity()).amax();
        if delta.is_nan() || delta > 1e-6 {
            return Obb::from_axes(axes, points);
        }
        let (lo, hi) = extents_along(&axes, points);
        let center = Point::from(axes * ((lo + hi) * 0.5));
        let reach = lo.amax().max(hi.amax()) + center.coords.amax();
        let pad = (64.0 * f64::EPSILON + 4.0 * delta) * 2.0 * reach;
        Self {
            center,
            axes,
            half_extents: (hi - lo) * 0.5 + Vector::repeat(pad),
        }
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point; 8] {
        std::array::from_fn(|i| {
            let s = Vector::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            self.center + self.axes * s.component_mul(&self.half_extents)
        })
    }

    /// Absolute padding that covers the rounding of re-projecting corners (a few ulps of the
    /// largest coordinate involved).
    fn rounding_pad(&self) -> f64 {
        8.0 * f64::EPSILON * (self.center.coords.amax() + self.half_extents.sum())
    }
}

impl crate::BoundingVolume for Obb {
    type Method = ObbFit;

    fn fit_points(points: &[Point], method: ObbFit) -> Self {
        fit::obb(points, None, method)
    }

    /// The triangle covariance and ditetrahedron fits read the triangles in place (no copy of
    /// their vertices); the other methods, and their fallbacks, go through [`fit::obb`].
    fn fit_triangles(triangles: &[[Point; 3]], method: ObbFit) -> Self {
        Obb::fit_frame_or(triangles, method, || {
            fit::covariance::triangle_covariance(triangles)
        })
    }

    /// [`ObbFit::TriangleCovariance`] sums the precomputed moments instead of recomputing each
    /// triangle's area and second moment (bit for bit the same box); other methods ignore them.
    fn fit_triangles_with_moments(
        triangles: &[[Point; 3]],
        moments: &[TriangleMoments],
        method: ObbFit,
    ) -> Self {
        Obb::fit_frame_or(triangles, method, || {
            fit::covariance::moments_covariance(moments)
        })
    }

    /// A box containing both boxes: candidates are the two input frames and the frame halfway
    /// between them (the quaternion average of Eberly's box merge, as Gottschalk merges OBBTree
    /// nodes), each sized to the 16 corners; the smallest wins. The half-lengths are padded by a few
    /// ulps so that points inside either input stay inside despite rounding.
    fn merge(&self, other: &Self) -> Self {
        let q0 = UnitQuaternion::from_matrix(&self.axes);
        let mut q1 = UnitQuaternion::from_matrix(&other.axes);
        if q0.coords.dot(&q1.coords) < 0.0 {
            q1 = UnitQuaternion::new_unchecked(-q1.into_inner());
        }
        let mid = UnitQuaternion::new_normalize(q0.into_inner() + q1.into_inner());
        let corners: Vec<Point> = self.corners().into_iter().chain(other.corners()).collect();
        let mut best = [
            self.axes,
            other.axes,
            fit::covariance::orthonormalize(&mid.to_rotation_matrix().into_inner()),
        ]
        .into_iter()
        .map(|axes| Obb::from_axes(axes, &corners))
        .min_by(|a, b| {
            a.volume()
                .total_cmp(&b.volume())
                .then(a.surface_area().total_cmp(&b.surface_area()))
        })
        .expect("three candidates");
        best.half_extents
            .add_scalar_mut(self.rounding_pad().max(other.rounding_pad()));
        best
    }

    /// The moved box (an OBB stays an OBB): axes are re-orthonormalised after the rotation.
    fn transformed(&self, motion: &Pose) -> Self {
        let axes = fit::covariance::orthonormalize(&(motion.rotation() * self.axes));
        Self {
            center: motion.transform_point(&self.center),
            axes,
            half_extents: self.half_extents,
        }
    }

    /// `|axesᵀ (p - center)|_i <= half_extents_i + tolerance` on every axis.
    fn contains_point(&self, p: &Point, tolerance: f64) -> bool {
        let l = self.local(p);
        (0..3).all(|i| l[i].abs() <= self.half_extents[i] + tolerance)
    }

    fn volume(&self) -> f64 {
        8.0 * self.half_extents.product()
    }

    fn surface_area(&self) -> f64 {
        let h = self.half_extents;
        8.0 * (h.x * h.y + h.y * h.z + h.z * h.x)
    }

    fn center(&self) -> Point {
        self.center
    }

    /// The box's own axes, longest half-length first, ties in axis order (Gottschalk et al. 1996, §4).
    fn split_axes(&self) -> Option<[Vector; 3]> {
        let mut order = [0, 1, 2];
        order.sort_by(|&a, &b| self.half_extents[b].total_cmp(&self.half_extents[a]));
        Some(order.map(|i| self.axes.column(i).into_owned()))
    }

    /// The axes of the triangle covariance box (the default fit), whatever `method` fitted the
    /// stored box, in the order of the covariance's eigenvalues, largest first: the principal
    /// directions of the triangles' area are where a node's triangles spread, while a tighter box
    /// (e.g. [`ObbFit::MinVolume`]) may lie along any orientation of nearly equal volume (a round
    /// gear's box turns freely about its axis). Split along the tighter boxes' own axes, the gear
    /// set's collision query ran slower than with covariance boxes; split along the covariance
    /// axes, the tighter trees hold the same triangles per node as the default trees and their
    /// tighter boxes make queries faster. Taking the axes by variance rather than by the box's
    /// length along them (Gottschalk et al.'s longest side) also made queries a little faster
    /// (see `docs/performance.md`).
    fn split_axes_for(
        &self,
        triangles: &[[Point; 3]],
        moments: &[TriangleMoments],
        method: ObbFit,
    ) -> Option<[Vector; 3]> {
        // The default box's axes are the eigen frame itself when the triangles have area, so
        // another fit needs only the frame, not the box.
        let axes = match method {
            ObbFit::TriangleCovariance => self.axes,
            _ => match fit::covariance::moments_covariance(moments) {
                Some(c) => fit::covariance::eigen_frame(&c),
                None => {
                    Self::fit_triangles_with_moments(triangles, moments, ObbFit::TriangleCovariance)
                        .axes
                }
            },
        };
        Some(std::array::from_fn(|i| axes.column(i).into_owned()))
    }
}

/// The smallest and largest coordinates of `points` along the columns of `axes`.
///
/// The same numbers, bit for bit, as folding `axes.tr_mul(&p.coords)` with `inf`/`sup` (what
/// [`Obb::local`] computes: each coordinate is nalgebra's 3-term dot product
/// `(a₀p₀ + a₁p₁) + a₂p₂`, and nalgebra's min/max keep the left operand on ties), written out on
/// plain arrays for the finite coordinates of a validated mesh, where each min/max is one
/// instruction: the box fits of a hierarchy spend most of their time here. On a CPU with AVX2
/// (chosen at run time) a point's three coordinates are computed side by side, in the lanes of
/// one register; Rust does not fuse `a * b + c`, so both loops round alike.
fn extents_along<'a>(
    axes: &Matrix3<f64>,
    points: impl IntoIterator<Item = &'a Point>,
) -> (Vector, Vector) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[allow(unsafe_code)]
        // SAFETY: the CPU has AVX2, the one feature `extents_along_avx2` is compiled for.
        return unsafe { extents_along_avx2(axes, points) };
    }
    extents_along_portable(axes, points)
}

/// [`extents_along`] on a CPU with AVX2, chosen at run time: lane `i` of
/// `(x · by_coordinate[0] + y · by_coordinate[1]) + z · by_coordinate[2]` is the point's
/// coordinate along axis `i` (the fourth lane is unused), rounded as the portable loop's.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn extents_along_avx2<'a>(
    axes: &Matrix3<f64>,
    points: impl IntoIterator<Item = &'a Point>,
) -> (Vector, Vector) {
    use std::arch::x86_64::*;
    let by_coordinate: [__m256d; 3] =
        std::array::from_fn(|k| _mm256_set_pd(0.0, axes[(k, 2)], axes[(k, 1)], axes[(k, 0)]));
    let mut lo = _mm256_set1_pd(f64::INFINITY);
    let mut hi = _mm256_set1_pd(f64::NEG_INFINITY);
    for p in points {
        let xy = _mm256_add_pd(
            _mm256_mul_pd(_mm256_set1_pd(p.x), by_coordinate[0]),
            _mm256_mul_pd(_mm256_set1_pd(p.y), by_coordinate[1]),
        );
        let l = _mm256_add_pd(xy, _mm256_mul_pd(_mm256_set1_pd(p.z), by_coordinate[2]));
        // `vminpd l, lo` is `l < lo ? l : lo`, the portable loop's choice.
        lo = _mm256_min_pd(l, lo);
        hi = _mm256_max_pd(l, hi);
    }
    let ([lo0, lo1, lo2, _], [hi0, hi1, hi2, _]) =
        (crate::lanes::lanes(lo), crate::lanes::lanes(hi));
    (Vector::new(lo0, lo1, lo2), Vector::new(hi0, hi1, hi2))
}

/// [`extents_along`]'s portable loop.
fn extents_along_portable<'a>(
    axes: &Matrix3<f64>,
    points: impl IntoIterator<Item = &'a Point>,
) -> (Vector, Vector) {
    let columns: [[f64; 3]; 3] = std::array::from_fn(|i| axes.column(i).into());
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        for i in 0..3 {
            let a = &columns[i];
            let l = a[0] * p.x + a[1] * p.y + a[2] * p.z;
            lo[i] = if l < lo[i] { l } else { lo[i] };
            hi[i] = if l > hi[i] { l } else { hi[i] };
        }
    }
    (Vector::from(lo), Vector::from(hi))
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::test_support::where_avx2;
    use proptest::prelude::*;

    proptest! {
        /// The AVX2 loop and the portable loop give the same extents, bit for bit, on points
        /// of any scale along any frame.
        #[test]
        fn extents_along_avx2_equal_the_portable_loop(
            raw in prop::collection::vec(prop::array::uniform3(-1.0e3..1.0e3f64), 1..40),
            scale in prop::sample::select(vec![1e-300, 1e-9, 1.0, 1e9, 1e300]),
            rotation in prop::array::uniform3(-3.0..3.0f64),
        ) {
            let points: Vec<Point> = raw.iter().map(|p| Point::from(Vector::from(*p) * scale)).collect();
            let axes = nalgebra::Rotation3::new(Vector::from(rotation)).into_inner();
            let portable = extents_along_portable(&axes, &points);
            #[allow(unsafe_code)]
            // SAFETY: `where_avx2` runs it only where the CPU has AVX2.
            if let Some(avx2) = where_avx2(|| unsafe { extents_along_avx2(&axes, &points) }) {
                prop_assert_eq!(avx2, portable);
            }
        }
    }
}
