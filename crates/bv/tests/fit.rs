//! Fitting: containment, exactness on boxes, Eberly's monotonicity, Welzl's optimality (against a
//! brute-force minimum sphere) and degenerate inputs.

mod common;

use nalgebra::{Matrix3, UnitQuaternion, Vector2};
use obbtree_bv::fit::{eberly, hull, min_rect};
use obbtree_bv::{
    Aabb, BoundingVolume, Kdop14, Kdop18, Kdop26, Kdop6, Obb, ObbFit, Point, Pose, Sphere,
    SphereFit, Vector,
};
use proptest::prelude::*;

/// A random cloud: unit-cube points stretched per axis (1e-3..1e3), rotated, scaled and moved,
/// with some points repeated. Sizes and offsets span 1e-6..1e6.
fn cloud() -> impl Strategy<Value = Vec<Point>> {
    (
        prop::collection::vec(prop::array::uniform3(-1.0..1.0f64), 1..48),
        prop::array::uniform3(-3.0..3.0f64),
        prop::array::uniform4(-1.0..1.0f64),
        -6.0..6.0f64,
        prop::array::uniform3(-1.0..1.0f64),
        -6.0..6.0f64,
        0usize..4,
    )
        .prop_map(|(raw, stretch, q, scale, offset, offset_exp, repeats)| {
            let rot = rotation(q);
            let s = 10f64.powf(scale);
            let o = Vector::from(offset) * 10f64.powf(offset_exp);
            let mut pts: Vec<Point> = raw
                .iter()
                .map(|c| {
                    let v = Vector::new(
                        c[0] * 10f64.powf(stretch[0]),
                        c[1] * 10f64.powf(stretch[1]),
                        c[2] * 10f64.powf(stretch[2]),
                    );
                    Point::from(rot * v * s + o)
                })
                .collect();
            for i in 0..repeats.min(pts.len()) {
                pts.push(pts[i]);
            }
            pts
        })
}

fn rotation(q: [f64; 4]) -> Matrix3<f64> {
    let q = nalgebra::Quaternion::new(q[0] + 1e-3, q[1], q[2], q[3]);
    UnitQuaternion::new_normalize(q)
        .to_rotation_matrix()
        .into_inner()
}

/// Consecutive triples as triangles (the cloud padded by repeating its first point).
fn triangles(points: &[Point]) -> Vec<[Point; 3]> {
    let mut p = points.to_vec();
    while !p.len().is_multiple_of(3) {
        p.push(points[0]);
    }
    p.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()
}

fn assert_valid_obb(b: &Obb) {
    assert!(b.center.iter().all(|c| c.is_finite()), "{b:?}");
    assert!(
        b.half_extents.iter().all(|h| h.is_finite() && *h >= 0.0),
        "{b:?}"
    );
    let r = b.axes;
    assert!(
        (r.transpose() * r - Matrix3::identity()).amax() < 1e-12,
        "axes not orthonormal: {b:?}"
    );
    assert!(
        (r.determinant() - 1.0).abs() < 1e-12,
        "axes not right-handed: {b:?}"
    );
}

fn assert_contains<V: BoundingVolume>(v: &V, points: &[Point], tolerance: f64, what: &str) {
    for p in points {
        assert!(v.contains_point(p, tolerance), "{what}: {p:?} not in {v:?}");
    }
}

