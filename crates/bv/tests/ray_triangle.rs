//! Ray–triangle: Möller–Trumbore and the watertight test vs. an exact integer oracle
//! (orientation signs), vs. each other and parry3d-f64 on random floats, adversarial cases,
//! and watertightness on closed meshes (rays aimed exactly at shared edges and vertices).
mod common;

use common::exact::{approx, cross, dot, float_triangle, place_f, q3, sub};
use common::*;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::intersect::ray_triangle::{cast, cast_watertight, TriangleHit, WatertightRay};
use obbtree_bv::{Point, Ray, Triangle, Vector};
use parry3d_f64::query::RayCast;
use proptest::prelude::*;

/// Exact classification for integer data: `Some(Some(t))` strict hit, `Some(None)` strict
/// miss, `None` boundary (ray through an edge/vertex or origin on the plane). A ray in the
/// triangle's plane (`n·d = 0`) is a strict miss here (Möller–Trumbore's exact policy on
/// such data); see `coplanar` for the watertight test.
fn exact(ray: &Ray, tri: &Triangle) -> Option<Option<f64>> {
    let iv = |v: Vector| [int(v.x), int(v.y), int(v.z)];
    let cross = |a: [i128; 3], b: [i128; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let dot = |a: [i128; 3], b: [i128; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let d = iv(ray.dir);
    let n = cross(iv(tri.b - tri.a), iv(tri.c - tri.a));
    let (f_o, nd) = (dot(n, iv(ray.origin - tri.a)), dot(n, d));
    if nd == 0 || f_o * nd > 0 {
        return Some(None);
    }
    let rel = |p: &Point| iv(p - ray.origin);
    let (a, b, c) = (rel(&tri.a), rel(&tri.b), rel(&tri.c));
    let s = [
        dot(d, cross(a, b)),
        dot(d, cross(b, c)),
        dot(d, cross(c, a)),
    ];
    if s.iter().any(|&x| x > 0) && s.iter().any(|&x| x < 0) {
        return Some(None);
    }
    if f_o == 0 || s.contains(&0) {
        return None;
    }
    Some(Some(-(f_o as f64) / nd as f64))
}

fn triangle() -> impl Strategy<Value = Triangle> {
    (point(), point(), point()).prop_map(|(a, b, c)| Triangle::new(a, b, c))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn grid_matches_exact(o in grid_point(5), d in grid_vector(3), a in grid_point(3), b in grid_point(3), c in grid_point(3)) {
        prop_assume!(d != Vector::zeros());
        let (ray, tri) = (Ray::new(o, d), Triangle::new(a, b, c));
        let coplanar = tri.scaled_normal().dot(&ray.dir) == 0.0;
        if coplanar {
            // The watertight test decides a ray in the triangle's plane by its rounded shear
            // (policy): it may hit, but only at a point of the closed triangle.
            if let Some(h) = cast_watertight(&ray, &tri) {
                let p = ray.point_at(h.t);
                let scale = 1.0 + p.coords.norm();
                prop_assert!(h.u >= -1e-9 && h.v >= -1e-9 && h.u + h.v <= 1.0 + 1e-9 && (h.point(&tri) - p).norm() < 1e-6 * scale, "{:?}", h);
            }
        }
        if let Some(want) = exact(&ray, &tri) {
            let candidates = [("mt", cast(&ray, &tri)), ("wt", cast_watertight(&ray, &tri))];
            for (name, got) in candidates.into_iter().filter(|(name, _)| !(coplanar && *name == "wt")) {
                prop_assert_eq!(got.is_some(), want.is_some(), "{} {:?} {:?}", name, ray, tri);
                if let (Some(g), Some(w)) = (got, want) {
                    prop_assert!(close(g.t, w, 1e-12), "{} t {} vs {}", name, g.t, w);
                    prop_assert!((g.point(&tri) - ray.point_at(g.t)).norm() < 1e-9);
                }
            }
        }
    }

    /// Möller–Trumbore vs. watertight vs. parry on random floats: identical up to rounding,
    /// and any disagreement is a ray within rounding of an edge.
    #[test]
    fn methods_agree(ray in ray(), tri in triangle()) {
        let (mt, wt) = (cast(&ray, &tri), cast_watertight(&ray, &tri));
        let theirs = parry3d_f64::shape::Triangle::new(pp(&tri.a), pp(&tri.b), pp(&tri.c))
            .cast_local_ray(&pray(&ray), f64::MAX, true);
        let near_edge = |h: &TriangleHit| h.u.min(h.v).min(1.0 - h.u - h.v).abs() < 1e-9;
        match (mt, wt) {
            (Some(m), Some(w)) => {
                prop_assert!(close(m.t, w.t, 1e-7) && (m.u - w.u).abs() < 1e-7 && (m.v - w.v).abs() < 1e-7, "{:?} {:?}", m, w);
                if let Some(t) = theirs {
                    prop_assert!(close(t, w.t, 1e-6), "parry {} vs {}", t, w.t);
                }
            }
            (None, None) => {}
            (Some(h), None) | (None, Some(h)) => prop_assert!(near_edge(&h) || h.t.abs() < 1e-9, "{:?} {:?}", mt, wt),
        }
    }
}

#[test]
fn adversarial_cases() {
    // Powers of two near 1e-8 and 1e8 keep edge and vertex points exactly representable.
    let (tiny, huge) = (2f64.powi(-27), 2f64.powi(27));
    for (scale, off) in [
        (1.0, 0.0),
        (tiny, 0.0),
        (tiny, 8.0 * tiny),
        (huge, 0.0),
        (huge, 3.0 * huge),
        (1.0, huge),
    ] {
        let p =
            |x: f64, y: f64, z: f64| Point::new(off + x * scale, off + y * scale, off + z * scale);
        let tri = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
        let down = Vector::new(0.0, 0.0, -scale);
        let cases = [
            (p(0.25, 0.25, 1.0), down, Some(1.0)), // interior
            (p(0.5, 0.0, 1.0), down, Some(1.0)),   // on edge ab
            (p(0.5, 0.5, 1.0), down, Some(1.0)),   // on edge bc (hypotenuse)
            (p(0.0, 0.0, 1.0), down, Some(1.0)),   // at vertex a
            (p(1.0, 0.0, 1.0), down, Some(1.0)),   // at vertex b
            (p(1.0, 1.0, 1.0), down, None),        // outside
            (p(0.25, 0.25, 1.0), -down, None),     // pointing away
            (p(0.25, 0.25, 0.0), down, Some(0.0)), // origin on the triangle
            (p(-1.0, 0.25, 0.0), Vector::new(scale, 0.0, 0.0), None), // in the plane: policy miss
        ];
        for (o, d, want) in cases {
            let ray = Ray::new(o, d);
            for (name, got) in [
                ("mt", cast(&ray, &tri)),
                ("wt", cast_watertight(&ray, &tri)),
            ] {
                assert_eq!(
                    got.is_some(),
                    want.is_some(),
                    "{name} scale {scale} off {off} origin {o:?}"
                );
                if let (Some(g), Some(w)) = (got, want) {
                    assert!(
                        close(g.t, w, 1e-12),
                        "{name} scale {scale} off {off} origin {o:?}: t {}",
                        g.t
                    );
                }
            }
        }
        // Zero-area triangles (collinear, repeated vertex) never hit.
        for degenerate in [
            Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 0.0), p(2.0, 2.0, 0.0)),
            Triangle::new(p(0.0, 0.0, 0.0), p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)),
        ] {
            let ray = Ray::new(p(1.0, 1.0, 1.0), down);
            assert!(
                cast(&ray, &degenerate).is_none() && cast_watertight(&ray, &degenerate).is_none()
            );
        }
    }
}

