//! Triangle–triangle distance and closest points, and the exact margin predicate.
//!
//! # Distance (floating point, with a bound on its error)
//!
//! Triangles that share a point are at distance exactly 0, decided by the exact predicate
//! [`tri_tri_exact::intersects`]. Otherwise the closest points of two disjoint closed triangles
//! are those of one of the six vertex–triangle pairs or of the nine edge–edge pairs (Ericson,
//! *Real-Time Collision Detection* (2005) §5.1 and the PQP `TriDist` approach of Larsen,
//! Gottschalk, Lin & Manocha 1999), and the distance is the least of these fifteen. Zero-area
//! triangles need no case of their own: their vertex–triangle queries treat them as the segment
//! or point they are, and their edges cover them. The search ends early, as PQP's does, once
//! the best pair so far is proven closest by the slab between its points (every vertex of one
//! triangle on the far side of the plane through one point, normal to the pair, from the
//! other), which spares much of the full search (see `docs/performance.md`).
//!
//! All vectors are taken relative to the first vertex of `p`, so the result depends on the
//! triangles' spread rather than on their position, and each pair is solved by a method that
//! is stable in the sense that matters here, whatever the shape (slivers, nearly parallel
//! edges): the point–triangle and segment–segment methods of [`super::point_triangle`] and
//! [`super::segment_segment`]. Every reported point is a point of its triangle up to rounding,
//! so the distance is never below the true one by more than rounding, and the stable methods
//! keep it from exceeding it by more than a few ulps of the coordinates (the early end of the
//! search adds at most 5 ulps of the relative vertices' spread, see `PROOF_TOLERANCE`):
//!
//! `|distance − d*| <= DISTANCE_ERROR · (M + d*)`, where `M` is the largest absolute
//! coordinate of the six vertices, reported per pair as [`TriangleDistance::error`]. The bound
//! is tested against exact rational arithmetic on random, grid, sliver, nearly parallel and
//! extreme-scale pairs (`tests/tri_tri_distance.rs`; the largest error seen there is in
//! `docs/performance.md`).
//!
//! # The margin predicate
//!
//! [`within`]`(p, q, d)` decides `dist(p, q) <= d` exactly. It does not rely on the bound
//! above: a float filter certifies an interval around the true distance by rigorous arguments
//! alone, and only when `d` falls inside it does exact arithmetic decide.
//! * Upper end: the reported points are actual points of the triangles up to a bounded
//!   rounding, so the true distance is at most their distance plus that rounding.
//! * Lower end: for any direction `n`, the gap between the triangles' projections onto `n`
//!   (their vertices' extremes) divided by `|n|` is at most the true distance (a separating
//!   slab). Evaluated with a bound on its rounding along the closest points' direction, then
//!   along the two normals and the nine edge products (which are exact for vertex–face and
//!   edge–edge closest pairs even when the points' direction is noise, at tiny distances).
//! * Exact: [`tri_tri_exact::intersects`], then the least of the fifteen candidates' squared
//!   distances as fractions of big integers (each by exact region logic), compared with `d²`.

use super::exact::Fraction;
use super::point_triangle::{self, TriangleFrame};
use super::segment_segment;
use super::{larger, smaller};
use crate::intersect::tri_tri_exact;
use crate::predicates::exact::{integers, Z3};
use crate::{Point, Triangle, Vector};
use num_rational::BigRational;
use num_traits::Zero;

/// The constant `C` of the documented error bound `|distance − d*| <= C · (M + d*)` (see the
/// module docs): 16 ulps of 1, about `3.6e-15`.
pub const DISTANCE_ERROR: f64 = 16.0 * f64::EPSILON;

/// The unit roundoff `2⁻⁵³`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// The distance between two triangles and a pair of closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleDistance {
    /// `distance²`, as computed from the points.
    pub distance_squared: f64,
    /// The distance: exactly 0 for triangles that share a point.
    pub distance: f64,
    /// A point of the first triangle (up to rounding) at `distance` from `point_q`; for
    /// intersecting triangles, a common point (equal to `point_q`).
    pub point_p: Point,
    /// A point of the second triangle (up to rounding).
    pub point_q: Point,
    /// A bound on `|distance − d*|`, `d*` the exact distance: [`DISTANCE_ERROR`] times the
    /// largest absolute coordinate of the six vertices plus the distance; 0 for intersecting
    /// triangles (decided exactly).
    pub error: f64,
}