/// Every fit of every volume type around `points` (and their triangles) contains them exactly.
fn check_all_fits(points: &[Point]) {
    let tris = triangles(points);
    for m in ObbFit::ALL {
        for b in [Obb::fit_points(points, m), Obb::fit_triangles(&tris, m)] {
            assert_valid_obb(&b);
            assert_contains(&b, points, 0.0, &format!("{m:?}"));
        }
    }
    for m in SphereFit::ALL {
        for s in [
            Sphere::fit_points(points, m),
            Sphere::fit_triangles(&tris, m),
        ] {
            assert!(
                s.center.iter().all(|c| c.is_finite()) && s.radius.is_finite() && s.radius >= 0.0,
                "{s:?}"
            );
            assert_contains(&s, points, 0.0, &format!("{m:?}"));
        }
    }
    assert_contains(&Aabb::fit_points(points, ()), points, 0.0, "aabb");
    assert_contains(&Kdop6::fit_points(points, ()), points, 0.0, "kdop6");
    assert_contains(&Kdop14::fit_points(points, ()), points, 0.0, "kdop14");
    assert_contains(&Kdop18::fit_points(points, ()), points, 0.0, "kdop18");
    assert_contains(&Kdop26::fit_triangles(&tris, ()), points, 0.0, "kdop26");
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn every_fit_contains_its_points(points in cloud()) {
        check_all_fits(&points);
    }

    /// Merges contain both inputs' points; moved volumes contain the moved points.
    #[test]
    fn merge_and_transform_keep_containment(a in cloud(), b in cloud(), q in prop::array::uniform4(-1.0..1.0f64), t in prop::array::uniform3(-1e3..1e3f64)) {
        let both: Vec<Point> = a.iter().chain(&b).copied().collect();
        let scale = both.iter().map(|p| p.coords.amax()).fold(1e-300, f64::max);
        let motion = Pose::try_from(nalgebra::Isometry3::from_parts(Vector::from(t).into(), UnitQuaternion::from_matrix(&rotation(q)))).unwrap();
        let moved: Vec<Point> = a.iter().map(|p| motion.transform_point(p)).collect();
        let moved_scale = scale + Vector::from(t).amax();
        for m in ObbFit::ALL {
            let (ba, bb) = (Obb::fit_points(&a, m), Obb::fit_points(&b, m));
            let merged = ba.merge(&bb);
            assert_valid_obb(&merged);
            assert_contains(&merged, &both, 0.0, "obb merge");
            let tm = ba.transformed(&motion);
            assert_valid_obb(&tm);
            assert_contains(&tm, &moved, 1e-13 * moved_scale, "obb transform");
        }
        for m in SphereFit::ALL {
            let (sa, sb) = (Sphere::fit_points(&a, m), Sphere::fit_points(&b, m));
            assert_contains(&sa.merge(&sb), &both, 0.0, "sphere merge");
            assert_contains(&sa.transformed(&motion), &moved, 1e-13 * moved_scale, "sphere transform");
        }
        let (ka, kb) = (Kdop26::fit_points(&a, ()), Kdop26::fit_points(&b, ()));
        assert_contains(&ka.merge(&kb), &both, 0.0, "kdop merge");
        assert_contains(&ka.transformed(&motion), &moved, 1e-13 * moved_scale, "kdop transform");
    }

    /// Eberly's refinement never grows a box, from any start frame, and `MinVolume` is never
    /// larger than any covariance fit.
    #[test]
    fn eberly_never_grows(points in cloud(), q in prop::array::uniform4(-1.0..1.0f64)) {
        let start = Obb::from_axes(rotation(q), &points);
        let refined = eberly::refine(&points, &start);
        assert_valid_obb(&refined);
        assert_contains(&refined, &points, 0.0, "refine");
        prop_assert!(refined.volume() <= start.volume() * (1.0 + 1e-12) + 1e-300, "{} > {}", refined.volume(), start.volume());
        let tris = triangles(&points);
        let best = Obb::fit_triangles(&tris, ObbFit::MinVolume).volume();
        for m in [ObbFit::TriangleCovariance, ObbFit::HullCovariance, ObbFit::VertexCovariance] {
            let other = Obb::fit_triangles(&tris, m).volume();
            prop_assert!(best <= other * (1.0 + 1e-9) + 1e-300, "MinVolume {best} > {m:?} {other}");
        }
    }

    /// Welzl's sphere is no larger than any other sphere fit.
    #[test]
    fn welzl_is_smallest(points in cloud()) {
        let fit = Sphere::fit_points(&points, SphereFit::Welzl);
        let welzl = fit.radius;
        // Centres are only representable to an ulp of the coordinates.
        let slack = 16.0 * f64::EPSILON * fit.center.coords.amax();
        for m in SphereFit::ALL {
            let r = Sphere::fit_points(&points, m).radius;
            prop_assert!(welzl <= r * (1.0 + 1e-9) + slack, "Welzl {welzl} > {m:?} {r}");
        }
    }

    /// On small sets Welzl's sphere is the brute-force minimum sphere.
    #[test]
    fn welzl_matches_brute_force(raw in prop::collection::vec(prop::array::uniform3(-1.0..1.0f64), 1..9), seed in any::<u64>()) {
        let points: Vec<Point> = raw.iter().map(|c| Point::new(c[0], c[1], c[2])).collect();
        let brute = brute_force_min_sphere(&points);
        let welzl = obbtree_bv::fit::welzl::minimum_sphere(&points, seed);
        prop_assert!((welzl.radius - brute.radius).abs() <= 1e-9 * brute.radius.max(1e-12), "welzl {welzl:?} brute {brute:?}");
        prop_assert!((welzl.center - brute.center).norm() <= 1e-6 * brute.radius.max(1e-12));
    }

    /// The hull contains every input point (exact orientation test) and is a closed surface.
    #[test]
    fn hull_is_closed_and_contains_points(points in cloud()) {
        let Some(h) = hull::convex_hull(&points) else { return Ok(()) };
        let c = |i: u32| { let p = points[i as usize]; robust::Coord3D { x: p.x, y: p.y, z: p.z } };
        for t in &h.triangles {
            for p in &points {
                let o = robust::orient3d(c(t[0]), c(t[1]), c(t[2]), robust::Coord3D { x: p.x, y: p.y, z: p.z });
                prop_assert!(o >= 0.0, "point outside hull face");
            }
        }
        let mut edges = std::collections::HashSet::new();
        for t in &h.triangles {
            for k in 0..3 {
                prop_assert!(edges.insert((t[k], t[(k + 1) % 3])), "edge used twice");
            }
        }
        for &(a, b) in &edges {
            prop_assert!(edges.contains(&(b, a)), "open edge");
        }
    }

    /// The rotating-calipers rectangle is no larger than the best rectangle over every hull-edge
    /// direction (brute force) nor than any of 720 sampled directions.
    #[test]
    fn min_rect_matches_brute_force(raw in prop::collection::vec(prop::array::uniform2(-1.0..1.0f64), 1..40)) {
        let pts: Vec<Vector2<f64>> = raw.iter().map(|c| Vector2::new(c[0], c[1] * 0.3)).collect();
        let (dir, area) = min_rect::min_area_rectangle(&pts).unwrap();
        let rect = |d: Vector2<f64>| {
            let n = Vector2::new(-d.y, d.x);
            let (a, b): (Vec<f64>, Vec<f64>) = pts.iter().map(|p| (d.dot(p), n.dot(p))).unzip();
            let span = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max) - v.iter().copied().fold(f64::INFINITY, f64::min);
            span(&a) * span(&b)
        };
        prop_assert!((rect(dir) - area).abs() <= 1e-12 + 1e-9 * area);
        for i in 0..pts.len() {
            for j in 0..pts.len() {
                if let Some(d) = (pts[j] - pts[i]).try_normalize(1e-12) {
                    prop_assert!(area <= rect(d) + 1e-12, "edge direction beats calipers: {} < {area}", rect(d));
                }
            }
        }
        for k in 0..720 {
            let t = k as f64 * std::f64::consts::PI / 720.0;
            prop_assert!(area <= rect(Vector2::new(t.cos(), t.sin())) + 1e-12);
        }
    }
}