/// An icosphere (unit radius, `levels` subdivisions): vertices and triangles (closed, shared
/// vertex indices).
fn icosphere(levels: usize) -> (Vec<Point>, Vec<[usize; 3]>) {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Point> = [
        (-1.0, g, 0.0),
        (1.0, g, 0.0),
        (-1.0, -g, 0.0),
        (1.0, -g, 0.0),
        (0.0, -1.0, g),
        (0.0, 1.0, g),
        (0.0, -1.0, -g),
        (0.0, 1.0, -g),
        (g, 0.0, -1.0),
        (g, 0.0, 1.0),
        (-g, 0.0, -1.0),
        (-g, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Point::from(Vector::new(x, y, z).normalize()))
    .collect();
    let mut f = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut midpoint = |a: usize, b: usize, v: &mut Vec<Point>| {
            *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                v.push(Point::from(((v[a].coords + v[b].coords) * 0.5).normalize()));
                v.len() - 1
            })
        };
        f = f
            .iter()
            .flat_map(|&[a, b, c]| {
                let (ab, bc, ca) = (
                    midpoint(a, b, &mut v),
                    midpoint(b, c, &mut v),
                    midpoint(c, a, &mut v),
                );
                [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
            })
            .collect();
    }
    (v, f)
}

/// A cube `[-n, n]³` with each face split into a `2n × 2n` grid of unit squares, each cut
/// into two triangles (integer vertices, so edge points like midpoints are exact).
fn cube_mesh(n: i32) -> Vec<Triangle> {
    let mut tris = Vec::new();
    for axis in 0..3 {
        for side in [-n, n] {
            for i in -n..n {
                for j in -n..n {
                    let q = |di: i32, dj: i32| {
                        let mut c = [0.0; 3];
                        c[axis] = side.into();
                        c[(axis + 1) % 3] = (i + di).into();
                        c[(axis + 2) % 3] = (j + dj).into();
                        Point::new(c[0], c[1], c[2])
                    };
                    tris.push(Triangle::new(q(0, 0), q(1, 0), q(1, 1)));
                    tris.push(Triangle::new(q(0, 0), q(1, 1), q(0, 1)));
                }
            }
        }
    }
    tris
}

