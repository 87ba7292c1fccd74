//! An independent check of the leaf predicate on the pairs the traversal actually meets: exact
//! rational arithmetic (the separating-axis theorem over the face normals, the edge–edge cross
//! products and the in-plane edge normals, which is complete for two proper triangles) and the
//! bv tests' big-integer separating-axis oracle (complete for degenerate triangles too) on every
//! candidate pair of random near-contact poses, compared with `brute_force`'s answers.

mod common;

use common::*;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::{Aabb, Kdop18, Obb, Sphere};
use obbtree_bv::{Point, Pose, TriMesh, Triangle};
use obbtree_query::brute::brute_force;
use obbtree_query::{collide, CollisionRequest, Mode, Model, PosedOverlap};
use proptest::prelude::*;

type Q3 = [BigRational; 3];

fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}
fn q3(p: &Point) -> Q3 {
    [q(p.x), q(p.y), q(p.z)]
}
fn sub(a: &Q3, b: &Q3) -> Q3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn dot(a: &Q3, b: &Q3) -> BigRational {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn cross(a: &Q3, b: &Q3) -> Q3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

/// Whether two proper (non-zero-area) closed triangles meet, exactly: no candidate axis
/// separates their projections (touching projections do not separate).
fn meet_exact(p: &Triangle, r: &Triangle) -> bool {
    let (pv, rv) = (p.vertices().map(|v| q3(&v)), r.vertices().map(|v| q3(&v)));
    let edges = |v: &[Q3; 3]| [sub(&v[1], &v[0]), sub(&v[2], &v[1]), sub(&v[0], &v[2])];
    let (pe, re) = (edges(&pv), edges(&rv));
    let (np, nr) = (cross(&pe[0], &pe[1]), cross(&re[0], &re[1]));
    let mut axes = vec![np.clone(), nr.clone()];
    for e in &pe {
        axes.push(cross(&np, e));
        for f in &re {
            axes.push(cross(e, f));
        }
    }
    for f in &re {
        axes.push(cross(&nr, f));
    }
    !axes.iter().any(|axis| {
        if axis.iter().all(|c| c.is_zero()) {
            return false;
        }
        let proj = |v: &[Q3; 3]| {
            let d = v.clone().map(|x| dot(&x, axis));
            let lo = d.iter().min().unwrap().clone();
            let hi = d.iter().max().unwrap().clone();
            (lo, hi)
        };
        let ((plo, phi), (rlo, rhi)) = (proj(&pv), proj(&rv));
        phi < rlo || rhi < plo
    })
}

fn proper(t: &Triangle) -> bool {
    let v = t.vertices().map(|v| q3(&v));
    cross(&sub(&v[1], &v[0]), &sub(&v[2], &v[0]))
        .iter()
        .any(|c| c.abs() > BigRational::from_integer(BigInt::zero()))
}

/// Candidate pairs: triangle boxes within `gap` (so near misses are checked too).
fn candidates(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    gap: f64,
) -> Vec<(usize, usize, Triangle, Triangle)> {
    let bt: Vec<Triangle> = (0..b.triangles().len())
        .map(|j| {
            let t = b.triangle(j);
            Triangle::new(
                pose.transform_point(&t.a),
                pose.transform_point(&t.b),
                pose.transform_point(&t.c),
            )
        })
        .collect();
    let bounds = |t: &Triangle| obbtree_bv::Aabb::from_points(&t.vertices());
    let mut out = Vec::new();
    for i in 0..a.triangles().len() {
        let ta = a.triangle(i);
        let ba = bounds(&ta);
        for (j, tb) in bt.iter().enumerate() {
            let bb = bounds(tb);
            if (0..3).all(|k| ba.mins[k] <= bb.maxs[k] + gap && bb.mins[k] <= ba.maxs[k] + gap) {
                out.push((i, j, ta, *tb));
            }
        }
    }
    out
}

/// A mesh scaled by `scale` (a power of two: exact).
fn scaled(m: &TriMesh, scale: f64) -> TriMesh {
    TriMesh::new(
        m.vertices().iter().map(|p| p * scale).collect(),
        m.triangles().to_vec(),
    )
    .expect("scaled within the range")
}

/// What the cases saw: candidate pairs, how many met, and how many were degenerate.
#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    candidates: usize,
    meeting: usize,
    degenerate: usize,
}