/// Smallest sphere through all of `s` (1 to 4 points), by closed formulas (independent of the
/// library's Gram-system solve), or `None` when degenerate.
fn circumsphere(s: &[Point]) -> Option<Sphere> {
    let a = s[0];
    match s.len() {
        1 => Some(Sphere::new(a, 0.0)),
        2 => Some(Sphere::new(
            nalgebra::center(&a, &s[1]),
            0.5 * (s[1] - a).norm(),
        )),
        3 => {
            let (b, c) = (s[1] - a, s[2] - a);
            let n = b.cross(&c);
            let den = 2.0 * n.norm_squared();
            (den > 1e-20).then(|| {
                let off = (n.cross(&b) * c.norm_squared() + c.cross(&n) * b.norm_squared()) / den;
                Sphere::new(a + off, off.norm())
            })
        }
        _ => {
            let (b, c, d) = (s[1] - a, s[2] - a, s[3] - a);
            let den = 2.0 * b.dot(&c.cross(&d));
            (den.abs() > 1e-12).then(|| {
                let off = (c.cross(&d) * b.norm_squared()
                    + d.cross(&b) * c.norm_squared()
                    + b.cross(&c) * d.norm_squared())
                    / den;
                Sphere::new(a + off, off.norm())
            })
        }
    }
}