/// Whether some triangle is hit at `t ≈ 1` (the ray is aimed so that `t = 1` is the target).
fn hits_target(
    tris: &[Triangle],
    ray: &Ray,
    f: fn(&Ray, &Triangle) -> Option<TriangleHit>,
) -> bool {
    tris.iter()
        .any(|t| f(ray, t).is_some_and(|h| (h.t - 1.0).abs() < 1e-9))
}

/// Rays aimed exactly at shared vertices and at points on shared edges of closed convex
/// meshes, through the interior (from the inside, or from outside along a line that crosses
/// the interior, so the target is a transversal crossing, not a silhouette graze), must be
/// hit at the target by the watertight test.
#[test]
fn watertight_on_closed_meshes() {
    let (v, f) = icosphere(2);
    let mut edges = std::collections::HashMap::new();
    for &[a, b, c] in &f {
        for e in [(a, b), (b, c), (c, a)] {
            *edges.entry(e).or_insert(0) += 1;
        }
    }
    assert!(
        edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1)),
        "icosphere not closed"
    );
    let ico: Vec<Triangle> = f
        .iter()
        .map(|&[a, b, c]| Triangle::new(v[a], v[b], v[c]))
        .collect();
    let cube = cube_mesh(2);
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(4);
    let (mut rays, mut mt_misses) = (0, 0);
    let mut check = |tris: &[Triangle], ray: Ray, what: &str| {
        rays += 1;
        assert!(
            hits_target(tris, &ray, cast_watertight),
            "{what} leak: {ray:?}"
        );
        mt_misses += usize::from(!hits_target(tris, &ray, cast));
    };
    // Icosphere (inradius > 0.95): aim at each vertex and at points on each edge.
    let mut targets: Vec<Point> = v.clone();
    for &[a, b, c] in &f {
        for (p, q) in [(a, b), (b, c), (c, a)] {
            targets.push(v[p] + (v[q] - v[p]) * rng.gen::<f64>());
            targets.push(nalgebra::center(&v[p], &v[q]));
        }
    }
    for target in &targets {
        for _ in 0..4 {
            let o = Point::new(
                rng.gen_range(-3.0..3.0),
                rng.gen_range(-3.0..3.0),
                rng.gen_range(-3.0..3.0),
            );
            let d = target - o;
            let line_dist = (o.coords - d * (o.coords.dot(&d) / d.norm_squared())).norm();
            if o.coords.norm() < 0.95 || line_dist < 0.95 {
                check(&ico, Ray::new(o, d), "icosphere");
            }
        }
        check(
            &ico,
            Ray::new(
                Point::new(0.1, -0.2, 0.05),
                target - Point::new(0.1, -0.2, 0.05),
            ),
            "icosphere",
        );
    }
    // Cube [-2, 2]^3: integer origins aimed at exact vertices, edge midpoints and edge points.
    let strictly_inside = |p: &Point| (0..3).all(|i| p[i].abs() < 2.0 - 1e-9);
    for _ in 0..20_000 {
        let mut target = Point::new(
            rng.gen_range(-2..=2) as f64,
            rng.gen_range(-2..=2) as f64,
            rng.gen_range(-2..=2) as f64,
        );
        let axis = rng.gen_range(0..3);
        target[axis] = if rng.gen() { 2.0 } else { -2.0 };
        let k = (axis + 1 + rng.gen_range(0..2)) % 3;
        target[k] +=
            [0.0, 0.5, 0.25, 0.125][rng.gen_range(0..4)] * if target[k] < 2.0 { 1.0 } else { -1.0 };
        let o = Point::new(
            rng.gen_range(-6..=6) as f64,
            rng.gen_range(-6..=6) as f64,
            rng.gen_range(-6..=6) as f64,
        );
        let crosses =
            (0..=2000).any(|i| strictly_inside(&(o + (target - o) * (i as f64 / 1000.0))));
        if crosses && o != target {
            check(&cube, Ray::new(o, target - o), "cube");
        }
    }
    println!("{rays} rays at shared edges/vertices: watertight never missed; Möller–Trumbore missed {mt_misses}");
}

