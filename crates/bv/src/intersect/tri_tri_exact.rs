//! Exact triangle–triangle intersection on orientation predicates.
//!
//! The answer is the exact one for the triangles given by their `f64` vertices, as closed sets:
//! touching at a vertex or along an edge counts, coplanar triangles are decided exactly in 2D, and
//! zero-area triangles are treated as the segment or point they are. Only signs of Shewchuk's
//! adaptive `orient3d` / `orient2d` (the `robust` crate) decide; no tolerance is involved.
//!
//! Exactness needs that no operation over- or underflows, which holds on the exact range of
//! [`range`](crate::range): every coordinate a multiple of `2⁻³⁰⁶` (every `f64` of magnitude at
//! least `2⁻²⁵⁴ ≈ 3.5e-77` is) and at most `2³³⁹ ≈ 1.1e102` in magnitude, which contains
//! [`TriMesh`](crate::TriMesh)'s range `1e-70 ..= 1e100`. In short: every quantity formed below
//! is a polynomial of degree at most 3 in the coordinates, so its nonzero values are multiples
//! of `2⁻⁹¹⁸` (far above the smallest normal `f64` even after the adaptive stages' error
//! factors of `2⁻¹⁰²`) and its magnitudes stay below `3 · 2 · (2³⁴⁰)³ = 1.5 · 2¹⁰²²`. Placed
//! coordinates (mesh B moved into A's frame) are checked by
//! [`range::placed_in_exact_range`](crate::range::placed_in_exact_range). Outside the range the
//! answer can be wrong (the filter's bound and the adaptive stages' products underflow).
//!
//! # Method (Guigue & Devillers 2003, "Fast and robust triangle-triangle overlap test using
//! orientation predicates")
//!
//! 1. The sides of P's vertices against Q's plane; all strictly on one side: disjoint. Then the
//!    sides of Q's vertices against P's plane. These six signs go through a semi-static float
//!    filter (Shewchuk's orient3d error bound applied to a plane normal computed once per
//!    triangle) and fall back to the exact predicate only when the filter cannot decide.
//! 2. Both triangles cross the other's plane and are not coplanar: rotate P so `p0` is alone on
//!    its side of Q's plane (and likewise Q), flipping the other triangle's orientation so that
//!    the lone vertices lie on the positive sides. Each triangle then meets the common line of
//!    the two planes in an interval whose ends lie on the edges `p0p1`, `p0p2` (`q0q1`, `q0q2`),
//!    and the intervals overlap iff `orient3d(p0, p1, q0, q1) >= 0` and
//!    `orient3d(p0, p2, q2, q0) >= 0` (Shewchuk's sign convention; "positive side" meaning
//!    `(x - v0)·((v1 - v0) × (v2 - v0)) > 0`): two more predicates. Each compares where the
//!    lines `p0p1` and `q0q1` (resp. `p0p2`, `q0q2`) cross the common line, and is zero exactly
//!    when they cross it at the same point, so touching configurations are decided exactly.
//! 3. Otherwise (coplanar triangles, or a zero-area triangle): reduce to segment–triangle and
//!    segment–segment tests, decided in the coordinate plane that the common plane projects onto
//!    without collapsing (a coordinate drop, which is exact).

use crate::predicates::{orient2d as orient_2d, orient3d as orient};
use crate::{Point, Triangle, Vector};
use robust::{orient2d, Coord};

/// Whether the closed triangles `p` and `q` share a point (exactly; see the module docs).
pub fn intersects(p: &Triangle, q: &Triangle) -> bool {
    intersects_prepared(&Prepared::new(p), &Prepared::new(q))
}