/// The minimum sphere by trying every 1-, 2-, 3- and 4-point supporting subset.
fn brute_force_min_sphere(points: &[Point]) -> Sphere {
    let n = points.len();
    let mut best: Option<Sphere> = None;
    let mut consider = |idx: &[usize]| {
        let s: Vec<Point> = idx.iter().map(|&i| points[i]).collect();
        if let Some(ball) = circumsphere(&s) {
            let ok = points
                .iter()
                .all(|p| (p - ball.center).norm() <= ball.radius * (1.0 + 1e-12) + 1e-15);
            if ok && best.is_none_or(|b| ball.radius < b.radius) {
                best = Some(ball);
            }
        }
    };
    for i in 0..n {
        consider(&[i]);
        for j in i + 1..n {
            consider(&[i, j]);
            for k in j + 1..n {
                consider(&[i, j, k]);
                for l in k + 1..n {
                    consider(&[i, j, k, l]);
                }
            }
        }
    }
    best.expect("some subset bounds the set")
}

/// Points of a box (corners, face grid) and its 12 surface triangles.
fn box_samples(b: &Obb) -> (Vec<Point>, Vec<[Point; 3]>) {
    let c = b.corners();
    // Corner index bits: 1 = +x, 2 = +y, 4 = +z. Faces as quads (counter-clockwise outward).
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let tris: Vec<[Point; 3]> = quads
        .iter()
        .flat_map(|q| [[c[q[0]], c[q[1]], c[q[2]]], [c[q[0]], c[q[2]], c[q[3]]]])
        .collect();
    (c.to_vec(), tris)
}

fn assert_same_box(fit: &Obb, truth: &Obb, what: &str) {
    let scale = truth.half_extents.amax() + truth.center.coords.amax();
    assert!(
        (fit.center - truth.center).norm() <= 1e-9 * scale,
        "{what}: centre {fit:?} vs {truth:?}"
    );
    for i in 0..3 {
        // Each fitted axis is parallel to one true axis, with the matching half-length.
        let a = fit.axes.column(i);
        let j = (0..3)
            .max_by(|&x, &y| {
                a.dot(&truth.axes.column(x))
                    .abs()
                    .total_cmp(&a.dot(&truth.axes.column(y)).abs())
            })
            .unwrap();
        assert!(
            a.dot(&truth.axes.column(j)).abs() >= 1.0 - 1e-9,
            "{what}: axis {i} {fit:?} vs {truth:?}"
        );
        assert!(
            (fit.half_extents[i] - truth.half_extents[j]).abs() <= 1e-9 * scale,
            "{what}: extent {fit:?} vs {truth:?}"
        );
    }
}

proptest! {
    #![proptest_config(common::config())]

    /// A rotated box's corners / surface fit back to that box by every covariance method.
    #[test]
    fn rotated_box_fits_itself(q in prop::array::uniform4(-1.0..1.0f64), c in prop::array::uniform3(-10.0..10.0f64), s in -3.0..3.0f64) {
        let scale = 10f64.powf(s);
        let truth = Obb { center: Point::from(Vector::from(c) * scale), axes: rotation(q), half_extents: Vector::new(1.0, 2.0, 3.5) * scale };
        let (points, tris) = box_samples(&truth);
        for m in ObbFit::ALL {
            assert_same_box(&Obb::fit_points(&points, m), &truth, &format!("{m:?} points"));
        }
        // From triangles every corner counts once per triangle, which skews the plain vertex
        // covariance; the area-weighted methods see the surface itself.
        for m in [ObbFit::TriangleCovariance, ObbFit::HullCovariance, ObbFit::MinVolume] {
            assert_same_box(&Obb::fit_triangles(&tris, m), &truth, &format!("{m:?} triangles"));
        }
    }
}

