//! `BoundingVolume::contains_point` of `Aabb`, `Obb`, `Sphere` and every `Kdop` against exact
//! rational arithmetic, on points inside, outside and on the boundary (exactly, and nudged off it
//! by an ulp or a few), with and without tolerance: it is the containment oracle of the tree and
//! fit tests, so it must say "outside" as reliably as "inside".
//!
//! The oracle evaluates each volume's documented set exactly on the stored `f64` numbers:
//! `mins - tol <= p <= maxs + tol` (AABB); `|axesᵀ(p - center)|ᵢ <= hᵢ + tol` (OBB, with the
//! stored axes); `|p - center| <= radius + tol` (sphere); `minᵢ - tol·|aᵢ| <= aᵢ·p <= maxᵢ +
//! tol·|aᵢ|` (k-DOP). `contains_point` evaluates the same expressions in `f64`, so the two must
//! agree except within the evaluation's rounding error of the boundary; and where that evaluation
//! is exact (an AABB, a 6-DOP, or any k-DOP on dyadic points, with zero tolerance), always.

mod common;

use common::exact::q;
use common::runner_with;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::{Aabb, BoundingVolume, Kdop, Obb, Point, Sphere, Vector};
use proptest::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The exact verdict: the smallest slack of the volume's inequalities at `p` (negative:
/// outside) and, in `f64`, a bound on how far the float evaluation's slack can be from it.
struct Exact {
    slack: BigRational,
    rounding: f64,
}

impl Exact {
    /// `Some(inside)` when the exact slack is beyond the rounding bound (the float evaluation
    /// must then agree), `None` within it.
    fn clear(&self) -> Option<bool> {
        let bound = q(self.rounding);
        if self.slack > bound {
            Some(true)
        } else if self.slack < -bound {
            Some(false)
        } else {
            None
        }
    }

    fn inside(&self) -> bool {
        !self.slack.is_negative()
    }
}

fn exact_aabb(b: &Aabb, p: &Point, tol: f64) -> Exact {
    let slack = (0..3)
        .flat_map(|i| {
            [
                q(p[i]) - (q(b.mins[i]) - q(tol)),
                (q(b.maxs[i]) + q(tol)) - q(p[i]),
            ]
        })
        .min()
        .unwrap();
    // `mins - tol` and `maxs + tol` are rounded once (0 when `tol` is 0).
    let reach = b.mins.coords.amax().max(b.maxs.coords.amax()) + tol;
    let rounding = if tol == 0.0 {
        0.0
    } else {
        f64::EPSILON * reach
    };
    Exact { slack, rounding }
}

fn exact_obb(o: &Obb, p: &Point, tol: f64) -> Exact {
    let d: Vec<BigRational> = (0..3).map(|j| q(p[j]) - q(o.center[j])).collect();
    let slack = (0..3)
        .map(|i| {
            let l: BigRational = (0..3).map(|j| q(o.axes[(j, i)]) * &d[j]).sum();
            q(o.half_extents[i]) + q(tol) - l.abs()
        })
        .min()
        .unwrap();
    // `p - center` rounds (ε relative), the 3-term dot product adds γ₃, the sum `h + tol` one
    // more ε: 8ε of the terms covers them.
    let terms = (p - o.center).abs().sum() + o.half_extents.amax() + tol;
    Exact {
        slack,
        rounding: 8.0 * f64::EPSILON * terms,
    }
}

fn exact_sphere(s: &Sphere, p: &Point, tol: f64) -> Exact {
    let d2: BigRational = (0..3).map(|j| (q(p[j]) - q(s.center[j])).pow(2)).sum();
    let r = q(s.radius) + q(tol);
    // The slack `r² - |p - c|²`; the float `|p - c|` errs by a few ε relatively (differences,
    // squares, sum, square root) and `r + tol` by one: 8ε of `r` in distance, `16ε r²` here.
    let slack = &r * &r - d2;
    let r = s.radius + tol;
    Exact {
        slack,
        rounding: 16.0 * f64::EPSILON * r * r,
    }
}

/// The slab axes written out (the k-DOP module's own list is what is checked).
fn kdop_axes(count: usize) -> Vec<[i32; 3]> {
    let coordinate = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    let corner = [[1, 1, 1], [1, 1, -1], [1, -1, 1], [1, -1, -1]];
    let edge = [
        [1, 1, 0],
        [1, -1, 0],
        [1, 0, 1],
        [1, 0, -1],
        [0, 1, 1],
        [0, 1, -1],
    ];
    match count {
        3 => coordinate.to_vec(),
        7 => [&coordinate[..], &corner[..]].concat(),
        9 => [&coordinate[..], &edge[..]].concat(),
        13 => [&coordinate[..], &corner[..], &edge[..]].concat(),
        _ => unreachable!(),
    }
}

