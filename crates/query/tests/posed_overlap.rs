//! Direct property tests of the posed volume tests that collision and containment rely on
//! ([`PosedOverlap::relative`], `place`, `overlaps` and `meets_segment`, for OBBs, AABBs,
//! spheres and 18-DOPs), which the module claims conservative "whatever the rounding":
//!
//! * **Conservative.** A volume `a` of A holds a triangle `ta` exactly, a volume `b` of B holds
//!   `tb` exactly, and `ta` shares a point with `tb` placed in A's frame the way collision places
//!   it (`Pose::transform_point`, rounded): then `overlaps(a, place(b))` is true. Likewise
//!   `meets_segment`: a segment of the world that meets the placed triangle meets the volume
//!   around the unplaced one, on the segment moved into the mesh frame the way `contains_point`
//!   moves it. Whether two triangles (or a triangle and a segment, a triangle with a repeated
//!   vertex) share a point is decided by the big-integer separating-axis oracle of the bv tests
//!   (`common::sat`), which shares no code and no method with the engine.
//! * **Tight.** Volumes (or a segment and a volume) separated along a face axis by more than a
//!   millionth of their magnitude are reported apart: a test that always answered "overlap"
//!   would keep every answer of the queries right and fail here.
//! * **Grown by a margin** ([`PosedOverlap::relative_within`], the margin queries' test): with
//!   A's triangle moved away, volumes grown by at least the move still overlap when the
//!   triangles met, and volumes apart by more than twice a margin are reported apart when
//!   grown by it.
//!
//! The volumes: the engine's fits (OBB: covariance and minimum volume; sphere: Welzl, Ritter, AABB
//! centre; AABB; 18-DOP) and OBBs in random axes, each checked in exact dyadic arithmetic to
//! hold its triangle and widened until it does (a fit may round a few ulps short of a point, and
//! the property is about volumes that hold their contents). The cases: magnitudes from `2⁻¹⁸⁰`
//! to `2³⁰⁰` (within the exact range), boxes down to `2⁻⁶⁰` of their distance from the origin
//! (where the rounding of the placement exceeds the box), B far from its own origin and placed
//! near A's, near its origin and placed far, or both; rotations random, tiny (near-parallel
//! axes), exact signed permutations, and permutations turned by a tiny angle; triangles meeting
//! at a shared vertex, along a shared edge, at a point, crossing, or nudged by a few ulps.
//!
//! Cases: 6,000 per volume type per run (`OBBTREE_PROPTEST_CASES` scales them).

mod common;

use common::exact::Dy;
use common::runner;
use common::sat::triangles_meet;
use nalgebra::{Matrix3, Rotation3};
use obbtree_bv::range::in_exact_range;
use obbtree_bv::{
    Aabb, BoundingVolume, Kdop18, Obb, ObbFit, Point, Pose, Sphere, SphereFit, Vector,
};
use obbtree_query::PosedOverlap;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::cell::RefCell;

/// Relative margin of the tightness property: volumes apart by more than this times their
/// magnitude must be reported apart (the tests' slack is about 1e-14 of it, plus 1e-9 of the
/// sizes for near-parallel axes).
const MARGIN: f64 = 1e-6;

/// A volume type with an exact containment test written here, for the properties.
trait Exact: PosedOverlap + Copy + std::fmt::Debug {
    /// A volume around `points` (one of the type's fits, chosen by `rng`; for OBBs the box in
    /// the axes `hint` when given), not yet checked.
    fn around(points: &[Point], hint: Option<&Matrix3<f64>>, rng: &mut Pcg64) -> Self;
    /// Whether `p` lies in the closed volume, decided exactly.
    fn holds(&self, p: &Point) -> bool;
    /// The volume grown, where it does not hold some of `points`, by the least whole number of
    /// ulps of its own numbers that makes it hold them exactly (no more: the tests' slack must
    /// do the work, not the margin of a loose volume).
    fn tightened(&self, points: &[Point]) -> Self;
    /// Whether `a` and `b` (in B's frame, placed by `pose`) are apart by more than `margin`
    /// along an axis the type's test uses for sure (face axes).
    fn apart(a: &Self, b: &Self, pose: &Pose, margin: f64) -> bool;
    /// Whether the segment `p0 p1` lies beyond one face of the volume by more than `margin`.
    fn segment_apart(&self, p0: &Point, p1: &Point, margin: f64) -> bool;
    /// The largest coordinate magnitude of the volume (centre plus size).
    fn magnitude(&self) -> f64;
}

/// A volume around `points` that holds every one of them exactly: [`Exact::around`],
/// [`Exact::tightened`].
fn holding<V: Exact>(points: &[Point], hint: Option<&Matrix3<f64>>, rng: &mut Pcg64) -> V {
    let v = V::around(points, hint, rng).tightened(points);
    assert!(points.iter().all(|p| v.holds(p)), "{v:?} misses {points:?}");
    v
}

