//! Rectangle swept spheres: fits and merges contain what they were fitted around, checked
//! with `contains_point(p, 0.0)` and exactly (the rectangle as the exact parallelogram its
//! float axes and lengths span, by the rational hull-distance oracle), at every scale and on
//! degenerate input; transformed copies contain the moved points; the measures.

mod common;

use common::config_with;
use common::distance::dyadic_hull_distance_squared;
use common::exact::{q, Q3};
use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use num_rational::BigRational;
use obbtree_bv::{BoundingVolume, Point, Pose, Rss, Vector};
use proptest::prelude::*;

/// The exact value of `corner + s·lengths[0]·axes[0] + t·lengths[1]·axes[1]` for `s, t` in
/// `{0, 1}`.
fn exact_corner(r: &Rss, s: bool, t: bool) -> Q3 {
    std::array::from_fn(|k| {
        let mut x = q(r.corner[k]);
        if s {
            x += q(r.lengths[0]) * q(r.axes[(k, 0)]);
        }
        if t {
            x += q(r.lengths[1]) * q(r.axes[(k, 1)]);
        }
        x
    })
}

/// The exact squared distance from `p` to the RSS's rectangle (two triangles).
fn rectangle_distance_squared(p: &Q3, r: &Rss) -> BigRational {
    let c = [(false, false), (true, false), (true, true), (false, true)]
        .map(|(s, t)| exact_corner(r, s, t));
    let first = dyadic_hull_distance_squared(
        std::slice::from_ref(p),
        &[c[0].clone(), c[1].clone(), c[2].clone()],
    );
    let second = dyadic_hull_distance_squared(
        std::slice::from_ref(p),
        &[c[0].clone(), c[2].clone(), c[3].clone()],
    );
    first.min(second)
}

/// Whether the ball `(centre, radius)` lies in the RSS, exactly: the centre within
/// `r.radius − radius` of the rectangle.
fn holds_exactly(r: &Rss, centre: &Q3, radius: f64) -> bool {
    let room = q(r.radius) - q(radius);
    room >= BigRational::from_integer(0.into())
        && rectangle_distance_squared(centre, r) <= &room * &room
}

fn exact_point(p: &Point) -> Q3 {
    [q(p.x), q(p.y), q(p.z)]
}

