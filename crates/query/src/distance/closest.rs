//! The closest triangle pair: the visitor of [`super::distance`].

use super::DistanceRequest;
use crate::kernel::descent::best_first::{box_gap_squared, lowered, Visitor};
use crate::kernel::leaf::{Leaf, LeafTest};
use crate::model::index::boxes::Boxed;
use crate::MeshModel;
use obbtree_bv::distance::tri_tri::{self, TriangleDistance};
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Point, Triangle, Vector};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// Relative rounding of [`box_gap_squared`] and of its square root, and of a volume bound
/// compared after it: a gap `g` proves a distance of at least `g·(1 − GAP_ROUNDING)`.
const GAP_ROUNDING: f64 = 4.0 * f64::EPSILON;

/// The best pair found so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// `[triangle of A, triangle of B]`.
    pub pair: [u32; 2],
    /// Their distance, its closest points (A's frame) and its error bound.
    pub found: TriangleDistance,
    /// The pair shares a point, by the exact test (then `found.distance` is 0).
    pub intersects: bool,
}

/// The part of the guarantee's error budget (`1e-12·(d* + L)`) the search spends on leaving
/// out pairs that cannot be nearer than the best by more than `TIE_SLACK·(d + L)`: every
/// triangle pair around a closest vertex pair, or a vertex and an edge, is exactly as far as
/// the best, and its lower bounds (exact up to rounding) would otherwise never prune it.
const TIE_SLACK: f64 = 1e-13;

/// The search for the closest pair under tolerances.
pub(crate) struct Closest {
    rel_err: f64,
    abs_err: f64,
    /// `TIE_SLACK` times a lower bound on the largest absolute coordinate of the placed meshes.
    tie_scale: f64,
    /// The best pair so far (`None` before the first).
    pub best: Option<Candidate>,
    /// Node or triangle pairs at least this far apart cannot improve on `best` by more than the
    /// tolerances.
    cutoff: f64,
    /// `cutoff²`, for the triangle boxes' squared gaps.
    cutoff_squared: f64,
    /// The least lower bound of what was left out or measured: the walk's certificate of `d*`.
    floor: f64,
    /// The least squared box gap of the triangle pairs left out.
    floor_squared: f64,
    /// The unit direction from the best pair's point of A to its point of B: the gap between
    /// two triangles' projections on it bounds their distance from below.
    direction: Vector,
    /// Triangle pairs an earlier search measured, with lower bounds that still hold: a pair
    /// whose bound prunes is not measured again.
    remembered: Vec<Measured>,
    /// With [`Closest::remember`]: the triangle pairs measured (or passed over by a
    /// remembered bound), with their lower bounds, for the next search.
    pub measured: Option<Vec<Measured>>,
}

/// A triangle pair `[triangle of A, triangle of B]` and a lower bound on its distance.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Measured {
    pub pair: [u32; 2],
    pub lower: f64,
}

impl Closest {
    /// A search with the tolerances and no pair yet; `magnitude` is at most the largest
    /// absolute coordinate of the placed meshes.
    pub fn new(rel_err: f64, abs_err: f64, magnitude: f64) -> Self {
        Self {
            rel_err,
            abs_err,
            tie_scale: TIE_SLACK * magnitude,
            best: None,
            cutoff: f64::INFINITY,
            cutoff_squared: f64::INFINITY,
            floor: f64::INFINITY,
            floor_squared: f64::INFINITY,
            direction: Vector::zeros(),
            remembered: Vec::new(),
            measured: None,
        }
    }

    /// Passes over the triangle pairs of `remembered` whose bound, lowered by `moved`, prunes;
    /// and records the pairs this search measures (or passes over) in [`Closest::measured`].
    pub fn remember(&mut self, mut remembered: Vec<Measured>, moved: f64) {
        for m in &mut remembered {
            m.lower = lowered(m.lower, moved);
        }
        self.remembered = remembered;
        self.measured = Some(Vec::new());
    }

    /// The remembered lower bound of the pair, if any.
    #[inline]
    fn remembered(&self, pair: [u32; 2]) -> Option<f64> {
        self.remembered
            .iter()
            .find(|m| m.pair == pair)
            .map(|m| m.lower)
    }

    /// Records a pair's lower bound for the next search, when asked to.
    #[inline]
    fn record(&mut self, pair: [u32; 2], lower: f64) {
        if let Some(measured) = &mut self.measured {
            measured.push(Measured { pair, lower });
        }
    }