/// The least `f64` at or above the exact `x` (at least `floor`).
fn up(x: &Dy, floor: f64) -> f64 {
    let mut f = x.to_f64().max(floor);
    while x.gt(&Dy::new(f)) {
        f = f.next_up();
    }
    f
}

/// The greatest `f64` at or below the exact `x` (at most `ceiling`).
fn down(x: &Dy, ceiling: f64) -> f64 {
    let mut f = x.to_f64().min(ceiling);
    while Dy::new(f).gt(x) {
        f = f.next_down();
    }
    f
}

/// The largest of exact values (by [`Dy::gt`]).
fn largest(xs: impl Iterator<Item = Dy>) -> Dy {
    xs.reduce(|m, x| if x.gt(&m) { x } else { m })
        .expect("points")
}

fn dy3(v: &Vector) -> [Dy; 3] {
    [Dy::new(v.x), Dy::new(v.y), Dy::new(v.z)]
}

/// `x <= y`, exactly.
fn le(x: &Dy, y: &Dy) -> bool {
    !x.gt(y)
}

/// A box around `points` in the frame `axes`: their extent along each axis.
fn box_in_axes(points: &[Point], axes: Matrix3<f64>) -> Obb {
    let local: Vec<Vector> = points.iter().map(|p| axes.tr_mul(&p.coords)).collect();
    let lo = local.iter().fold(local[0], |m, v| m.inf(v));
    let hi = local.iter().fold(local[0], |m, v| m.sup(v));
    Obb {
        center: Point::from(axes * ((lo + hi) * 0.5)),
        axes,
        half_extents: (hi - lo) * 0.5,
    }
}

/// Separation of two boxes (centres, unit axes as columns, half-extents) along the unit axis
/// `u`, in floating point: positive when apart.
fn box_gap(
    u: &Vector,
    (ca, axes_a, ha): (&Vector, &Matrix3<f64>, &Vector),
    (cb, axes_b, hb): (&Vector, &Matrix3<f64>, &Vector),
) -> f64 {
    let radius = |axes: &Matrix3<f64>, h: &Vector| {
        (0..3)
            .map(|i| h[i] * u.dot(&axes.column(i)).abs())
            .sum::<f64>()
    };
    u.dot(&(cb - ca)).abs() - radius(axes_a, ha) - radius(axes_b, hb)
}

/// Whether two boxes are apart by more than `margin` along a face axis of either.
fn boxes_apart(
    a: (&Vector, &Matrix3<f64>, &Vector),
    b: (&Vector, &Matrix3<f64>, &Vector),
    margin: f64,
) -> bool {
    (0..3).any(|i| {
        box_gap(&a.1.column(i).into_owned(), a, b) > margin
            || box_gap(&b.1.column(i).into_owned(), a, b) > margin
    })
}

/// Whether the segment `p0 p1`, in the frame of a box (centre `c`, unit axes, half-extents
/// `h`), lies beyond one of its faces by more than `margin`.
fn segment_beyond_box(
    c: &Point,
    axes: &Matrix3<f64>,
    h: &Vector,
    p0: &Point,
    p1: &Point,
    margin: f64,
) -> bool {
    let (l0, l1) = (axes.tr_mul(&(p0 - c)), axes.tr_mul(&(p1 - c)));
    (0..3).any(|i| {
        let limit = h[i] + margin;
        (l0[i] > limit && l1[i] > limit) || (l0[i] < -limit && l1[i] < -limit)
    })
}

impl Exact for Obb {
    fn around(points: &[Point], hint: Option<&Matrix3<f64>>, rng: &mut Pcg64) -> Self {
        if let Some(axes) = hint {
            return box_in_axes(points, *axes);
        }
        match rng.gen_range(0..5) {
            0 => Obb::fit_points(points, ObbFit::VertexCovariance),
            1 => Obb::fit_points(points, ObbFit::MinVolume),
            4 => Obb::fit_points(points, ObbFit::Ditetrahedron),
            2 => box_in_axes(points, Matrix3::identity()),
            _ => box_in_axes(points, random_rotation(rng)),
        }
    }

    fn holds(&self, p: &Point) -> bool {
        let d: Vec<Dy> = (0..3)
            .map(|j| Dy::new(p[j]).sub(&Dy::new(self.center[j])))
            .collect();
        (0..3).all(|i| {
            let l = (0..3).fold(Dy::new(0.0), |s, j| {
                s.add(&Dy::new(self.axes[(j, i)]).mul(&d[j]))
            });
            le(&l.abs(), &Dy::new(self.half_extents[i]))
        })
    }

    fn tightened(&self, points: &[Point]) -> Self {
        let reach = |i: usize| {
            largest(points.iter().map(|p| {
                (0..3)
                    .fold(Dy::new(0.0), |s, j| {
                        let d = Dy::new(p[j]).sub(&Dy::new(self.center[j]));
                        s.add(&Dy::new(self.axes[(j, i)]).mul(&d))
                    })
                    .abs()
            }))
        };
        Obb {
            half_extents: Vector::from_fn(|i, _| up(&reach(i), self.half_extents[i])),
            ..*self
        }
    }