/// The two triangles in a common frame: relative to `p`'s first vertex `origin`.
struct Relative {
    origin: Point,
    p: TriangleFrame,
    q: TriangleFrame,
}

impl Relative {
    #[inline]
    fn new(p: &Triangle, q: &Triangle) -> Self {
        let origin = p.a;
        Self {
            origin,
            p: TriangleFrame::new(p.vertices().map(|v| v - origin)),
            q: TriangleFrame::new(q.vertices().map(|v| v - origin)),
        }
    }

    /// The largest Euclidean norm of a relative vertex, bounded above by the 1-norm.
    fn spread(&self) -> f64 {
        let p = self.p.vertices.iter();
        p.chain(&self.q.vertices)
            .fold(0.0, |m: f64, v| m.max(v.abs().sum()))
    }
}

/// A candidate pair of points (relative coordinates) and their squared distance.
#[derive(Clone, Copy, Debug)]
struct Pair {
    x: Vector,
    y: Vector,
    distance_squared: f64,
}

impl Pair {
    #[inline]
    fn new(x: Vector, y: Vector) -> Self {
        Self {
            x,
            y,
            distance_squared: (y - x).norm_squared(),
        }
    }

    #[inline]
    fn nearer(self, other: Self) -> Self {
        if other.distance_squared < self.distance_squared {
            other
        } else {
            self
        }
    }
}

/// The distance between the closed triangles `p` and `q` and a pair of closest points (see the
/// module docs for the method and the error bound).
pub fn distance(p: &Triangle, q: &Triangle) -> TriangleDistance {
    let rel = Relative::new(p, q);
    let magnitude = p
        .vertices()
        .iter()
        .chain(&q.vertices())
        .fold(0.0, |m: f64, v| m.max(v.coords.amax()));
    if tri_tri_exact::intersects(p, q) {
        let pair = common_point_pair(&rel.p, &rel.q, rel.spread());
        let point = rel.origin + (pair.x + pair.y) * 0.5;
        return TriangleDistance {
            distance_squared: 0.0,
            distance: 0.0,
            point_p: point,
            point_q: point,
            error: 0.0,
        };
    }
    disjoint_distance(&rel, magnitude)
}

/// [`distance`] for triangles known to share no point: the float search alone, without the
/// exact intersection test, with the same bound on its error. For callers that test many pairs
/// and know most of them disjoint beforehand (the mesh distance queries: triangles whose
/// bounding boxes are apart, or that [`tri_tri_exact::intersects_prepared`] has found
/// disjoint). Triangles that do share a point get a meaningless answer: an edge piercing the
/// other triangle's interior leaves every one of the fifteen candidates positive.
#[inline]
pub fn distance_disjoint(p: &Triangle, q: &Triangle) -> TriangleDistance {
    let magnitude = p
        .vertices()
        .iter()
        .chain(&q.vertices())
        .fold(0.0, |m: f64, v| m.max(v.coords.amax()));
    disjoint_distance(&Relative::new(p, q), magnitude)
}

/// The float search on disjoint triangles in relative coordinates, `magnitude` the largest
/// absolute coordinate of their vertices.
#[inline]
fn disjoint_distance(rel: &Relative, magnitude: f64) -> TriangleDistance {
    let pair = closest_pair(&rel.p, &rel.q, rel.spread());
    let distance = pair.distance_squared.sqrt();
    TriangleDistance {
        distance_squared: pair.distance_squared,
        distance,
        point_p: rel.origin + pair.x,
        point_q: rel.origin + pair.y,
        error: DISTANCE_ERROR * (magnitude + distance),
    }
}