/// Degenerate inputs: valid volumes, containment, never NaN.
#[test]
fn degenerate_inputs() {
    let p = |x: f64, y: f64, z: f64| Point::new(x, y, z);
    let sets: Vec<Vec<Point>> = vec![
        vec![p(1.0, 2.0, 3.0)],
        vec![p(1.0, 2.0, 3.0); 7],
        vec![p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)],
        (0..10)
            .map(|i| p(i as f64, 2.0 * i as f64, -(i as f64)))
            .collect(),
        (0..30)
            .map(|i| p((i % 5) as f64, (i / 5) as f64 * 0.5, 7.0))
            .collect(),
        (0..30)
            .map(|i| {
                p(
                    (i % 5) as f64,
                    (i / 5) as f64 * 0.5,
                    (i % 5) as f64 + (i / 5) as f64,
                )
            })
            .collect(),
        vec![
            p(0.0, 0.0, 0.0),
            p(1.0, 0.0, 0.0),
            p(0.0, 1.0, 0.0),
            p(0.0, 0.0, 1.0),
            p(0.0, 0.0, 0.0),
            p(1.0, 0.0, 0.0),
        ],
    ];
    for set in &sets {
        check_all_fits(set);
        for scale in [1e-6, 1e6] {
            for offset in [0.0, 1e3, 1e6] {
                let moved: Vec<Point> = set
                    .iter()
                    .map(|q| Point::from(q.coords * scale + Vector::repeat(offset)))
                    .collect();
                check_all_fits(&moved);
            }
        }
    }
    // One point: a zero-size volume at the point.
    let one = [p(1.0, 2.0, 3.0)];
    for m in ObbFit::ALL {
        let b = Obb::fit_points(&one, m);
        assert_eq!(b.half_extents, Vector::zeros(), "{m:?}");
        assert_eq!(b.center, one[0], "{m:?}");
    }
    for m in SphereFit::ALL {
        let s = Sphere::fit_points(&one, m);
        assert!(
            s.radius <= 1e-14 && (s.center - one[0]).norm() <= 1e-14,
            "{m:?} {s:?}"
        );
    }
    // Collinear points: a box of zero width, as long as the segment.
    let line: Vec<Point> = (0..10).map(|i| p(i as f64, 2.0 * i as f64, 0.0)).collect();
    for m in ObbFit::ALL {
        let mut h: Vec<f64> = Obb::fit_points(&line, m)
            .half_extents
            .iter()
            .copied()
            .collect();
        h.sort_by(f64::total_cmp);
        assert!(
            h[0] <= 1e-12 && h[1] <= 1e-12 && (h[2] - 0.5 * 9.0 * 5f64.sqrt()).abs() < 1e-9,
            "{m:?} {h:?}"
        );
    }
    // Zero-area triangles: the triangle covariance falls back to the vertex covariance.
    let flat_tris = vec![
        [p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0), p(2.0, 2.0, 2.0)],
        [p(3.0, 0.0, 0.0); 3],
    ];
    for m in ObbFit::ALL {
        let b = Obb::fit_triangles(&flat_tris, m);
        assert_valid_obb(&b);
        assert_contains(
            &b,
            &flat_tris.iter().flatten().copied().collect::<Vec<_>>(),
            0.0,
            "zero-area triangles",
        );
    }
    assert_eq!(
        Obb::fit_triangles(&flat_tris, ObbFit::TriangleCovariance),
        Obb::fit_triangles(&flat_tris, ObbFit::VertexCovariance)
    );
}