    fn apart(a: &Self, b: &Self, pose: &Pose, margin: f64) -> bool {
        let (cb, axes_b) = (
            pose.transform_point(&b.center).coords,
            pose.rotation() * b.axes,
        );
        boxes_apart(
            (&a.center.coords, &a.axes, &a.half_extents),
            (&cb, &axes_b, &b.half_extents),
            margin,
        )
    }

    fn segment_apart(&self, p0: &Point, p1: &Point, margin: f64) -> bool {
        segment_beyond_box(&self.center, &self.axes, &self.half_extents, p0, p1, margin)
    }

    fn magnitude(&self) -> f64 {
        self.center.coords.amax() + self.half_extents.sum()
    }
}

fn half(b: &Aabb) -> Vector {
    (b.maxs - b.mins) * 0.5
}

impl Exact for Aabb {
    fn around(points: &[Point], _: Option<&Matrix3<f64>>, _: &mut Pcg64) -> Self {
        Aabb::from_points(points)
    }

    fn holds(&self, p: &Point) -> bool {
        (0..3).all(|i| self.mins[i] <= p[i] && p[i] <= self.maxs[i])
    }

    fn tightened(&self, points: &[Point]) -> Self {
        let lo = points.iter().fold(self.mins, |m, p| m.inf(p));
        let hi = points.iter().fold(self.maxs, |m, p| m.sup(p));
        Aabb::new(lo, hi)
    }

    fn apart(a: &Self, b: &Self, pose: &Pose, margin: f64) -> bool {
        let cb = pose.transform_point(&b.center()).coords;
        boxes_apart(
            (&a.center().coords, &Matrix3::identity(), &half(a)),
            (&cb, pose.rotation(), &half(b)),
            margin,
        )
    }

    fn segment_apart(&self, p0: &Point, p1: &Point, margin: f64) -> bool {
        segment_beyond_box(
            &self.center(),
            &Matrix3::identity(),
            &half(self),
            p0,
            p1,
            margin,
        )
    }

    fn magnitude(&self) -> f64 {
        self.mins.coords.amax().max(self.maxs.coords.amax())
    }
}

impl Exact for Sphere {
    fn around(points: &[Point], _: Option<&Matrix3<f64>>, rng: &mut Pcg64) -> Self {
        let method =
            [SphereFit::Welzl, SphereFit::Ritter, SphereFit::AabbCenter][rng.gen_range(0..3)];
        Sphere::fit_points(points, method)
    }

    fn holds(&self, p: &Point) -> bool {
        let d2 = (0..3).fold(Dy::new(0.0), |s, j| {
            let d = Dy::new(p[j]).sub(&Dy::new(self.center[j]));
            s.add(&d.mul(&d))
        });
        let r = Dy::new(self.radius);
        le(&d2, &r.mul(&r))
    }

    fn tightened(&self, points: &[Point]) -> Self {
        let d2 = largest(points.iter().map(|p| {
            (0..3).fold(Dy::new(0.0), |s, j| {
                let d = Dy::new(p[j]).sub(&Dy::new(self.center[j]));
                s.add(&d.mul(&d))
            })
        }));
        let mut r = d2.to_f64().sqrt().max(self.radius);
        while d2.gt(&Dy::new(r).mul(&Dy::new(r))) {
            r = r.next_up();
        }
        Sphere::new(self.center, r)
    }

    fn apart(a: &Self, b: &Self, pose: &Pose, margin: f64) -> bool {
        let cb = pose.transform_point(&b.center);
        (cb - a.center).norm() - a.radius - b.radius > margin
    }

    fn segment_apart(&self, p0: &Point, p1: &Point, margin: f64) -> bool {
        let d = p1 - p0;
        let t = if d.norm_squared() > 0.0 {
            ((self.center - p0).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p0 + d * t - self.center).norm() - self.radius > margin
    }

    fn magnitude(&self) -> f64 {
        self.center.coords.amax() + self.radius
    }
}

impl Exact for Kdop18 {
    fn around(points: &[Point], _: Option<&Matrix3<f64>>, _: &mut Pcg64) -> Self {
        Kdop18::from_points(points)
    }

    fn holds(&self, p: &Point) -> bool {
        let p = dy3(&p.coords);
        Kdop18::axes().iter().enumerate().all(|(i, n)| {
            let s = (0..3).fold(Dy::new(0.0), |s, k| s.add(&Dy::new(n[k]).mul(&p[k])));
            le(&Dy::new(self.min[i]), &s) && le(&s, &Dy::new(self.max[i]))
        })
    }