/// Point clouds: generic, flat (a plane through the origin's neighbourhood), collinear,
/// repeated, at scales 1e-60 … 1e90 and shifted far from the origin.
fn cloud() -> impl Strategy<Value = Vec<Point>> {
    let raw = prop::collection::vec([-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64], 1..24);
    let shape = 0usize..4;
    let scale = prop_oneof![Just(1.0), Just(1e-60), Just(3e-7), Just(1e9), Just(1e90)];
    let shift = prop_oneof![Just(0.0), Just(0.5), Just(1e6)];
    (raw, shape, scale, shift).prop_map(|(raw, shape, scale, shift)| {
        raw.iter()
            .map(|v| {
                let v = match shape {
                    0 => *v,
                    1 => [v[0], v[1], 0.3 * v[0] - 0.2 * v[1]],
                    2 => [v[0], 2.0 * v[0], -v[0]],
                    _ => raw[0],
                };
                Point::new(
                    (v[0] + shift) * scale,
                    (v[1] + shift) * scale,
                    (v[2] + shift) * scale,
                )
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(config_with(200))]

    /// Fits from points and from triangles contain every input point, by `contains_point`
    /// with zero tolerance and exactly.
    #[test]
    fn fits_contain_their_points(points in cloud()) {
        let triangles: Vec<[Point; 3]> = points
            .iter()
            .enumerate()
            .map(|(i, p)| [*p, points[(i + 1) % points.len()], points[(i + 5) % points.len()]])
            .collect();
        for rss in [Rss::fit_points(&points, ()), Rss::fit_triangles(&triangles, ())] {
            prop_assert!(rss.lengths[0] >= 0.0 && rss.lengths[1] >= 0.0 && rss.radius >= 0.0);
            for p in &points {
                prop_assert!(rss.contains_point(p, 0.0), "{:?} misses {:?}", rss, p);
                prop_assert!(holds_exactly(&rss, &exact_point(p), 0.0), "{:?} misses {:?} exactly", rss, p);
            }
        }
    }

    /// A merge contains both inputs exactly: each input is the hull of its four corner balls.
    #[test]
    fn merge_contains_both(a in cloud(), b in cloud()) {
        let (a, b) = (Rss::fit_points(&a, ()), Rss::fit_points(&b, ()));
        let m = a.merge(&b);
        for r in [&a, &b] {
            for (s, t) in [(false, false), (true, false), (true, true), (false, true)] {
                prop_assert!(holds_exactly(&m, &exact_corner(r, s, t), r.radius), "{:?} + {:?} = {:?}", a, b, m);
            }
        }
    }

    /// The moved RSS contains the moved points (as moved in floating point).
    #[test]
    fn transformed_contains_moved_points(points in cloud(), axis in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
                                         angle in -3.0..3.0f64, shift in [-1e3..1e3f64, -1e3..1e3f64, -1e3..1e3f64]) {
        let rss = Rss::fit_points(&points, ());
        let rotation = UnitQuaternion::from_scaled_axis(Vector::from(axis).normalize() * angle);
        let size = points.iter().fold(0.0, |m: f64, p| m.max(p.coords.amax()));
        let motion = Pose::try_from(Isometry3::from_parts(Translation3::from(Vector::from(shift) * size), rotation)).unwrap();
        let moved = rss.transformed(&motion);
        for p in &points {
            prop_assert!(moved.contains_point(&motion.transform_point(p), 0.0));
        }
    }
}

/// The measures reduce to the sphere's, the capsule's and the rectangle's.
#[test]
fn measures_of_the_special_shapes() {
    let pi = std::f64::consts::PI;
    let rss = |a: f64, b: f64, r: f64| Rss {
        axes: nalgebra::Matrix3::identity(),
        corner: Point::origin(),
        lengths: [a, b],
        radius: r,
    };
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs().max(1.0);
    assert!(close(rss(0.0, 0.0, 2.0).volume(), 4.0 / 3.0 * pi * 8.0));
    assert!(close(rss(0.0, 0.0, 2.0).surface_area(), 4.0 * pi * 4.0));
    assert!(close(
        rss(3.0, 0.0, 2.0).volume(),
        pi * 4.0 * 3.0 + 4.0 / 3.0 * pi * 8.0
    ));
    assert!(close(
        rss(3.0, 0.0, 2.0).surface_area(),
        2.0 * pi * 2.0 * 3.0 + 4.0 * pi * 4.0
    ));
    assert!(close(rss(3.0, 5.0, 0.0).volume(), 0.0));
    assert!(close(rss(3.0, 5.0, 0.0).surface_area(), 30.0));
    assert_eq!(rss(3.0, 5.0, 1.0).center(), Point::new(1.5, 2.5, 0.0));
}

/// Points on a flat rectangle give an RSS of (nearly) zero radius whose rectangle is theirs.
#[test]
fn a_flat_rectangle_is_fitted_flat() {
    let points: Vec<Point> = (0..=10)
        .flat_map(|i| (0..=4).map(move |j| Point::new(i as f64 * 0.4, j as f64 * 0.25, 7.0)))
        .collect();
    let rss = Rss::fit_points(&points, ());
    assert!(rss.radius < 1e-12, "{rss:?}");
    let mut lengths = rss.lengths;
    lengths.sort_by(f64::total_cmp);
    assert!(
        (lengths[0] - 1.0).abs() < 1e-12 && (lengths[1] - 4.0).abs() < 1e-12,
        "{rss:?}"
    );
    let axes = rss.split_axes().unwrap();
    assert!((axes[0].x.abs() - 1.0).abs() < 1e-12, "{axes:?}");
}
