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
    // Both arguments are at most 4 in size, so the plain root cannot overflow, and below
    // `4δ` an underflow changes nothing.
    let h = (det * det + den * den).sqrt();
    if h <= 4.0 * delta || (den < 0.0 && det.abs() <= 2.0 * delta) {
        return UNKNOWN;
    }
    let value = det.atan2(den) / PI / 2.0;
    Estimate {
        value,
        error: delta / h * (1.0 + 4.0 * f64::EPSILON) + 4.0 * f64::EPSILON,
    }
}

/// The moments of a cluster of triangles that give its share of the winding number at points
/// far from it: the centre `c`, a radius `r` of a ball about `c` holding every triangle, the
/// total area `A`, the area-weighted normal `N = Σ aₜ nₜ`, the first moment
/// `D = Σ aₜ nₜ (mₜ − c)ᵀ / r` and the second `Cᵢ = Σₜ nₜᵢ ∫ₜ (x − c)(x − c)ᵀ dA / r²`
/// (`aₜ`, `nₜ`, `mₜ` each triangle's area, unit normal and centroid; divided by powers of `r`
/// so that they stay within range at every scale).
///
/// Each triangle's share is `∫ₜ g(x) dA / 4π` with `g(x) = (x − q)·nₜ / |x − q|³`
/// `= −nₜ·∇G(x − q)`, `G(y) = 1/|y|`. Expanding `∇G` about `c` (`y = c − q`, `s = |y|`,
/// `ŷ = y/s`, `h = x − c`) to first order in `h` gives the cluster's share
/// `(N·ŷ / s² + r·(tr D − 3 ŷᵀ D ŷ) / s³) / 4π`; the second-order term of the expansion
/// (Barill, Dickson, Schmidt, Levin & Jacobson 2018, §3.2) adds
/// `−r²·(3 ŷ·w − 15 Σᵢ ŷᵢ ŷᵀCᵢŷ) / (2 s⁴) / 4π` with `wₖ = 2 Σᵢ (Cᵢ)ᵢₖ + tr Cₖ` (from
/// `∂³G/∂yᵢ∂yⱼ∂yₖ = (3(δᵢⱼyₖ + δᵢₖyⱼ + δⱼₖyᵢ) s² − 15 yᵢyⱼyₖ) / s⁷`).
///
/// The remainders: the `k`-th derivatives of `G` are bounded by `k!/|y|ᵏ⁺¹` (a directional
/// derivative is `k!·Pₖ(cos θ)/|y|ᵏ⁺¹` with the Legendre polynomial `|Pₖ| ≤ 1`, and a symmetric
/// form's largest value on unit vectors is taken on the diagonal, Banach 1938), so with `δ`
/// the least distance from `q` to the segment from `c` to a point `x` (at least `s − r`), the
/// first-order remainder of `x` is at most `½·3!·|h|²/δ⁴` and the second-order one
/// `⅙·4!·|h|³/δ⁵`. Over the cluster: `3·M / (4π δ⁴)` and `4·Q / (4π δ⁵)`, with the second
/// moment `M = Σₜ ∫ₜ |h|² dA = Σₜ aₜ (|mₜ − c|² + Σᵢ |vᵢ − mₜ|² / 12)` (the corners `vᵢ`; a
/// triangle's inertia about its centroid is `aₜ/12` times its corners', Ericson §3.3) and
/// `Q = Σₜ ρₜ ∫ₜ |h|² dA ≥ ∫ |h|³ dA` (`ρₜ` the farthest corner of triangle `t` from `c`). The
/// estimate with the smaller bound is reported.
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
    /// The cubic form `u ↦ Σᵢ uᵢ uᵀCᵢu` of the second moments `Cᵢ` by normal component
    /// `i`, as its ten coefficients on the monomials
    /// `[x³, y³, z³, x²y, x²z, xy², y²z, xz², yz², xyz]`.
    pub second_by_normal: [f64; 10],
    /// `w` of the second-order term (see the type's docs).
    pub trace_terms: Vector,
    /// The bound `Q / r³` on the third absolute moment over the cubed radius (at most
    /// `M / r²`).
    pub third: f64,
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
        let spread = |t: &[Point; 3], (a, _, _): &(f64, Vector, Point)| {
            let corners = t.map(|v| (v - center) / scale);
            (
                second_moment(*a, &corners),
                corners.iter().map(|d| d.norm()).fold(0.0, f64::max),
            )
        };
        let spreads: Vec<(Matrix3<f64>, f64)> = triangles
            .iter()
            .zip(&parts)
            .map(|(t, p)| spread(t, p))
            .collect();
        let second = spreads.iter().map(|(m, _)| m.trace()).sum::<f64>();
        let third = spreads.iter().map(|(m, rho)| m.trace() * rho).sum::<f64>();
        let by_normal: [Matrix3<f64>; 3] = std::array::from_fn(|i| {
            parts
                .iter()
                .zip(&spreads)
                .map(|((_, n, _), (m, _))| m * n[i])
                .sum()
        });
        let trace_terms = Vector::from_fn(|k, _| {
            2.0 * (0..3).map(|i| by_normal[i][(i, k)]).sum::<f64>() + by_normal[k].trace()
        });
        let pad = 1.0 + 1e-12;
        Self {
            center,
            radius,
            area,
            normal,
            first,
            second: second * pad,
            second_by_normal: cubic_coefficients(&by_normal),
            trace_terms,
            third: third * pad,
            count: triangles.len(),
        }
    }

    /// The cluster's share of the winding number at `q`, or `None` when `q` lies within
    /// twice the radius of the centre (where the expansion converges too slowly to be worth
    /// its bound). See the type's docs for the bound.
    pub fn winding(&self, q: &Point) -> Option<Estimate> {
        self.winding_beyond(q, 0.0)
    }

    /// [`Moments::winding`] given `reach`, a lower bound on the distance from `q` to a convex
    /// set holding the cluster's triangles (a box around them, say): the remainders are
    /// measured from the larger of it and `s − r`. Valid because each point's remainder needs
    /// only the distance `δ` from `q` to the segment from `c` to the point, and the segment
    /// lies in that set (`c`, the triangles' area-weighted centroid, is in their hull). `None`
    /// when that distance is at most `r`.
    pub fn winding_beyond(&self, q: &Point, reach: f64) -> Option<Estimate> {
        let y = self.center - q;
        let s = y.norm();
        let r = self.radius;
        // The centre's rounding may put it outside the hull by a few ulps of its coordinates.
        let gap = (s - r).max(reach - 1e-13 * self.center.coords.amax());
        if gap <= r || !s.is_finite() {
            return None;
        }
        let (inv_s, inv_gap) = (1.0 / s, 1.0 / gap);
        if !inv_gap.is_finite() {
            return None;
        }
        let (r_s, r_gap) = (r * inv_s, r * inv_gap);
        let unit = y * inv_s;
        let near = self.normal.dot(&unit) * inv_s * inv_s;
        let dipole = self.first.trace() - 3.0 * unit.dot(&(self.first * unit));
        let first_order = near + dipole * inv_s * inv_s * r_s;
        let cubic = cubic_form(&self.second_by_normal, &unit);
        let quadrupole = 3.0 * self.trace_terms.dot(&unit) - 15.0 * cubic;
        let second_order = first_order - 0.5 * quadrupole * inv_s * inv_s * r_s * r_s;
        let first_remainder = 3.0 * self.second * inv_gap * inv_gap * r_gap * r_gap;
        let second_remainder = 4.0 * self.third * inv_gap * inv_gap * r_gap * r_gap * r_gap;
        let (value, remainder) = if second_remainder < first_remainder {
            (second_order, second_remainder)
        } else {
            (first_order, first_remainder)
        };
        let magnitude = self.area * inv_s * inv_s * (1.0 + 4.0 * r_s + 40.0 * r_s * r_s);
        let rounding = (self.count as f64 + 64.0) * 4.0 * f64::EPSILON * magnitude;
        Some(Estimate {
            value: value / (4.0 * PI),
            error: (remainder + rounding) / (4.0 * PI),
        })
    }
}