/// Outside `Ray`'s contract the watertight test answers "no hit" instead of a hit with NaN
/// fields: a zero direction (the shear constants are 0/0), and a hit parameter that overflows
/// (`t ≈ 1e380` for a direction of 1e-300 and a triangle 1e80 away). Directions just inside the
/// representable range still hit, with finite fields.
#[test]
fn unrepresentable_hits_are_misses() {
    let tri = Triangle::new(
        Point::new(-1.0, -1.0, 5.0),
        Point::new(3.0, -1.0, 5.0),
        Point::new(-1.0, 3.0, 5.0),
    );
    let origin = Point::origin();
    for dir in [Vector::zeros(), -Vector::zeros()] {
        assert_eq!(cast_watertight(&Ray::new(origin, dir), &tri), None);
    }
    // Directions with a non-finite component (which the queries refuse) hit nothing here.
    for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
        for dir in [Vector::new(0.0, 0.0, bad), Vector::new(bad, 0.0, 1.0)] {
            assert_eq!(
                cast_watertight(&Ray::new(origin, dir), &tri),
                None,
                "{dir:?}"
            );
        }
    }
    let far = Triangle::new(
        Point::new(-1e80, -1e80, 1e80),
        Point::new(3e80, -1e80, 1e80),
        Point::new(-1e80, 3e80, 1e80),
    );
    assert_eq!(
        cast_watertight(&Ray::new(origin, Vector::new(0.0, 0.0, 1e-300)), &far),
        None
    );
    // The same geometry with representable parameters: hits with finite fields and `t = 5 / dir`
    // up to rounding.
    for (dir, t) in [(1e-300, 5e300), (1.0, 5.0), (1e300, 5e-300)] {
        let hit = cast_watertight(&Ray::new(origin, Vector::new(0.0, 0.0, dir)), &tri).unwrap();
        assert!((hit.t - t).abs() <= 1e-15 * t, "{dir:e}: t = {:e}", hit.t);
        assert!(hit.u.is_finite() && hit.v.is_finite());
    }
    let hit = cast_watertight(&Ray::new(origin, Vector::new(0.0, 0.0, 1.0)), &far).unwrap();
    assert_eq!(hit.t, 1e80);
}

/// A needle triangle (one vertex at 1.9e86) whose plane the ray's line crosses behind the
/// origin: the float `t` sums products of ~1e86 that cancel and came out as `t = 0` (found by the
/// `pick` fuzz target through a rotated mesh, fuzz/README.md). The ray provably misses: for
/// `t >= 0` its `z` grows from -0.354 while the triangle has `z <= -1.25`. The reversed ray
/// meets the plane in front of the origin and hits, where the box of the triangle allows.
#[test]
fn needle_behind_the_origin_is_a_miss() {
    let needle = Triangle::new(
        Point::new(1.9036917412555824e86, -4.25, -3.0),
        Point::new(-2.5, -2.0, -1.5),
        Point::new(-2.71213219440533e84, -1.25, -1.25),
    );
    let origin = Point::new(3.718263569595178, 0.48624770285743946, -0.3543715542861592);
    let dir = Vector::new(-1.606570953606741, -0.4053118267921008, 0.5008248830452939);
    assert_eq!(cast_watertight(&Ray::new(origin, dir), &needle), None);
    if let Some(hit) = cast_watertight(&Ray::new(origin, -dir), &needle) {
        // z in [-3, -1.25] along the reversed ray: t in [1.79, 5.29].
        assert!((1.78..=5.29).contains(&hit.t), "{hit:?}");
    }
}