    fn tightened(&self, points: &[Point]) -> Self {
        let axes = Kdop18::axes();
        let dot = |i: usize, p: &Point| {
            (0..3).fold(Dy::new(0.0), |s, k| {
                s.add(&Dy::new(axes[i][k]).mul(&Dy::new(p[k])))
            })
        };
        Kdop18 {
            min: std::array::from_fn(|i| {
                let lowest = largest(points.iter().map(|p| Dy::new(0.0).sub(&dot(i, p))));
                down(&Dy::new(0.0).sub(&lowest), self.min[i])
            }),
            max: std::array::from_fn(|i| {
                up(&largest(points.iter().map(|p| dot(i, p))), self.max[i])
            }),
        }
    }

    /// The 18-DOP test bounds each side by its first three slabs (its AABB) turned into the
    /// other's frame, compared with the other's slabs: apart when that box lies beyond one of
    /// the other's slabs, either way.
    fn apart(a: &Self, b: &Self, pose: &Pose, margin: f64) -> bool {
        let beyond = |kdop: &Kdop18, other: &Kdop18, pose: &Pose| {
            let (c, h) = (
                pose.transform_point(&other.aabb().center()),
                half(&other.aabb()),
            );
            Kdop18::axes().iter().enumerate().any(|(i, n)| {
                let reach = (0..3)
                    .map(|j| h[j] * n.dot(&pose.rotation().column(j)).abs())
                    .sum::<f64>();
                let (s, pad) = (n.dot(&c.coords), margin * n.norm());
                s - reach > kdop.max[i] + pad || s + reach < kdop.min[i] - pad
            })
        };
        beyond(a, b, pose) || beyond(b, a, &pose.inverse())
    }

    fn segment_apart(&self, p0: &Point, p1: &Point, margin: f64) -> bool {
        Kdop18::axes().iter().enumerate().any(|(i, n)| {
            let (s0, s1, pad) = (n.dot(&p0.coords), n.dot(&p1.coords), margin * n.norm());
            (s0 > self.max[i] + pad && s1 > self.max[i] + pad)
                || (s0 < self.min[i] - pad && s1 < self.min[i] - pad)
        })
    }

    fn magnitude(&self) -> f64 {
        self.min
            .iter()
            .chain(&self.max)
            .fold(0.0, |m, v| m.max(v.abs()))
    }
}

// ---------------------------------------------------------------------------------------------
// Cases

/// `2^k`.
fn power(k: i32) -> f64 {
    2f64.powi(k)
}

/// A uniformly random rotation (rotation vector in the ball of radius π).
fn random_rotation(rng: &mut Pcg64) -> Matrix3<f64> {
    let v = loop {
        let v = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0));
        if v.norm_squared() <= 1.0 {
            break v;
        }
    };
    *Rotation3::new(v * std::f64::consts::PI).matrix()
}

/// A rotation by `10⁻ᵏ` radians about a random axis, `k` in 4..=16: axes nearly parallel to
/// the other frame's.
fn tiny_rotation(rng: &mut Pcg64) -> Matrix3<f64> {
    let axis = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)).normalize();
    *Rotation3::new(axis * 10f64.powi(-rng.gen_range(4..=16))).matrix()
}

/// An exact proper signed permutation matrix.
fn signed_permutation(rng: &mut Pcg64) -> Matrix3<f64> {
    let perm = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [1, 0, 2],
        [0, 2, 1],
        [2, 1, 0],
    ][rng.gen_range(0..6)];
    let mut m = Matrix3::zeros();
    for (row, &col) in perm.iter().enumerate() {
        m[(row, col)] = if rng.gen() { 1.0 } else { -1.0 };
    }
    if m.determinant() < 0.0 {
        m.column_mut(0).neg_mut();
    }
    m
}

/// How the relative pose turns B: which kind, and the matrix.
fn rotation(rng: &mut Pcg64) -> (&'static str, Matrix3<f64>) {
    match rng.gen_range(0..5) {
        0 => ("identity", Matrix3::identity()),
        1 => ("random", random_rotation(rng)),
        2 => ("tiny", tiny_rotation(rng)),
        3 => ("permutation", signed_permutation(rng)),
        _ => (
            "turned permutation",
            signed_permutation(rng) * tiny_rotation(rng),
        ),
    }
}

/// The exponent of a case's magnitude: half moderate (`2^±20`), a quarter small, a quarter large.
fn scale_exponent(rng: &mut Pcg64) -> i32 {
    match rng.gen_range(0..4) {
        0 | 1 => rng.gen_range(-20..=20),
        2 => rng.gen_range(-180..=-20),
        _ => rng.gen_range(20..=300),
    }
}

/// A random point at magnitude about `m` (or the origin, one time in five).
fn somewhere(rng: &mut Pcg64, m: f64) -> Point {
    if rng.gen_ratio(1, 5) {
        return Point::origin();
    }
    Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * m)
}

/// `c` plus `h` times a random vector of multiples of 1/64 in `[-1, 1]³` (exact offsets).
fn near(rng: &mut Pcg64, c: &Point, h: f64) -> Point {
    c + Vector::from_fn(|_, _| f64::from(rng.gen_range(-64..=64)) / 64.0) * h
}

