//! Hull–hull: the closest points of the convex hulls of two point sets, each given by its
//! support mapping (the point of the set farthest along a direction), by the GJK algorithm
//! (Gilbert, Johnson & Keerthi, "A fast procedure for computing the distance between complex
//! objects in three-dimensional space", IEEE J. Robotics and Automation 4(2), 1988; Ericson,
//! *Real-Time Collision Detection* (2005) §9.5), with van den Bergen's termination test
//! (*Collision Detection in Interactive 3D Environments* (2004) §4.3.2).
//!
//! GJK searches the Minkowski difference `A − B` for its point nearest the origin, keeping a
//! simplex of up to four support points and replacing it by the face nearest the origin
//! (Ericson §5.1.2, §5.1.5, §5.1.6, with the origin as the query point). In floating point it is
//! a guide, not a proof: the answer is approximate, and it gives up (`None`) when the hulls seem
//! to meet, when the simplex degenerates or when it stops making progress. Callers that need a
//! bound certify the points they get (see the distance query's hull certificate).

use crate::{Point, Vector};
use arrayvec::ArrayVec;

/// The most support points GJK asks for before it settles for the nearest found.
const MAX_STEPS: usize = 64;

/// Stop when the support point along `−v` improves the distance² `|v|²` by less than this part
/// of it (van den Bergen's `|v|² − v·w <= ε |v|²`).
const CONVERGED: f64 = 1e-14;

/// A support point of `A − B`: `w = a − b`, with the points of A and B it came from.
#[derive(Clone, Copy, Debug)]
struct Vertex {
    w: Vector,
    a: Point,
    b: Point,
}

/// The nearest points `(a, b)` of the convex hulls of A and B, `a` in A's hull and `b` in B's,
/// given `support_a(d)` (a point of A with the largest projection on `d`) and `support_b`, and
/// a first guess `guess` of the direction from B's hull to A's. `None` when the hulls seem to
/// meet or the search breaks down.
pub fn closest_points(
    support_a: impl FnMut(&Vector) -> Point,
    support_b: impl FnMut(&Vector) -> Point,
    guess: &Vector,
) -> Option<(Point, Point)> {
    let simplex = search(support_a, support_b, guess, Stop::Converged)?.simplex;
    let point = |pick: fn(&Vertex) -> Point| {
        simplex.iter().fold(Vector::zeros(), |sum, (s, weight)| {
            sum + pick(s).coords * *weight
        })
    };
    Some((Point::from(point(|s| s.a)), Point::from(point(|s| s.b))))
}

/// A direction `v` along which the support points found put A beyond B: `v·a > v·b` for A's
/// lowest and B's highest point along `v`, as computed (the boolean form of GJK, van den Bergen
/// (2004) §4.3.3: the search stops at the first such direction, well before the nearest points
/// are found). A guide in floating point: callers certify it. `None` when the hulls seem to meet
/// or the search breaks down.
pub fn separating_direction(
    support_a: impl FnMut(&Vector) -> Point,
    support_b: impl FnMut(&Vector) -> Point,
    guess: &Vector,
) -> Option<Vector> {
    let ended = search(support_a, support_b, guess, Stop::Separating)?;
    let v = ended.separating.unwrap_or_else(|| {
        ended
            .simplex
            .iter()
            .fold(Vector::zeros(), |sum, (s, weight)| sum + s.w * *weight)
    });
    (v != Vector::zeros()).then_some(v)
}

/// When [`search`] stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// At the point of `A − B` nearest the origin.
    Converged,
    /// At the first direction that separates, or at the nearest point.
    Separating,
}

/// Where [`search`] stopped.
struct Ended {
    /// The simplex whose weighted point is (about) the nearest to the origin, or the last one
    /// before a separating direction was found.
    simplex: Simplex,
    /// A direction `v` with `v·w > 0` for the support point `w` of `A − B` along `−v`, when the
    /// search stopped at one.
    separating: Option<Vector>,
}

