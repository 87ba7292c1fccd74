//! Ray–AABB: slab method vs. Woo's method vs. an exact rational oracle vs. parry3d-f64.
mod common;

use common::*;
use obbtree_bv::intersect::ray_aabb::{cast, cast_woo, interval};
use obbtree_bv::{Aabb, Point, Ray, Vector};
use parry3d_f64::query::RayCast;
use proptest::prelude::*;

fn exact(ray: &Ray, b: &Aabb) -> Option<Q> {
    let slabs: Vec<_> = (0..3)
        .map(|k| {
            (
                int(ray.origin[k]),
                int(ray.dir[k]),
                int(b.mins[k]),
                int(b.maxs[k]),
            )
        })
        .collect();
    exact_slabs(&slabs)
}

fn grown(b: &Aabb, e: f64) -> Aabb {
    Aabb::new(b.mins - Vector::repeat(e), b.maxs + Vector::repeat(e))
}

proptest! {
    #![proptest_config(config())]

    /// On small integers every slab quantity is exact, so the result must equal the
    /// rational oracle exactly (hit/miss and t); this hits touching/grazing cases often.
    #[test]
    fn grid_matches_exact(o in grid_point(6), d in grid_vector(3), c in grid_point(4), h in grid_vector(3)) {
        prop_assume!(d != Vector::zeros());
        let b = Aabb::new(c - h.abs(), c + h.abs());
        let ray = Ray::new(o, d);
        let want = exact(&ray, &b);
        let got = cast(&ray, &b);
        prop_assert_eq!(got.is_some(), want.is_some(), "{:?} {:?}", ray, b);
        prop_assert_eq!(cast_woo(&ray, &b).is_some(), want.is_some(), "woo {:?} {:?}", ray, b);
        if let (Some(g), Some(w)) = (got, want) {
            prop_assert_eq!(g.t, w.to_f64());
            prop_assert!(close(cast_woo(&ray, &b).unwrap().t, g.t, 1e-15));
        }
    }

    /// Slab vs. Woo on random floats: same answer, except for rays grazing the box within
    /// rounding (then a slightly grown box is hit and a slightly shrunk one missed).
    #[test]
    fn slab_agrees_with_woo(ray in ray(), b in aabb()) {
        let (s, w) = (cast(&ray, &b), cast_woo(&ray, &b));
        match (s, w) {
            (Some(s), Some(w)) => {
                prop_assert!(close(s.t, w.t, 1e-12), "{:?} {:?}", s, w);
                prop_assert!((s.point - w.point).norm() <= 1e-9 * (1.0 + s.point.coords.norm()));
            }
            (None, None) => {}
            _ => {
                prop_assert!(cast(&ray, &grown(&b, 1e-9)).is_some());
                prop_assert!(b.maxs.x - b.mins.x < 2e-9 || b.maxs.y - b.mins.y < 2e-9 || b.maxs.z - b.mins.z < 2e-9 || cast(&ray, &grown(&b, -1e-9)).is_none());
            }
        }
    }

    /// Against parry3d-f64's solid AABB ray cast.
    #[test]
    fn agrees_with_parry(ray in ray(), b in aabb()) {
        let pb = parry3d_f64::bounding_volume::Aabb::new(pp(&b.mins), pp(&b.maxs));
        let theirs = pb.cast_local_ray(&pray(&ray), f64::MAX, true);
        match (cast(&ray, &b), theirs) {
            (Some(h), Some(t)) => prop_assert!(close(h.t, t, 1e-12), "{} {}", h.t, t),
            (None, None) => {}
            (mine, theirs) => prop_assert!(false, "mine {:?} parry {:?} for {:?} {:?}", mine, theirs, ray, b),
        }
    }

    /// Dense sampling: the hit point lies on the box and the ray's points sampled before it
    /// lie outside; a miss has no sampled point inside.
    #[test]
    fn dense_sampling(ray in ray(), b in aabb()) {
        let inside = |p: &Point| (0..3).all(|k| b.mins[k] - 1e-9 <= p[k] && p[k] <= b.maxs[k] + 1e-9);
        let strictly_inside = |p: &Point| (0..3).all(|k| b.mins[k] + 1e-9 < p[k] && p[k] < b.maxs[k] - 1e-9);
        let hit = cast(&ray, &b);
        let t_max = 40.0 / ray.dir.norm();
        for i in 0..=200 {
            let t = t_max * i as f64 / 200.0;
            if strictly_inside(&ray.point_at(t)) {
                prop_assert!(hit.is_some_and(|h| h.t <= t + 1e-9));
            }
        }
        if let Some(h) = hit {
            prop_assert!(inside(&h.point));
            if let Some((t0, t1)) = interval(&ray, &b) {
                prop_assert!(t0 <= t1 && inside(&ray.point_at(t1)) && inside(&ray.point_at(0.5 * (t0 + t1))));
            }
        }
    }
}