/// Exact measures of a k-DOP with a known shape: the 14-DOP of a regular octahedron is the
/// octahedron (volume 4/3, area 4√3); the 6-DOP is its cube.
#[test]
fn kdop_measures() {
    let octa: Vec<Point> = (0..6)
        .map(|i| {
            let mut v = Point::origin();
            v[i / 2] = if i % 2 == 0 { 1.0 } else { -1.0 };
            v
        })
        .collect();
    let k14 = Kdop14::fit_points(&octa, ());
    assert!((k14.volume() - 4.0 / 3.0).abs() < 1e-12, "{}", k14.volume());
    assert!(
        (k14.surface_area() - 4.0 * 3f64.sqrt()).abs() < 1e-12,
        "{}",
        k14.surface_area()
    );
    let k6 = Kdop6::fit_points(&octa, ());
    assert_eq!((k6.volume(), k6.surface_area()), (8.0, 24.0));
    // The 26-DOP of a cube is the cube; the 18-DOP of the octahedron cuts each cube edge.
    let cube: Vec<Point> = (0..8)
        .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
        .collect();
    let k26 = Kdop26::fit_points(&cube, ());
    assert!((k26.volume() - 1.0).abs() < 1e-12 && (k26.surface_area() - 6.0).abs() < 1e-12);
    // The 18-DOP of the octahedron is {|x|+|y|, |x|+|z|, |y|+|z| <= 1}: per octant, slicing at x
    // gives the square [0, 1-x]² cut by y+z <= 1, integrating to 1/24 + 5/24; volume 8/4 = 2.
    let k18 = Kdop18::fit_points(&octa, ());
    assert!((k18.volume() - 2.0).abs() < 1e-12, "{}", k18.volume());
}

/// k-DOP measures lie between the convex hull's and the AABB's.
#[test]
fn kdop_volume_between_hull_and_aabb() {
    let mut rng_state = 12345u64;
    let mut next = || {
        rng_state = rng_state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng_state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for _ in 0..50 {
        let pts: Vec<Point> = (0..30)
            .map(|_| Point::new(next(), 0.5 * next(), 2.0 * next()))
            .collect();
        let h = hull::convex_hull(&pts).unwrap();
        let hull_volume = h.volume(&pts);
        let aabb = Aabb::fit_points(&pts, ()).volume();
        let mut last = aabb;
        for v in [
            Kdop14::fit_points(&pts, ()).volume(),
            Kdop26::fit_points(&pts, ()).volume(),
        ] {
            assert!(
                v >= hull_volume * (1.0 - 1e-12) && v <= last * (1.0 + 1e-12),
                "{hull_volume} <= {v} <= {last}"
            );
            last = v;
        }
    }
}

/// The hull of hard sets: integer grids (many exactly coplanar and collinear points), points on a
/// sphere (all on the hull) and a thin slab; every point inside, the surface closed, and its
/// volume equal to the known one where there is one.
#[test]
fn hull_of_grids_and_spheres() {
    let check = |pts: &[Point], volume: Option<f64>| {
        let h = hull::convex_hull(pts).expect("full-dimensional");
        let c = |p: &Point| robust::Coord3D {
            x: p.x,
            y: p.y,
            z: p.z,
        };
        for t in &h.triangles {
            let [a, b, d] = t.map(|i| c(&pts[i as usize]));
            assert!(pts.iter().all(|p| robust::orient3d(a, b, d, c(p)) >= 0.0));
        }
        let mut edges = std::collections::HashSet::new();
        for t in &h.triangles {
            for k in 0..3 {
                assert!(edges.insert((t[k], t[(k + 1) % 3])));
            }
        }
        assert!(edges.iter().all(|&(a, b)| edges.contains(&(b, a))));
        if let Some(v) = volume {
            let hv = h.volume(pts);
            assert!((hv - v).abs() < 1e-9 * v, "{hv} vs {v}");
        }
    };
    let grid: Vec<Point> = (0..6 * 6 * 6)
        .map(|i| Point::new((i % 6) as f64, ((i / 6) % 6) as f64, (i / 36) as f64))
        .collect();
    check(&grid, Some(125.0));
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let sphere: Vec<Point> = (0..2000)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / 2000.0;
            let r = (1.0 - z * z).sqrt();
            Point::new(
                r * (golden * i as f64).cos(),
                r * (golden * i as f64).sin(),
                z,
            )
        })
        .collect();
    check(&sphere, None);
    let slab: Vec<Point> = grid
        .iter()
        .map(|p| Point::new(p.x * 1e6, p.y * 1e6, p.z * 1e-6))
        .collect();
    check(&slab, Some(125.0e6));
}

