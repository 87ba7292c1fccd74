//! Ray–polygon and the crossing test: vs. a fan triangulation of star-shaped (possibly
//! concave) polygons tested with exact orientation, and vs. the watertight ray–triangle test.
mod common;

use common::*;
use nalgebra::{Point2, Rotation3};
use obbtree_bv::intersect::{
    ray_polygon::{cast, crossing_test},
    ray_triangle,
};
use obbtree_bv::{Point, Ray, Triangle, Vector};
use proptest::prelude::*;
use robust::{orient2d, Coord};

/// A star-shaped polygon around `c`: sorted angles, random radii (simple, often concave).
fn star(c: Point2<f64>, parts: &[(f64, f64)]) -> Vec<Point2<f64>> {
    let mut parts = parts.to_vec();
    parts.sort_by(|a, b| a.0.total_cmp(&b.0));
    parts.dedup_by(|a, b| a.0 == b.0);
    parts
        .iter()
        .map(|&(angle, r)| c + nalgebra::Vector2::new(angle.cos(), angle.sin()) * r)
        .collect()
}

/// Oracle: `p` in some closed fan triangle `(c, v_i, v_i+1)` (exact orientation signs).
fn in_fan(c: &Point2<f64>, poly: &[Point2<f64>], p: &Point2<f64>) -> bool {
    let k = |q: &Point2<f64>| Coord { x: q.x, y: q.y };
    (0..poly.len()).any(|i| {
        let (a, b) = (&poly[i], &poly[(i + 1) % poly.len()]);
        let s = [
            orient2d(k(c), k(a), k(p)),
            orient2d(k(a), k(b), k(p)),
            orient2d(k(b), k(c), k(p)),
        ];
        s.iter().all(|&x| x >= 0.0) || s.iter().all(|&x| x <= 0.0)
    })
}

fn parts() -> impl Strategy<Value = Vec<(f64, f64)>> {
    prop::collection::vec((0.0..std::f64::consts::TAU, 0.5..4.0f64), 3..12)
}

proptest! {
    #![proptest_config(config())]

    /// Crossing test vs. the fan oracle, on points near the polygon, vertices and edge points.
    #[test]
    fn crossing_matches_fan(parts in parts(), px in -5.0..5.0f64, py in -5.0..5.0f64, pick in 0..3u8, s in 0.0..1.0f64) {
        let c = Point2::new(0.25, -0.5);
        let poly = star(c, &parts);
        prop_assume!(poly.len() >= 3);
        let p = match pick {
            0 => Point2::new(px, py),
            1 => poly[(px.abs() * 10.0) as usize % poly.len()],
            _ => { let i = (py.abs() * 10.0) as usize % poly.len(); poly[i] + (poly[(i + 1) % poly.len()] - poly[i]) * s }
        };
        // The fan is the polygon only if it is star-shaped w.r.t. c (angles span < π gaps).
        let max_gap = (0..poly.len()).map(|i| { let (a, b) = (poly[i] - c, poly[(i + 1) % poly.len()] - c); b.y.atan2(b.x) - a.y.atan2(a.x) })
            .map(|g| g.rem_euclid(std::f64::consts::TAU)).fold(0.0, f64::max);
        prop_assume!(max_gap < 3.0);
        let got = crossing_test(poly.iter().copied(), &p);
        if pick == 0 {
            prop_assert_eq!(got, in_fan(&c, &poly, &p), "{:?} {:?}", poly, p);
        } else if pick == 1 {
            prop_assert!(got, "vertex {:?} of {:?}", p, poly);
        } else {
            // Edge points are rounded off the edge: inside or within rounding of it.
            prop_assert!(got || in_fan(&c, &poly, &p) == got);
        }
    }

    /// 3D: the polygon placed in a random plane; the ray hit must match the watertight
    /// ray–triangle test over the fan triangles (up to rays within rounding of an edge).
    #[test]
    fn cast_matches_fan_triangles(parts in parts(), axis in vector(), angle in -3.0..3.0f64, shift in vector(), ray in ray()) {
        let poly2 = star(Point2::origin(), &parts);
        prop_assume!(poly2.len() >= 3 && axis.norm() > 1e-3);
        let rot = Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle);
        let poly: Vec<Point> = poly2.iter().map(|q| Point::from(rot * Vector::new(q.x, q.y, 0.0) + shift)).collect();
        let center = Point::from(shift);
        let fan = (0..poly.len()).map(|i| Triangle::new(center, poly[i], poly[(i + 1) % poly.len()]));
        let max_gap = (0..poly2.len()).map(|i| { let (a, b) = (poly2[i], poly2[(i + 1) % poly2.len()]); (b.y.atan2(b.x) - a.y.atan2(a.x)).rem_euclid(std::f64::consts::TAU) }).fold(0.0, f64::max);
        prop_assume!(max_gap < 3.0);
        let want = fan.clone().filter_map(|t| ray_triangle::cast_watertight(&ray, &t)).map(|h| h.t).next();
        let got = cast(&ray, &poly);
        match (got, want) {
            (Some(g), Some(w)) => prop_assert!(close(g.t, w, 1e-7), "{} {}", g.t, w),
            (None, None) => {}
            (g, _) => {
                // Grazing an outer edge: the hit point is within rounding of the boundary.
                let plane_t = g.map(|h| h.t).unwrap_or_else(|| { let n = rot * Vector::z(); n.dot(&(center - ray.origin)) / n.dot(&ray.dir) });
                let p = ray.point_at(plane_t);
                let dist = (0..poly.len()).map(|i| { let (a, b) = (poly[i], poly[(i + 1) % poly.len()]); let e = b - a; let s = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0); (p - (a + e * s)).norm() }).fold(f64::INFINITY, f64::min);
                prop_assert!(dist < 1e-6 * (1.0 + p.coords.norm()) || !plane_t.is_finite() || plane_t.abs() > 1e6, "got {:?} want {:?} dist {}", g, want, dist);
            }
        }
    }
}