    /// A search for `request` between `a` and another mesh placed in its frame (`a`'s largest
    /// absolute coordinate is at most that of the placed meshes).
    pub fn for_request<V>(request: &DistanceRequest, a: &MeshModel<V>) -> Self {
        Self::new(
            request.rel_err,
            request.abs_err,
            a.bounds().largest_coordinate(),
        )
    }

    /// Offers the pair `pair` of triangles at `found` (`intersects`: by the exact test); keeps
    /// it if nearer than the best.
    #[inline]
    pub fn offer(&mut self, pair: [u32; 2], found: TriangleDistance, intersects: bool) {
        if self.best.is_none_or(|b| found.distance < b.found.distance) {
            self.best = Some(Candidate {
                pair,
                found,
                intersects,
            });
            // A pair at `d >= cutoff` satisfies `distance <= d (1 + rel_err) + abs_err` up to
            // the tie slack; a positive distance keeps a positive cutoff (an intersecting pair,
            // whose bounds are 0, is never left out while the best pair is disjoint).
            let tolerated = (found.distance - self.abs_err) / (1.0 + self.rel_err);
            let slack = TIE_SLACK * found.distance + self.tie_scale;
            self.cutoff = match tolerated - slack {
                cutoff if cutoff > 0.0 => cutoff,
                _ if found.distance > 0.0 => found.distance.min(f64::MIN_POSITIVE),
                _ => 0.0,
            };
            // A positive cutoff keeps a positive square (boxes that meet, gap 0, are never
            // skipped while the best pair is disjoint).
            self.cutoff_squared = match self.cutoff * self.cutoff {
                0.0 if self.cutoff > 0.0 => f64::from_bits(1),
                square => square,
            };
            let n = found.point_q - found.point_p;
            let length = n.norm();
            self.direction = if length > 0.0 {
                n / length
            } else {
                Vector::zeros()
            };
        }
    }

    /// The unit direction from the best pair's point of A to its point of B (zero before the
    /// first pair, or when they meet).
    pub fn direction(&self) -> Vector {
        self.direction
    }

    /// Whether the best pair intersects: nothing can be nearer.
    #[inline]
    pub fn done(&self) -> bool {
        self.best.is_some_and(|b| b.intersects)
    }

    /// Measures the triangles `p` (of A) and `q` (of B, placed), deciding first whether they
    /// meet by the exact test: the hint's pair.
    pub fn measure_pair(&mut self, pair: [u32; 2], p: &Triangle, q: &Triangle) {
        if tri_tri_exact::intersects(p, q) {
            self.offer(pair, tri_tri::distance(p, q), true);
        } else {
            let found = disjoint(p, q);
            self.floor = self.floor.min(found.distance - found.error);
            self.offer(pair, found, false);
        }
    }

    /// The certified lower bound on the distance: the least of everything left out or measured.
    pub fn lower(&self) -> f64 {
        let gaps = self.floor_squared.sqrt() * (1.0 - GAP_ROUNDING);
        self.floor.min(gaps).max(0.0)
    }

    /// Measures the triangles `p` (of A) and `q` (of B, placed), whose boxes are `gap_squared`
    /// apart: the exact intersection test when the boxes meet, else (and when it says
    /// disjoint) the float search; their distance's lower bound. Breaks on an intersecting pair.
    #[inline]
    fn measure(
        &mut self,
        pair: [u32; 2],
        p: &Boxed,
        q: &Boxed,
        gap_squared: f64,
    ) -> ControlFlow<(), f64> {
        let (tp, tq) = (triangle(p), triangle(q));
        if gap_squared == 0.0 && tri_tri_exact::intersects_prepared(&p.tri, &q.tri) {
            self.offer(pair, tri_tri::distance(&tp, &tq), true);
            return ControlFlow::Break(());
        }
        let found = disjoint(&tp, &tq);
        self.offer(pair, found, false);
        ControlFlow::Continue(found.distance - found.error)
    }
}

/// The distance between triangles the exact test found disjoint. The float search may round a
/// tiny distance (against the magnitude of the coordinates) to 0; it is then reported as the
/// least positive normal number, within the same error bound, so that 0 means an intersecting
/// pair and the walk goes on looking for one.
#[inline]
fn disjoint(p: &Triangle, q: &Triangle) -> TriangleDistance {
    let mut found = tri_tri::distance_disjoint(p, q);
    if found.distance == 0.0 {
        found.distance = f64::MIN_POSITIVE;
    }
    found
}