/// `x` moved by `k` ulps (towards +∞ for positive `k`).
fn nudged(x: f64, k: i32) -> f64 {
    (0..k.abs()).fold(x, |x, _| if k > 0 { x.next_up() } else { x.next_down() })
}

fn in_range(points: &[Point]) -> bool {
    points.iter().all(|p| p.iter().all(|&c| in_exact_range(c)))
}

fn placed(pose: &Pose, t: &[Point; 3]) -> [Point; 3] {
    t.map(|p| pose.transform_point(&p))
}

/// One case: triangle `tb` of B, the pose of B in A's frame, triangle `ta` of A built to meet
/// `tb` placed (or nearly), and how.
#[derive(Debug)]
struct Case {
    kind: &'static str,
    turn: &'static str,
    ta: [Point; 3],
    tb: [Point; 3],
    pose: Pose,
    /// The size of the triangles' neighbourhood (for offsets).
    h: f64,
}

/// Draws a case whose coordinates (B's, A's and B's placed) lie in the exact range. B's
/// triangle sits near `cb` in its frame and is placed near `ca`: by a translation of about the
/// larger of the two (random), by none (`ca = R·cb`, a rotation about the origin: the placed
/// vertices are rounded by the rotation alone), or by one tiny next to them.
fn case(rng: &mut Pcg64) -> Case {
    loop {
        let s = power(scale_exponent(rng));
        let (kb, ka) = (rng.gen_range(-30..=30), rng.gen_range(-30..=30));
        let cb = somewhere(rng, s * power(kb));
        let h = s * power(-rng.gen_range(0..=60));
        let (turn, r) = rotation(rng);
        let ca = match rng.gen_range(0..6) {
            0 | 1 => Point::from(r * cb.coords),
            2 => Point::from(r * cb.coords) + Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * h,
            _ => somewhere(rng, s * power(ka)),
        };
        let Ok(pose) = Pose::from_parts(ca.coords - r * cb.coords, r) else {
            continue;
        };
        let (kind, tb, ta) = if rng.gen_ratio(1, 3) {
            corner_contact(rng, &pose, &cb, h)
        } else {
            let tb = match rng.gen_range(0..8) {
                0 => [cb; 3],
                1 => {
                    let q = near(rng, &cb, h);
                    [cb, q, q]
                }
                2 | 3 => {
                    // Centred on `cb`: a box whose centre is `cb` up to rounding.
                    let (d, e) = (
                        near(rng, &Point::origin(), h),
                        near(rng, &Point::origin(), h),
                    );
                    [
                        cb + d.coords,
                        cb - d.coords,
                        cb + (e.coords - d.coords) * 0.5,
                    ]
                }
                _ => [near(rng, &cb, h), near(rng, &cb, h), near(rng, &cb, h)],
            };
            let (kind, ta) = meeting(rng, &placed(&pose, &tb), h);
            (kind, tb, ta)
        };
        if in_range(&tb) && in_range(&placed(&pose, &tb)) && in_range(&ta) {
            return Case {
                kind,
                turn,
                ta,
                tb,
                pose,
                h,
            };
        }
    }
}

/// A triangle of A built to meet the placed triangle `tp` (or nearly), and how.
fn meeting(rng: &mut Pcg64, tp: &[Point; 3], h: f64) -> (&'static str, [Point; 3]) {
    let k = rng.gen_range(0..3);
    match rng.gen_range(0..8) {
        0 => (
            "shared vertex",
            [tp[k], near(rng, &tp[k], h), near(rng, &tp[k], h)],
        ),
        1 => (
            "shared edge",
            [tp[k], tp[(k + 1) % 3], near(rng, &tp[k], h)],
        ),
        2 => ("point", [tp[k]; 3]),
        3 => {
            let v = tp[k].map(|x| nudged(x, rng.gen_range(-3..=3)));
            ("nudged vertex", [v, near(rng, &v, h), near(rng, &v, h)])
        }
        4 | 5 => {
            let c = Point::from((tp[0].coords + tp[1].coords + tp[2].coords) / 3.0);
            (
                "crossing",
                [near(rng, &c, h), near(rng, &c, h), near(rng, &c, h)],
            )
        }
        _ => {
            // A triangle far smaller than B's (down to 2⁻⁶⁰ of it) through its middle.
            let c = Point::from((tp[0].coords + tp[1].coords + tp[2].coords) / 3.0);
            let small = h * power(-rng.gen_range(20..=60));
            (
                "crossing, A tiny",
                [
                    near(rng, &c, small),
                    near(rng, &c, small),
                    near(rng, &c, small),
                ],
            )
        }
    }
}