/// [`intersects`] on triangles whose planes were computed beforehand: a caller that tests one
/// triangle against many (the leaf test of mesh–mesh collision) prepares each triangle once.
#[inline]
pub fn intersects_prepared(p: &Prepared, q: &Prepared) -> bool {
    let (pv, qv) = (&p.v, &q.v);
    let s = q.sides(pv);
    if one_side(s) {
        return false;
    }
    let t = p.sides(qv);
    if one_side(t) {
        return false;
    }
    if s == [0; 3] || t == [0; 3] {
        return flat(pv, qv);
    }
    crossing(pv, s, qv, t)
}

/// Whether the triangle has zero area (collinear or coincident vertices), exactly.
pub(crate) fn is_degenerate(v: &[Point; 3]) -> bool {
    normal_axis(v).is_none()
}

/// Exact sides of `q`'s vertices against `p`'s plane (see [`Prepared::side`]).
pub(crate) fn plane_sides(p: &[Point; 3], q: &[Point; 3]) -> [i8; 3] {
    Prepared::of_vertices(*p).sides(q)
}

/// A triangle with its plane and what the filtered side test needs (step 1 of the module
/// docs), computed once per triangle: the input of [`intersects_prepared`]. 104 bytes: the
/// collision leaf test keeps one per triangle of each mesh.
#[derive(Clone, Copy, Debug)]
pub struct Prepared {
    /// The triangle's vertices.
    v: [Point; 3],
    /// `(v1 - v0) × (v2 - v0)` in floating point.
    n: Vector,
    /// `2 max|v1 - v0| max|v2 - v0|` (largest components): at least each component of the
    /// permanent `|e_j f_k| + |e_k f_j|` of `n`, so one number stands for the three.
    scale: f64,
}

/// Shewchuk's orient3d error bound (`7ε + 56ε²` with `ε = 2⁻⁵³`), rounded up to `8ε`.
const ORIENT3D_FILTER: f64 = 4.0 * f64::EPSILON;

impl Prepared {
    /// The triangle `t` with its plane.
    #[inline]
    pub fn new(t: &Triangle) -> Self {
        Self::of_vertices(t.vertices())
    }

    /// The triangle with vertices `v` with its plane.
    #[inline]
    fn of_vertices(v: [Point; 3]) -> Self {
        let (e, f) = (v[1] - v[0], v[2] - v[0]);
        let n = Vector::new(
            e.y * f.z - e.z * f.y,
            e.z * f.x - e.x * f.z,
            e.x * f.y - e.y * f.x,
        );
        let scale = 2.0 * e.amax() * f.amax();
        Self { v, n, scale }
    }

    /// The triangle's vertices.
    pub fn vertices(&self) -> &[Point; 3] {
        &self.v
    }

    /// `(p - v0)·((v1 - v0) × (v2 - v0))` in floating point and the bound on its error.
    ///
    /// The float value is the orient3d determinant expanded along `p`'s row, which has the same
    /// operation structure as Shewchuk's expansion, so his bound on its error applies: `7ε`
    /// times the permanent `Σ |w_i| (|e_j f_k| + |e_k f_j|)`, here replaced by the larger
    /// `|w|₁ · scale` (whose own rounding, a few ulps, the `8ε` constant's margin over `7ε`
    /// covers). The looser bound can send a few more near-plane points to the exact predicate;
    /// in exchange a prepared triangle is 16 bytes smaller, in each of the collision leaf
    /// test's per-triangle arrays, at no measurable cost in time (see `docs/performance.md`).
    /// Written out on scalars (`w·n` summed left to right, as nalgebra's `dot` does): the
    /// nalgebra expression compiled to more instructions in the collision leaf test.
    #[inline(always)]
    fn filtered(&self, p: &Point) -> (f64, f64) {
        let (o, n) = (&self.v[0], &self.n);
        let w = [p.x - o.x, p.y - o.y, p.z - o.z];
        let det = w[0] * n.x + w[1] * n.y + w[2] * n.z;
        let magnitude = (w[0].abs() + w[1].abs() + w[2].abs()) * self.scale;
        (det, ORIENT3D_FILTER * magnitude)
    }