/// The least of the fifteen vertex–triangle and edge–edge candidates (relative coordinates),
/// ending early once the best so far is proven closest (see [`Search::proven`]).
#[inline]
fn closest_pair(p: &TriangleFrame, q: &TriangleFrame, spread: f64) -> Pair {
    let mut search = Search {
        p,
        q,
        best: Pair {
            x: Vector::zeros(),
            y: Vector::zeros(),
            distance_squared: f64::INFINITY,
        },
        tolerance: PROOF_TOLERANCE * spread,
    };
    for v in &p.vertices {
        if search.offer(Pair::new(*v, q.closest_point(v))) {
            return search.best;
        }
    }
    for v in &q.vertices {
        if search.offer(Pair::new(p.closest_point(v), *v)) {
            return search.best;
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            let (s, t) = segment_segment::parameters(
                &p.vertices[i],
                &p.edges[i],
                p.lengths_squared[i],
                &q.vertices[j],
                &q.edges[j],
                q.lengths_squared[j],
            );
            let pair = Pair::new(
                p.vertices[i] + p.edges[i] * s,
                q.vertices[j] + q.edges[j] * t,
            );
            if search.offer(pair) {
                return search.best;
            }
        }
    }
    search.best
}

/// The tolerance of [`Search::proven`], relative to the spread of the relative vertices: the
/// projections it compares round by at most 1.5 ulps of `|n|·spread` each, so a proof accepted
/// within this tolerance leaves the reported distance at most 5 ulps of the spread above the
/// true one; the true closest pair usually passes with room to spare.
const PROOF_TOLERANCE: f64 = 2.0 * f64::EPSILON;

/// The search for the closest pair of two triangles: the best candidate so far.
struct Search<'a> {
    p: &'a TriangleFrame,
    q: &'a TriangleFrame,
    best: Pair,
    /// See [`PROOF_TOLERANCE`].
    tolerance: f64,
}

impl Search<'_> {
    /// Keeps `candidate` if it is nearer than the best so far; whether the best is then proven
    /// closest.
    #[inline]
    fn offer(&mut self, candidate: Pair) -> bool {
        if candidate.distance_squared < self.best.distance_squared {
            self.best = candidate;
            self.proven()
        } else {
            false
        }
    }

    /// Whether the slab between the best pair's points `x`, `y` holds the triangles apart:
    /// every vertex of `q` projects onto `n = y − x` at least `|n|² − tolerance·|n|` beyond
    /// every vertex of `p`. Then the true distance is at least `|n| − tolerance` (less the
    /// projections' rounding), so no other candidate can be nearer by more than that (PQP's
    /// `TriDist` ends its search on the same kind of test, for edge pairs).
    #[inline]
    fn proven(&self) -> bool {
        let n = self.best.y - self.best.x;
        let along = |t: &TriangleFrame| t.vertices.map(|v| n.dot(&v));
        let (a, b) = (along(self.p), along(self.q));
        let p_high = larger(larger(a[0], a[1]), a[2]);
        let q_low = smaller(smaller(b[0], b[1]), b[2]);
        let d2 = self.best.distance_squared;
        q_low - p_high >= d2 - self.tolerance * d2.sqrt()
    }
}

/// For triangles known to intersect: a pair of points, one on each, at distance zero up to
/// rounding. The fifteen candidates find touching and coplanar configurations (a vertex in the
/// other triangle, or crossing edges); where an edge pierces the other triangle's interior, the
/// crossing point of that edge with the other plane does.
#[cold]
fn common_point_pair(p: &TriangleFrame, q: &TriangleFrame, spread: f64) -> Pair {
    let best = closest_pair(p, q, spread);
    let crossings_pq = edge_crossings(p, q).map(|x| x.map(|x| Pair::new(x, q.closest_point(&x))));
    let crossings_qp = edge_crossings(q, p).map(|y| y.map(|y| Pair::new(p.closest_point(&y), y)));
    crossings_pq
        .into_iter()
        .chain(crossings_qp)
        .flatten()
        .fold(best, Pair::nearer)
}

