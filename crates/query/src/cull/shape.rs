//! Frustum–shape classification.

use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::plane::Plane;
use obbtree_bv::shape::PlacedShape;
use obbtree_bv::{Point, Vector};

/// Where a placed shape lies relative to the closed frustum, from the range of each plane's
/// function `n·x + d` over the shape, as [`classify_triangle`](super::classify_triangle) does
/// for a triangle (in floating point, conservative near the frustum's edges and corners in the
/// same way): outside one plane → `Outside`; inside all → `Inside`; otherwise `Intersecting`.
///
/// The ranges: a sphere's is `n·c + d ± r·|n|`; a capsule's spans its segment's ends widened
/// by `r·|n|`; a cylinder's spans its axis ends widened by `r·|n⊥|`, `n⊥` the part of `n`
/// across the axis (the rims' extremes); a box's or convex hull's spans its vertices. A
/// halfspace `m·x <= e` is unbounded: its range is a half-line when `n` is a multiple of `m`
/// (decided exactly), else the whole line, so it is never inside a frustum and outside a plane
/// only when that plane faces it.
pub fn classify_shape(frustum: &Frustum, shape: &PlacedShape) -> RegionRelation {
    RegionRelation::from_plane_ranges(frustum.planes().iter().map(|plane| range(plane, shape)))
}

/// The range of `plane`'s function over `shape`.
fn range(plane: &Plane, shape: &PlacedShape) -> (f64, f64) {
    let over = |points: &mut dyn Iterator<Item = &Point>, widen: f64| {
        let (lo, hi) = points.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let v = plane.eval(p);
            (lo.min(v), hi.max(v))
        });
        (lo - widen, hi + widen)
    };
    let n = plane.normal;
    match shape {
        PlacedShape::Sphere { center, radius } => {
            over(&mut [center].into_iter(), radius * n.norm())
        }
        PlacedShape::Capsule { a, b, radius } => over(&mut [a, b].into_iter(), radius * n.norm()),
        PlacedShape::Cylinder { a, b, radius } => {
            let axis = (b - a).normalize();
            let across = n - axis * n.dot(&axis);
            over(&mut [a, b].into_iter(), radius * across.norm())
        }
        PlacedShape::Polytope(p) => over(&mut p.vertices().iter(), 0.0),
        PlacedShape::Halfspace { normal, offset } => halfspace_range(plane, normal, *offset),
    }
}

/// The range of `plane`'s function over `{x : m·x <= e}`.
fn halfspace_range(plane: &Plane, m: &Vector, e: f64) -> (f64, f64) {
    let whole = (f64::NEG_INFINITY, f64::INFINITY);
    let n = plane.normal;
    if !parallel(&n, m) {
        return whole;
    }
    // n = λ·m: over the halfspace, n·x + d runs up to (λ > 0) or down to (λ < 0) λ·e + d.
    let lambda = n.norm() / m.norm() * n.dot(m).signum();
    let bound = lambda * e + plane.d;
    if lambda > 0.0 {
        (f64::NEG_INFINITY, bound)
    } else {
        (bound, f64::INFINITY)
    }
}

/// Whether `n` and `m` (non-zero) are parallel, exactly: every 2×2 minor `nᵢmⱼ − nⱼmᵢ` is 0,
/// each product compared as its rounded value and exact remainder (`fma`).
fn parallel(n: &Vector, m: &Vector) -> bool {
    let product = |x: f64, y: f64| {
        let p = x * y;
        (p, x.mul_add(y, -p))
    };
    [(0, 1), (1, 2), (0, 2)]
        .iter()
        .all(|&(i, j)| product(n[i], m[j]) == product(n[j], m[i]))
}