/// The exact answer for any finite data: `Some(t)` if the ray meets the closed triangle at the
/// exact parameter `t >= 0`, `None` if not (or if the ray lies in the triangle's plane, or the
/// triangle has zero area: misses by policy).
fn exact_rational(ray: &Ray, tri: &Triangle) -> Option<BigRational> {
    let (o, d) = (q3(&ray.origin), q3(&Point::from(ray.dir)));
    let [a, b, c] = [&tri.a, &tri.b, &tri.c].map(q3);
    let n = cross(&sub(&b, &a), &sub(&c, &a));
    let den = dot(&n, &d);
    if den.is_zero() {
        return None;
    }
    let (ao, bo, co) = (sub(&a, &o), sub(&b, &o), sub(&c, &o));
    let sides = [(&bo, &co), (&co, &ao), (&ao, &bo)].map(|(p, q)| dot(&d, &cross(p, q)));
    let t = dot(&n, &ao) / den;
    let mixed = sides.iter().any(Signed::is_positive) && sides.iter().any(Signed::is_negative);
    (!mixed && !t.is_negative()).then_some(t)
}

/// A triangle with one vertex pushed out by `10^far` (needles) and a ray aimed at a point of
/// it (barycentrics on a 1/8 grid, so edges and vertices are aimed at), from anywhere.
fn needle_case() -> impl Strategy<Value = (Ray, Triangle)> {
    (
        float_triangle(),
        0..90i32,
        0..=8u8,
        0..=8u8,
        [-4.0..4.0f64, -4.0..4.0f64, -4.0..4.0f64],
        prop::bool::ANY,
    )
        .prop_map(|(t, far, u, v, o, reverse)| {
            let mut tri = place_f(&t, (1.0, 0.0));
            tri.a = Point::from(tri.a.coords * 10f64.powi(far));
            let (u, v) = (f64::from(u.min(8 - v)) / 8.0, f64::from(v) / 8.0);
            let target = tri.a.coords * (1.0 - u - v) + tri.b.coords * u + tri.c.coords * v;
            let origin = Point::new(o[0], o[1], o[2]);
            let dir = Point::from(target) - origin;
            (Ray::new(origin, if reverse { -dir } else { dir }), tri)
        })
}

proptest! {
    #![proptest_config(config())]

    /// The hit decision equals the exact rational one on needles up to 1e90 long and rays aimed
    /// at their points, edges and vertices (and away from them), and `t` is accurate.
    #[test]
    fn needles_match_exact_arithmetic((ray, tri) in needle_case()) {
        let ours = cast_watertight(&ray, &tri);
        let exact = exact_rational(&ray, &tri);
        prop_assert_eq!(ours.is_some(), exact.is_some(), "{:?} {:?} {:?}", ray, tri, ours);
        if let (Some(h), Some(t)) = (ours, exact) {
            // Forward error of a backward-stable evaluation: a few ulps of the terms of
            // `(p - o)·n` and `t d·n`, divided by `|d·n|` (large for grazing rays).
            let [qa, qb, qc] = [&tri.a, &tri.b, &tri.c].map(q3);
            let n = cross(&sub(&qb, &qa), &sub(&qc, &qa));
            let n = Vector::new(approx(&n[0]), approx(&n[1]), approx(&n[2]));
            // The distance involved is the nearest vertex's: the needle's far vertex must not
            // swamp `t` (the numerator is taken at the nearest vertex, the normal from the two
            // shorter edges).
            let near = [tri.a, tri.b, tri.c].iter().map(|p| (p - ray.origin).norm()).fold(f64::INFINITY, f64::min);
            let terms = (near + approx(&t) * ray.dir.norm()) * n.norm();
            let slack = 64.0 * f64::EPSILON * terms / ray.dir.dot(&n).abs();
            prop_assert!((h.t - approx(&t)).abs() <= slack, "t {} vs {} slack {:e} {:?} {:?}", h.t, approx(&t), slack, ray, tri);
            // The barycentrics are the exact edge-function ratios up to the edge functions'
            // error bounds (`8ε max|dᵢ| |u|₁ |v|₁` each) over `|d·n| = |ΣE|`.
            let (o, d) = (q3(&ray.origin), q3(&Point::from(ray.dir)));
            let rel = [qa, qb, qc].map(|v| sub(&v, &o));
            let edge = |i: usize, j: usize| dot(&d, &cross(&rel[i], &rel[j]));
            let (eb, ec) = (edge(2, 0), edge(0, 1));
            let total = edge(1, 2) + &eb + &ec;
            let norms = [tri.a, tri.b, tri.c].map(|p| (p - ray.origin).lp_norm(1));
            let products = norms[0] * norms[1] + norms[1] * norms[2] + norms[2] * norms[0];
            let uv_slack = 32.0 * f64::EPSILON * ray.dir.amax() * products / approx(&total).abs() + 1e-15;
            let (u, v) = (approx(&(eb / &total)), approx(&(ec / &total)));
            prop_assert!((h.u - u).abs() <= uv_slack && (h.v - v).abs() <= uv_slack, "u, v {} {} vs {} {} slack {:e} {:?} {:?}", h.u, h.v, u, v, uv_slack, ray, tri);
        }
    }

    /// Rays nearly parallel to the triangle's plane (a direction in the plane, rounded, plus a
    /// normal part from `2⁻¹⁰` to `2⁻⁶⁰` of it), triangles from `2⁻⁶⁰` to `2⁶⁰` in size: where `d·n` is lost to rounding `t` comes from
    /// the exact quotient, and where the float `d·n` is accepted it exceeds its error bound, so
    /// `t` is within a factor of 1/2 to 8 of the exact one, never of the wrong sign.
    #[test]
    fn grazing_rays_get_a_t_of_the_right_size(
        t in float_triangle(), s in -1.0..1.0f64, r in -1.0..1.0f64, tilt in 10i32..60, sign in any::<bool>(),
        scale in -60i32..=60,
    ) {
        let tri = place_f(&t, (2f64.powi(scale), 0.0));
        let n = tri.scaled_normal();
        prop_assume!(n.norm() > 1e-3 * (tri.b - tri.a).norm() * (tri.c - tri.a).norm());
        let along = (tri.b - tri.a) * s + (tri.c - tri.a) * r;
        let dir = along + n * (2f64.powi(-tilt) * along.norm() / n.norm());
        // One direction length before the centroid: the ray meets the plane near `t = 1`.
        let towards = if sign { 1.0 } else { -1.0 };
        let ray = Ray::new(tri.centroid() - dir * towards, dir * towards);
        if let (Some(h), Some(exact)) = (cast_watertight(&ray, &tri), exact_rational(&ray, &tri)) {
            let exact = approx(&exact);
            prop_assert!(h.t >= 0.5 * exact && h.t <= 8.0 * exact, "t {} vs exact {} {:?} {:?}", h.t, exact, ray, tri);
        }
    }
}