fn unit_box(scale: f64, offset: f64) -> Aabb {
    Aabb::new(
        Point::new(offset, offset, offset),
        Point::new(offset + scale, offset + scale, offset + scale),
    )
}

#[test]
fn adversarial_cases() {
    for (scale, offset) in [
        (1.0, 0.0),
        (1e-8, 0.0),
        (1e-8, 3e-8),
        (1e8, 0.0),
        (1e8, -3e8),
        (1.0, 1e8),
    ] {
        let b = unit_box(scale, offset);
        let p = |x: f64, y: f64, z: f64| {
            Point::new(offset + x * scale, offset + y * scale, offset + z * scale)
        };
        let v = |x: f64, y: f64, z: f64| Vector::new(x * scale, y * scale, z * scale);
        let cases = [
            // (origin, dir, expected t)
            (p(-1.0, 0.5, 0.5), v(1.0, 0.0, 0.0), Some(1.0)), // head-on, parallel to 2 axes
            (p(-1.0, 1.0, 0.5), v(1.0, 0.0, 0.0), Some(1.0)), // grazing the top face (d_y = 0)
            (p(-1.0, 1.0, 1.0), v(1.0, 0.0, 0.0), Some(1.0)), // along an edge
            (p(-1.0, 1.5, 0.5), v(1.0, 0.0, 0.0), None),      // parallel, above
            (p(-1.0, -1.0, 0.5), v(1.0, 1.0, 0.0), Some(1.0)), // through an edge exactly
            (p(-1.0, -1.0, -1.0), v(1.0, 1.0, 1.0), Some(1.0)), // through a vertex
            (p(2.0, -1.0, 0.5), v(-1.0, 1.0, 0.0), Some(1.0)), // touching only the vertex edge (1,0)
            (p(0.5, 0.5, 0.5), v(0.0, 0.0, 1.0), Some(0.0)),   // starting inside
            (p(1.0, 0.5, 0.5), v(1.0, 0.0, 0.0), Some(0.0)),   // starting on a face, leaving
            (p(2.0, 0.5, 0.5), v(1.0, 0.0, 0.0), None),        // pointing away
            (p(-1.0, 2.0, 0.5), v(1.0, -1.0, 0.0), Some(1.0)), // clipping the corner (0,1)
        ];
        for (o, d, want) in cases {
            let ray = Ray::new(o, d);
            for (name, got) in [("slab", cast(&ray, &b)), ("woo", cast_woo(&ray, &b))] {
                assert_eq!(
                    got.map(|h| h.t),
                    want,
                    "{name} scale {scale} offset {offset} o {o:?} d {d:?}"
                );
            }
        }
    }
    // A degenerate (point) box is hit by a ray through it.
    let b = Aabb::new(Point::new(1.0, 2.0, 3.0), Point::new(1.0, 2.0, 3.0));
    let ray = Ray::new(Point::new(0.0, 1.0, 2.0), Vector::new(1.0, 1.0, 1.0));
    assert_eq!(cast(&ray, &b).unwrap().point, b.mins);
    assert_eq!(cast_woo(&ray, &b).unwrap().point, b.mins);
}
