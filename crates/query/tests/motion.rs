//! Continuous collision of two models under a rigid motion, against oracles that share no code
//! with the engine, and hand-made adversarial cases.
//!
//! * **Translations** (exact): two triangles of which one translates by `d` first meet at the
//!   least `t ∈ [0, 1]` with `t·d` in the hull of the nine differences `aᵢ − bⱼ` (the Minkowski
//!   difference), a linear programme solved in exact rationals by the bv tests' oracle
//!   (`common/lp.rs`); the meshes' answer is the least over every triangle pair.
//! * **Rotations** (tolerance `δ`): the motion is sampled densely, B placed at each sample by
//!   the oracle's own Rodrigues rotation, and each sample decided by the static exact
//!   predicate over every pair, its touching pair confirmed in exact rationals
//!   (`common/exact.rs`): a colliding sample proves a contact no later than it, which the
//!   engine must report (and no later); a hit's interval must hold a time where the float
//!   distance is within `δ` plus the motion over the interval.

mod common;

#[path = "../../bv/tests/common/lp.rs"]
mod lp;

use common::exact::hulls_meet_exact;
use nalgebra::{Matrix3, Rotation3, Vector3};
use num_rational::BigRational;
use obbtree_bv::distance::tri_tri;
use obbtree_bv::shape::Shape;
use obbtree_bv::{Motion, Point, Pose, TriMesh, Vector};
use obbtree_query::brute::brute_force;
use obbtree_query::{collide, collide_motion, CollisionRequest, Model, MotionRequest, QueryError};
use proptest::prelude::*;

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).unwrap()
}

fn model(mesh: TriMesh) -> Model {
    Model::new(mesh).unwrap()
}

fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> TriMesh {
    TriMesh::cuboid(Point::from(lo), Point::from(hi)).unwrap()
}

fn shift(t: [f64; 3]) -> Pose {
    Pose::from_translation(t).unwrap()
}

