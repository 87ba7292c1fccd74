//! Separating planes as certificates of disjointness that survive small motions.
//!
//! Two meshes whose convex hulls lie strictly on the two sides of a plane do not touch; a
//! plane found for one pair of poses usually still separates the meshes after a small motion
//! (Lin & Canny's coherence of separating features, 1991; Ericson, *Real-Time Collision
//! Detection* (2005) §9.1 on caching separating axes). A pair found disjoint keeps the
//! plane's normal `n` in A's frame, and the next query on the moved pair first checks
//! `max_{a ∈ A} n·a < min_{b ∈ B} n·b` on the hull vertices, B placed in A's frame as the
//! exact query places it: a few hundred dot products instead of a traversal.
//!
//! # Exactness
//!
//! The hull vertices come from the exact QuickHull of the mesh vertices
//! ([`convex_hull`], every visibility decided by exact predicates), so the support of the hull
//! vertices along any direction is the support of all mesh vertices. The query places B's
//! vertices at `fl(R·p + t)` with `R`, `t` of `pose_a⁻¹ · pose_b` (computed here by the same
//! call); each placed coordinate is within `4ε(3·max|p| + |t|∞)` of `R·p + t` (three products
//! and three sums, `|R_ij| <= 1 + 1e-10`), and the dot products here are within
//! `4ε·|n|₁·(magnitude)` of their exact values. The plane is accepted only if the computed gap
//! exceeds [`SLACK`] times `|n|₁ · (max|a| + max|b| + |t|∞)`, many times the sum of those
//! bounds. Then every placed vertex of B is strictly beyond the plane from every vertex of A,
//! so no triangle of A meets a triangle of B and the exact query would find none: the answer
//! "disjoint" is the query's answer.
//!
//! # Finding a plane
//!
//! The normal is the last iterate of the Frank–Wolfe method (Frank & Wolfe 1956; the
//! support-point iteration of Gilbert, Johnson & Keerthi 1988 without the simplex solver) for
//! the point of the Minkowski difference `B − A` nearest the origin: at each step, if the
//! support point of `B − A` against the current point `x` lies beyond the origin along `x`,
//! `x` separates; otherwise step towards that support point. A bounded number of steps;
//! failing to find a plane only means the full query runs.

use obbtree_bv::fit::hull::convex_hull;
use obbtree_bv::{Point, Pose, TriMesh, Vector};

/// Relative slack of the separation test, in units of `ε·|n|₁·magnitude` (the rounding of
/// placing a point and of the dot products is below 20 such units).
const SLACK: f64 = 256.0 * f64::EPSILON;

/// Frank–Wolfe steps before giving up on finding a plane.
const MAX_STEPS: usize = 24;

/// Meshes with no hull (flat) use their vertices directly up to this many.
const MAX_FLAT_VERTICES: usize = 256;

/// The points whose convex hull is the mesh's (its hull's vertices, in the mesh's frame), and
/// their largest coordinate magnitude.
#[derive(Clone, Debug)]
pub(crate) struct HullPoints {
    points: Vec<Point>,
    reach: f64,
    centroid: Point,
}

impl HullPoints {
    /// The hull vertices of `mesh`; `None` for a flat mesh with many vertices (no
    /// certificates for it).
    pub(crate) fn of(mesh: &TriMesh) -> Option<Self> {
        let vertices = mesh.vertices();
        let points: Vec<Point> = match convex_hull(vertices) {
            Some(hull) => hull
                .vertices
                .iter()
                .map(|&i| vertices[i as usize])
                .collect(),
            None if vertices.len() <= MAX_FLAT_VERTICES => vertices.to_vec(),
            None => return None,
        };
        let reach = points.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
        let centroid = Point::from(
            points.iter().fold(Vector::zeros(), |s, p| s + p.coords) / points.len() as f64,
        );
        Some(Self {
            points,
            reach,
            centroid,
        })
    }

    /// `max n·p` over the points.
    fn support(&self, n: &Vector) -> f64 {
        self.points
            .iter()
            .map(|p| n.dot(&p.coords))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The point maximising `n·p`.
    fn support_point(&self, n: &Vector) -> Point {
        let mut best = (f64::NEG_INFINITY, self.points[0]);
        for p in &self.points {
            let d = n.dot(&p.coords);
            if d > best.0 {
                best = (d, *p);
            }
        }
        best.1
    }
}

/// Whether `n` (in A's frame) certifies that `a` and `b`, B placed in A's frame by `b_in_a`,
/// are disjoint (see the module docs).
pub(crate) fn separates(a: &HullPoints, b: &HullPoints, b_in_a: &Pose, n: &Vector) -> bool {
    let (r, t) = (b_in_a.rotation(), b_in_a.translation());
    let n_in_b = r.transpose() * n;
    let max_a = a.support(n);
    let min_b = -b.support(&-n_in_b) + n.dot(t);
    let magnitude = a.reach + 3.0 * b.reach + t.amax();
    let slack = SLACK * n.lp_norm(1) * magnitude;
    min_b - max_a > slack
}

/// A normal (in A's frame) that [`separates`] `a` and `b` placed by `b_in_a`, trying `hint`
/// first, then Frank–Wolfe steps from the centroids' difference; `None` when none is found.
pub(crate) fn find_separation(
    a: &HullPoints,
    b: &HullPoints,
    b_in_a: &Pose,
    hint: Option<&Vector>,
) -> Option<Vector> {
    if let Some(n) = hint.filter(|n| separates(a, b, b_in_a, n)) {
        return Some(*n);
    }
    let placed = |p: &Point| b_in_a.transform_point(p);
    // x: a point of B − A; the nearest point to the origin is the separating direction.
    let mut x = placed(&b.centroid) - a.centroid;
    let r = b_in_a.rotation();
    for _ in 0..MAX_STEPS {
        if x == Vector::zeros() || !x.iter().all(|c| c.is_finite()) {
            return None;
        }
        // The support point of B − A against x: B's lowest along x minus A's highest.
        let s = placed(&b.support_point(&-(r.transpose() * x))) - a.support_point(&x);
        if s.dot(&x) > 0.0 {
            let n = x.normalize();
            return separates(a, b, b_in_a, &n).then_some(n);
        }
        let step = x - s;
        let length = step.norm_squared();
        if length == 0.0 {
            return None;
        }
        let gamma = (x.dot(&step) / length).clamp(0.0, 1.0);
        x -= step * gamma;
    }
    None
}