/// `∫ₜ (x − c)(x − c)ᵀ dA` of a triangle of area `area` with corners `corners` (taken from
/// `c`): `area/12 · (Σᵢ dᵢdᵢᵀ + (Σᵢ dᵢ)(Σᵢ dᵢ)ᵀ)`, the covariance of a triangle (Eberly,
/// "Dynamic Collision Detection using Oriented Bounding Boxes", 2008; Ericson §4.4.3).
fn second_moment(area: f64, corners: &[Vector; 3]) -> Matrix3<f64> {
    let sum: Vector = corners.iter().sum();
    let outer: Matrix3<f64> = corners.iter().map(|d| d * d.transpose()).sum();
    (outer + sum * sum.transpose()) * (area / 12.0)
}

/// The coefficients of `u ↦ Σᵢⱼₖ (Cᵢ)ⱼₖ uᵢuⱼuₖ` (each `Cᵢ` symmetric) on the monomials
/// `[x³, y³, z³, x²y, x²z, xy², y²z, xz², yz², xyz]`: each sums the entries whose indices are
/// a permutation of the monomial's.
fn cubic_coefficients(c: &[Matrix3<f64>; 3]) -> [f64; 10] {
    [
        c[0][(0, 0)],
        c[1][(1, 1)],
        c[2][(2, 2)],
        2.0 * c[0][(0, 1)] + c[1][(0, 0)],
        2.0 * c[0][(0, 2)] + c[2][(0, 0)],
        c[0][(1, 1)] + 2.0 * c[1][(0, 1)],
        2.0 * c[1][(1, 2)] + c[2][(1, 1)],
        c[0][(2, 2)] + 2.0 * c[2][(0, 2)],
        c[1][(2, 2)] + 2.0 * c[2][(1, 2)],
        2.0 * (c[0][(1, 2)] + c[1][(0, 2)] + c[2][(0, 1)]),
    ]
}