/// Triangles that touch at one corner of their boxes: B's placed triangle leaves the shared
/// vertex `v` into one octant of A's frame (its offsets `Rᵀw`, rounded, which may cross the
/// octant's walls by an ulp), A's into the opposite one. Boxes fitted in A's axes (B's in `Rᵀ`,
/// [`Exact::around`]'s hint) then touch at a corner: no slack to spare. Three ways: offsets of
/// the case's size in the positive and negative octants; B's offsets away from A's origin and
/// A's reaching back across it (A's box centred near its origin, far from the contact); B's
/// triangle centred on B's origin (its box's centre near 0 in its own frame).
fn corner_contact(
    rng: &mut Pcg64,
    pose: &Pose,
    cb: &Point,
    h: f64,
) -> (&'static str, [Point; 3], [Point; 3]) {
    let mut offset = || Vector::from_fn(|_, _| f64::from(rng.gen_range(0..=64)) / 64.0);
    let (w1, w2, a1, a2) = (offset(), offset(), offset(), offset());
    let back = pose.rotation().transpose();
    let v = pose.transform_point(cb);
    let (kind, w, a) = match rng.gen_range(0..3) {
        0 => ("corner", [w1 * h, w2 * h], [a1 * h, a2 * h]),
        1 => {
            // Away from A's origin: the octant of v's signs; A reaches back to -v, so that its
            // box is centred on its origin, far from the contact.
            let away = v.coords.map(|x| if x < 0.0 { -1.0 } else { 1.0 });
            let reach = v.coords * 2.0;
            (
                "corner, A wide",
                [w1.component_mul(&away) * h, w2.component_mul(&away) * h],
                [reach, a2.component_mul(&reach)],
            )
        }
        _ => ("corner, B centred", [w1 * h, w2 * h], [a1 * h, a2 * h]),
    };
    let cb = if kind == "corner, B centred" {
        cb - back * ((w[0] + w[1]) * 0.25)
    } else {
        *cb
    };
    let v = pose.transform_point(&cb);
    let tb = [cb, cb + back * w[0], cb + back * w[1]];
    (kind, tb, [v, v - a[0], v - a[1]])
}

// ---------------------------------------------------------------------------------------------
// The properties

/// What one case showed, for the coverage tally.
#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    /// Per way of building `ta` and per kind of rotation: cases apart and meeting.
    meeting: std::collections::BTreeMap<&'static str, [usize; 2]>,
    turns: std::collections::BTreeMap<&'static str, [usize; 2]>,
    apart: usize,
    segments_meeting: usize,
    segments_apart: usize,
}

/// The conservative property of `overlaps` on a case: checked when the triangles meet; and the
/// tight property on the same volumes with A's moved away. Returns (meet, apart).
fn check_overlap<V: Exact>(c: &Case, rng: &mut Pcg64) -> Result<(bool, bool), TestCaseError> {
    let tp = placed(&c.pose, &c.tb);
    let meet = triangles_meet(&c.ta, &tp);
    // Corner contacts are between boxes in A's axes (B's in `Rᵀ`, which the pose turns into
    // A's); other cases get any fit.
    let (identity, back) = (Matrix3::identity(), c.pose.rotation().transpose());
    let aligned = c.kind.starts_with("corner");
    let (a, b): (V, V) = (
        holding(&c.ta, aligned.then_some(&identity), rng),
        holding(&c.tb, aligned.then_some(&back), rng),
    );
    let rel = V::relative(&c.pose);
    let placed_b = V::place(&b, &rel);
    if meet {
        prop_assert!(
            V::overlaps(&a, &placed_b, &rel),
            "{}: contents meet, volumes said apart: {c:?}\na = {a:?}\nb = {b:?}",
            std::any::type_name::<V>()
        );
    }
    // Tightness: A's triangle moved by up to a few hundred times the neighbourhood.
    let shift =
        Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * c.h * power(rng.gen_range(0..=8));
    let moved = c.ta.map(|p| p + shift);
    if !in_range(&moved) {
        return Ok((meet, false));
    }
    let far: V = holding(&moved, None, rng);
    let margin = MARGIN * (far.magnitude() + b.magnitude() + c.pose.translation().amax());
    let apart = V::apart(&far, &b, &c.pose, margin);
    if apart {
        prop_assert!(
            !V::overlaps(&far, &placed_b, &rel),
            "{}: apart by more than {margin:e}, volumes said overlap: {c:?}\na = {far:?}\nb = {b:?}",
            std::any::type_name::<V>()
        );
    }
    check_within::<V>(c, meet, (&c.ta, &moved), (&far, &b), margin, rng)?;
    Ok((meet, apart))
}

