//! Winding numbers of triangles seen from a point, each with a rigorous bound on its error: the
//! exact solid angle of one triangle, and a cluster of triangles summed by a Taylor expansion
//! about its centre.
//!
//! The generalized winding number of a triangle soup at `q` is the sum of its triangles' signed
//! solid angles over `4π` (Jacobson, Kavan & Sorkine-Hornung, "Robust inside-outside
//! segmentation using generalized winding numbers", SIGGRAPH 2013): an integer off the surface
//! of a closed, consistently oriented mesh (the number of times it wraps `q`), and a smooth
//! measure of "insideness" for an open one. Positive inside a mesh whose normals (right-handed
//! order of each triangle's corners) face out.
//!
//! * [`triangle_winding`]: one triangle's share, `atan2` of Van Oosterom & Strackee's formula
//!   ("The solid angle of a plane triangle", IEEE Trans. Biomed. Eng. 1983) on the unit
//!   vectors to the corners, so it is scale free.
//! * [`Moments`]: a far cluster's share from its area-weighted normal and first moment, the
//!   expansion of Barill, Dickson, Schmidt, Levin & Jacobson ("Fast winding numbers for soups
//!   and clouds", SIGGRAPH 2018) to second order, with the Taylor remainder bounded.

use crate::{Point, Vector};
use nalgebra::Matrix3;
use std::f64::consts::PI;

/// A share of a winding number and a bound on its error: the exact share lies within
/// `value ± error`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// The share: a solid angle over `4π`.
    pub value: f64,
    /// A bound on `|value − exact share|`.
    pub error: f64,
}

/// The rounding allowed for one unit-vector quantity (the triple product or the denominator of
/// Van Oosterom & Strackee's formula on unit vectors, each within a few ulps of its exact
/// value): generous, so that the bound holds whatever the order of operations.
const UNIT_ROUNDING: f64 = 64.0 * f64::EPSILON;

/// Half a turn: the bound when the angle cannot be told (the share of any triangle lies in
/// `[−½, ½]`).
const UNKNOWN: Estimate = Estimate {
    value: 0.0,
    error: 0.5,
};

/// Triangle `t`'s share of the winding number at `q`: its signed solid angle seen from `q`
/// over `4π`, positive when `q` lies behind it (on the side its normal `(b − a) × (c − a)`
/// points away from). With `â, b̂, ĉ` the unit vectors from `q` to the corners, the solid angle is
/// `2·atan2(â·(b̂ × ĉ), 1 + â·b̂ + b̂·ĉ + ĉ·â)` (Van Oosterom & Strackee 1983).
///
/// The bound covers the rounding: each of the two arguments of `atan2` is within
/// `δ = 64 ε` of its exact value, so the angle is within `π·δ/h` of the exact one (`h`
/// the length of the argument vector). When `q` lies on the triangle or within rounding of
/// its plane inside it (where the angle jumps by a full turn), or on a corner, the share is
/// reported as `0 ± ½`, which always holds.
pub fn triangle_winding(q: &Point, t: &[Point; 3]) -> Estimate {
    let unit = |v: &Point| {
        let d = v - q;
        let n = d.norm();
        (n > 0.0 && n.is_finite()).then(|| d / n)
    };
    let (Some(a), Some(b), Some(c)) = (unit(&t[0]), unit(&t[1]), unit(&t[2])) else {
        return UNKNOWN;
    };
    let det = a.dot(&b.cross(&c));
    let den = 1.0 + a.dot(&b) + b.dot(&c) + c.dot(&a);
    let delta = UNIT_ROUNDING;
    let h = det.hypot(den);
    if h <= 4.0 * delta || (den < 0.0 && det.abs() <= 2.0 * delta) {
        return UNKNOWN;
    }
    let value = det.atan2(den) / PI / 2.0;
    Estimate {
        value,
        error: delta / h + 4.0 * f64::EPSILON,
    }
}

