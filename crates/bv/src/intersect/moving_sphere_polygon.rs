//! Moving sphere vs. polygon: time of first contact.

use super::{moving_sphere_plane, plane::Plane, ray_polygon, ray_sphere};
use crate::{Point, Ray, Sphere, Vector};
use nalgebra::Point2;

/// Time `t ∈ [0, 1]` at which the sphere translated by `t·motion` first touches the closed
/// planar polygon (simple, vertices in order), or `None` (*Real-Time Rendering*, 3rd ed.
/// (2008), §16.18, sphere/polygon, and its equivalent form: a ray from the centre against the
/// polygon inflated by `r`; Ericson, *Real-Time Collision Detection* (2005), §5.5.6): first
/// contact with the polygon's plane ([`moving_sphere_plane`]); if the touching point lies in
/// the polygon that is the answer, otherwise the earliest contact with an edge (a ray against
/// the edge's cylinder of radius `r`) or a vertex (against a ball). A polygon of zero area
/// gives `None`.
pub fn time_of_contact(sphere: &Sphere, motion: &Vector, polygon: &[Point]) -> Option<f64> {
    let normal = ray_polygon::newell_normal(polygon).try_normalize(0.0)?;
    let plane = Plane::from_point_normal(&polygon[0], normal);
    let t_plane = moving_sphere_plane::time_of_contact(sphere, motion, &plane)?;
    let center = sphere.center + motion * t_plane;
    let foot = center - normal * plane.eval(&center);
    let k = normal.iamax();
    let proj = |p: &Point| Point2::new(p[(k + 1) % 3], p[(k + 2) % 3]);
    if ray_polygon::crossing_test(polygon.iter().map(proj), &proj(&foot)) {
        return Some(t_plane);
    }
    let ray = Ray::new(sphere.center, *motion);
    let edges = polygon.iter().zip(polygon.iter().cycle().skip(1));
    let t_edges = edges.filter_map(|(p, q)| ray_cylinder(&ray, p, q, sphere.radius));
    let t_vertices = polygon.iter().filter_map(|v| {
        ray_sphere::cast(
            &ray,
            &Sphere {
                center: *v,
                radius: sphere.radius,
            },
        )
        .map(|h| h.t)
    });
    t_edges
        .chain(t_vertices)
        .filter(|&t| t <= 1.0)
        .min_by(f64::total_cmp)
}

/// First `t >= 0` at which the ray is within `r` of the segment `p q` through its side (the
/// finite cylinder without caps; the caps are the vertex balls). `t = 0` if the origin is
/// already inside the finite cylinder.
fn ray_cylinder(ray: &Ray, p: &Point, q: &Point, r: f64) -> Option<f64> {
    let axis = (q - p).try_normalize(0.0)?;
    let len = (q - p).norm();
    let m = ray.origin - p;
    let (m_perp, d_perp) = (m - axis * m.dot(&axis), ray.dir - axis * ray.dir.dot(&axis));
    let (a, b, c) = (
        d_perp.norm_squared(),
        m_perp.dot(&d_perp),
        m_perp.norm_squared() - r * r,
    );
    let t = if c <= 0.0 {
        0.0
    } else {
        let disc = b * b - a * c;
        if a == 0.0 || b >= 0.0 || disc < 0.0 {
            return None;
        }
        (-b - disc.sqrt()) / a
    };
    let along = (m + ray.dir * t).dot(&axis);
    (0.0..=len).contains(&along).then_some(t)
}