/// The margin queries' test ([`PosedOverlap::relative_within`]) on the same volumes: with A's
/// triangle moved from `ta` to `moved`, triangles that met are now at most the move apart, so
/// volumes grown by a margin at least that large must overlap; and volumes apart along a face
/// axis by more than twice a margin (a box grown by `m` along its own axes reaches at most
/// `√3·m` further along another axis) plus `tolerance` must not.
fn check_within<V: Exact>(
    c: &Case,
    meet: bool,
    (ta, moved): (&[Point; 3], &[Point; 3]),
    (far, b): (&V, &V),
    tolerance: f64,
    rng: &mut Pcg64,
) -> Result<(), TestCaseError> {
    let test = |m: f64| {
        let rel = V::relative_within(&c.pose, m);
        V::overlaps(far, &V::place(b, &rel), &rel)
    };
    // How far each vertex moved, rounding of the move allowed for.
    let step = (0..3)
        .map(|k| (moved[k] - ta[k]).norm() + 4.0 * f64::EPSILON * moved[k].coords.abs().sum())
        .fold(0.0, f64::max)
        * (1.0 + 1e-9);
    if meet {
        prop_assert!(
            test(step),
            "{}: contents within {step:e}, volumes grown by it said apart: {c:?}\na = {far:?}\nb = {b:?}",
            std::any::type_name::<V>()
        );
    }
    let small = step * rng.gen_range(0.0..0.5);
    if V::apart(far, b, &c.pose, 2.0 * small + tolerance) {
        prop_assert!(
            !test(small),
            "{}: apart by more than twice {small:e}, volumes grown by it said overlap: {c:?}\na = {far:?}\nb = {b:?}",
            std::any::type_name::<V>()
        );
    }
    Ok(())
}

/// The conservative property of `meets_segment` where containment uses it: the mesh (B's
/// triangle) placed by the case's pose, a world segment from `p` to `q = pose · lq` that meets
/// the placed triangle, and the volume around the unplaced triangle asked about `pose⁻¹ · p`
/// and `lq`. Also the tight property on a segment moved away. Returns (meets, apart).
fn check_segment<V: Exact>(c: &Case, rng: &mut Pcg64) -> Result<(bool, bool), TestCaseError> {
    let tp = placed(&c.pose, &c.tb);
    let v: V = holding(&c.tb, None, rng);
    let x = match rng.gen_range(0..3) {
        0 => tp[rng.gen_range(0..3)],
        1 => Point::from((tp[0].coords + tp[1].coords + tp[2].coords) / 3.0),
        _ => near(rng, &tp[0], c.h),
    };
    let d = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * c.h * power(rng.gen_range(-4..=20));
    let p = match rng.gen_range(0..8) {
        0 | 1 => x,
        // From far away, as containment's rays start at a query point far from most of the
        // volumes they pass: a segment up to 2^40 times longer than its offset from the volume.
        2 => x - d * power(rng.gen_range(10..=40)),
        _ => x - d * rng.gen_range(0.0..1.0),
    };
    let lq = c.pose.inverse_transform_point(&(x + d));
    let q = c.pose.transform_point(&lq);
    let lp = c.pose.inverse_transform_point(&p);
    if !in_range(&[p, q, lp, lq]) {
        return Ok((false, false));
    }
    let meets = triangles_meet(&tp, &[p, q, q]);
    // How far the segment and the triangle seen from the mesh frame may be from the world's: the
    // rounding of `pose⁻¹ · p`, of `pose · lq` and of the placed vertices, a few ulps of the world
    // coordinates and the translation (the caller's pad of `meets_segment`; `contains_point`
    // passes four times as much).
    let world = p.coords.abs().sum() + q.coords.abs().sum() + c.pose.translation().abs().sum();
    let pad = 16.0 * f64::EPSILON * (world + lp.coords.abs().sum() + lq.coords.abs().sum());
    if meets {
        prop_assert!(
            v.meets_segment(&lp, &lq, pad),
            "{}: segment {p:?}–{q:?} meets the placed triangle, volume said no: {c:?}\nv = {v:?}",
            std::any::type_name::<V>()
        );
    }
    // Tightness, in the mesh frame: the segment moved away from the volume.
    let shift =
        Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0)) * c.h * power(rng.gen_range(0..=8));
    let (s0, s1) = (lp + shift, lq + shift);
    let margin = MARGIN * (v.magnitude() + s0.coords.amax() + s1.coords.amax()) + 2.0 * pad;
    let apart = in_range(&[s0, s1]) && v.segment_apart(&s0, &s1, margin);
    if apart {
        prop_assert!(
            !v.meets_segment(&s0, &s1, pad),
            "{}: segment {s0:?}–{s1:?} apart by more than {margin:e}, volume said it meets: {v:?}",
            std::any::type_name::<V>()
        );
    }
    Ok((meets, apart))
}