fn exact_kdop<const A: usize>(k: &Kdop<A>, p: &Point, tol: f64) -> Exact {
    let axes = kdop_axes(A);
    let slack = axes
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            let d: BigRational = (0..3).map(|j| q(f64::from(a[j])) * q(p[j])).sum();
            // `tol·|a|` with `|a| = √n` rounded: within one ulp of `tol·√n`, covered below.
            let slack = q(tol * (a.iter().map(|c| c * c).sum::<i32>() as f64).sqrt());
            [&d - (q(k.min[i]) - &slack), (q(k.max[i]) + &slack) - &d]
        })
        .min()
        .unwrap();
    // A sum of up to three coordinates (two roundings), the bounds' `∓ tol·|a|` (two more).
    let terms = p.coords.abs().sum()
        + k.min
            .iter()
            .chain(&k.max)
            .fold(0.0f64, |m, x| m.max(x.abs()))
        + 2.0 * tol;
    let rounding = 4.0 * f64::EPSILON * terms;
    Exact { slack, rounding }
}

/// Tallies per volume type: `[exactly inside, exactly outside, on the boundary, within
/// rounding of it and decided differently]`.
type Tally = BTreeMap<&'static str, [usize; 4]>;

thread_local! {
    static TALLY: RefCell<Tally> = const { RefCell::new(BTreeMap::new()) };
}

/// Checks one verdict: agreement with the exact one wherever it is clear of the rounding
/// bound, and everywhere when `exact_evaluation` says the float evaluation is exact.
fn check(
    name: &'static str,
    got: bool,
    exact: &Exact,
    exact_evaluation: bool,
    context: &dyn Fn() -> String,
) -> Result<(), TestCaseError> {
    let mut tally = [0; 4];
    tally[if exact.slack.is_zero() {
        2
    } else if exact.inside() {
        0
    } else {
        1
    }] += 1;
    if exact_evaluation {
        prop_assert_eq!(
            got,
            exact.inside(),
            "{} (exact evaluation): {}",
            name,
            context()
        );
    } else if let Some(want) = exact.clear() {
        prop_assert_eq!(got, want, "{}: {}", name, context());
    } else if got != exact.inside() {
        tally[3] += 1;
    }
    TALLY.with(|t| {
        let mut t = t.borrow_mut();
        let entry = t.entry(name).or_default();
        (0..4).for_each(|i| entry[i] += tally[i]);
    });
    Ok(())
}

/// A magnitude for a volume's size and position: 1, tiny or huge (powers of two keep grid
/// points exact).
fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(2f64.powi(-30)),
        Just(2f64.powi(40)),
        Just(2f64.powi(-200)),
        Just(2f64.powi(300)),
    ]
}

/// A local coordinate in units of the half-extent: inside, outside, exactly on the boundary, or
/// nudged off it.
fn unit_coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => -1.0..1.0f64,
        2 => prop_oneof![-3.0..-1.0f64, 1.0..3.0f64],
        2 => prop_oneof![Just(-1.0), Just(1.0), Just(0.0)],
        2 => (prop_oneof![Just(-1.0f64), Just(1.0f64)], -3i64..=3)
            .prop_map(|(x, ulps)| f64::from_bits((x.to_bits() as i64 + ulps) as u64)),
    ]
}

fn tolerance() -> impl Strategy<Value = f64> {
    prop_oneof![3 => Just(0.0), 1 => 0.0..0.5f64]
}

/// `x` moved by `ulps` units in the last place.
fn nudged(x: f64, ulps: i64) -> f64 {
    (0..ulps.unsigned_abs()).fold(x, |x, _| if ulps > 0 { x.next_up() } else { x.next_down() })
}