/// GJK's descent towards the point of `A − B` nearest the origin; `None` when the hulls seem to
/// meet or the simplex degenerates.
fn search(
    mut support_a: impl FnMut(&Vector) -> Point,
    mut support_b: impl FnMut(&Vector) -> Point,
    guess: &Vector,
    stop: Stop,
) -> Option<Ended> {
    let mut support = |v: &Vector| {
        let (a, b) = (support_a(&-v), support_b(v));
        Vertex { w: a - b, a, b }
    };
    // The simplex's vertices with their weights in its point nearest the origin.
    let mut simplex: Simplex = ArrayVec::new();
    let first = support(guess);
    let mut v = first.w;
    simplex.push((first, 1.0));
    for _ in 0..MAX_STEPS {
        let vv = v.norm_squared();
        if vv == 0.0 || !vv.is_finite() {
            return None;
        }
        let next = support(&v);
        if stop == Stop::Separating && v.dot(&next.w) > 0.0 {
            return Some(Ended {
                simplex,
                separating: Some(v),
            });
        }
        if vv - v.dot(&next.w) <= CONVERGED * vv || simplex.iter().any(|(s, _)| s.w == next.w) {
            break;
        }
        // At most three kept, so room for the fourth.
        simplex.push((next, 0.0));
        let points: ArrayVec<Vector, 4> = simplex.iter().map(|(s, _)| s.w).collect();
        let (nearest, kept) = nearest_on_simplex(&points)?;
        simplex = kept
            .iter()
            .map(|&(i, weight)| (simplex[i].0, weight))
            .collect();
        if nearest.norm_squared() >= vv {
            break;
        }
        v = nearest;
    }
    Some(Ended {
        simplex,
        separating: None,
    })
}

/// Up to four support points, each with its weight in the simplex's point nearest the origin.
type Simplex = ArrayVec<(Vertex, f64), 4>;

/// A simplex's vertices with positive weight in its point nearest the origin, as
/// `(index, weight)`.
type Kept = ArrayVec<(usize, f64), 4>;

/// `Kept` from a list.
fn keep<const N: usize>(entries: [(usize, f64); N]) -> Kept {
    entries.into_iter().collect()
}

/// The point of the simplex (one to four points) nearest the origin, and the vertices whose
/// convex combination it is; `None` when the origin is inside a tetrahedron or the
/// tetrahedron is flat.
fn nearest_on_simplex(s: &[Vector]) -> Option<(Vector, Kept)> {
    match *s {
        [p] => Some((p, keep([(0, 1.0)]))),
        [p, q] => Some(nearest_on_segment(p, q, [0, 1])),
        [p, q, r] => Some(nearest_on_triangle(p, q, r, [0, 1, 2])),
        [p, q, r, t] => nearest_on_tetrahedron([p, q, r, t]),
        _ => None,
    }
}

/// The point of segment `pq` nearest the origin (Ericson §5.1.2); `ids` name `p` and `q`.
fn nearest_on_segment(p: Vector, q: Vector, ids: [usize; 2]) -> (Vector, Kept) {
    let pq = q - p;
    let t = -p.dot(&pq) / pq.norm_squared();
    // A zero-length segment gives a NaN parameter: its start.
    if t.is_nan() || t <= 0.0 {
        (p, keep([(ids[0], 1.0)]))
    } else if t >= 1.0 {
        (q, keep([(ids[1], 1.0)]))
    } else {
        (p + pq * t, keep([(ids[0], 1.0 - t), (ids[1], t)]))
    }
}

/// The point of triangle `abc` nearest the origin, by its Voronoi regions (Ericson §5.1.5,
/// `ClosestPtPointTriangle` at the origin); `ids` name `a`, `b`, `c`.
fn nearest_on_triangle(a: Vector, b: Vector, c: Vector, ids: [usize; 3]) -> (Vector, Kept) {
    let (ab, ac) = (b - a, c - a);
    let (d1, d2) = (-ab.dot(&a), -ac.dot(&a));
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, keep([(ids[0], 1.0)]));
    }
    let (d3, d4) = (-ab.dot(&b), -ac.dot(&b));
    if d3 >= 0.0 && d4 <= d3 {
        return (b, keep([(ids[1], 1.0)]));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return nearest_on_segment(a, b, [ids[0], ids[1]]);
    }
    let (d5, d6) = (-ab.dot(&c), -ac.dot(&c));
    if d6 >= 0.0 && d5 <= d6 {
        return (c, keep([(ids[2], 1.0)]));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return nearest_on_segment(a, c, [ids[0], ids[2]]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return nearest_on_segment(b, c, [ids[1], ids[2]]);
    }
    let sum = va + vb + vc;
    if sum.is_nan() || sum <= 0.0 || va < 0.0 || vb < 0.0 || vc < 0.0 {
        // Flat in floating point, or the region tests disagree by rounding (a nearly flat
        // triangle, as support points close together on a curved surface make): the nearest
        // of its edges, so that the weights stay a convex combination.
        return [
            nearest_on_segment(a, b, [ids[0], ids[1]]),
            nearest_on_segment(a, c, [ids[0], ids[2]]),
            nearest_on_segment(b, c, [ids[1], ids[2]]),
        ]
        .into_iter()
        .min_by(|x, y| x.0.norm_squared().total_cmp(&y.0.norm_squared()))
        .expect("three edges");
    }
    let (v, w) = (vb / sum, vc / sum);
    (
        a + ab * v + ac * w,
        keep([(ids[0], 1.0 - v - w), (ids[1], v), (ids[2], w)]),
    )
}