/// A rotated cuboid's corners with a dense cluster of points along one face diagonal: the
/// cluster turns the covariance frame off the box, while the ditetrahedron frame, which sees
/// only the extreme points, finds the box itself (Larsson & Källberg 2011), from points and
/// from triangles (enough of them to take the ditetrahedron path of a hierarchy's node).
#[test]
fn ditetrahedron_finds_a_box_that_covariance_misses() {
    let truth = Obb {
        center: Point::new(1.0, -2.0, 0.5),
        axes: rotation([0.9, 0.3, -0.2, 0.4]),
        half_extents: Vector::new(3.0, 2.0, 1.0),
    };
    let corners = truth.corners();
    let cluster = (0..=60).map(|k| {
        let t = f64::from(k) / 60.0;
        corners[0] + (corners[3] - corners[0]) * t
    });
    let points: Vec<Point> = corners.iter().copied().chain(cluster).collect();
    let dito = Obb::fit_points(&points, ObbFit::Ditetrahedron);
    assert_same_box(&dito, &truth, "ditetrahedron points");
    let covariance = Obb::fit_points(&points, ObbFit::VertexCovariance);
    assert!(
        covariance.surface_area() > 1.05 * truth.surface_area(),
        "{covariance:?}"
    );

    let (_, faces) = box_samples(&truth);
    let sliver = |k: usize| [points[8 + k], points[9 + k], points[8 + k]];
    let tris: Vec<[Point; 3]> = faces.iter().copied().chain((0..40).map(sliver)).collect();
    assert!(tris.len() >= obbtree_bv::fit::dito::MIN_TRIANGLES);
    let dito = Obb::fit_triangles(&tris, ObbFit::Ditetrahedron);
    assert_same_box(&dito, &truth, "ditetrahedron triangles");
}

/// The ditetrahedron frame is a rotation wherever it exists, and it does not exist for a
/// single point or points on one line (the fit then falls back to the vertex covariance).
#[test]
fn ditetrahedron_frames_are_rotations_or_absent() {
    use obbtree_bv::fit::dito::dito_frame;
    use rand::Rng;
    let mut rng = rand_pcg::Pcg64::new(7, 0x0a02_bdbf_7bb3_c0a7);
    for _ in 0..200 {
        let n = rng.gen_range(3..40);
        let cube = |_| Point::from(std::array::from_fn(|_| rng.gen_range(-1.0..1.0)));
        let points: Vec<Point> = (0..n).map(cube).collect();
        let axes = dito_frame(&points).expect("points in general position");
        assert!(
            (axes.tr_mul(&axes) - Matrix3::identity()).amax() < 1e-12,
            "{axes}"
        );
        assert!((axes.determinant() - 1.0).abs() < 1e-12, "{axes}");
    }
    let p = Point::new(1.0, 2.0, 3.0);
    assert!(dito_frame(&[p]).is_none());
    assert!(dito_frame(&[p, p, p]).is_none());
    let line: Vec<Point> = (0..5)
        .map(|k| p + Vector::new(1.0, -2.0, 0.5) * f64::from(k))
        .collect();
    assert!(dito_frame(&line).is_none());
    let flat = Obb::fit_points(
        &[
            p,
            p + Vector::x(),
            p + Vector::y(),
            p + Vector::new(1.0, 1.0, 0.0),
        ],
        ObbFit::Ditetrahedron,
    );
    assert!(flat.half_extents.min() <= 1e-14, "{flat:?}");
    assert!(dito_frame(&[]).is_none());
}