#[test]
fn adversarial_cases() {
    // Concave "C" polygon in the plane z = 1 (scaled by powers of two near 1e-8 and 1e8).
    for scale in [1.0, 2f64.powi(-27), 2f64.powi(27)] {
        let c: Vec<Point> = [
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (3.0, 2.0),
            (3.0, 3.0),
            (0.0, 3.0),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x * scale, y * scale, scale))
        .collect();
        let hit = |x: f64, y: f64| {
            cast(
                &Ray::new(Point::new(x * scale, y * scale, 0.0), Vector::z() * scale),
                &c,
            )
            .map(|h| h.t)
        };
        assert_eq!(hit(0.5, 1.5), Some(1.0)); // inside the spine
        assert_eq!(hit(2.0, 1.5), None); // in the notch
        assert_eq!(hit(2.0, 1.0), Some(1.0)); // on the notch's edge (closed)
        assert_eq!(hit(1.0, 1.5), Some(1.0)); // on the notch's inner edge
        assert_eq!(hit(3.0, 3.0), Some(1.0)); // at a vertex
        assert_eq!(hit(0.0, 1.0), Some(1.0)); // vertex-height crossing on the left edge
        assert_eq!(hit(-1.0, 1.0), None); // horizontal through two vertices, outside
        assert_eq!(hit(0.5, 2.0), Some(1.0)); // horizontal line through vertices (1,2),(3,2)
                                              // Ray in the polygon's plane: policy miss. Ray pointing away: miss.
        assert!(cast(
            &Ray::new(Point::new(-scale, 0.5 * scale, scale), Vector::x()),
            &c
        )
        .is_none());
        assert!(cast(
            &Ray::new(Point::new(0.5 * scale, 0.5 * scale, 0.0), -Vector::z()),
            &c
        )
        .is_none());
    }
    // Degenerate polygons: fewer than three vertices, or collinear: miss, no panic.
    let ray = Ray::new(Point::new(0.0, 0.0, -1.0), Vector::z());
    assert!(cast(&ray, &[]).is_none());
    assert!(cast(&ray, &[Point::origin(), Point::new(1.0, 0.0, 0.0)]).is_none());
    assert!(cast(
        &ray,
        &[
            Point::origin(),
            Point::new(1.0, 0.0, 0.0),
            Point::new(2.0, 0.0, 0.0)
        ]
    )
    .is_none());
}