/// The point of the tetrahedron nearest the origin: the nearest of its faces that have the
/// origin on their outer side (Ericson §5.1.6, `ClosestPtPointTetrahedron`); `None` when no
/// face does (the origin is inside, or the tetrahedron is flat).
fn nearest_on_tetrahedron(t: [Vector; 4]) -> Option<(Vector, Kept)> {
    const FACES: [([usize; 3], usize); 4] = [
        ([0, 1, 2], 3),
        ([0, 2, 3], 1),
        ([0, 3, 1], 2),
        ([1, 3, 2], 0),
    ];
    FACES
        .iter()
        .filter(|&&([i, j, k], opposite)| origin_beyond(t[i], t[j], t[k], t[opposite]))
        .map(|&([i, j, k], _)| nearest_on_triangle(t[i], t[j], t[k], [i, j, k]))
        .min_by(|x, y| x.0.norm_squared().total_cmp(&y.0.norm_squared()))
}

/// Whether the origin and `d` are strictly on opposite sides of the plane through `a`, `b`,
/// `c`.
fn origin_beyond(a: Vector, b: Vector, c: Vector, d: Vector) -> bool {
    let n = (b - a).cross(&(c - a));
    let (origin_side, d_side) = (-a.dot(&n), (d - a).dot(&n));
    origin_side * d_side < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The support mapping of a finite point set.
    fn support(points: &[Point]) -> impl FnMut(&Vector) -> Point + '_ {
        |d| {
            *points
                .iter()
                .max_by(|p, q| p.coords.dot(d).total_cmp(&q.coords.dot(d)))
                .unwrap()
        }
    }

    fn cube(at: Vector, side: f64) -> Vec<Point> {
        (0..8)
            .map(|k| {
                let corner = Vector::new(
                    f64::from(k & 1),
                    f64::from((k >> 1) & 1),
                    f64::from((k >> 2) & 1),
                );
                Point::from(at + corner * side)
            })
            .collect()
    }

    #[test]
    fn cubes_face_to_face() {
        let (a, b) = (
            cube(Vector::zeros(), 1.0),
            cube(Vector::new(3.0, 0.25, 0.5), 0.5),
        );
        let (p, q) =
            closest_points(support(&a), support(&b), &Vector::new(-1.0, 0.0, 0.0)).unwrap();
        assert!(((q - p).norm() - 2.0).abs() < 1e-12, "{p} {q}");
        assert!((p.x - 1.0).abs() < 1e-12 && (q.x - 3.0).abs() < 1e-12);
    }

    #[test]
    fn skew_edges() {
        // Two segments (degenerate hulls): x-axis segment and a y-parallel segment above it.
        let a = [Point::new(-1.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0)];
        let b = [Point::new(0.25, -1.0, 2.0), Point::new(0.25, 1.0, 2.0)];
        let (p, q) =
            closest_points(support(&a), support(&b), &Vector::new(0.3, 0.2, -1.0)).unwrap();
        assert!((p - Point::new(0.25, 0.0, 0.0)).norm() < 1e-12, "{p}");
        assert!((q - Point::new(0.25, 0.0, 2.0)).norm() < 1e-12, "{q}");
    }

    /// The separating search stops at a direction that puts A beyond B (checked over every
    /// point), on cubes apart along each axis and along a diagonal.
    #[test]
    fn separating_direction_puts_a_beyond_b() {
        let a = cube(Vector::zeros(), 1.0);
        for offset in [
            Vector::new(-3.0, 0.25, 0.5),
            Vector::new(0.2, 2.5, -0.1),
            Vector::new(0.1, 0.3, -1.75),
            Vector::new(-1.5, -1.5, -1.5),
        ] {
            let b = cube(offset, 0.5);
            let v = separating_direction(support(&a), support(&b), &-offset).unwrap();
            let lowest_a = a
                .iter()
                .map(|p| v.dot(&p.coords))
                .fold(f64::INFINITY, f64::min);
            let highest_b = b
                .iter()
                .map(|p| v.dot(&p.coords))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(lowest_a > highest_b, "{offset}: {v}");
        }
        let b = cube(Vector::new(0.5, 0.5, 0.5), 1.0);
        assert!(
            separating_direction(support(&a), support(&b), &Vector::new(-1.0, 0.0, 0.0)).is_none()
        );
    }

    #[test]
    fn overlapping_hulls_give_none() {
        let (a, b) = (
            cube(Vector::zeros(), 1.0),
            cube(Vector::new(0.5, 0.5, 0.5), 1.0),
        );
        assert!(closest_points(support(&a), support(&b), &Vector::new(-1.0, -1.0, -1.0)).is_none());
    }
}