    /// Whether the float filter alone puts every vertex of `q` strictly on one side of this
    /// triangle's plane, which proves the closed triangles disjoint (step 1 of the module docs);
    /// `false` whenever it cannot tell. Branch-free, so that a caller can screen a run of pairs
    /// into a mask before the exact test ([`intersects_prepared`] decides the same pairs the same
    /// way, with branches).
    #[inline(always)]
    pub fn plane_separates(&self, q: &Prepared) -> bool {
        let (mut above, mut below) = (true, true);
        for p in &q.v {
            let (det, bound) = self.filtered(p);
            above &= det > bound;
            below &= det < -bound;
        }
        above | below
    }

    /// Sign of `(p - v0)·((v1 - v0) × (v2 - v0))`: positive on the side the normal points to.
    #[inline]
    fn side(&self, p: &Point) -> i8 {
        let (det, bound) = self.filtered(p);
        if det > bound {
            1
        } else if det < -bound {
            -1
        } else {
            self.undecided(p, bound)
        }
    }

    /// [`Prepared::side`] where the filter cannot decide (rare: kept out of line).
    #[cold]
    #[inline(never)]
    fn undecided(&self, p: &Point, bound: f64) -> i8 {
        if bound == 0.0 {
            // Every product in the determinant is zero, hence exactly zero (no underflow
            // assumed): e.g. a vertex on an axis-aligned plane. Skips the adaptive predicate.
            0
        } else {
            side(&self.v, p)
        }
    }

    /// [`Prepared::side`] of three points. The filtered signs are formed and combined without a
    /// branch per point (which side a vertex lies on is hard to predict); only when the filter
    /// leaves one undecided (rare) do all three go through [`Prepared::side`]. This trades a
    /// few more instructions for fewer mispredicted branches; it pays where the vertices' sides
    /// are hard to predict (see `docs/performance.md`).
    #[inline(always)]
    fn sides(&self, p: &[Point; 3]) -> [i8; 3] {
        let sign = |p: &Point| {
            let (det, bound) = self.filtered(p);
            (det > bound, det < -bound)
        };
        let signs = [sign(&p[0]), sign(&p[1]), sign(&p[2])];
        if signs
            .iter()
            .fold(true, |all, &(pos, neg)| all & (pos | neg))
        {
            signs.map(|(pos, neg)| i8::from(pos) - i8::from(neg))
        } else {
            self.sides_undecided(p)
        }
    }

    /// [`Prepared::sides`] when the filter leaves a point undecided (rare: kept out of line).
    #[cold]
    #[inline(never)]
    fn sides_undecided(&self, p: &[Point; 3]) -> [i8; 3] {
        [self.side(&p[0]), self.side(&p[1]), self.side(&p[2])]
    }
}

/// Exact version of [`Prepared::side`]: `orient3d(v0, v1, v2, p)` has the opposite sign.
fn side(v: &[Point; 3], p: &Point) -> i8 {
    -orient(&v[0], &v[1], &v[2], p)
}

/// All three strictly on the same side (signs in `{-1, 0, 1}`: their sum is ±3).
fn one_side(s: [i8; 3]) -> bool {
    (s[0] + s[1] + s[2]).abs() == 3
}

/// Rotation `r` of a triangle (vertex `r` first) that leaves its first vertex alone on its side of
/// the other plane, and whether the other triangle must be flipped so that this vertex's side is
/// the positive one. `s` is neither all zero nor all one strict sign.
///
/// Lone vertex: strictly on one side with the others on the other side or on the plane, else
/// (two vertices strictly on one side, one on the plane) the one on the plane, which then counts
/// as being on the side opposite to the other two.
pub(crate) fn canonical(s: [i8; 3]) -> (usize, bool) {
    let at = |i: usize| (s[i], s[(i + 1) % 3], s[(i + 2) % 3]);
    if let Some(r) = (0..3).find(|&i| {
        let (x, y, z) = at(i);
        x != 0 && y != x && z != x
    }) {
        return (r, s[r] < 0);
    }
    let r = (0..3)
        .find(|&i| at(i).0 == 0)
        .expect("two strict signs and a zero");
    (r, s[(r + 1) % 3] > 0)
}

