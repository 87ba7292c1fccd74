//! The cylinder (`obbtree_bv::shape`) against oracles that share no code with the engine.
//!
//! * Triangles: an exact rational oracle by a different method than the engine's clipping. The
//!   least squared distance to the axis line over the triangle's part between the cap planes is
//!   a convex quadratic programme in the barycentric coordinates `(λ₁, λ₂)` with five affine
//!   constraints; its minimum lies at a vertex of the feasible polygon (two active
//!   constraints), at the least point of one constraint line, or at the unconstrained least
//!   point, so the least over the feasible candidates of these kinds is the minimum (empty:
//!   no candidate, no contact).
//! * Spheres and halfspaces: the closed forms with the square roots bracketed by rational
//!   bisection (a case whose bracket straddles the threshold is skipped and counted).
//! * Hand-made exact contacts on a dyadic grid (tangent to a face, to the rim, a cap plane,
//!   crossing the axis, wholly inside, degenerate triangles), one ulp away, at scales 1, `2²⁰⁰`
//!   and `2⁻²⁰⁰`.
//! * Capsules and cylinders against cylinders (conservative): both sides of the stated band.

mod common;

use common::exact::{cross, dot, q, q3, sub, Q3};
use common::{tally, up};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use obbtree_bv::shape::{
    capsule_cylinder_wide_enclosures, cylinder_cylinder_fallbacks, cylinder_triangle_exact_runs,
    touches, touches_triangle, PlacedShape, Shape, ShapeError,
};
use obbtree_bv::{Point, Pose, Triangle, Vector};
use proptest::prelude::*;
use std::cell::Cell;

type Q = BigRational;

fn qsub(a: &Q, b: &Q) -> Q {
    a - b
}

/// The placed axis ends and radius of a cylinder.
fn axis(p: &PlacedShape) -> (Point, Point, f64) {
    match p {
        PlacedShape::Cylinder { a, b, radius } => (*a, *b, *radius),
        other => panic!("not a cylinder: {other:?}"),
    }
}

/// Exact oracle: does the solid cylinder of radius `r` about `[a, b]` meet the triangle `t`?
fn oracle_triangle(a: &Point, b: &Point, r: f64, t: &Triangle) -> bool {
    let (qa, w) = (q3(a), sub(&q3(b), &q3(a)));
    let l2 = dot(&w, &w);
    let v0 = q3(&t.a);
    let e1 = sub(&q3(&t.b), &v0);
    let e2 = sub(&q3(&t.c), &v0);
    let p0 = sub(&v0, &qa);
    // u(λ) = u0 + λ1 f1 + λ2 f2: (x − a) × w; h(λ) = h0 + λ1 k1 + λ2 k2: (x − a)·w.
    let (u0, f1, f2) = (cross(&p0, &w), cross(&e1, &w), cross(&e2, &w));
    let (h0, k1, k2) = (dot(&p0, &w), dot(&e1, &w), dot(&e2, &w));
    // Constraints c + n·λ >= 0.
    let one = Q::one();
    let zero = Q::zero();
    let cons: Vec<(Q, [Q; 2])> = vec![
        (zero.clone(), [one.clone(), zero.clone()]),
        (zero.clone(), [zero.clone(), one.clone()]),
        (one.clone(), [-one.clone(), -one.clone()]),
        (h0.clone(), [k1.clone(), k2.clone()]),
        (qsub(&l2, &h0), [-k1.clone(), -k2.clone()]),
    ];
    let feasible = |l: &[Q; 2]| {
        cons.iter()
            .all(|(c, n)| !(c + &n[0] * &l[0] + &n[1] * &l[1]).is_negative())
    };
    let value = |l: &[Q; 2]| {
        let u: Q3 = std::array::from_fn(|i| &u0[i] + &l[0] * &f1[i] + &l[1] * &f2[i]);
        dot(&u, &u)
    };
    let mut candidates: Vec<[Q; 2]> = Vec::new();
    // Two active constraints.
    for i in 0..cons.len() {
        for j in i + 1..cons.len() {
            let (ci, ni) = &cons[i];
            let (cj, nj) = &cons[j];
            let det = &ni[0] * &nj[1] - &ni[1] * &nj[0];
            if det.is_zero() {
                continue;
            }
            // ni·λ = −ci, nj·λ = −cj.
            let l0 = (-ci * &nj[1] + cj * &ni[1]) / &det;
            let l1 = (-cj * &ni[0] + ci * &nj[0]) / &det;
            candidates.push([l0, l1]);
        }
    }
    // One active constraint: the least point of its line.
    for (c, n) in &cons {
        let nn = &n[0] * &n[0] + &n[1] * &n[1];
        if nn.is_zero() {
            continue;
        }
        let base = [-c * &n[0] / &nn, -c * &n[1] / &nn];
        let d = [-n[1].clone(), n[0].clone()];
        let ub: Q3 = std::array::from_fn(|i| &u0[i] + &base[0] * &f1[i] + &base[1] * &f2[i]);
        let fd: Q3 = std::array::from_fn(|i| &d[0] * &f1[i] + &d[1] * &f2[i]);
        let ff = dot(&fd, &fd);
        if ff.is_zero() {
            continue;
        }
        let s = -dot(&ub, &fd) / ff;
        candidates.push([&base[0] + &s * &d[0], &base[1] + &s * &d[1]]);
    }
    // None active: the normal equations.
    let (g11, g12, g22) = (dot(&f1, &f1), dot(&f1, &f2), dot(&f2, &f2));
    let det = &g11 * &g22 - &g12 * &g12;
    if !det.is_zero() {
        let (b1, b2) = (-dot(&u0, &f1), -dot(&u0, &f2));
        candidates.push([
            (&b1 * &g22 - &b2 * &g12) / &det,
            (&g11 * &b2 - &g12 * &b1) / &det,
        ]);
    }
    let bound = q(r) * q(r) * &l2;
    candidates
        .iter()
        .filter(|l| feasible(l))
        .any(|l| value(l) <= bound)
}