/// Random near-contact poses of two bumpy blobs, scaled as a whole by a power of two from
/// `2⁻¹⁵⁰` to `2³⁰⁰` (the exact range of placed coordinates, beyond `1e±8`): every candidate pair
/// (triangle boxes within a gap) is decided by the big-integer separating-axis oracle of the bv
/// tests (`common::sat`, degenerate triangles included) and, for proper triangles, by the rational
/// check above; `brute_force` (the engine's predicate on every pair) must agree with both. The
/// scaled query must also find exactly the pairs of the unscaled one (placement commutes with a
/// power of two), and `collide` through every volume type's tree at that scale exactly the
/// oracle's pairs (the posed volume tests, the traversal and the leaf test all see scaled
/// coordinates). 100 cases in CI; the run must meet candidates and meeting pairs.
#[test]
fn brute_force_agrees_with_exact_oracles_at_every_scale() {
    let tally = std::cell::RefCell::new(Tally::default());
    runner(100, file!())
        .run(&(any::<u64>(), -150i32..=300), |(seed, exponent)| {
            let (a, b) = (blob(seed, 4, 7, 1.0, 0.3), blob(seed ^ 5, 3, 6, 0.7, 0.3));
            let mut r = rng(seed);
            let unit = random_pose(&mut r, 1.3);
            let scale = 2f64.powi(exponent);
            let pose = Pose::from_parts(unit.translation() * scale, *unit.rotation()).unwrap();
            let (a, b) = (scaled(&a, scale), scaled(&b, scale));
            let want = brute_force(&a, &Pose::identity(), &b, &pose);
            let unscaled = brute_force(
                &scaled(&a, 1.0 / scale),
                &Pose::identity(),
                &scaled(&b, 1.0 / scale),
                &unit,
            );
            prop_assert_eq!(&want, &unscaled, "scale 2^{}", exponent);
            for (name, got) in [
                ("aabb", collided::<Aabb>(&a, &b, &pose)),
                ("obb", collided::<Obb>(&a, &b, &pose)),
                ("sphere", collided::<Sphere>(&a, &b, &pose)),
                ("kdop18", collided::<Kdop18>(&a, &b, &pose)),
            ] {
                prop_assert_eq!(&got, &want, "{} at scale 2^{}", name, exponent);
            }
            let mut t = tally.borrow_mut();
            t.cases += 1;
            for (i, j, ta, tb) in candidates(&a, &b, &pose, 0.05 * scale) {
                let exact = sat::triangles_meet(&ta.vertices(), &tb.vertices());
                prop_assert_eq!(
                    exact,
                    want.contains(&[i as u32, j as u32]),
                    "pair {} {}",
                    i,
                    j
                );
                if proper(&ta) && proper(&tb) {
                    prop_assert_eq!(meet_exact(&ta, &tb), exact, "pair {} {}", i, j);
                } else {
                    t.degenerate += 1;
                }
                t.candidates += 1;
                t.meeting += usize::from(exact);
            }
            Ok(())
        })
        .unwrap();
    let t = tally.into_inner();
    println!("{t:?}");
    assert!(
        t.candidates >= 10 * t.cases && t.meeting >= t.cases,
        "{t:?}"
    );
}

/// The pairs `collide` finds (`Mode::All`) with B placed by `pose`, through `V`'s trees.
fn collided<V: PosedOverlap>(a: &TriMesh, b: &TriMesh, pose: &Pose) -> Vec<[u32; 2]> {
    let (ma, mb) = (
        Model::<V>::new(a.clone()).unwrap(),
        Model::<V>::new(b.clone()).unwrap(),
    );
    collide(
        &ma,
        &Pose::identity(),
        &mb,
        pose,
        &CollisionRequest::new(Mode::All),
    )
    .unwrap()
    .pairs
}

/// The same on touching cubes with exact coordinates, where every contact is a boundary case.
#[test]
fn touching_cubes_agree_with_rational_sat() {
    let (a, b) = (cube(2, 0.1), cube(1, 0.2));
    for t in [
        [0.2, 0.0, 0.0],
        [0.2, 0.2, 0.0],
        [0.2, 0.2, 0.2],
        [0.1, 0.1, 0.2],
        [0.05, 0.05, 0.05],
    ] {
        let pose = Pose::new(t, [0.0; 3]).unwrap();
        let want = brute_force(&a, &Pose::identity(), &b, &pose);
        assert!(!want.is_empty());
        for (i, j, ta, tb) in candidates(&a, &b, &pose, 0.01) {
            let exact = sat::triangles_meet(&ta.vertices(), &tb.vertices());
            assert_eq!(exact, want.contains(&[i as u32, j as u32]));
            assert_eq!(meet_exact(&ta, &tb), exact);
        }
    }
}