fn run(a: &Model, b: &Model, motion: &Motion) -> obbtree_query::MotionResult {
    collide_motion(a, &Pose::identity(), b, motion, &MotionRequest::default()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Translations against the exact linear-programme oracle.

/// The oracle's first contact time of `a` (still) and `b` (placed by `start`, translating by
/// `d`; placement exact on these inputs), exactly.
fn translation_oracle(a: &TriMesh, b: &TriMesh, start: &Pose, d: &Vector) -> Option<Q> {
    let direction = [q(d.x), q(d.y), q(d.z)];
    let placed: Vec<[Point; 3]> = (0..b.triangles().len())
        .map(|j| b.triangle(j).vertices().map(|p| start.transform_point(&p)))
        .collect();
    let mut best: Option<Q> = None;
    for i in 0..a.triangles().len() {
        let ta = a.triangle(i).vertices();
        for tb in &placed {
            if !swept_boxes_meet(&ta, tb, d) {
                continue;
            }
            let hull: Vec<[Q; 3]> = ta
                .iter()
                .flat_map(|pa| tb.iter().map(move |pb| pa - pb))
                .map(|v| [q(v.x), q(v.y), q(v.z)])
                .collect();
            let zero = [q(0.0), q(0.0), q(0.0)];
            if let Some(t) = lp::earliest_hit(&zero, &direction, &hull) {
                if best.as_ref().is_none_or(|b| t < *b) {
                    best = Some(t);
                }
            }
        }
    }
    best
}

/// Whether the box of `a` meets the box swept by `b` moving by `d` (exact on dyadic input).
fn swept_boxes_meet(a: &[Point; 3], b: &[Point; 3], d: &Vector) -> bool {
    (0..3).all(|k| {
        let (alo, ahi) = extent(a.iter().map(|p| p[k]));
        let ends = b.iter().flat_map(|p| [p[k], p[k] + d[k]]);
        let (blo, bhi) = extent(ends);
        alo <= bhi && blo <= ahi
    })
}

fn extent(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

fn grid() -> impl Strategy<Value = f64> {
    (-6i32..=6).prop_map(|n| f64::from(n) / 4.0)
}

fn grid_point() -> impl Strategy<Value = Point> {
    [grid(), grid(), grid()].prop_map(|[x, y, z]| Point::new(x, y, z))
}

/// A soup of two or three triangles on the dyadic grid (degenerate ones included).
fn soup() -> impl Strategy<Value = TriMesh> {
    prop::collection::vec([grid_point(), grid_point(), grid_point()], 2..=3).prop_map(|tris| {
        let vertices: Vec<Point> = tris.iter().flatten().copied().collect();
        let faces = (0..tris.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        TriMesh::new(vertices, faces).unwrap()
    })
}

/// A rotation whose matrix has entries 0 and ±1 (placement stays exact): a quarter turn about
/// an axis, or none.
fn exact_rotation() -> impl Strategy<Value = Matrix3<f64>> {
    (0usize..4).prop_map(|k| match k {
        0 => Matrix3::identity(),
        1 => Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),
        2 => Matrix3::new(1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0),
        _ => Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0),
    })
}

/// A start and end translation, the end often aimed so that a vertex of B lands on a point of
/// A exactly (grazing or touching at the end).
fn translation_case() -> impl Strategy<Value = (TriMesh, TriMesh, Matrix3<f64>, Vector, Vector)> {
    (
        soup(),
        soup(),
        exact_rotation(),
        grid_point(),
        grid_point(),
        any::<bool>(),
    )
        .prop_map(|(a, b, rotation, t0, t1, aim)| {
            let t0 = t0.coords * 2.0;
            let t1 = if aim {
                // Move B's first vertex onto A's first vertex at t = 1.
                a.vertices()[0].coords - rotation * b.vertices()[0].coords
            } else {
                t1.coords * 2.0
            };
            (a, b, rotation, t0, t1)
        })
}

proptest! {
    #![proptest_config(common::config(24))]

    #[test]
    fn translations_match_the_exact_oracle(case in translation_case()) {
        let (a, b, rotation, t0, t1) = case;
        let start = Pose::from_parts(t0, rotation).unwrap();
        let end = Pose::from_parts(t1, rotation).unwrap();
        let want = translation_oracle(&a, &b, &start, &(t1 - t0));
        let got = run(&model(a.clone()), &model(b.clone()), &Motion::new(start, end));
        prop_assert!(got.exact);
        match (got.toi, want) {
            (None, None) => prop_assert!(!got.hit),
            (Some([lo, hi]), Some(t)) => {
                prop_assert!(q(lo) <= t && t <= q(hi), "[{lo}, {hi}] misses {t}");
                prop_assert!(hi - lo <= 1e-12);
                if t == q(0.0) {
                    prop_assert_eq!([lo, hi], [0.0, 0.0]);
                }
                let [ia, ib] = got.pair.unwrap();
                prop_assert!((ia as usize) < a.triangles().len() && (ib as usize) < b.triangles().len());
            }
            (got, want) => prop_assert!(false, "engine {got:?}, oracle {want:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rotations against dense exact sampling.

/// The oracle's pose at `t`: `R₀ · Rodrigues(k, tθ)` with its own axis–angle of `R₀ᵀR₁`.
fn oracle_pose(start: &Pose, end: &Pose, t: f64) -> Pose {
    let relative = Rotation3::from_matrix_unchecked(start.rotation().transpose() * end.rotation());
    let rotation = match relative.axis_angle() {
        Some((axis, angle)) => {
            start.rotation() * Rotation3::from_axis_angle(&axis, angle * t).matrix()
        }
        None => *start.rotation(),
    };
    let translation = start.translation() * (1.0 - t) + end.translation() * t;
    Pose::from_parts(translation, rotation).unwrap()
}

/// Whether `a` and `b` placed by `pose` touch: every pair by the static exact predicate
/// (`brute_force`, no hierarchy and no motion), and a touching pair confirmed in exact
/// rationals (`hulls_meet_exact`).
fn touching_exactly(a: &TriMesh, b: &TriMesh, pose: &Pose) -> bool {
    let pairs = brute_force(a, &Pose::identity(), b, pose);
    let Some(&[i, j]) = pairs.first() else {
        return false;
    };
    let ta = a.triangle(i as usize).vertices();
    let tb = b
        .triangle(j as usize)
        .vertices()
        .map(|p| pose.transform_point(&p));
    assert!(
        boxes_may_meet(&ta, &tb) && hulls_meet_exact(&ta, &tb),
        "{i} {j} at {pose:?}"
    );
    true
}

/// Whether the boxes of `a` and `b` grown by `1e-9` meet: a filter in front of the exact test
/// (any pair that touches passes it).
fn boxes_may_meet(a: &[Point; 3], b: &[Point; 3]) -> bool {
    (0..3).all(|k| {
        let (alo, ahi) = extent(a.iter().map(|p| p[k]));
        let (blo, bhi) = extent(b.iter().map(|p| p[k]));
        alo <= bhi + 1e-9 && blo <= ahi + 1e-9
    })
}

/// The least float distance between `a` and `b` placed by `pose`, over every pair.
fn brute_distance(a: &TriMesh, b: &TriMesh, pose: &Pose) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..a.triangles().len() {
        for j in 0..b.triangles().len() {
            let tb = b.triangle(j).vertices().map(|p| pose.transform_point(&p));
            let tb = obbtree_bv::Triangle::new(tb[0], tb[1], tb[2]);
            best = best.min(tri_tri::distance(&a.triangle(i), &tb).distance);
        }
    }
    best
}

/// Checks the engine's answer for `b` moving from `start` to `end` beside `a` against
/// `samples` exact samples; returns whether a sample collided.
fn check_rotation(a: &TriMesh, b: &TriMesh, start: Pose, end: Pose, samples: usize) -> bool {
    let got = run(
        &model(a.clone()),
        &model(b.clone()),
        &Motion::new(start, end),
    );
    let first_sample = (0..=samples)
        .map(|k| k as f64 / samples as f64)
        .find(|&t| touching_exactly(a, b, &oracle_pose(&start, &end, t)));
    if let Some(t) = first_sample {
        assert!(got.hit, "missed: sample {t} collides");
        assert!(
            got.toi.unwrap()[0] <= t,
            "{got:?} reports after the colliding sample {t}"
        );
    }
    if let Some([lo, hi]) = got.toi {
        assert!(hi - lo <= 1e-9, "{got:?}");
        // No sample before lo collides.
        if let Some(t) = first_sample {
            assert!(lo <= t);
        }
        // Within δ somewhere in [lo, hi]: the distance at hi is at most δ plus how far B moves
        // over the interval, plus the float distance's rounding.
        let speed = Motion::new(start, end).speed_bound(&b_bounds(b));
        let at_hi = brute_distance(a, b, &oracle_pose(&start, &end, hi));
        assert!(
            at_hi <= got.tolerance + speed * (hi - lo) + 1e-12,
            "{got:?}: distance {at_hi}"
        );
    }
    first_sample.is_some()
}

fn b_bounds(b: &TriMesh) -> obbtree_bv::Aabb {
    obbtree_bv::Aabb::from_points(b.vertices().iter())
}

fn unit_cube() -> TriMesh {
    common::cube(1, 1.0)
}

proptest! {
    #![proptest_config(common::config(24))]

    #[test]
    fn rotations_never_miss_a_sampled_contact(
        t0 in [-3.0f64..3.0, -3.0..3.0, -3.0..3.0],
        r0 in [-3.0f64..3.0, -3.0..3.0, -3.0..3.0],
        t1 in [-3.0f64..3.0, -3.0..3.0, -3.0..3.0],
        r1 in [-3.0f64..3.0, -3.0..3.0, -3.0..3.0],
    ) {
        let a = common::blob(7, 4, 6, 1.0, 0.2);
        let b = unit_cube();
        let start = Pose::new(t0, r0).unwrap();
        let end = Pose::new(t1, r1).unwrap();
        check_rotation(&a, &b, start, end, 200);
    }
}

#[test]
fn a_spinning_bar_sweeps_through_a_post_between_samples() {
    // A long thin bar turning 3 rad about z (from 0.5 to 3.5 rad) past a thin post on the x
    // axis: at the two ends it is clear, in between its far end strikes the post.
    let post = cuboid([1.5, -0.01, -1.0], [1.52, 0.01, 1.0]);
    let bar = cuboid([-2.0, -0.005, -0.005], [2.0, 0.005, 0.005]);
    let start = Pose::new([0.0, 0.0, 0.0], [0.0, 0.0, 0.5]).unwrap();
    let end = Pose::new([0.0, 0.0, 0.0], [0.0, 0.0, 3.5]).unwrap();
    assert!(!touching_exactly(&post, &bar, &start) && !touching_exactly(&post, &bar, &end));
    assert!(check_rotation(&post, &bar, start, end, 1000));
}

#[test]
fn a_rotation_that_stays_clear_is_free() {
    let a = unit_cube();
    let b = cuboid([-0.25, -0.25, -0.25], [0.25, 0.25, 0.25]);
    // B spins in place 3 units away.
    let start = Pose::new([4.0, 0.0, 0.0], [0.0, 0.0, 0.0]).unwrap();
    let end = Pose::new([4.0, 0.5, 0.0], [1.0, 2.0, 0.5]).unwrap();
    let got = run(&model(a), &model(b), &Motion::new(start, end));
    assert!(!got.hit && got.toi.is_none() && !got.exact);
}

// ---------------------------------------------------------------------------------------------
// Adversarial translations: every answer below is known exactly.

fn assert_toi(got: &obbtree_query::MotionResult, t: f64) {
    let [lo, hi] = got.toi.unwrap_or_else(|| panic!("no hit: {got:?}"));
    assert!(
        lo <= t && t <= hi && hi - lo <= 1e-12,
        "[{lo}, {hi}] against {t}"
    );
}

/// Whether any of `samples + 1` evenly spaced instants of the motion collides (what a sampled
/// checker sees).
fn sampled_hit(a: &Model, b: &Model, motion: &Motion, samples: usize) -> bool {
    (0..=samples).any(|k| {
        let pose = motion.pose_at(k as f64 / samples as f64);
        collide(a, &Pose::identity(), b, &pose, &CollisionRequest::default())
            .unwrap()
            .intersects
    })
}

#[test]
fn a_thin_plate_crossed_between_samples_is_hit() {
    let plate = model(cuboid([-1.0, -1.0, 0.0], [1.0, 1.0, 0.001]));
    let chip = model(cuboid([0.0, 0.0, 0.0], [0.01, 0.01, 0.01]));
    // From z = -2 to z = +2: at a resolution of 0.02 the samples are 0.08 apart.
    let motion = Motion::new(shift([0.0, 0.0, -2.03]), shift([0.0, 0.0, 1.97]));
    assert!(!sampled_hit(&plate, &chip, &motion, 50));
    let got = run(&plate, &chip, &motion);
    // The chip's top (z = 0.01) reaches the plate's bottom (z = 0) when -2.03 + 4t + 0.01 = 0.
    assert_toi(&got, 2.02 / 4.0);
    assert!(got.exact);
}

#[test]
fn a_fast_bullet_through_a_wall_is_hit() {
    let wall = model(cuboid([-0.01, -5.0, -5.0], [0.01, 5.0, 5.0]));
    let bullet = model(unit_cube());
    let motion = Motion::new(shift([-1005.0, 0.0, 0.0]), shift([995.0, 0.0, 0.0]));
    assert!(!sampled_hit(&wall, &bullet, &motion, 100));
    // Front face x = 1 reaches x = -0.01 at -1005 + 2000t + 1 = -0.01.
    assert_toi(&run(&wall, &bullet, &motion), 1003.99 / 2000.0);
}

#[test]
fn grazing_counts_and_a_hair_beyond_does_not() {
    let a = model(unit_cube());
    let b = model(unit_cube());
    // B slides along y = 1 (its bottom face on A's top face plane), entering A's x range at
    // t = 1/4: touching only.
    let touching = Motion::new(shift([-2.0, 1.0, 0.0]), shift([2.0, 1.0, 0.0]));
    assert_toi(&run(&a, &b, &touching), 0.25);
    let hair = 2f64.powi(-40);
    let beyond = Motion::new(
        shift([-2.0, 1.0 + hair, 0.0]),
        shift([2.0, 1.0 + hair, 0.0]),
    );
    let got = run(&a, &b, &beyond);
    assert!(!got.hit && got.exact, "{got:?}");
    // Edge on edge: B passes diagonally, its edge grazing A's edge x = y = 1 at t = 1/2 only.
    let edge = Motion::new(shift([-1.0, 3.0, 0.0]), shift([3.0, -1.0, 0.0]));
    assert_toi(&run(&a, &b, &edge), 0.5);
}

#[test]
fn starting_in_contact_and_ending_exactly_touching() {
    let a = model(unit_cube());
    let b = model(unit_cube());
    let start_inside = Motion::new(shift([0.5, 0.5, 0.5]), shift([5.0, 0.0, 0.0]));
    let got = run(&a, &b, &start_inside);
    assert_eq!(got.toi, Some([0.0, 0.0]));
    assert!(got.exact);
    let ends_touching = Motion::new(shift([-3.0, 0.0, 0.0]), shift([-1.0, 0.0, 0.0]));
    assert_toi(&run(&a, &b, &ends_touching), 1.0);
    let stops_short = Motion::new(
        shift([-3.0, 0.0, 0.0]),
        shift([-1.0 - 2f64.powi(-50), 0.0, 0.0]),
    );
    assert!(!run(&a, &b, &stops_short).hit);
}

#[test]
fn a_triangle_piercing_another_at_the_start_is_contact_at_zero() {
    // B's triangle crosses A's interior at t = 0 with no vertex on A and no edge meeting
    // A's edges: no vertex–face or edge–edge contact holds there, only the static test sees it.
    let tri = |p: [[f64; 3]; 3]| {
        model(TriMesh::new(p.map(Point::from).to_vec(), vec![[0, 1, 2]]).unwrap())
    };
    let a = tri([[-1.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 0.0]]);
    let b = tri([[0.0, 0.0, -0.5], [0.5, 0.0, -0.5], [0.25, 0.0, 0.5]]);
    let up = Motion::new(shift([0.0, 0.0, 0.0]), shift([0.0, 0.0, 2.0]));
    let got = run(&a, &b, &up);
    assert_eq!(got.toi, Some([0.0, 0.0]), "{got:?}");
    assert!(got.exact);
}

#[test]
fn answers_do_not_change_with_scale() {
    for power in [-60, -20, 0, 20, 60] {
        let s = 2f64.powi(power);
        let a = model(cuboid([-s, -s, 0.0], [s, s, 0.001 * s]));
        let b = model(cuboid([0.0, 0.0, 0.0], [0.01 * s, 0.01 * s, 0.01 * s]));
        let motion = Motion::new(shift([0.0, 0.0, -2.0 * s]), shift([0.0, 0.0, 2.0 * s]));
        assert_toi(&run(&a, &b, &motion), 1.99 / 4.0);
        // And a rotating version keeps its tolerance relative to the models.
        let spin = Motion::new(
            Pose::new([0.0, 0.0, -2.0 * s], [0.0, 0.0, 0.0]).unwrap(),
            Pose::new([0.0, 0.0, 2.0 * s], [0.0, 0.0, 1.0]).unwrap(),
        );
        let got = run(&a, &b, &spin);
        assert!(got.hit && got.tolerance <= 1e-8 * s, "scale {s}: {got:?}");
        let [lo, _] = got.toi.unwrap();
        // The chip's top cannot reach the plate before 1.99/4 (its corners turn about its
        // origin, its highest point stays at 0.01 s): the lower end is at least close to it.
        assert!(
            (1.98 / 4.0..=1.99 / 4.0).contains(&lo),
            "scale {s}: {got:?}"
        );
    }
}

#[test]
fn fcl_issue_555_two_boxes_translated_towards_each_other() {
    // The boxes of FCL's issue #555, both translating; seen from the flat box, the small one
    // moves from (3, 0, -1) to (-1, 0, -3.5) and its bottom (z = 3 - 1 - 2.5t) meets the flat
    // box's top (z = 0.5) at t = 0.6.
    let small = model(cuboid([-1.0, -1.0, 3.0], [1.0, 1.0, 4.0]));
    let flat = model(cuboid([-10.0, -10.0, 0.0], [10.0, 10.0, 0.5]));
    let motion = Motion::new(shift([3.0, 0.0, -1.0]), shift([-1.0, 0.0, -3.5]));
    assert_toi(&run(&flat, &small, &motion), 0.6);
}

#[test]
fn parry_issue_317_a_turning_cuboid_is_hit() {
    // The cuboids of parry's issue #317 (half extents 235 × 105 × 110 turning at -1.77 rad
    // about z about a local centre, against a static 650 × 330 × 275): B's frame is put at the
    // local centre so that it turns about its origin.
    let centre = Vector3::new(99.97085, -2.2888184e-5, -35.0);
    let half = Vector3::new(235.0, 105.0, 110.0);
    let moving = model(cuboid((-half - centre).into(), (half - centre).into()));
    let q0 = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        -0.542044,
        5.3359954e-20,
        9.459897e-20,
        -0.84035015,
    ));
    let start_centre = Vector3::new(6458.7905, -209.1331, 1014.52124) + q0 * centre;
    let r0 = *q0.to_rotation_matrix().matrix();
    let r1 = Rotation3::new(Vector3::new(0.0, 0.0, -1.770823)).matrix() * r0;
    let start = Pose::from_parts(start_centre, r0).unwrap();
    let end = Pose::from_parts(
        start_centre + Vector3::new(588.2583, -553.06335, 471.54688),
        r1,
    )
    .unwrap();
    let fixed_rotation = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        0.99999607,
        0.002524775,
        -0.00026210435,
        -0.0012064485,
    ));
    let pose_a = Pose::from_parts(
        Vector3::new(6079.4917, -849.3108, 853.8756),
        *fixed_rotation.to_rotation_matrix().matrix(),
    )
    .unwrap();
    let fixed = model(cuboid([-650.0, -330.0, -275.0], [650.0, 330.0, 275.0]));
    let motion = Motion::new(start, end);
    let got = collide_motion(&fixed, &pose_a, &moving, &motion, &MotionRequest::default()).unwrap();
    assert!(got.hit, "{got:?}");
    // Some sample of the motion collides, and not before the reported start.
    let first = (0..=100)
        .map(|k| k as f64 / 100.0)
        .find(|&t| {
            let pose = motion.pose_at(t);
            collide(
                &fixed,
                &pose_a,
                &moving,
                &pose,
                &CollisionRequest::default(),
            )
            .unwrap()
            .intersects
        })
        .expect("a colliding sample");
    assert!(got.toi.unwrap()[0] <= first);
}

// ---------------------------------------------------------------------------------------------
// Shapes, and refused input.

#[test]
fn a_sphere_swept_through_a_mesh_is_hit_and_one_beside_it_is_not() {
    let plate = model(cuboid([-1.0, -1.0, 0.0], [1.0, 1.0, 0.001]));
    let ball: Model = Model::from_shape(Shape::sphere(0.01).unwrap());
    let through = Motion::new(shift([0.0, 0.0, -2.0]), shift([0.0, 0.0, 2.0]));
    let got = run(&plate, &ball, &through);
    let [lo, hi] = got.toi.unwrap();
    // The ball's top reaches z = 0 at -2 + 4t + 0.01 = 0; within δ of it.
    let t = 1.99 / 4.0;
    assert!(
        lo <= t && t - lo <= (got.tolerance + 1e-12) / 4.0 && hi == lo,
        "{got:?}"
    );
    let beside = Motion::new(shift([1.02, 0.0, -2.0]), shift([1.02, 0.0, 2.0]));
    assert!(!run(&plate, &ball, &beside).hit);
    // Shape against shape: a box turning into a capsule.
    let capsule: Model = Model::from_shape(Shape::capsule(0.1, 1.0).unwrap());
    let boxed: Model = Model::from_shape(Shape::cuboid([0.1, 0.1, 0.1]).unwrap());
    let spin = Motion::new(
        Pose::new([0.1, 0.0, 3.0], [0.0, 0.0, 0.0]).unwrap(),
        Pose::new([0.1, 0.0, -3.0], [0.0, 1.0, 0.0]).unwrap(),
    );
    assert!(run(&capsule, &boxed, &spin).hit);
}

#[test]
fn bad_tolerances_are_refused() {
    let a = model(unit_cube());
    let motion = Motion::stay(Pose::identity());
    for bad in [0.0, -1.0, 1.5, f64::NAN] {
        let request = MotionRequest::default().with_time_tolerance(bad);
        let err = collide_motion(&a, &Pose::identity(), &a, &motion, &request).unwrap_err();
        assert!(matches!(err, QueryError::InvalidTimeTolerance(_)), "{err}");
    }
    for bad in [-1.0, f64::INFINITY] {
        let request = MotionRequest::default().with_tolerance(bad);
        let err = collide_motion(&a, &Pose::identity(), &a, &motion, &request).unwrap_err();
        assert!(
            matches!(
                err,
                QueryError::InvalidTolerance {
                    name: "tolerance",
                    ..
                }
            ),
            "{err}"
        );
    }
}
