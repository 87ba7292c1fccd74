//! The float filter in front of the exact path of a minimum separation `d > 0`: a certified
//! proof that the two primitives stay more than `d` apart over all of `[0, 1]`.
//!
//! Over a time interval `[a, b]` every point moves linearly, so its projection on a fixed
//! direction `n` stays between the projections at `a` and at `b`. If the least projection of
//! the second primitive's points over `[a, b]` exceeds the greatest of the first's by more than
//! `d·|n|` (less the rounding error), a plane normal to `n` separates the two primitives grown
//! by `d` at every time of `[a, b]` (the separating-axis argument of Gottschalk, Lin & Manocha,
//! "OBBTree", SIGGRAPH 1996, applied to convex hulls of moving points). The direction is the
//! float closest-point difference at the interval's middle, where it is nearly optimal; an
//! interval not proven is halved, a few times at most. Anything unproven goes to the exact
//! path, so the filter never changes an answer.

use crate::distance::{point_triangle, segment_segment};
use crate::predicates::UNDERFLOW_ERROR;
use crate::{Point, Triangle, Vector};

/// How many times an interval is halved at most (up to `2⁶ − 1` intervals in all).
const MAX_DEPTH: u32 = 5;

/// The rounding error of a projection gap, in units of `ε·‖n‖₁·max|x|`, with room: each
/// projection `n·p₀ + t(n·p₁ − n·p₀)` errs by less than `17ε‖n‖₁ max|x|` (Higham,
/// "Accuracy and Stability of Numerical Algorithms", 2002, §3.1), and the gap of two by less
/// than `41ε‖n‖₁ max|x|`.
const GAP_ERROR: f64 = 64.0 * f64::EPSILON;

/// Coordinates below this keep every product of the filter finite.
const LARGEST_FILTERED: f64 = 1e150;

/// The closest points of the two primitives at one instant (float).
type Closest = fn(&[Point; 4]) -> (Point, Point);

/// Whether the point `x[0]` certainly stays more than `d` from the triangle `x[1..4]`.
pub(super) fn vertex_face_apart(start: &[Point; 4], end: &[Point; 4], d: f64) -> bool {
    apart(start, end, 1, d, |x| {
        let face = Triangle::new(x[1], x[2], x[3]);
        (x[0], point_triangle::closest_point(&x[0], &face))
    })
}

/// Whether the segment `x[0..2]` certainly stays more than `d` from the segment `x[2..4]`.
pub(super) fn edge_edge_apart(start: &[Point; 4], end: &[Point; 4], d: f64) -> bool {
    apart(start, end, 2, d, |x| {
        let (a, b) = (x[1] - x[0], x[3] - x[2]);
        let (s, t) = segment_segment::parameters(
            &x[0].coords,
            &a,
            a.norm_squared(),
            &x[2].coords,
            &b,
            b.norm_squared(),
        );
        (x[0] + a * s, x[2] + b * t)
    })
}

/// The primitives `start[..split]` and `start[split..]`, proven apart on every interval of a
/// halving of `[0, 1]` (module docs).
fn apart(start: &[Point; 4], end: &[Point; 4], split: usize, d: f64, closest: Closest) -> bool {
    let size = largest_coordinate(start, end);
    // Far from overflow (or not finite): the exact path answers.
    if size.is_nan() || size >= LARGEST_FILTERED {
        return false;
    }
    let query = Query {
        start,
        end,
        split,
        d,
        size,
    };
    query.apart_on(0.0, 1.0, 0, closest)
}

/// A query with its separation and the largest coordinate magnitude of its points.
struct Query<'a> {
    start: &'a [Point; 4],
    end: &'a [Point; 4],
    split: usize,
    d: f64,
    size: f64,
}

impl Query<'_> {
    /// Whether the primitives stay more than `d` apart on `[a, b]`.
    fn apart_on(&self, a: f64, b: f64, depth: u32, closest: Closest) -> bool {
        let middle = 0.5 * (a + b);
        let (p, q) = closest(&self.at(middle));
        let n = q - p;
        if self.separated_along(&n, a, b) {
            return true;
        }
        // Within `d` at the middle (or not decidable in floats): the exact path answers.
        if depth == MAX_DEPTH || n.norm().is_nan() || n.norm() <= self.d {
            return false;
        }
        self.apart_on(a, middle, depth + 1, closest) && self.apart_on(middle, b, depth + 1, closest)
    }

    /// The four points at `t` (rounded; only the direction depends on them).
    fn at(&self, t: f64) -> [Point; 4] {
        std::array::from_fn(|i| self.start[i] + (self.end[i] - self.start[i]) * t)
    }

    /// Whether the gap along `n` between the second primitive and the first exceeds `d·|n|`
    /// over `[a, b]`, with the rounding error of every term on the safe side.
    fn separated_along(&self, n: &Vector, a: f64, b: f64) -> bool {
        let projection = |i: usize, t: f64| {
            let (s0, s1) = (n.dot(&self.start[i].coords), n.dot(&self.end[i].coords));
            s0 + t * (s1 - s0)
        };
        let over = |i: usize| [projection(i, a), projection(i, b)];
        let first = (0..self.split).flat_map(over).fold(f64::MIN, f64::max);
        let second = (self.split..4).flat_map(over).fold(f64::MAX, f64::min);
        let gap = second - first;
        let error = GAP_ERROR * n.abs().sum() * self.size + 64.0 * UNDERFLOW_ERROR;
        let needed = self.d * n.norm() * (1.0 + 8.0 * f64::EPSILON);
        gap > (error + needed) * (1.0 + 4.0 * f64::EPSILON)
    }
}

/// The largest coordinate magnitude of the eight points.
fn largest_coordinate(start: &[Point; 4], end: &[Point; 4]) -> f64 {
    start
        .iter()
        .chain(end)
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max)
}