/// Where the edges of `t` cross the plane of `other` (floating point; `None` for an edge that
/// does not cross it, or when `other` has no plane).
fn edge_crossings(t: &TriangleFrame, other: &TriangleFrame) -> [Option<Vector>; 3] {
    let n = other.normal();
    let o = other.origin();
    let h = t.vertices.map(|v| n.dot(&(v - o)));
    std::array::from_fn(|i| {
        let (hi, hj) = (h[i], h[(i + 1) % 3]);
        let crosses = other.is_proper() && hi * hj <= 0.0 && hi != hj;
        crosses.then(|| t.vertices[i] + t.edges[i] * (hi / (hi - hj)).clamp(0.0, 1.0))
    })
}

/// Whether the closed triangles `p` and `q` (finite vertices) are at most `d` apart, decided
/// exactly (see the module docs). Negative or NaN `d`: `false`; infinite `d`: `true`.
pub fn within(p: &Triangle, q: &Triangle, d: f64) -> bool {
    if d.is_nan() || d < 0.0 {
        return false;
    }
    let rel = Relative::new(p, q);
    let spread = rel.spread();
    // Most pairs a margin query meets are farther than `d` from each other's plane: two
    // slabs settle them before the fifteen closest-point candidates.
    if face_slab_apart(&rel, spread, d) {
        return false;
    }
    let pair = closest_pair(&rel.p, &rel.q, spread);
    let found = pair.distance_squared.sqrt();
    // The reported points are within 30 ulps of `spread` of actual points of the triangles
    // (relative vertices, edges, heights and their combinations each round by a few ulps),
    // and their distance within 8 ulps of itself: 128 ulps of the spread cover both.
    if found * (1.0 + 8.0 * UNIT) + 128.0 * UNIT * spread <= d {
        return true;
    }
    if slab_gap(&rel, &(pair.y - pair.x), spread) > d || edge_slab_apart(&rel, spread, d) {
        return false;
    }
    within_exact(p, q, d)
}

/// A lower bound on the distance between the triangles from their projections onto `n`: the
/// gap between the extremes of their vertices along `n`, divided by `|n|`, less a bound on the
/// rounding (each projection errs by at most 4.1 ulps of `|n|·spread`, from the relative
/// vertices' rounding and the dot product's; `|n|` by 2 ulps). `-∞` for `n = 0`.
fn slab_gap(rel: &Relative, n: &Vector, spread: f64) -> f64 {
    let along = |t: &TriangleFrame| t.vertices.map(|v| n.dot(&v));
    let (a, b) = (along(&rel.p), along(&rel.q));
    let (a_lo, a_hi) = (a[0].min(a[1]).min(a[2]), a[0].max(a[1]).max(a[2]));
    let (b_lo, b_hi) = (b[0].min(b[1]).min(b[2]), b[0].max(b[1]).max(b[2]));
    let norm = n.norm();
    if norm == 0.0 {
        return f64::NEG_INFINITY;
    }
    let gap = (b_lo - a_hi).max(a_lo - b_hi) - 16.0 * UNIT * norm * spread;
    gap / (norm * (1.0 + 4.0 * UNIT))
}

/// Whether a slab along either face normal proves the triangles more than `d` apart.
#[inline]
fn face_slab_apart(rel: &Relative, spread: f64, d: f64) -> bool {
    [rel.p.normal(), rel.q.normal()]
        .iter()
        .any(|n| slab_gap(rel, n, spread) > d)
}

/// Whether a slab along the product of an edge of each proves the triangles more than `d`
/// apart (the face normals were tried first, [`face_slab_apart`]).
#[cold]
fn edge_slab_apart(rel: &Relative, spread: f64, d: f64) -> bool {
    rel.p.edges.iter().any(|e| {
        rel.q
            .edges
            .iter()
            .any(|f| slab_gap(rel, &e.cross(f), spread) > d)
    })
}