/// The vertex order `[r, r + 1, r + 2]` (mod 3), or `[r, r + 2, r + 1]` when `flip`.
fn order(r: usize, flip: bool) -> [usize; 3] {
    let (next, last) = ((r + 1) % 3, (r + 2) % 3);
    if flip {
        [r, last, next]
    } else {
        [r, next, last]
    }
}

/// Step 2 of the module docs: non-coplanar, non-degenerate triangles that both cross the other's
/// plane. The rotations and flips pick vertices by index (no copies of the triangles); both
/// predicates are evaluated, without a branch between them.
fn crossing(p: &[Point; 3], s: [i8; 3], q: &[Point; 3], t: [i8; 3]) -> bool {
    let (rp, flip_q) = canonical(s);
    // Q flipped (vertices 1 and 2 swapped) when P's lone vertex is on the negative side.
    let flipped = if flip_q { [0, 2, 1] } else { [0, 1, 2] };
    let (rq, flip_p) = canonical(flipped.map(|i| t[i]));
    let pi = order(rp, flip_p);
    let qi = order(rq, false).map(|k| flipped[k]);
    let (p0, p1, p2) = (&p[pi[0]], &p[pi[1]], &p[pi[2]]);
    let (q0, q1, q2) = (&q[qi[0]], &q[qi[1]], &q[qi[2]]);
    (orient(p0, p1, q0, q1) >= 0) & (orient(p0, p2, q2, q0) >= 0)
}

/// Step 3 of the module docs: coplanar or zero-area triangles (or both).
fn flat(p: &[Point; 3], q: &[Point; 3]) -> bool {
    match (normal_axis(p), normal_axis(q)) {
        // Both proper, hence coplanar (otherwise step 1 or 2 would have decided).
        (Some(k), Some(_)) => hulls_meet_2d(p, q, k),
        (Some(k), None) => edges(q).iter().any(|e| segment_meets_triangle(e, p, k)),
        (None, Some(k)) => edges(p).iter().any(|e| segment_meets_triangle(e, q, k)),
        (None, None) => edges(p)
            .iter()
            .any(|e| edges(q).iter().any(|f| segments_meet(e, f))),
    }
}

/// The coordinate whose drop projects the triangle's plane onto a coordinate plane without
/// collapsing it: the largest component of the normal, or `None` for a zero-area triangle.
/// The normal's components are the exact 2D orientations of the three projections.
fn normal_axis(v: &[Point; 3]) -> Option<usize> {
    let o = [0, 1, 2].map(|k| orient2d(c2(&v[0], k), c2(&v[1], k), c2(&v[2], k)).abs());
    (0..3)
        .filter(|&k| o[k] > 0.0)
        .max_by(|&i, &j| o[i].total_cmp(&o[j]))
}

/// The three edges of a triangle (for a zero-area one, their union is the triangle).
fn edges(v: &[Point; 3]) -> [[Point; 2]; 3] {
    [[v[0], v[1]], [v[1], v[2]], [v[2], v[0]]]
}

/// Closed segment against a proper closed triangle whose normal's axis `k` is nonzero.
fn segment_meets_triangle(e: &[Point; 2], tri: &[Point; 3], k: usize) -> bool {
    let (sa, sb) = (side(tri, &e[0]), side(tri, &e[1]));
    if sa * sb > 0 {
        return false;
    }
    if sa == 0 && sb == 0 {
        return hulls_meet_2d(e, tri, k);
    }
    // The segment's line crosses the plane at one point of the segment; it lies in the closed
    // triangle iff the line passes no edge on the outer side, i.e. the signs do not mix.
    let o = [0, 1, 2].map(|i| orient(&e[0], &e[1], &tri[i], &tri[(i + 1) % 3]));
    !(o.contains(&1) && o.contains(&-1))
}