/// The two triangles' coordinates side by side, as `certainly_misses` takes them.
fn lanes(tris: &[Triangle; 2]) -> [[[f64; 2]; 3]; 3] {
    std::array::from_fn(|v| {
        std::array::from_fn(|k| std::array::from_fn(|l| [tris[l].a, tris[l].b, tris[l].c][v][k]))
    })
}

proptest! {
    #![proptest_config(config())]

    /// `WatertightRay::certainly_misses` (the leaf filter of picking) rejects only triangles that
    /// exact arithmetic and `cast_watertight` both miss: two lanes per case, the ray aimed at a
    /// point, edge or vertex of the first triangle (needles up to 1e90 long), the other
    /// triangle aimed at by another ray.
    #[test]
    fn miss_filter_rejects_only_misses(cases in prop::array::uniform2(needle_case())) {
        let ray = cases[0].0;
        let tris = cases.map(|(_, t)| t);
        let misses = WatertightRay::new(&ray).certainly_misses(&lanes(&tris));
        for (tri, miss) in tris.iter().zip(misses) {
            if miss {
                prop_assert!(exact_rational(&ray, tri).is_none(), "{:?} {:?}", ray, tri);
                prop_assert!(cast_watertight(&ray, tri).is_none(), "{:?} {:?}", ray, tri);
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The same at small scales: the case scaled by `2⁻ᵏ` (exact, so the exact answer is the
    /// same), where the vertices' 1-norms relative to the origin are below 1 and the filter's
    /// error bound, a product of two of them, is smallest.
    #[test]
    fn miss_filter_rejects_only_misses_at_small_scales((ray, tri) in needle_case(), k in 1i32..200) {
        let s = 2f64.powi(-k);
        let scale = |p: &Point| Point::from(p.coords * s);
        let ray = Ray::new(scale(&ray.origin), ray.dir * s);
        let tri = Triangle::new(scale(&tri.a), scale(&tri.b), scale(&tri.c));
        let hit = exact_rational(&ray, &tri).is_some();
        let misses = WatertightRay::new(&ray).certainly_misses(&lanes(&[tri, tri]));
        prop_assert!(!(hit && misses[0]), "{:?} {:?}", ray, tri);
        prop_assert_eq!(cast_watertight(&ray, &tri).is_some(), hit, "{:?} {:?}", ray, tri);
    }
}

/// The filter does filter: it rejects most triangles a random ray misses (and never one it hits,
/// checked above and by the picking tests).
#[test]
fn miss_filter_rejects_most_misses() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let mut point = || {
        Point::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        )
    };
    let (mut misses, mut rejected) = (0, 0);
    for _ in 0..4_000 {
        let ray = Ray::new(point(), point() - Point::origin());
        let tris: [Triangle; 2] = std::array::from_fn(|_| Triangle::new(point(), point(), point()));
        let filtered = WatertightRay::new(&ray).certainly_misses(&lanes(&tris));
        for (tri, rejects) in tris.iter().zip(filtered) {
            if cast_watertight(&ray, tri).is_none() {
                misses += 1;
                rejected += usize::from(rejects);
            }
        }
    }
    assert!(
        rejected * 10 >= misses * 9,
        "{rejected} of {misses} misses rejected"
    );
}

/// Rays and triangles far below the exact range, where the edge functions' and `orient3d`'s
/// products fall among the subnormals. Found wrong before both float bounds carried an
/// underflow term and `orient3d`'s adaptive stage was kept to the exact range: a ray from
/// `2⁻¹⁰⁰⁰` above a triangle of size `1e-30`, pointing away, hit it at `t = 0`; a direction
/// near `1e88` at a triangle of size `1e-162` took the wrong side of an edge.
#[test]
fn exact_far_below_the_exact_range() {
    for s in [1.0, 1e-30, 1e-70] {
        let tri = Triangle::new(
            Point::new(-s, -s, 0.0),
            Point::new(s, -s, 0.0),
            Point::new(0.0, s, 0.0),
        );
        let origin = Point::new(0.0, 0.0, 2f64.powi(-1000));
        let away = Ray::new(origin, Vector::z());
        assert_eq!(cast_watertight(&away, &tri), None, "{s:e}");
        let toward = Ray::new(origin, -Vector::z());
        assert!(cast_watertight(&toward, &tri).is_some(), "{s:e}");
    }
    let u = 2f64.powi(-537);
    let tri = Triangle::new(
        Point::new(-0.6 * u, 0.0, -u),
        Point::new(u, u, 2.0 * u),
        Point::new(0.65 * u, u, u),
    );
    for d in [1e80, 1e88, 1e100, 1e150] {
        let ray = Ray::new(Point::origin(), Vector::new(d, 1024.0 * d, 0.0));
        assert!(exact_rational(&ray, &tri).is_some(), "{d:e}");
        assert!(cast_watertight(&ray, &tri).is_some(), "{d:e}");
    }
}

proptest! {
    #![proptest_config(config_with(300))]

    /// Tiny triangles (coordinates near `2⁻⁵³⁰`, some 0), tiny origins and directions up to
    /// `2³⁰⁰`: the hit decision equals the exact rational one.
    #[test]
    fn tiny_triangles_and_huge_directions_match_exact_arithmetic(
        m in prop::array::uniform9(prop_oneof![Just(0.0), -3.0..3.0f64]),
        e in -560i32..-500,
        dir in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        de in 0i32..300,
        o in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        oe in -1074i32..-500,
    ) {
        let at = |i: usize| Point::new(m[i], m[i + 1], m[i + 2]) * 2f64.powi(e);
        let tri = Triangle::new(at(0), at(3), at(6));
        let origin = Point::from(o) * 2f64.powi(oe / 2) * 2f64.powi(oe - oe / 2);
        let ray = Ray::new(origin, Vector::from(dir) * 2f64.powi(de));
        prop_assert_eq!(cast_watertight(&ray, &tri).is_some(), exact_rational(&ray, &tri).is_some(), "{:?} {:?}", ray, tri);
    }
}

/// Whether `scaled` is exactly `2^k · dir` (no component overflowed or lost bits).
fn exactly_scaled(dir: &Vector, scaled: &Vector, k: i32) -> bool {
    scaled.iter().all(|x| x.is_finite())
        && scaled * 2f64.powi(-k / 2) * 2f64.powi(-k + k / 2) == *dir
}

/// Scaling the direction by a power of two changes nothing but `t`: the same decision, the same
/// barycentrics, and `t` divided by the same power (exactly, where representable). Found wrong
/// before the edge functions used a direction scaled to unit size: with a direction of 1e200 a
/// triangle near 1e100 was missed (its edge functions overflowed), and with 1e-200 the
/// barycentrics came out as 1/3 each (underflowed edge functions, replaced by the smallest
/// normal).
#[test]
fn direction_magnitude_changes_only_t() {
    let check = |ray: &Ray, tri: &Triangle| {
        let unit = cast_watertight(ray, tri);
        for k in (-1070..=1020).step_by(7) {
            let scaled = Ray::new(
                ray.origin,
                ray.dir * 2f64.powi(k / 2) * 2f64.powi(k - k / 2),
            );
            if !exactly_scaled(&ray.dir, &scaled.dir, k) {
                continue;
            }
            let got = cast_watertight(&scaled, tri);
            let want_t = unit.map(|h| h.t * 2f64.powi(-k / 2) * 2f64.powi(-k + k / 2));
            match (unit, got) {
                (Some(u), Some(g)) => {
                    assert_eq!((g.u, g.v), (u.u, u.v), "2^{k}: {ray:?} {tri:?}");
                    let want_t = want_t.unwrap();
                    if want_t.is_normal() || want_t == 0.0 {
                        assert_eq!(g.t, want_t, "2^{k}: {ray:?} {tri:?}");
                    }
                }
                (Some(_), None) => {
                    let want_t = want_t.unwrap();
                    assert!(
                        !want_t.is_finite(),
                        "2^{k}: lost a hit at t = {want_t:e}: {ray:?} {tri:?}"
                    );
                }
                (None, got) => assert_eq!(got, None, "2^{k}: {ray:?} {tri:?}"),
            }
        }
    };
    for s in [1e100, 1.0, 1e-70] {
        let tri = Triangle::new(
            Point::new(-s, -s, s),
            Point::new(3.0 * s, -s, s),
            Point::new(-s, 3.0 * s, s),
        );
        let ray = Ray::new(Point::origin(), Vector::z());
        let hit = cast_watertight(&ray, &tri).unwrap();
        assert!(
            (hit.u - 0.25).abs() < 1e-15 && (hit.v - 0.25).abs() < 1e-15,
            "{s:e}: {hit:?}"
        );
        check(&ray, &tri);
        // Aimed at an edge and at a vertex, and pointing away.
        check(&Ray::new(Point::origin(), Vector::new(s, 0.0, s)), &tri);
        check(&Ray::new(Point::origin(), Vector::new(-s, -s, s)), &tri);
        check(&Ray::new(Point::origin(), -Vector::z()), &tri);
    }
}

proptest! {
    #![proptest_config(config_with(500))]

    /// The same on needles and rays aimed at their points, edges and vertices, at a random
    /// power of two.
    #[test]
    fn direction_magnitude_changes_only_t_on_needles((ray, tri) in needle_case(), k in -1000i32..1000) {
        let unit = cast_watertight(&ray, &tri);
        let scaled = Ray::new(ray.origin, ray.dir * 2f64.powi(k / 2) * 2f64.powi(k - k / 2));
        prop_assume!(exactly_scaled(&ray.dir, &scaled.dir, k));
        let got = cast_watertight(&scaled, &tri);
        match (unit, got) {
            (Some(u), Some(g)) => prop_assert_eq!((g.u, g.v), (u.u, u.v)),
            (Some(u), None) => prop_assert!(!(u.t * 2f64.powi(-k / 2) * 2f64.powi(-k + k / 2)).is_finite()),
            (None, got) => prop_assert_eq!(got, None),
        }
    }
}

/// Beyond the exact range (coordinates near 1e200) an edge function can overflow: whatever is
/// returned then has finite fields, and a triangle behind the origin is still a miss.
#[test]
fn overflowing_edge_functions_never_give_non_finite_hits() {
    let (a, b, c) = (
        Point::new(-1.0, -1.0, 1.0),
        Point::new(1e200, 0.0, 1.0),
        Point::new(0.0, 1e200, 1.0),
    );
    for tri in [
        Triangle::new(a, b, c),
        Triangle::new(b, c, a),
        Triangle::new(c, a, b),
    ] {
        for dir in [Vector::z(), Vector::new(1e-3, 2e-3, 1.0)] {
            let ahead = cast_watertight(&Ray::new(Point::origin(), dir), &tri);
            assert!(
                ahead.is_none_or(|h| h.t.is_finite() && h.u.is_finite() && h.v.is_finite()),
                "{ahead:?}"
            );
            let behind = cast_watertight(&Ray::new(Point::new(0.0, 0.0, 2.0), dir), &tri);
            assert_eq!(behind, None);
        }
    }
}