/// Whether the closed triangles `p` and `q` (finite vertices) are at most `r1 + r2` apart,
/// decided exactly for the real sum `r1 + r2` (finite `r1, r2 >= 0`), which `f64` need not
/// hold: the threshold of two balls' radii (sphere–sphere, sphere–capsule, capsule–capsule,
/// with points and segments as zero-area triangles).
///
/// The rounded sum `s = fl(r1 + r2)` and its exact error `e` (Knuth's TwoSum, exact without
/// overflow: `s + e = r1 + r2`) bracket the true threshold between `s` and its neighbouring
/// `f64` on the side of `e`. [`within`], exact, decides both ends; only a distance strictly
/// between them (within one ulp of the threshold) needs the exact squared distance, compared
/// with `(r1 + r2)²` as rationals. No tolerance is involved. Negative or NaN radii: `false`.
pub fn within_sum(p: &Triangle, q: &Triangle, r1: f64, r2: f64) -> bool {
    if r1.is_nan() || r2.is_nan() || r1 < 0.0 || r2 < 0.0 {
        return false;
    }
    let s = r1 + r2;
    if !s.is_finite() {
        return true;
    }
    let b = s - r1;
    let e = (r1 - (s - b)) + (r2 - b);
    if e == 0.0 {
        return within(p, q, s);
    }
    let (low, high) = if e > 0.0 {
        (s, s.next_up())
    } else {
        (s.next_down(), s)
    };
    if within(p, q, low) {
        return true;
    }
    if !within(p, q, high) {
        return false;
    }
    within_sum_exact(p, q, r1, r2)
}

/// [`within_sum`] for a distance strictly between the two `f64` neighbours of `r1 + r2`: the
/// triangles are disjoint (their distance exceeds `low >= 0`), so the least of the fifteen
/// exact candidates is the squared distance.
#[cold]
#[inline(never)]
fn within_sum_exact(p: &Triangle, q: &Triangle, r1: f64, r2: f64) -> bool {
    let (least, exponent) = candidates_exact(p, q);
    let sum = BigRational::from_float(r1).expect("finite radius")
        + BigRational::from_float(r2).expect("finite radius");
    least.scaled_rational(exponent) <= &sum * &sum
}

/// [`within`] by exact arithmetic.
#[cold]
#[inline(never)]
fn within_exact(p: &Triangle, q: &Triangle, d: f64) -> bool {
    if tri_tri_exact::intersects(p, q) {
        return true;
    }
    let (least, exponent) = candidates_exact(p, q);
    least.scaled_at_most_squared(exponent, d)
}

/// The exact squared distance between the closed triangles `p` and `q` (finite vertices;
/// panics otherwise): 0 if they intersect, else the least of the fifteen vertex–triangle and
/// edge–edge squared distances, each computed exactly (see [`within`]). For tests and for
/// certifying a computed distance, not for queries (big-integer arithmetic).
pub fn exact_distance_squared(p: &Triangle, q: &Triangle) -> BigRational {
    if tri_tri_exact::intersects(p, q) {
        return BigRational::zero();
    }
    let (least, exponent) = candidates_exact(p, q);
    least.scaled_rational(exponent)
}

/// The least of the fifteen candidate squared distances of (disjoint) triangles, for integer
/// coordinates with the common factor `2^exponent`.
fn candidates_exact(p: &Triangle, q: &Triangle) -> (Fraction, i32) {
    let (ints, exponent) = integers([p.a, p.b, p.c, q.a, q.b, q.c].map(|v| v.coords))
        .expect("finite triangle vertices");
    let [p0, p1, p2, q0, q1, q2] = ints;
    let (pv, qv): ([Z3; 3], [Z3; 3]) = ([p0, p1, p2], [q0, q1, q2]);
    let vertex_face = (0..3).flat_map(|i| {
        [
            point_triangle::distance_squared_exact(&pv[i], &qv),
            point_triangle::distance_squared_exact(&qv[i], &pv),
        ]
    });
    let edge_edge = (0..3).flat_map(|i| {
        let (pv, qv) = (&pv, &qv);
        (0..3).map(move |j| {
            segment_segment::distance_squared_exact(
                &pv[i],
                &pv[(i + 1) % 3],
                &qv[j],
                &qv[(j + 1) % 3],
            )
        })
    });
    (Fraction::least(vertex_face.chain(edge_edge)), exponent)
}