/// The cubic form with coefficients `k` ([`cubic_coefficients`]) at `u`.
fn cubic_form(k: &[f64; 10], u: &Vector) -> f64 {
    let (x, y, z) = (u.x, u.y, u.z);
    x * (k[0] * x * x + k[3] * x * y + k[4] * x * z + k[5] * y * y + k[7] * z * z + k[9] * y * z)
        + y * (k[1] * y * y + k[6] * y * z + k[8] * z * z)
        + k[2] * z * z * z
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

    /// An open patch of a paraboloid over `[−1, 1]²`, `k` squares a side, two triangles each.
    fn curved_patch(k: usize) -> Vec<[Point; 3]> {
        let at = |i: usize, j: usize| {
            let (x, y) = (
                2.0 * i as f64 / k as f64 - 1.0,
                2.0 * j as f64 / k as f64 - 1.0,
            );
            Point::new(x, y, 0.4 * x * x + 0.1 * y * y + 0.3 * x * y)
        };
        (0..k)
            .flat_map(|i| (0..k).map(move |j| (i, j)))
            .flat_map(|(i, j)| {
                [
                    [at(i, j), at(i + 1, j), at(i + 1, j + 1)],
                    [at(i, j), at(i + 1, j + 1), at(i, j + 1)],
                ]
            })
            .collect()
    }

    /// Directions spread over the sphere (a Fibonacci lattice).
    fn directions(n: usize) -> Vec<Vector> {
        let golden = PI * (3.0 - 5f64.sqrt());
        (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let (sin, cos) = (golden * i as f64).sin_cos();
                let ring = (1.0 - z * z).sqrt();
                Vector::new(ring * cos, ring * sin, z)
            })
            .collect()
    }

    #[test]
    fn the_second_order_term_holds_its_bound_and_beats_the_first_orders() {
        let patch = curved_patch(6);
        let moments = Moments::of(&patch);
        let r = moments.radius;
        let mut second_order_chosen = 0;
        // Near, where the bound is loose, and far, where it is far below the second-order
        // term's coefficients' shares (so a wrong one falls outside it).
        let radii = [2.2, 3.7, 5.2, 6.7, 8.2, 9.7, 60.0, 120.0];
        for (k, u) in directions(80).iter().enumerate() {
            let distance = r * radii[k % radii.len()];
            let q = moments.center + u * distance;
            let estimate = moments.winding(&q).expect("beyond twice the radius");
            let exact = direct(&q, &patch);
            let off = (estimate.value - exact.value).abs();
            assert!(
                off <= estimate.error + exact.error,
                "{q:?}: {estimate:?} {exact:?}"
            );
            // The first-order remainder alone, the bound before the second-order term.
            let gap = distance - r;
            let first_remainder =
                3.0 * moments.second / gap.powi(2) * (r / gap).powi(2) / (4.0 * PI);
            if estimate.error < first_remainder {
                second_order_chosen += 1;
                // Far out the second-order term is larger than its remainder, so a wrong
                // term would fall outside the bound.
                assert!(
                    off < first_remainder / 4.0,
                    "{q:?}: {off} {first_remainder}"
                );
            }
        }
        assert!(second_order_chosen > 50, "{second_order_chosen}");
    }

    #[test]
    fn a_box_beside_a_flat_cluster_lets_it_be_expanded_nearer_than_its_ball() {
        // A flat strip along x, of radius about 2: a point 2.5 above it lies within twice
        // the radius of the centre, but 2.5 from the strip's box, beyond the radius.
        let strip: Vec<[Point; 3]> = (0..8)
            .flat_map(|i| {
                let x = i as f64 * 0.5 - 2.0;
                let p = |dx: f64, y: f64| Point::new(x + dx, y, 0.0);
                [
                    [p(0.0, -0.1), p(0.5, -0.1), p(0.5, 0.1)],
                    [p(0.0, -0.1), p(0.5, 0.1), p(0.0, 0.1)],
                ]
            })
            .collect();
        let moments = Moments::of(&strip);
        let q = Point::new(0.3, 0.2, 2.5);
        assert_eq!(
            moments.winding(&q),
            None,
            "within twice the radius of the centre"
        );
        // The distance from q to the strip's box [−2, 2] × [−0.1, 0.1] × {0}.
        let reach = (0.1f64.powi(2) + 2.5f64.powi(2)).sqrt();
        let estimate = moments.winding_beyond(&q, reach).expect("clear of the box");
        let exact = direct(&q, &strip);
        assert!((estimate.value - exact.value).abs() <= estimate.error + exact.error);
        assert!(estimate.error < 0.5, "{estimate:?}");
        // A reach nearer than the radius changes nothing.
        assert_eq!(moments.winding_beyond(&q, 1.0), None);
    }

    /// `∫ₜ |x − c|² dA` by the edge-midpoint rule (exact for quadratics), and the farthest
    /// corner from `c`.
    fn inertia_and_reach(t: &[Point; 3], c: &Point) -> (f64, f64) {
        let area = (t[1] - t[0]).cross(&(t[2] - t[0])).norm() / 2.0;
        let mid =
            |i: usize, j: usize| ((t[i].coords + t[j].coords) / 2.0 - c.coords).norm_squared();
        let reach = t.iter().map(|v| (v - c).norm()).fold(0.0, f64::max);
        (area / 3.0 * (mid(0, 1) + mid(1, 2) + mid(2, 0)), reach)
    }

    #[test]
    fn the_reported_bound_is_the_smaller_remainder_from_the_larger_gap() {
        // A curved patch, where the second-order remainder is the smaller, and two small
        // triangles far apart, whose mass at the rim makes the first-order one the smaller
        // just beyond twice the radius.
        let small = |x: f64| {
            [
                Point::new(x, 0.0, 0.0),
                Point::new(x + 0.01, 0.0, 0.0),
                Point::new(x, 0.01, 0.01),
            ]
        };
        let mut chosen = [0, 0];
        for (cluster, start, step) in [
            (curved_patch(4), 2.5, 1.0),
            (vec![small(-1.0), small(1.0)], 2.02, 0.02),
        ] {
            chosen = add(chosen, check_reported_bound(&cluster, start, step));
        }
        assert!(chosen[0] > 0 && chosen[1] > 0, "{chosen:?}");
    }

    fn add(a: [usize; 2], b: [usize; 2]) -> [usize; 2] {
        [a[0] + b[0], a[1] + b[1]]
    }

    /// Checks the bound from points `start`, `start + step`, … radii from the centre, and
    /// counts the points where each remainder was the smaller.
    fn check_reported_bound(patch: &[[Point; 3]], start: f64, step: f64) -> [usize; 2] {
        let mut chosen = [0, 0];
        let moments = Moments::of(patch);
        let (c, r) = (moments.center, moments.radius);
        let parts: Vec<(f64, f64)> = patch.iter().map(|t| inertia_and_reach(t, &c)).collect();
        let second: f64 = parts.iter().map(|(m, _)| m).sum();
        let third: f64 = parts.iter().map(|(m, rho)| m * rho).sum();
        let area: f64 = patch
            .iter()
            .map(|t| (t[1] - t[0]).cross(&(t[2] - t[0])).norm() / 2.0)
            .sum();
        let weighted: Vector = patch
            .iter()
            .map(|t| {
                let a = (t[1] - t[0]).cross(&(t[2] - t[0])).norm() / 2.0;
                (t[0].coords + t[1].coords + t[2].coords) * (a / 3.0)
            })
            .sum();
        assert!(
            (c.coords - weighted / area).norm() < 1e-14,
            "the area-weighted centroid"
        );
        for (k, u) in directions(12).iter().enumerate() {
            let s = r * (start + k as f64 * step);
            let q = c + u * s;
            // The gap from the ball, then from a box farther out than the ball's surface.
            for reach in [0.0, (s - r) * 1.3] {
                let gap = (s - r).max(reach);
                let first = 3.0 * second / gap.powi(4);
                let second_order = 4.0 * third / gap.powi(5);
                chosen[usize::from(second_order < first)] += 1;
                let expected = first.min(second_order) / (4.0 * PI);
                let error = moments.winding_beyond(&q, reach).unwrap().error;
                assert!(
                    error >= expected * (1.0 - 1e-13) && error <= expected * (1.0 + 1e-6),
                    "{q:?} {reach}: {error} against {expected}"
                );
            }
        }
        chosen
    }

    #[test]
    fn a_triangle_reports_the_rounding_of_its_angle_and_a_flat_cluster_nothing() {
        let t = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 1.0, 0.0),
        ];
        let q = Point::new(0.3, 0.2, 0.5);
        let unit = |v: &Point| (v - q).normalize();
        let (a, b, c) = (unit(&t[0]), unit(&t[1]), unit(&t[2]));
        let det = a.dot(&b.cross(&c));
        let den = 1.0 + a.dot(&b) + b.dot(&c) + c.dot(&a);
        let expected = UNIT_ROUNDING / det.hypot(den) + 4.0 * f64::EPSILON;
        let error = triangle_winding(&q, &t).error;
        assert!(
            (error - expected).abs() <= 1e-12 * expected,
            "{error} against {expected}"
        );
        // Triangles of no area wind nothing, and are still estimated far away.
        let flat = [[t[0], t[1], Point::new(2.0, 0.0, 0.0)]; 3];
        let estimate = Moments::of(&flat).winding(&Point::new(0.0, 0.0, 50.0));
        assert_eq!(estimate.map(|e| e.value), Some(0.0));
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
