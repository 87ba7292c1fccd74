//! Segment–AABB overlap: vs. parry3d-f64's segment–cuboid distance (GJK), vs. an exact
//! clipping oracle on integer data, and adversarial cases.
mod common;

use common::*;
use obbtree_bv::intersect::segment_aabb::overlaps;
use obbtree_bv::{Aabb, Point, Vector};
use parry3d_f64::shape::{Cuboid, Segment};
use proptest::prelude::*;

/// parry's distance between the segment and the box.
pub fn parry_distance(p0: &Point, p1: &Point, b: &Aabb) -> f64 {
    let c = nalgebra::center(&b.mins, &b.maxs);
    let cub = Cuboid::new(pv(&((b.maxs - b.mins) * 0.5)));
    let seg = Segment::new(pp(p0), pp(p1));
    parry3d_f64::query::distance(
        &parry3d_f64::math::Pose::from_translation(pp(&c)),
        &cub,
        &parry3d_f64::math::Pose::identity(),
        &seg,
    )
    .unwrap()
    .distance
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn agrees_with_parry_distance(p0 in point(), p1 in point(), b in aabb()) {
        let d = parry_distance(&p0, &p1, &b);
        let got = overlaps(&p0, &p1, &b);
        if d > 1e-9 { prop_assert!(!got, "distance {}", d); }
        if d == 0.0 { prop_assert!(got, "touching/overlapping but reported disjoint"); }
    }

    /// Integer data: exact slab clipping of the segment (t in [0, 1]) decides.
    #[test]
    fn grid_matches_exact(p0 in grid_point(5), d in grid_vector(4), c in grid_point(3), h in grid_vector(2)) {
        let b = Aabb::new(c - h.abs(), c + h.abs());
        let slabs: Vec<_> = (0..3).map(|k| (int(p0[k]), int(d[k]), int(b.mins[k]), int(b.maxs[k]))).collect();
        let want = exact_slabs(&slabs).is_some_and(|t| t.0 <= t.1);
        prop_assert_eq!(overlaps(&p0, &(p0 + d), &b), want, "{:?} {:?} {:?}", p0, d, b);
    }
}

#[test]
fn adversarial_cases() {
    for scale in [1.0, 2f64.powi(-27), 2f64.powi(27)] {
        let b = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(scale, scale, scale));
        let s = |a: [f64; 3], c: [f64; 3]| {
            overlaps(
                &(Point::from(Vector::from(a)) * scale),
                &(Point::from(Vector::from(c)) * scale),
                &b,
            )
        };
        assert!(s([-1.0, 0.5, 0.5], [2.0, 0.5, 0.5])); // through
        assert!(s([-1.0, 1.0, 1.0], [2.0, 1.0, 1.0])); // along an edge
        assert!(s([-1.0, 0.5, 1.0], [2.0, 0.5, 1.0])); // in the top face plane (parallel)
        assert!(!s([-1.0, 0.5, 1.0 + 1e-9], [2.0, 0.5, 1.0 + 1e-9]));
        assert!(s([-1.0, 0.5, 0.5], [0.0, 0.5, 0.5])); // ends on a face
        assert!(!s([-1.0, 0.5, 0.5], [-1e-9, 0.5, 0.5])); // stops short
        assert!(s([1.0, 1.0, 1.0], [2.0, 3.0, 4.0])); // touches a vertex
        assert!(s([0.5, -0.5, 2.0], [0.5, 1.5, 0.0])); // crosses the (y=0..1, z=1) edge region
        assert!(s([3.0, -1.0, 0.5], [0.0, 2.0, 0.5])); // x + y = 2 touches the vertical edge (1, 1)
        assert!(!s([3.5, -1.0, 0.5], [0.0, 2.5, 0.5])); // passes that edge outside: only a cross axis separates
        assert!(s([0.2, 0.3, 0.4], [0.2, 0.3, 0.4])); // degenerate (point) segment inside
        assert!(s([0.25, 0.5, 0.5], [0.75, 0.5, 0.5])); // fully inside
    }
}