/// Runs `property` on `cases` cases of `strategy` (failures saved and replayed, see
/// `common::config_with`), then prints the tally of the volume types in `names` and asserts that
/// each reached points exactly inside and exactly outside, and (`boundary`) exactly on the
/// boundary, in at least 5% of its cases each.
fn run_and_tally<S: Strategy>(
    names: &[&'static str],
    boundary: bool,
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    runner_with(cases, file!())
        .run(&strategy, property)
        .unwrap();
    TALLY.with(|t| {
        let t = t.borrow();
        for name in names {
            let [inside, outside, on, differs] = t[name];
            println!("{name}: {inside} inside, {outside} outside, {on} on the boundary, {differs} decided differently within rounding of it");
            let total = inside + outside + on;
            let enough = |n: usize| n * 20 >= total;
            assert!(enough(inside) && enough(outside) && (!boundary || enough(on)), "{name}: {:?}", t[name]);
        }
    });
}

/// AABBs: with zero tolerance the comparisons are exact, so every point, on the boundary or an
/// ulp off it, gets the exact answer.
#[test]
fn aabb_matches_exact() {
    let case = (
        [-4i32..=4, -4..=4, -4..=4],
        [0i32..=3, 0..=3, 0..=3],
        [unit_coordinate(), unit_coordinate(), unit_coordinate()],
        prop_oneof![2 => Just([0i64; 3]), 1 => [-2i64..=2, -2..=2, -2..=2]],
        scale(),
        tolerance(),
    );
    run_and_tally(
        &["aabb"],
        true,
        3000,
        case,
        |(lo, ext, u, nudge, s, tol)| {
            let mins = Point::new(lo[0].into(), lo[1].into(), lo[2].into()) * s;
            let maxs = mins + Vector::new(ext[0].into(), ext[1].into(), ext[2].into()) * s;
            let b = Aabb::new(mins, maxs);
            let p = Point::from(std::array::from_fn::<f64, 3, _>(|i| {
                let mid = 0.5 * (mins[i] + maxs[i]);
                nudged(mid + u[i] * 0.5 * (maxs[i] - mins[i]), nudge[i])
            }));
            let tol = tol * s;
            check(
                "aabb",
                b.contains_point(&p, tol),
                &exact_aabb(&b, &p, tol),
                tol == 0.0,
                &|| format!("{b:?} {p:?} tol {tol:e}"),
            )
        },
    );
}

/// OBBs with random rotations: agreement wherever the exact slack exceeds the rounding bound of
/// `axesᵀ(p - center)`. (A rotated box has no exactly representable boundary points to speak
/// of; the ones `unit_coordinate` aims at land within rounding of it.)
#[test]
fn obb_matches_exact() {
    let case = (
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        [-4.0..4.0f64, -4.0..4.0f64, -4.0..4.0f64],
        [0.0..3.0f64, 0.0..3.0f64, 0.0..3.0f64],
        [unit_coordinate(), unit_coordinate(), unit_coordinate()],
        scale(),
        tolerance(),
    );
    run_and_tally(&["obb"], false, 3000, case, |(quat, c, h, u, s, tol)| {
        let axes = common::quaternion_rotation(quat);
        let o = Obb {
            center: Point::from(c) * s,
            axes,
            half_extents: Vector::from(h) * s,
        };
        let local = Vector::from(std::array::from_fn::<f64, 3, _>(|i| {
            u[i] * o.half_extents[i]
        }));
        let p = o.center + axes * local;
        let tol = tol * s;
        check(
            "obb",
            o.contains_point(&p, tol),
            &exact_obb(&o, &p, tol),
            false,
            &|| format!("{o:?} {p:?} tol {tol:e}"),
        )
    });
}

/// Spheres: random points, and points exactly on the sphere (integer centres and Pythagorean
/// offsets, e.g. (2, 3, 6) at radius 7) or an ulp or a few off it, the radius nudged too.
#[test]
fn sphere_matches_exact() {
    let case = (
        (
            [-4i32..=4, -4..=4, -4..=4],
            0usize..4,
            any::<[bool; 3]>(),
            0usize..3,
        ),
        prop_oneof![
            1 => Just(([0i64; 3], 0i64)),
            1 => ([-3i64..=3, -3..=3, -3..=3], -2i64..=2),
        ],
        prop::option::weighted(0.3, [-9.0..9.0f64, -9.0..9.0f64, -9.0..9.0f64]),
        scale(),
        tolerance(),
    );
    run_and_tally(
        &["sphere"],
        true,
        3000,
        case,
        |((c, quadruple, signs, rotation), (nudge, radius_nudge), free, s, tol)| {
            let [x, y, z, r] = [[3, 4, 0, 5], [2, 3, 6, 7], [1, 4, 8, 9], [2, 6, 9, 11]][quadruple];
            let offset = [x, y, z].map(f64::from);
            let offset: [f64; 3] = std::array::from_fn(|i| {
                let o = offset[(i + rotation) % 3];
                if signs[i] {
                    -o
                } else {
                    o
                }
            });
            let center = Point::new(c[0].into(), c[1].into(), c[2].into()) * s;
            let sphere = Sphere::new(center, nudged(f64::from(r) * s, radius_nudge));
            let p = match free {
                Some(free) => center + Vector::from(free) * s,
                None => Point::from(std::array::from_fn::<f64, 3, _>(|i| {
                    nudged(center[i] + offset[i] * s, nudge[i])
                })),
            };
            let tol = tol * s;
            // On the sphere exactly, every step of `|p - c|` is exact (integer multiples of a power
            // of two, a perfect square under the root): the evaluation is exact.
            let on_exactly = free.is_none() && nudge == [0; 3] && radius_nudge == 0 && tol == 0.0;
            check(
                "sphere",
                sphere.contains_point(&p, tol),
                &exact_sphere(&sphere, &p, tol),
                on_exactly,
                &|| format!("{sphere:?} {p:?} tol {tol:e}"),
            )
        },
    );
}

/// The k-DOP of `points`, with a test point: dyadic points on a half-integer grid (their dot
/// products with the integer axes are exact in `f64`, so the evaluation is exact and every
/// point on a slab, diagonal ones included, must be inside), or float points scaled and nudged.
fn kdop_case<const A: usize>(
    name: &'static str,
    points: &[[i32; 3]],
    probe: [i32; 3],
    float: Option<([f64; 3], [i64; 3])>,
    s: f64,
    tol: f64,
) -> Result<(), TestCaseError> {
    let pts: Vec<Point> = points
        .iter()
        .map(|p| Point::new(p[0].into(), p[1].into(), p[2].into()) * s)
        .collect();
    let k = Kdop::<A>::from_points(&pts);
    let (p, dyadic) = match float {
        None => (
            Point::new(probe[0].into(), probe[1].into(), probe[2].into()) * (0.5 * s),
            true,
        ),
        Some((x, nudge)) => (
            Point::from(std::array::from_fn::<f64, 3, _>(|i| {
                nudged(x[i] * s, nudge[i])
            })),
            false,
        ),
    };
    // The 6-DOP's dot products are a single coordinate, exact whatever the point.
    let exact_evaluation = tol == 0.0 && (dyadic || A == 3);
    check(
        name,
        k.contains_point(&p, tol),
        &exact_kdop(&k, &p, tol),
        exact_evaluation,
        &|| format!("{k:?} {p:?} tol {tol:e}"),
    )
}

/// Every k-DOP type, fitted to grid points, probed at half-grid points near them (many exactly
/// on a slab, diagonal ones included) and at float points nudged by ulps.
#[test]
fn kdops_match_exact() {
    let case = (
        prop::collection::vec([-4i32..=4, -4..=4, -4..=4], 1..6),
        (0usize..6, 0usize..6, [-2i32..=2, -2..=2, -2..=2]),
        prop::option::weighted(
            0.3,
            (
                [-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64],
                [-2i64..=2, -2..=2, -2..=2],
            ),
        ),
        scale(),
        tolerance(),
    );
    let names = ["kdop6", "kdop14", "kdop18", "kdop26"];
    run_and_tally(
        &names,
        true,
        2000,
        case,
        |(points, (i, j, offset), float, s, tol)| {
            let tol = tol * s;
            // In half units: the midpoint of two of the points (or one of them), moved a little.
            let (a, b) = (points[i % points.len()], points[j % points.len()]);
            let probe = [0, 1, 2].map(|k| a[k] + b[k] + offset[k]);
            kdop_case::<3>(names[0], &points, probe, float, s, tol)?;
            kdop_case::<7>(names[1], &points, probe, float, s, tol)?;
            kdop_case::<9>(names[2], &points, probe, float, s, tol)?;
            kdop_case::<13>(names[3], &points, probe, float, s, tol)
        },
    );
}

/// The k-DOP axes the oracle writes out are the crate's.
#[test]
fn kdop_axes_are_the_crates() {
    fn same<const A: usize>() {
        let ours: Vec<[f64; 3]> = kdop_axes(A).iter().map(|a| a.map(f64::from)).collect();
        let crates: Vec<[f64; 3]> = Kdop::<A>::axes().iter().map(|a| [a.x, a.y, a.z]).collect();
        assert_eq!(ours, crates, "{A} axes");
    }
    same::<3>();
    same::<7>();
    same::<9>();
    same::<13>();
}