/// The moments of a cluster of triangles that give its share of the winding number at points
/// far from it: the centre `c`, a radius `r` of a ball about `c` holding every triangle, the
/// total area `A`, the area-weighted normal `N = Σ aₜ nₜ` and the first moment
/// `D = Σ aₜ nₜ (mₜ − c)ᵀ / r` (`aₜ`, `nₜ`, `mₜ` each triangle's area, unit normal and
/// centroid; divided by `r` so that it stays within range at every scale).
///
/// Each triangle's share is `∫ₜ g(x) dA / 4π` with `g(x) = (x − q)·nₜ / |x − q|³`. Expanding
/// `g` to first order about `c` (`y = c − q`, `s = |y|`, `ŷ = y/s`) gives Barill et al.'s
/// second-order term: the cluster's share is about
/// `(N·ŷ / s² + r·(tr D − 3 ŷᵀ D ŷ) / s³) / 4π`.
/// `g = −nₜ·∇(1/|x − q|)`, and the `k`-th derivatives of `1/|y|` are bounded by `k!/|y|ᵏ⁺¹`
/// (a directional derivative is `k!·Pₖ(cos θ)/|y|ᵏ⁺¹` with the Legendre polynomial
/// `|Pₖ| ≤ 1`), so the remainder of each point is at most `½·6·|x − c|²/(s − r)⁴` and the
/// cluster's at most `3·M / (4π (s − r)⁴)` for `s > r`, with the second moment
/// `M = Σₜ ∫ₜ |x − c|² dA = Σₜ aₜ (|mₜ − c|² + Σᵢ |vᵢ − mₜ|² / 12)` (the corners `vᵢ`; a
/// triangle's inertia about its centroid is `aₜ/12` times its corners', Ericson §3.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// The centre `c` (the area-weighted centroid).
    pub center: Point,
    /// The radius `r` of a ball about the centre that holds every triangle (padded for the
    /// rounding of its computation).
    pub radius: f64,
    /// The total area `A`.
    pub area: f64,
    /// The area-weighted normal `N`.
    pub normal: Vector,
    /// The first moment over the radius, `D`.
    pub first: Matrix3<f64>,
    /// The second moment over the squared radius, `M / r²` (at most `A`).
    pub second: f64,
    /// How many triangles the cluster holds (which bounds the rounding of its sums).
    pub count: usize,
}

impl Moments {
    /// The moments of `triangles` (not empty). Zero-area triangles add nothing.
    pub fn of(triangles: &[[Point; 3]]) -> Self {
        let parts: Vec<(f64, Vector, Point)> = triangles.iter().map(area_normal_centroid).collect();
        let area: f64 = parts.iter().map(|(a, _, _)| a).sum();
        let center = if area > 0.0 {
            Point::from(
                parts
                    .iter()
                    .map(|(a, _, m)| m.coords * (a / area))
                    .sum::<Vector>(),
            )
        } else {
            triangles[0][0]
        };
        let reach = triangles
            .iter()
            .flatten()
            .map(|v| (v - center).norm())
            .fold(0.0, f64::max);
        let radius = reach * (1.0 + 1e-12) + 1e-13 * center.coords.amax();
        let normal = parts.iter().map(|(a, n, _)| n * *a).sum();
        let scale = if radius > 0.0 { radius } else { 1.0 };
        let first = parts
            .iter()
            .map(|(a, n, m)| (n * *a) * ((m - center) / scale).transpose())
            .sum();
        let inertia = |t: &[Point; 3], (a, _, m): &(f64, Vector, Point)| {
            let spread: f64 = t.iter().map(|v| ((v - m) / scale).norm_squared()).sum();
            a * (((m - center) / scale).norm_squared() + spread / 12.0)
        };
        let second = triangles
            .iter()
            .zip(&parts)
            .map(|(t, p)| inertia(t, p))
            .sum::<f64>();
        Self {
            center,
            radius,
            area,
            normal,
            first,
            second: second * (1.0 + 1e-12),
            count: triangles.len(),
        }
    }