/// The triangle of a prepared one.
#[inline]
pub(crate) fn triangle(t: &Boxed) -> Triangle {
    let [a, b, c]: [Point; 3] = *t.tri.vertices();
    Triangle::new(a, b, c)
}

impl Visitor for Closest {
    #[inline]
    fn prunes(&self, bound: f64) -> bool {
        bound >= self.cutoff
    }

    /// A bound at or above the cutoff prunes.
    fn enough(&self) -> f64 {
        self.cutoff
    }

    #[inline]
    fn pruned(&mut self, bound: f64) {
        self.floor = self.floor.min(bound * (1.0 - GAP_ROUNDING));
    }

    /// Every triangle pair of the two leaves nearer than the cutoff by its projections on the
    /// best pair's direction (one subtraction with A's made once per leaf pair) and by its
    /// boxes (a triangle of B whose box is not near A's leaf box is skipped whole); the least
    /// lower bound of the pairs, skipped or measured.
    fn leaves(&mut self, test: &mut LeafTest, a: Leaf, b: Leaf) -> ControlFlow<(), f64> {
        let (a_tris, a_bounds) = test.a_side();
        let pa = &a_tris[a.start..a.start + a.triangles.len()];
        let around_a = &a_bounds[a.node];
        let (pb, around_b) = test.placed(&b);
        // A's triangles' projections on the best pair's direction, made again when a better
        // pair turns it.
        let mut n = self.direction;
        let rounding =
            SLAB_ROUNDING * (around_a.largest_coordinate() + around_b.largest_coordinate());
        let highs_along = |n: &Vector| -> SmallVec<[f64; 16]> {
            pa.iter().map(|p| highest(n, p.tri.vertices())).collect()
        };
        let mut highs = highs_along(&n);
        let (mut least, mut least_squared) = (f64::INFINITY, f64::INFINITY);
        for (q, &tb) in pb.iter().zip(b.triangles) {
            let gap = box_gap_squared(around_a, &q.bounds);
            if gap >= self.cutoff_squared {
                least_squared = least_squared.min(gap);
                continue;
            }
            let mut low = lowest(&n, q.tri.vertices()) - rounding;
            for (k, (p, &ta)) in pa.iter().zip(a.triangles).enumerate() {
                let slab = low - highs[k];
                if slab >= self.cutoff {
                    least = least.min(slab);
                    continue;
                }
                let gap = box_gap_squared(&p.bounds, &q.bounds);
                if gap >= self.cutoff_squared {
                    least_squared = least_squared.min(gap);
                    continue;
                }
                if let Some(lower) = self.remembered([ta, tb]) {
                    if lower >= self.cutoff {
                        least = least.min(lower);
                        self.record([ta, tb], lower);
                        continue;
                    }
                }
                let lower = self.measure([ta, tb], p, q, gap)?;
                self.record([ta, tb], lower);
                least = least.min(lower);
                if self.direction != n {
                    n = self.direction;
                    highs = highs_along(&n);
                    low = lowest(&n, q.tri.vertices()) - rounding;
                }
            }
        }
        self.floor = self.floor.min(least);
        self.floor_squared = self.floor_squared.min(least_squared);
        ControlFlow::Continue(least.min(least_squared.sqrt() * (1.0 - GAP_ROUNDING)))
    }
}

/// The rounding of a lower bound on the distance between two triangles from their projections
/// on a unit vector `n`, the gap between `q`'s lowest and `p`'s highest vertex along it (any
/// unit vector gives one: the separating-axis argument, Ericson, *Real-Time Collision
/// Detection* (2005) §5.2.1), relative to the sum of the largest absolute coordinates of the
/// two: each projection rounds by at most `√3·3.01ε` times its vertex's largest coordinate,
/// the subtraction by `ε` of the result, and `n`'s norm is 1 to within `4ε`; `32ε` covers
/// them all.
const SLAB_ROUNDING: f64 = 32.0 * f64::EPSILON;

/// The largest projection of a triangle's vertices on `n`.
#[inline(always)]
fn highest(n: &Vector, t: &[Point; 3]) -> f64 {
    along(n, &t[0]).max(along(n, &t[1])).max(along(n, &t[2]))
}

/// The least projection of a triangle's vertices on `n`.
#[inline(always)]
fn lowest(n: &Vector, t: &[Point; 3]) -> f64 {
    along(n, &t[0]).min(along(n, &t[1])).min(along(n, &t[2]))
}

/// The projection of `v` on `n`.
#[inline(always)]
fn along(n: &Vector, v: &Point) -> f64 {
    n.x * v.x + n.y * v.y + n.z * v.z
}