/// Closed segments in space (possibly of zero length).
fn segments_meet(e: &[Point; 2], f: &[Point; 2]) -> bool {
    orient(&e[0], &e[1], &f[0], &f[1]) == 0
        && hulls_meet_2d(e, f, projection_axis(&[e[0], e[1], f[0], f[1]]))
}

/// For coplanar points, a coordinate whose drop keeps their affine hull from collapsing.
fn projection_axis(pts: &[Point; 4]) -> usize {
    let triples = [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
    triples
        .iter()
        .find_map(|t| normal_axis(&t.map(|i| pts[i])))
        .unwrap_or_else(|| {
            // Collinear: drop the coordinate of least spread, keeping the largest one.
            let spread = |k: usize| {
                let c = pts.map(|p| p[k]);
                c.iter().copied().fold(f64::MIN, f64::max)
                    - c.iter().copied().fold(f64::MAX, f64::min)
            };
            (0..3)
                .min_by(|&i, &j| spread(i).total_cmp(&spread(j)))
                .unwrap_or(0)
        })
}

/// The point with coordinate `k` dropped.
fn c2(p: &Point, k: usize) -> Coord<f64> {
    Coord {
        x: p[(k + 1) % 3],
        y: p[(k + 2) % 3],
    }
}

/// Whether the convex hulls of `a` and `b` (2 or 3 points each, all in one plane onto which
/// dropping coordinate `k` is injective) meet: some edges meet, or one hull holds a vertex of
/// the other.
fn hulls_meet_2d(a: &[Point], b: &[Point], k: usize) -> bool {
    let project = |v: &[Point]| {
        let mut out = [Coord { x: 0.0, y: 0.0 }; 3];
        out.iter_mut().zip(v).for_each(|(o, p)| *o = c2(p, k));
        (out, v.len())
    };
    let ((a, na), (b, nb)) = (project(a), project(b));
    // A segment has one edge, a triangle three.
    let edge_count = |n: usize| if n == 2 { 1 } else { n };
    let edges_meet = (0..edge_count(na)).any(|i| {
        (0..edge_count(nb))
            .any(|j| segments_meet_2d(&[a[i], a[(i + 1) % na]], &[b[j], b[(j + 1) % nb]]))
    });
    edges_meet || holds(&a[..na], &b[0]) || holds(&b[..nb], &a[0])
}

/// Whether `v` is a proper triangle whose closed area holds `p`.
fn holds(v: &[Coord<f64>], p: &Coord<f64>) -> bool {
    if v.len() != 3 || orient_2d(&v[0], &v[1], &v[2]) == 0 {
        return false;
    }
    let o = [0, 1, 2].map(|i| orient_2d(&v[i], &v[(i + 1) % 3], p));
    !(o.contains(&1) && o.contains(&-1))
}

/// Closed 2D segments (possibly of zero length).
fn segments_meet_2d(e: &[Coord<f64>; 2], f: &[Coord<f64>; 2]) -> bool {
    let (o1, o2) = (
        orient_2d(&e[0], &e[1], &f[0]),
        orient_2d(&e[0], &e[1], &f[1]),
    );
    let (o3, o4) = (
        orient_2d(&f[0], &f[1], &e[0]),
        orient_2d(&f[0], &f[1], &e[1]),
    );
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    // Otherwise they meet only where an endpoint lies on the other segment.
    let within = |p: &Coord<f64>, s: &[Coord<f64>; 2]| {
        p.x >= s[0].x.min(s[1].x)
            && p.x <= s[0].x.max(s[1].x)
            && p.y >= s[0].y.min(s[1].y)
            && p.y <= s[0].y.max(s[1].y)
    };
    (o1 == 0 && within(&f[0], e))
        || (o2 == 0 && within(&f[1], e))
        || (o3 == 0 && within(&e[0], f))
        || (o4 == 0 && within(&e[1], f))
}

#[cfg(test)]
mod tests {
    //! White-box checks of the filter's soundness condition, which end-to-end tests against an
    //! oracle cannot reach: a bound too small by a factor of two fails only on inputs whose
    //! rounding errors come within a factor of two of the worst case.

    use super::*;
    use crate::test_support::{q, vector};
    use num_rational::BigRational;
    use num_traits::Signed;
    use rand::{Rng, SeedableRng};

    /// `filtered`'s bound is at least Shewchuk's orient3d bound `(7ε + 56ε²) · Σ|wᵢ|(|e_j f_k| +
    /// |e_k f_j|)` (ε = 2⁻⁵³), the permanent taken exactly on the float differences the filter
    /// forms, and its value is the float `w·n`: the condition under which an accepted sign is
    /// exact (Shewchuk 1997, §4.3). Also `scale` bounds each component of the permanent.
    #[test]
    fn filter_bound_covers_shewchuks_bound() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let shewchuk = q((7.0 + 56.0 * f64::EPSILON / 2.0) * f64::EPSILON / 2.0);
        for _ in 0..5_000 {
            let m = 2f64.powi(rng.gen_range(-200..200));
            let v0 = Point::from(vector(&mut rng, 4.0 * m));
            let v = [v0, v0 + vector(&mut rng, m), v0 + vector(&mut rng, m)];
            let p = v0 + vector(&mut rng, m);
            let prepared = Prepared::of_vertices(v);
            let (det, bound) = prepared.filtered(&p);
            let (w, e, f) = (p - v[0], v[1] - v[0], v[2] - v[0]);
            assert_eq!(det, w.dot(&e.cross(&f)), "{v:?} {p:?}");
            let term = |j: usize, k: usize| (q(e[j]) * q(f[k])).abs() + (q(e[k]) * q(f[j])).abs();
            let components = [term(1, 2), term(2, 0), term(0, 1)];
            for c in &components {
                assert!(q(prepared.scale) >= *c, "{v:?}");
            }
            let permanent: BigRational = (0..3).map(|i| q(w[i]).abs() * &components[i]).sum();
            assert!(q(bound) >= &shewchuk * permanent, "{v:?} {p:?}");
        }
    }

    /// Closed 2D segments meeting at a single endpoint of either one (T-junctions at each of
    /// the four endpoints, and an L at shared endpoints), or crossing, or missing by an ulp.
    #[test]
    fn segments_meet_2d_at_every_endpoint() {
        let c = |x: f64, y: f64| Coord { x, y };
        let (a, b) = (c(0.0, 0.0), c(2.0, 0.0));
        let stem = |end: Coord<f64>| c(end.x + 0.5, end.y + 1.0);
        for (e, f, want) in [
            ([a, b], [c(1.0, 0.0), c(1.0, 3.0)], true),
            ([a, b], [c(1.0, 3.0), c(1.0, 0.0)], true),
            ([c(1.0, 0.0), c(1.0, 3.0)], [a, b], true),
            ([c(1.0, 3.0), c(1.0, 0.0)], [a, b], true),
            ([a, b], [b, stem(b)], true),
            ([a, b], [c(1.0, -1.0), c(1.0, 1.0)], true),
            ([a, b], [c(1.0, f64::EPSILON), c(1.0, 3.0)], false),
            (
                [a, b],
                [c(2.0 + 2.0 * f64::EPSILON, 0.0), c(3.0, 0.0)],
                false,
            ),
        ] {
            assert_eq!(segments_meet_2d(&e, &f), want, "{e:?} {f:?}");
        }
    }

    /// Collinear points on a line along one axis, at negative and positive coordinates: the
    /// projection keeps that axis (dropping it would collapse the points onto one).
    #[test]
    fn projection_axis_keeps_the_spread_of_collinear_points() {
        for axis in 0..3 {
            for offset in [-5.0, 5.0] {
                let at = |x: f64| {
                    let mut p = Point::new(0.25, -0.5, 1.0);
                    p[axis] = offset + x;
                    p
                };
                let pts = [at(0.0), at(1.0), at(2.0), at(3.0)];
                assert_ne!(projection_axis(&pts), axis, "{pts:?}");
            }
        }
    }

    /// A segment through a triangle decides the same in both directions.
    #[test]
    fn segment_meets_triangle_in_both_directions() {
        let tri = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(2.0, 0.0, 0.0),
            Point::new(0.0, 2.0, 0.0),
        ];
        let (up, down) = (Point::new(0.5, 0.5, 1.0), Point::new(0.5, 0.5, -1.0));
        let k = normal_axis(&tri).unwrap();
        assert!(segment_meets_triangle(&[up, down], &tri, k));
        assert!(segment_meets_triangle(&[down, up], &tri, k));
        let (up, down) = (Point::new(1.5, 1.5, 1.0), Point::new(1.5, 1.5, -1.0));
        assert!(!segment_meets_triangle(&[up, down], &tri, k));
        assert!(!segment_meets_triangle(&[down, up], &tri, k));
    }

    /// The sign of `(p - v0)·((v1 - v0) × (v2 - v0))` in exact rationals.
    fn exact_side(v: &[Point; 3], p: &Point) -> i32 {
        let d = |a: &Point, b: &Point| [0, 1, 2].map(|k| q(a[k]) - q(b[k]));
        let (w, e, f) = (d(p, &v[0]), d(&v[1], &v[0]), d(&v[2], &v[0]));
        let n = [
            &e[1] * &f[2] - &e[2] * &f[1],
            &e[2] * &f[0] - &e[0] * &f[2],
            &e[0] * &f[1] - &e[1] * &f[0],
        ];
        let det: BigRational = (0..3).map(|k| &w[k] * &n[k]).sum();
        if det.is_positive() {
            1
        } else if det.is_negative() {
            -1
        } else {
            0
        }
    }

    /// `plane_separates` says "apart" only when every vertex of the other triangle lies
    /// strictly on one side of the plane, exactly, and so only for disjoint triangles: random
    /// triangles on a grid of eighths, a third of them with a vertex put exactly on the other's
    /// plane (touching). And it does say it, for most triangles clearly on one side.
    #[test]
    fn plane_separates_only_strictly_one_sided_triangles() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        let mut grid = || {
            let mut c = || f64::from(rng.gen_range(-16..=16)) / 8.0;
            Point::new(c(), c(), c())
        };
        let (mut separated, mut clearly_apart) = (0, 0);
        for case in 0..20_000 {
            let p = [grid(), grid(), grid()];
            let mut o = [grid(), grid(), grid()];
            if case % 3 == 0 {
                // On p's plane exactly: small dyadic steps along its edges.
                o[0] = p[0] + (p[1] - p[0]) * 0.25 - (p[2] - p[0]) * 0.5;
            }
            let (pp, po) = (Prepared::of_vertices(p), Prepared::of_vertices(o));
            let sides = o.map(|x| exact_side(&p, &x));
            let says = pp.plane_separates(&po);
            if says {
                separated += 1;
                assert!(sides == [1; 3] || sides == [-1; 3], "{p:?} {o:?}");
                assert!(!intersects_prepared(&pp, &po), "{p:?} {o:?}");
            }
            clearly_apart += usize::from(sides == [1; 3] || sides == [-1; 3]);
        }
        assert!(
            separated > clearly_apart * 9 / 10,
            "{separated} of {clearly_apart}"
        );
    }

    /// The prepared triangle keeps its vertices.
    #[test]
    fn prepared_keeps_its_vertices() {
        let t = Triangle::new(
            Point::new(1.0, 2.0, 3.0),
            Point::new(-4.0, 5.0, 0.5),
            Point::new(0.0, -1.0, 7.0),
        );
        assert_eq!(Prepared::new(&t).vertices(), &t.vertices());
    }
}