/// Runs both properties on 6,000 cases (scaled by the knob) for volume type `V`, and checks that
/// every way of building a case reaches meeting triangles often and that the tightness and
/// segment properties were exercised.
fn properties<V: Exact>() {
    let tally = RefCell::new(Tally::default());
    let mut runner = runner(6000, file!());
    runner
        .run(&any::<u64>(), |seed| {
            let mut rng = Pcg64::seed_from_u64(seed);
            let c = case(&mut rng);
            let (meet, apart) = check_overlap::<V>(&c, &mut rng)?;
            let (segment_meets, segment_apart) = check_segment::<V>(&c, &mut rng)?;
            let mut t = tally.borrow_mut();
            t.cases += 1;
            t.meeting.entry(c.kind).or_default()[usize::from(meet)] += 1;
            t.turns.entry(c.turn).or_default()[usize::from(meet)] += 1;
            t.apart += usize::from(apart);
            t.segments_meeting += usize::from(segment_meets);
            t.segments_apart += usize::from(segment_apart);
            Ok(())
        })
        .unwrap();
    let t = tally.into_inner();
    println!("{}: {t:?}", std::any::type_name::<V>());
    let share = |n: usize| n * 10 >= t.cases;
    for (kind, [apart, meet]) in &t.meeting {
        if ["shared vertex", "shared edge", "point"].contains(kind) || kind.starts_with("corner") {
            assert_eq!(
                *apart, 0,
                "{kind}: the triangles share a point by construction"
            );
        }
        assert!(*meet > 0, "{kind}: no meeting case in {t:?}");
    }
    assert!(t.turns.values().all(|[_, meet]| *meet > 0), "{t:?}");
    assert!(
        share(t.apart) && share(t.segments_meeting) && share(t.segments_apart),
        "{t:?}"
    );
}

/// A triangle of A touching, at one vertex, the face of the box around a triangle of B that
/// spans a cube centred on B's origin (the box's centre 0, its size all of its magnitude), at
/// the identity and at a quarter turn, from `2⁻⁶⁰` to `2⁶⁰`: what the property cases reach only
/// rarely. The volumes must overlap.
fn touching_a_face_of_a_centred_box<V: Exact>() {
    let mut rng = Pcg64::seed_from_u64(7);
    let quarter = Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    for k in (-60..=60).step_by(20) {
        let h = power(k);
        let tb = [
            Point::new(-h, -h, -h),
            Point::new(h, h, h),
            Point::new(h, -h, h),
        ];
        for r in [Matrix3::identity(), quarter] {
            let pose = Pose::from_parts(Vector::zeros(), r).unwrap();
            let v = pose.transform_point(&tb[1]);
            let away = v.coords.map(|x| x.signum() * h);
            let ta = [
                v,
                v + away,
                v + away.component_mul(&Vector::new(1.0, 0.5, 0.25)),
            ];
            let case = Case {
                kind: "face of a centred box",
                turn: "exact",
                ta,
                tb,
                pose,
                h,
            };
            let (meet, _) = check_overlap::<V>(&case, &mut rng).unwrap();
            assert!(meet, "the triangles share a vertex: {case:?}");
        }
    }
}

#[test]
fn volumes_touching_a_face_of_a_centred_box_overlap() {
    touching_a_face_of_a_centred_box::<Obb>();
    touching_a_face_of_a_centred_box::<Aabb>();
    touching_a_face_of_a_centred_box::<Sphere>();
    touching_a_face_of_a_centred_box::<Kdop18>();
}

#[test]
fn obb_tests_are_conservative_and_tight() {
    properties::<Obb>();
}

#[test]
fn aabb_tests_are_conservative_and_tight() {
    properties::<Aabb>();
}

#[test]
fn sphere_tests_are_conservative_and_tight() {
    properties::<Sphere>();
}

#[test]
fn kdop_tests_are_conservative_and_tight() {
    properties::<Kdop18>();
}

/// The centres' squared distance that orders a witness search's children: B's volume around a
/// unit cube at the origin, placed by a quarter turn about z and a move of (3, 4, 12), has its
/// centre at (3, 4, 12) in A's frame; from A's volume around the cube at (1, 0, 0) that is
/// 2² + 4² + 12² = 164, up to the rounding of the quarter turn. k-DOPs, whose placed volume
/// is B's own, have none.
#[test]
fn centre_gaps_are_the_squared_distances_between_placed_centres() {
    fn gap<V: PosedOverlap>(fit: impl Fn(&[Point]) -> V) -> Option<f64> {
        let cube = |x: f64| {
            [-0.5, 0.5]
                .into_iter()
                .flat_map(|dx| [-0.5, 0.5].map(|dy| (dx, dy)))
                .flat_map(|(dx, dy)| [-0.5, 0.5].map(|dz| Point::new(x + dx, dy, dz)))
                .collect::<Vec<_>>()
        };
        let (a, b) = (fit(&cube(1.0)), fit(&cube(0.0)));
        let pose = Pose::new(
            Vector::new(3.0, 4.0, 12.0),
            Vector::new(0.0, 0.0, std::f64::consts::FRAC_PI_2),
        )
        .unwrap();
        V::centre_gap(&a, &V::place(&b, &V::relative(&pose)))
    }
    let close = |g: Option<f64>| g.is_some_and(|g| (g - 164.0).abs() < 1e-12);
    assert!(close(gap(|p| Obb::fit_points(p, ObbFit::default()))));
    assert!(close(gap(|p| Aabb::fit_points(p, ()))));
    assert!(close(gap(|p| Sphere::fit_points(p, SphereFit::default()))));
    assert_eq!(gap(|p| Kdop18::fit_points(p, ())), None);
}
