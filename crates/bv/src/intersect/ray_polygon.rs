//! Ray–polygon: plane hit, then the crossing test in the projection plane.

use super::hit::RayHit;
use crate::{Point, Ray, Vector};
use nalgebra::Point2;
use robust::{orient2d, Coord};

/// First hit of the ray on a planar polygon given by its vertices in order (simple, convex
/// or not): intersect the polygon's plane (Newell normal), drop the coordinate of largest
/// normal component and run [`crossing_test`] (*Real-Time Rendering*, 3rd ed. (2008),
/// §16.9). A ray in the polygon's plane, or a polygon with zero area, misses.
pub fn cast(ray: &Ray, polygon: &[Point]) -> Option<RayHit> {
    let n = newell_normal(polygon);
    let denom = n.dot(&ray.dir);
    if denom == 0.0 {
        return None;
    }
    let t = n.dot(&(polygon[0] - ray.origin)) / denom;
    if t < 0.0 {
        return None;
    }
    let hit = RayHit::at(ray, t);
    let k = n.iamax();
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let proj = |p: &Point| Point2::new(p[i], p[j]);
    crossing_test(polygon.iter().map(proj), &proj(&hit.point)).then_some(hit)
}

/// Newell's normal of a polygon (twice its area times the unit normal; zero for fewer than
/// three vertices).
pub fn newell_normal(polygon: &[Point]) -> Vector {
    let next = polygon.iter().cycle().skip(1);
    polygon.iter().zip(next).fold(Vector::zeros(), |n, (p, q)| {
        n + Vector::new(
            (p.y - q.y) * (p.z + q.z),
            (p.z - q.z) * (p.x + q.x),
            (p.x - q.x) * (p.y + q.y),
        )
    })
}

/// Whether `p` lies in the closed 2D polygon, by the crossing test (Jordan curve theorem,
/// even–odd rule; E. Haines, "Point in polygon strategies", Graphics Gems IV, 1994; Ericson,
/// *Real-Time Collision Detection* (2005), §5.4.1): count the edges crossing the `+x` ray
/// from `p`, using half-open vertical ranges so a vertex on the ray counts once. Which side of
/// an edge `p` lies on is decided exactly (`orient2d`), and points on the boundary are inside
/// (closed-set policy).
pub fn crossing_test<I>(polygon: I, p: &Point2<f64>) -> bool
where
    I: IntoIterator<Item = Point2<f64>>,
    I::IntoIter: Clone,
{
    let it = polygon.into_iter();
    let next = it.clone().cycle().skip(1);
    let c = |q: &Point2<f64>| Coord { x: q.x, y: q.y };
    let mut inside = false;
    for (a, b) in it.zip(next) {
        let side = orient2d(c(&a), c(&b), c(p));
        let within = |k: usize| a[k].min(b[k]) <= p[k] && p[k] <= a[k].max(b[k]);
        if side == 0.0 && within(0) && within(1) {
            return true; // on the boundary
        }
        if (a.y > p.y) != (b.y > p.y) && (side > 0.0) == (b.y > a.y) {
            inside = !inside;
        }
    }
    inside
}