    /// The cluster's share of the winding number at `q`, or `None` when `q` lies within
    /// twice the radius of the centre (where the expansion converges too slowly to be worth
    /// its bound). See the type's docs for the bound.
    pub fn winding(&self, q: &Point) -> Option<Estimate> {
        let y = self.center - q;
        let s = y.norm();
        let r = self.radius;
        if s <= 2.0 * r || !s.is_finite() {
            return None;
        }
        let unit = y / s;
        let near = (self.normal.dot(&unit) / s) / s;
        let dipole = self.first.trace() - 3.0 * unit.dot(&(self.first * unit));
        let far = ((dipole / s) / s) * (r / s);
        let value = (near + far) / (4.0 * PI);
        let gap = s - r;
        let remainder = 3.0 * (self.second / gap / gap) * (r / gap) * (r / gap) / (4.0 * PI);
        let magnitude = (self.area / s / s) * (1.0 + 4.0 * r / s) / (4.0 * PI);
        let rounding = (self.count as f64 + 64.0) * 4.0 * f64::EPSILON * magnitude;
        Some(Estimate {
            value,
            error: remainder + rounding,
        })
    }
}

/// A triangle's area, unit normal (zero for a zero-area triangle) and centroid.
fn area_normal_centroid(t: &[Point; 3]) -> (f64, Vector, Point) {
    let cross = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let twice = cross.norm();
    let normal = if twice > 0.0 {
        cross / twice
    } else {
        Vector::zeros()
    };
    let centroid = Point::from((t[0].coords + t[1].coords + t[2].coords) / 3.0);
    (twice / 2.0, normal, centroid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron() -> Vec<[Point; 3]> {
        let v = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 1.0, 0.0),
            Point::new(0.0, 0.0, 1.0),
        ];
        [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
            .iter()
            .map(|f| f.map(|i| v[i]))
            .collect()
    }

    fn direct(q: &Point, triangles: &[[Point; 3]]) -> Estimate {
        triangles
            .iter()
            .map(|t| triangle_winding(q, t))
            .fold(Estimate::default(), |s, e| Estimate {
                value: s.value + e.value,
                error: s.error + e.error,
            })
    }

    #[test]
    fn a_closed_tetrahedron_winds_once_around_inner_points_and_never_around_outer_ones() {
        let tet = tetrahedron();
        let inside = direct(&Point::new(0.1, 0.2, 0.3), &tet);
        let outside = direct(&Point::new(1.0, 1.0, 1.0), &tet);
        assert!((inside.value - 1.0).abs() < 1e-14 && inside.error < 1e-12);
        assert!(outside.value.abs() < 1e-14 && outside.error < 1e-12);
    }

    #[test]
    fn a_point_on_a_face_or_corner_gets_half_a_turn_of_doubt_from_that_triangle() {
        let tet = tetrahedron();
        let on_face = triangle_winding(&Point::new(0.2, 0.2, 0.0), &tet[0]);
        let on_corner = triangle_winding(&Point::new(0.0, 0.0, 0.0), &tet[0]);
        assert_eq!((on_face, on_corner), (UNKNOWN, UNKNOWN));
        let beside = triangle_winding(&Point::new(0.2, 0.2, 0.0), &tet[3]);
        assert!(beside.error < 1e-12);
    }

    #[test]
    fn the_expansion_of_a_far_cluster_is_within_its_bound_and_refused_near_it() {
        let tet = tetrahedron();
        // Without the face on the far side the cluster is open and its share is not 0.
        let open = &tet[..3];
        let moments = Moments::of(open);
        for q in [
            Point::new(3.0, 2.0, 2.5),
            Point::new(-4.0, 0.5, 1.0),
            Point::new(0.3, 0.3, 9.0),
        ] {
            let approx = moments.winding(&q).expect("far enough");
            let exact = direct(&q, open);
            assert!((approx.value - exact.value).abs() <= approx.error + exact.error);
            // Within its bound, and nearer the share than 0 is.
            assert!(approx.error < 0.05, "{q:?}: {approx:?}");
            let off = (approx.value - exact.value).abs();
            assert!(
                off < exact.value.abs() / 10.0,
                "{q:?}: {approx:?} {exact:?}"
            );
        }
        assert_eq!(moments.winding(&Point::new(0.2, 0.2, 0.2)), None);
    }
}