/// Rational bounds `lo <= √x <= hi`: a float root widened by `2⁻⁴⁰` when its squares
/// bracket `x` exactly, else bisection to `hi − lo <= max(x, 1)·2⁻¹⁴⁰`.
fn sqrt_bracket(x: &Q) -> (Q, Q) {
    // A float root widened by 2⁻⁴⁰ each way, kept when its squares bracket `x` exactly.
    let approx = num_traits::ToPrimitive::to_f64(x)
        .unwrap_or(f64::NAN)
        .sqrt();
    if approx.is_finite() && approx > 0.0 {
        let lo = q(approx * (1.0 - 2f64.powi(-40)));
        let hi = q(approx * (1.0 + 2f64.powi(-40)));
        if &lo * &lo <= *x && *x <= &hi * &hi {
            return (lo, hi);
        }
    }
    let (mut lo, mut hi) = (Q::zero(), if x > &Q::one() { x.clone() } else { Q::one() });
    let two = Q::from_integer(2.into());
    for _ in 0..140 {
        let mid = (&lo + &hi) / &two;
        // Keep the fractions short: round mid to a dyadic with 300 bits.
        let mid = {
            let scale = Q::from_integer(num_bigint::BigInt::one() << 300);
            (&mid * &scale).floor() / scale
        };
        if &mid * &mid <= *x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

/// Oracle: does the ball of radius `rho` about `c` meet the cylinder? The distance is
/// `√(δ_axial² + δ_radial²)` with `δ_radial = max(0, √q/L − r)`: compared through brackets.
fn oracle_sphere(c: &Point, rho: f64, a: &Point, b: &Point, r: f64) -> Option<bool> {
    oracle_ball(&q3(c), &(q(rho) * q(rho)), a, b, r)
}

/// [`oracle_sphere`] for a rational centre and squared radius.
fn oracle_ball(c: &Q3, rho2: &Q, a: &Point, b: &Point, r: f64) -> Option<bool> {
    let rho2 = rho2.clone();
    let w = sub(&q3(b), &q3(a));
    let p = sub(c, &q3(a));
    let l2 = dot(&w, &w);
    let t = dot(&p, &w);
    let u = cross(&p, &w);
    // Radial distance² and axial distance², each times L².
    let radial_l2 = dot(&u, &u);
    let axial = if t.is_negative() {
        -t.clone()
    } else if t > l2 {
        &t - &l2
    } else {
        Q::zero()
    };
    let (lb, ub) = sqrt_bracket(&l2); // L
    let (ql, qu) = sqrt_bracket(&radial_l2); // √q = radial·L
    let rq = q(r);
    // distance² = axial²/L² + (max(0, √q/L − r))².
    let dist2 = |l: &Q, sq: &Q, ax_l: &Q| {
        let rad = sq / l - &rq;
        let rad = if rad.is_negative() { Q::zero() } else { rad };
        &axial * &axial / (ax_l * ax_l) + &rad * &rad
    };
    // Largest and least over the brackets (monotone pieces): the distance is decreasing in L
    // through both terms and increasing in √q.
    let (hi, lo) = (dist2(&lb, &qu, &lb), dist2(&ub, &ql, &ub));
    if hi <= rho2 {
        Some(true)
    } else if lo > rho2 {
        Some(false)
    } else {
        None
    }
}

/// Oracle: does `n·p <= d` meet the cylinder? The least of `n·x` is `min(n·a, n·b) − r|n × w|/|w|`.
fn oracle_halfspace(n: &Vector, d: f64, a: &Point, b: &Point, r: f64) -> Option<bool> {
    let nq = [q(n.x), q(n.y), q(n.z)];
    let w = sub(&q3(b), &q3(a));
    let low = std::cmp::min(dot(&nq, &q3(a)), dot(&nq, &q3(b))) - q(d);
    let nw = cross(&nq, &w);
    let ratio = dot(&nw, &nw) / dot(&w, &w);
    // `low − r·√ratio` decreases in the root: its value at the bracket's ends bounds it.
    let (lo, hi) = sqrt_bracket(&ratio);
    if !(&low - q(r) * lo).is_positive() {
        Some(true)
    } else if (&low - q(r) * hi).is_positive() {
        Some(false)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Strategies.

fn coord(r: f64) -> impl Strategy<Value = f64> {
    -r..r
}

fn point(r: f64) -> impl Strategy<Value = Point> {
    (coord(r), coord(r), coord(r)).prop_map(|(x, y, z)| Point::new(x, y, z))
}

fn pose() -> impl Strategy<Value = Pose> {
    (
        [coord(1.0), coord(1.0), coord(1.0)],
        [coord(3.0), coord(3.0), coord(3.0)],
    )
        .prop_map(|(t, r)| Pose::new(t, r).unwrap())
}

fn cylinder() -> impl Strategy<Value = (f64, f64, Pose)> {
    (0.2..1.2f64, 0.2..3.0f64, pose())
}

fn triangle() -> impl Strategy<Value = Triangle> {
    (point(1.3), point(1.5), point(1.5), 0..8u8).prop_map(|(c, u, v, kind)| {
        let (a, b) = (c + u.coords, c + v.coords);
        match kind {
            0 => Triangle::new(c, c, c),
            1 => Triangle::new(c, a, a),
            2 => Triangle::new(c, a, c + u.coords * 0.5),
            _ => Triangle::new(c, a, b),
        }
    })
}

fn placed(r: f64, l: f64, pose: &Pose) -> PlacedShape {
    Shape::cylinder(r, l).unwrap().place(pose).unwrap()
}

/// [`tally`] for this file.
fn run<S: Strategy>(
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Option<(bool, bool)>,
) -> (usize, usize)
where
    S::Value: std::fmt::Debug,
{
    tally(cases, file!(), strategy, check)
}

fn balanced((touching, apart): (usize, usize)) {
    let total = touching + apart;
    assert!(
        5 * touching >= total && 5 * apart >= total,
        "unbalanced: {touching} touching, {apart} apart"
    );
}

// ---------------------------------------------------------------------------------------
// Random cases.

/// Random cylinders and triangles (points, segments, collinear and proper triangles) against
/// the exact oracle; counts the engine's exact slow path (the number in `cylinder_triangle`'s
/// doc).
#[test]
fn random_cylinders_against_triangles() {
    let before = cylinder_triangle_exact_runs();
    let calls = Cell::new(0u64);
    balanced(run(2048, (cylinder(), triangle()), |((r, l, pose), t)| {
        let c = placed(r, l, &pose);
        let (a, b, radius) = axis(&c);
        calls.set(calls.get() + 1);
        Some((
            touches_triangle(&c, &t),
            oracle_triangle(&a, &b, radius, &t),
        ))
    }));
    let runs = cylinder_triangle_exact_runs() - before;
    println!("exact slow path: {runs} of {} random calls", calls.get());
    assert!(runs * 100 <= calls.get(), "{runs} exact runs");
}

/// Scaling every coordinate and the radius by a power of two changes no answer (no rounding
/// changes): random cases at `2²⁰⁰` and `2⁻²⁰⁰` give the answer at 1, which is the oracle's.
#[test]
fn random_answers_are_scale_invariant() {
    run(256, (cylinder(), triangle()), |((r, l, pose), t)| {
        let c = placed(r, l, &pose);
        let (a, b, radius) = axis(&c);
        let want = touches_triangle(&c, &t);
        for s in SCALES {
            let scaled = PlacedShape::Cylinder {
                a: a * s,
                b: b * s,
                radius: radius * s,
            };
            let ts = Triangle::new(t.a * s, t.b * s, t.c * s);
            assert_eq!(touches_triangle(&scaled, &ts), want, "scale {s:e}");
        }
        Some((want, oracle_triangle(&a, &b, radius, &t)))
    });
}

/// Grid data: integer radii, lengths and coordinates, quarter-turn poses: exact contacts
/// (tangent faces, rims, cap planes) are frequent. Against the exact oracle.
#[test]
fn grid_cylinders_against_grid_triangles() {
    let quarter = prop_oneof![
        Just([0.0, 0.0, 0.0]),
        Just([std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
        Just([0.0, std::f64::consts::FRAC_PI_2, 0.0]),
    ];
    let int = |n: i32| (-n..=n).prop_map(f64::from);
    let grid_point = move |n| (int(n), int(n), int(n)).prop_map(|(x, y, z)| Point::new(x, y, z));
    let before = cylinder_triangle_exact_runs();
    balanced(run(
        1024,
        (
            1..=2i32,
            1..=3i32,
            quarter,
            grid_point(1),
            [grid_point(3), grid_point(3), grid_point(3)],
        ),
        |(r, l, rotation, t, [a, b, c])| {
            let rot = nalgebra::Rotation3::new(Vector::from(rotation))
                .matrix()
                .map(f64::round);
            let pose = Pose::from_parts(t.coords, rot).unwrap();
            let cyl = placed(r.into(), (2 * l).into(), &pose);
            let (e, f, radius) = axis(&cyl);
            let tri = Triangle::new(a, b, c);
            Some((
                touches_triangle(&cyl, &tri),
                oracle_triangle(&e, &f, radius, &tri),
            ))
        },
    ));
    println!(
        "exact slow path on the grid: {}",
        cylinder_triangle_exact_runs() - before
    );
}

/// Random spheres and halfspaces against cylinders; boxes and convex shapes against cylinders
/// through the triangle oracle (a face meets it, or the hull holds an axis end).
#[test]
fn random_cylinders_against_spheres_and_halfspaces() {
    let skipped = Cell::new(0usize);
    balanced(run(
        1024,
        (cylinder(), point(1.8), 0.05..1.5f64),
        |((r, l, pose), c, rho)| {
            let cyl = placed(r, l, &pose);
            let (a, b, radius) = axis(&cyl);
            let ball = Shape::sphere(rho)
                .unwrap()
                .place(&Pose::from_translation(c.coords).unwrap())
                .unwrap();
            let got = touches(&cyl, &ball);
            assert_eq!(got, touches(&ball, &cyl));
            let want = oracle_sphere(&c, rho, &a, &b, radius);
            if want.is_none() {
                skipped.set(skipped.get() + 1);
            }
            want.map(|w| (got, w))
        },
    ));
    balanced(run(
        1024,
        (cylinder(), [coord(1.0), coord(1.0), coord(1.0)], coord(2.0)),
        |((r, l, pose), n, d)| {
            let n = Vector::from(n);
            let cyl = placed(r, l, &pose);
            let (a, b, radius) = axis(&cyl);
            let half = Shape::halfspace(n, d)
                .ok()?
                .place(&Pose::identity())
                .unwrap();
            let got = touches(&half, &cyl);
            assert_eq!(got, touches(&cyl, &half));
            let want = oracle_halfspace(&n, d, &a, &b, radius);
            if want.is_none() {
                skipped.set(skipped.get() + 1);
            }
            want.map(|w| (got, w))
        },
    ));
    assert!(
        skipped.get() <= 4,
        "{} undecided oracle cases",
        skipped.get()
    );
}

#[test]
fn random_cylinders_against_boxes() {
    balanced(run(
        64,
        (cylinder(), [0.2..1.2f64, 0.2..1.2f64, 0.2..1.2f64], pose()),
        |((r, l, pose), sizes, box_pose)| {
            let cyl = placed(r, l, &pose);
            let (a, b, radius) = axis(&cyl);
            let cuboid = Shape::cuboid(sizes).unwrap().place(&box_pose).unwrap();
            let PlacedShape::Polytope(p) = &cuboid else {
                unreachable!()
            };
            let got = touches(&cyl, &cuboid);
            assert_eq!(got, touches(&cuboid, &cyl));
            let inside = common::exact::hulls_meet_exact(&[a], p.vertices());
            let want = inside || p.boundary().any(|f| oracle_triangle(&a, &b, radius, &f));
            Some((got, want))
        },
    ));
}

// ---------------------------------------------------------------------------------------
// Hand-made exact contacts.

/// `1`, `2²⁰⁰` and `2⁻²⁰⁰`.
const SCALES: [f64; 3] = [1.0, 1.6069380442589903e60, 6.223015277861142e-61];

fn tri(s: f64, v: [[f64; 3]; 3]) -> Triangle {
    let p = |v: [f64; 3]| Point::new(v[0] * s, v[1] * s, v[2] * s);
    Triangle::new(p(v[0]), p(v[1]), p(v[2]))
}

/// The cylinder of radius 2 and length 4 along z about the origin, scaled by `s`.
fn unit_cylinder(s: f64) -> PlacedShape {
    placed(2.0 * s, 4.0 * s, &Pose::identity())
}

#[test]
fn scales_are_powers_of_two() {
    assert_eq!(SCALES, [1.0, 2f64.powi(200), 2f64.powi(-200)]);
}

#[test]
fn triangles_in_exact_contact() {
    for s in SCALES {
        let c = unit_cylinder(s);
        let (a, b, r) = axis(&c);
        let check = |t: Triangle, want: bool, what: &str| {
            assert_eq!(touches_triangle(&c, &t), want, "{what}, scale {s:e}");
            assert_eq!(
                oracle_triangle(&a, &b, r, &t),
                want,
                "oracle: {what}, scale {s:e}"
            );
        };
        let x = 2.0 * s;
        // Tangent to the side along the line x = 2, y = 0 (the axis parallel to the plane).
        let face = |x: f64| {
            Triangle::new(
                Point::new(x, -s, -s),
                Point::new(x, s, -s),
                Point::new(x, 0.0, s),
            )
        };
        check(face(x), true, "tangent face");
        check(face(up(x)), false, "tangent face, one ulp away");
        // Touching the rim circle at (2, 0, 2) only, from outside and above.
        let rim = |x: f64| {
            Triangle::new(
                Point::new(x, 0.0, 2.0 * s),
                Point::new(4.0 * s, s, 3.0 * s),
                Point::new(4.0 * s, -s, 3.0 * s),
            )
        };
        check(rim(x), true, "rim");
        check(rim(up(x)), false, "rim, one ulp away");
        // The same along the rim's tangent: the segment from (2, -1, 2) to (2, 1, 2).
        let tangent = |x: f64| {
            Triangle::new(
                Point::new(x, -s, 2.0 * s),
                Point::new(x, s, 2.0 * s),
                Point::new(x + s, 0.0, 3.0 * s),
            )
        };
        check(tangent(x), true, "rim tangent");
        check(tangent(up(x)), false, "rim tangent, one ulp away");
        // In the cap plane z = 2, over the cap, and one ulp above it.
        let cap = |z: f64| tri(1.0, [[-s, -s, z], [s, -s, z], [0.0, 3.0 * s, z]]);
        check(cap(2.0 * s), true, "cap plane");
        check(cap(up(2.0 * s)), false, "cap plane, one ulp above");
        // A vertex on the cap, the rest above.
        let apex = |z: f64| {
            tri(
                1.0,
                [[0.5 * s, 0.0, z], [s, 0.0, 5.0 * s], [0.0, s, 5.0 * s]],
            )
        };
        check(apex(2.0 * s), true, "vertex on the cap");
        check(apex(up(2.0 * s)), false, "vertex one ulp above the cap");
        // Crossing the axis, and wholly inside.
        check(
            tri(s, [[-5.0, -5.0, 0.5], [5.0, -5.0, 0.5], [0.0, 5.0, -0.5]]),
            true,
            "crossing",
        );
        check(
            tri(s, [[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.5]]),
            true,
            "inside",
        );
        // An edge through the side without a vertex inside or touching the axis.
        check(
            tri(s, [[-3.0, 1.5, 0.0], [3.0, 1.5, 0.0], [0.0, 5.0, 0.0]]),
            true,
            "chord",
        );
        // Degenerate: a point on the side, a segment along the side, a segment crossing.
        let point = |x: f64| {
            Triangle::new(
                Point::new(x, 0.0, 0.0),
                Point::new(x, 0.0, 0.0),
                Point::new(x, 0.0, 0.0),
            )
        };
        check(point(x), true, "point on the side");
        check(point(up(x)), false, "point one ulp outside");
        let seg = |x: f64| {
            Triangle::new(
                Point::new(0.0, x, -5.0 * s),
                Point::new(0.0, x, 5.0 * s),
                Point::new(0.0, x, 5.0 * s),
            )
        };
        check(seg(x), true, "segment along the side");
        check(seg(up(x)), false, "segment one ulp outside");
        // 3-4-5: a point at radius 2 off the grid axes, on the rim.
        let p = Point::new(1.2 * s, 1.6 * s, 2.0 * s);
        let pt = Triangle::new(p, p, p);
        assert_eq!(
            touches_triangle(&c, &pt),
            oracle_triangle(&a, &b, r, &pt),
            "3-4-5 {s:e}"
        );
    }
}

/// A cylinder turned by exact quarter turns and shifted: the same contacts in other frames.
#[test]
fn turned_cylinder_in_exact_contact() {
    // Turns z into x exactly.
    let turn = nalgebra::Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0);
    for s in SCALES {
        let pose = Pose::from_parts(Vector::new(s, 2.0 * s, 3.0 * s), turn).unwrap();
        let c = placed(2.0 * s, 4.0 * s, &pose);
        // Axis from (−1, 2, 3) to (3, 2, 3) (times s); the side plane y = 4.
        let face = |y: f64| {
            Triangle::new(
                Point::new(0.0, y, 0.0),
                Point::new(2.0 * s, y, 6.0 * s),
                Point::new(4.0 * s, y, 0.0),
            )
        };
        assert!(touches_triangle(&c, &face(4.0 * s)), "{s:e}");
        assert!(!touches_triangle(&c, &face(up(4.0 * s))), "{s:e}");
    }
}

#[test]
fn spheres_and_halfspaces_in_exact_contact() {
    for s in SCALES {
        let c = unit_cylinder(s);
        let ball = |r: f64, p: [f64; 3]| {
            Shape::sphere(r * s)
                .unwrap()
                .place(&Pose::from_translation(p.map(|x| x * s)).unwrap())
                .unwrap()
        };
        // Beside the side, above the cap, and off the rim at distance 5 along (3, 4) in (x, z).
        assert!(touches(&c, &ball(1.0, [3.0, 0.0, 0.0])));
        assert!(!touches(&c, &ball(1.0f64.next_down(), [3.0, 0.0, 0.0])));
        assert!(touches(&c, &ball(1.0, [0.5, 0.5, 3.0])));
        assert!(!touches(&c, &ball(1.0f64.next_down(), [0.5, 0.5, 3.0])));
        assert!(touches(&c, &ball(5.0, [5.0, 0.0, 6.0])));
        assert!(!touches(&c, &ball(5.0f64.next_down(), [5.0, 0.0, 6.0])));
        // Same with the rim at (1.2, 1.6, 2): centre (1.2, 1.6, 2) + 5·(0.6, 0.8, 0)...
        // Halfspaces: x <= −2 touches at the side; a slanted one at the rim.
        let half = |n: [f64; 3], d: f64| {
            Shape::halfspace(n, d * s)
                .unwrap()
                .place(&Pose::identity())
                .unwrap()
        };
        assert!(touches(&c, &half([1.0, 0.0, 0.0], -2.0)));
        assert!(!touches(&c, &half([1.0, 0.0, 0.0], up(-2.0))));
        assert!(touches(&c, &half([0.0, 0.0, -3.0], -6.0)));
        assert!(!touches(&c, &half([0.0, 0.0, -3.0], up(-6.0))));
        // n = (3, 0, 4): least of n·x at the rim point (−2, 0, −2): −6 − 8 = −14.
        assert!(touches(&c, &half([3.0, 0.0, 4.0], -14.0)));
        assert!(!touches(&c, &half([3.0, 0.0, 4.0], up(-14.0))));
        // A box face on the side, and a box holding the whole cylinder.
        let cube = |size: f64, p: [f64; 3]| {
            Shape::cuboid([size * s; 3])
                .unwrap()
                .place(&Pose::from_translation(p.map(|x| x * s)).unwrap())
                .unwrap()
        };
        assert!(touches(&c, &cube(2.0, [3.0, 0.0, 0.0])));
        assert!(!touches(&c, &cube(2.0, [up(3.0), 0.0, 0.0])));
        assert!(touches(&c, &cube(16.0, [0.0, 0.0, 0.0])));
    }
}

#[test]
fn validation() {
    assert!(matches!(
        Shape::cylinder(0.0, 1.0),
        Err(ShapeError::NotPositive {
            field: "radius",
            ..
        })
    ));
    assert!(matches!(
        Shape::cylinder(1.0, 0.0),
        Err(ShapeError::NotPositive {
            field: "length",
            ..
        })
    ));
    assert!(matches!(
        Shape::cylinder(1.0, f64::NAN),
        Err(ShapeError::NotPositive { .. })
    ));
    assert!(matches!(
        Shape::cylinder(1e-80, 1.0),
        Err(ShapeError::OutOfRange {
            field: "radius",
            ..
        })
    ));
    let c = Shape::cylinder(0.5, 2.0).unwrap();
    let Shape::Cylinder(cyl) = &c else {
        unreachable!()
    };
    assert_eq!((cyl.radius(), cyl.length()), (0.5, 2.0));
    assert_eq!(
        c.place(&Pose::from_translation([1.0, 0.0, 0.0]).unwrap())
            .unwrap(),
        PlacedShape::Cylinder {
            a: Point::new(1.0, 0.0, -1.0),
            b: Point::new(1.0, 0.0, 1.0),
            radius: 0.5
        }
    );
    assert!(matches!(
        Shape::cylinder(1.0, 1e-10)
            .unwrap()
            .place(&Pose::from_translation([0.0, 0.0, 1e10]).unwrap()),
        Err(ShapeError::AxisCollapsed)
    ));
    assert!(matches!(
        Shape::cylinder(1.0, 1.0)
            .unwrap()
            .place(&Pose::from_translation([2e102, 0.0, 0.0]).unwrap()),
        Err(ShapeError::PlacedOutOfRange { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Capsules and cylinders against cylinders (conservative).

/// Whether the rational point `x` lies in the solid cylinder `[a, b]`, `r` (exact).
fn in_cylinder(x: &Q3, a: &Point, b: &Point, r: f64) -> bool {
    let w = sub(&q3(b), &q3(a));
    let p = sub(x, &q3(a));
    let (l2, t) = (dot(&w, &w), dot(&p, &w));
    let u = cross(&p, &w);
    !t.is_negative() && t <= l2 && dot(&u, &u) <= q(r) * q(r) * l2
}

/// Rational points of the solid cylinder `[a, b]`, `r`: a grid of axial and radial offsets,
/// kept where exactly inside (the rim and the caps included).
fn cylinder_samples(a: &Point, b: &Point, r: f64, n: i64) -> Vec<Q3> {
    let (qa, w) = (q3(a), sub(&q3(b), &q3(a)));
    // Two vectors across the axis: w × k and w × (w × k), k the axis least along w.
    let k = (0..3).min_by(|&i, &j| w[i].abs().cmp(&w[j].abs())).unwrap();
    let mut e = [Q::zero(), Q::zero(), Q::zero()];
    e[k] = Q::one();
    let e1 = cross(&w, &e);
    let e2 = cross(&w, &e1);
    let frac = |i: i64| Q::new(i.into(), n.into());
    // Radial offsets of length about r: (j e1/|e1| + m e2/|e2|)·r/n, |e| bracketed.
    let scale = |v: &Q3| {
        let (lo, _) = sqrt_bracket(&dot(v, v));
        q(r) / lo
    };
    let (s1, s2) = (scale(&e1), scale(&e2));
    let mut out = Vec::new();
    for i in 0..=n {
        for j in -n..=n {
            for m in -n..=n {
                let x: Q3 = std::array::from_fn(|c| {
                    &qa[c] + frac(i) * &w[c] + frac(j) * &s1 * &e1[c] + frac(m) * &s2 * &e2[c]
                });
                if in_cylinder(&x, a, b, r) {
                    out.push(x);
                }
            }
        }
    }
    out
}

/// A capsule touching the rim circle of the unit cylinder (radius 2, length 4) at distance
/// exactly 5 along (3, 0, 4), where no exact shortcut applies: touching gives yes, a radius
/// short by `2⁻²⁰` of it (far outside the band `2⁻³⁷·M²`) gives no.
#[test]
fn capsule_at_the_rim_both_sides_of_the_band() {
    for s in SCALES {
        let c = unit_cylinder(s);
        let capsule = |radius: f64| {
            let turn = nalgebra::Matrix3::new(1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0);
            Shape::capsule(radius * s, 20.0 * s)
                .unwrap()
                .place(&Pose::from_parts(Vector::new(5.0 * s, 0.0, 6.0 * s), turn).unwrap())
                .unwrap()
        };
        let PlacedShape::Capsule { a, b, .. } = capsule(5.0) else {
            unreachable!()
        };
        assert_eq!(
            (a.y, b.y),
            (10.0 * s, -10.0 * s),
            "the capsule lies along y"
        );
        assert!(touches(&c, &capsule(5.0)), "touching, {s:e}");
        assert!(touches(&capsule(5.0), &c));
        assert!(
            !touches(&c, &capsule(5.0 * (1.0 - 2f64.powi(-20)))),
            "apart, {s:e}"
        );
        assert!(
            touches(&c, &capsule(5.0 * (1.0 + 2f64.powi(-20)))),
            "overlapping, {s:e}"
        );
    }
    assert_eq!(
        capsule_cylinder_wide_enclosures(),
        0,
        "yes outside the band"
    );
}

/// Random capsules: never a false no (a rational point of the segment whose ball of radius
/// `s` touches the cylinder, by the exact oracle, forces yes), and a no whenever the bounding
/// capsules are apart.
#[test]
fn random_capsules_never_a_false_no() {
    let unsampled = Cell::new(0usize);
    let (touching, apart) = run(
        192,
        (cylinder(), point(1.5), point(1.5), 0.05..0.8f64),
        |((r, l, pose), e, f, radius)| {
            let cyl = placed(r, l, &pose);
            let (a, b, cr) = axis(&cyl);
            let dir = f - e;
            let (len, mid) = (dir.norm(), nalgebra::center(&e, &f));
            let rotation = nalgebra::Rotation3::rotation_between(&Vector::z(), &dir)?;
            let capsule = Shape::capsule(radius, len)
                .ok()?
                .place(&Pose::from_parts(mid.coords, *rotation.matrix()).ok()?)
                .ok()?;
            let PlacedShape::Capsule { a: c, b: d, .. } = capsule else {
                unreachable!()
            };
            let got = touches(&cyl, &capsule);
            assert_eq!(got, touches(&capsule, &cyl));
            let n = 16;
            let (qc, qd) = (q3(&c), q3(&d));
            let rho2 = q(radius) * q(radius);
            let witness = (0..=n).any(|k| {
                let t = Q::new(k.into(), n.into());
                let x: Q3 = std::array::from_fn(|i| &qc[i] + &t * (&qd[i] - &qc[i]));
                oracle_ball(&x, &rho2, &a, &b, cr) == Some(true)
            });
            if got && !witness {
                unsampled.set(unsampled.get() + 1);
            }
            // The oracle's side: a witness forces yes; without one the sampling says nothing.
            Some((got, got || witness))
        },
    );
    println!(
        "{touching} touching, {apart} apart, {} yes without a sampled witness",
        unsampled.get()
    );
    balanced((touching, apart));
    assert_eq!(
        capsule_cylinder_wide_enclosures(),
        0,
        "yes outside the band"
    );
}

/// Random cylinder pairs: never a false no (a rational point in both forces yes).
#[test]
fn random_cylinder_pairs_never_a_false_no() {
    let (touching, apart) = run(48, (cylinder(), cylinder()), |((r, l, p1), (s, m, p2))| {
        let c1 = placed(r, l, &p1);
        let c2 = placed(s, m, &p2);
        let got = touches(&c1, &c2);
        assert_eq!(got, touches(&c2, &c1));
        let (a, b, r1) = axis(&c1);
        let (c, d, r2) = axis(&c2);
        let witness = cylinder_samples(&a, &b, r1, 3)
            .iter()
            .any(|x| in_cylinder(x, &c, &d, r2));
        Some((got, got || witness))
    });
    println!(
        "{touching} touching, {apart} apart, {} answered by the bounding capsules",
        cylinder_cylinder_fallbacks()
    );
    assert!(touching * 10 >= touching + apart && apart * 10 >= touching + apart);
}

/// Cylinders across each other touching along a line of the cap, and one ulp apart; side by
/// side touching along a line of their sides, and one ulp apart.
#[test]
fn cylinder_pairs_in_exact_contact() {
    let turn = nalgebra::Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0);
    for s in SCALES {
        let c1 = placed(s, 2.0 * s, &Pose::identity());
        let across = |z: f64| {
            placed(
                s,
                2.0 * s,
                &Pose::from_parts(Vector::new(0.0, 0.0, z), turn).unwrap(),
            )
        };
        assert!(touches(&c1, &across(2.0 * s)), "{s:e}");
        assert!(!touches(&c1, &across(up(2.0 * s))), "{s:e}");
        let beside = |x: f64| {
            placed(
                2.0 * s,
                2.0 * s,
                &Pose::from_translation([x, 0.0, 0.5 * s]).unwrap(),
            )
        };
        assert!(touches(&c1, &beside(3.0 * s)), "{s:e}");
        assert!(!touches(&c1, &beside(up(3.0 * s))), "{s:e}");
        // Both sides of the band: a gap of 2⁻¹⁰ (squared 2⁻²⁰, far above 2⁻³⁸·M², M = 3)
        // is apart; an overlap of 2⁻¹⁰ touches.
        assert!(!touches(&c1, &across((2.0 + 2f64.powi(-10)) * s)), "{s:e}");
        assert!(touches(&c1, &across((2.0 - 2f64.powi(-10)) * s)), "{s:e}");
        // Tilted (rounded rotation) across the rim, a little above and a little below.
        let tilted = |z: f64| {
            placed(
                0.5 * s,
                2.0 * s,
                &Pose::new([1.5 * s, 0.0, z], [0.3, 0.7, 0.0]).unwrap(),
            )
        };
        let (high, low) = (tilted(3.0 * s), tilted(1.2 * s));
        assert!(!touches(&c1, &high), "{s:e}");
        assert!(touches(&c1, &low), "{s:e}");
        // (The oracle agrees that they do meet: a rational point of one lies in the other.)
        let ((a, b, r), (c, d, q)) = (axis(&low), axis(&c1));
        assert!(cylinder_samples(&a, &b, r, 3)
            .iter()
            .any(|x| in_cylinder(x, &c, &d, q)));
        // A cylinder's axis through the other: yes, exactly.
        let through = placed(
            0.25 * s,
            8.0 * s,
            &Pose::from_parts(Vector::zeros(), turn).unwrap(),
        );
        assert!(touches(&c1, &through));
    }
    println!(
        "exact contacts answered by the bounding capsules: {}",
        cylinder_cylinder_fallbacks()
    );
}
