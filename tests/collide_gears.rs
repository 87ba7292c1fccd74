//! The differential gear set of `assets/differential/diff_ring.urdf` (ring gear and carrier,
//! two spider gears, two side gears; pybullet's model) posed by the URDF reader: every pair of
//! its six meshes, at the assembled pose and with each gear turned a little about its own axis,
//! through obbtree, the exact sweep oracle (`common::sweep`) and parry3d-f64. Every pair on which
//! obbtree and parry differ is decided by the big-integer separating-axis oracle of the bv tests
//! (`oracles::sat`, no code shared with either library), and obbtree must agree with it: a
//! contact that parry finds and obbtree misses fails the test.

mod common;
mod oracles;

use common::asset;
use obbtree::brute::brute_force;
use obbtree::bv::{Obb, Pose, TriMesh};
use obbtree::urdf::Robot;
use obbtree::{collide, CollisionRequest, Mode, Model};
use obbtree_compare as parry;

/// Largest gap (metres; the gears are about 0.1 m across) at which a pair parry and obbtree
/// disagree on counts as near-touching: 1e-8 of the parts' size.
const TOLERANCE: f64 = 1e-9;

/// `OBBTREE_VERBOSE` lists every differing pair.
fn verbose() -> bool {
    std::env::var_os("OBBTREE_VERBOSE").is_some()
}

struct Part {
    name: String,
    model: Model<Obb>,
}

fn parts(robot: &Robot) -> Vec<Part> {
    robot
        .links
        .iter()
        .flat_map(|l| l.meshes.iter().map(move |v| (l, v)))
        .map(|(l, v)| Part {
            name: format!(
                "{}:{}",
                l.name,
                v.file.file_stem().unwrap().to_string_lossy()
            ),
            model: Model::new(v.mesh.clone()).unwrap(),
        })
        .collect()
}

/// One pair at one pose: obbtree (`All` and `First`) against the oracle, parry's pair set against
/// obbtree's with every difference a near-touching pair. Returns whether the pair touches.
fn check(a: &Part, pa: &Pose, b: &Part, pb: &Pose, label: &str) -> bool {
    let (ma, mb) = (&a.model, &b.model);
    let want = common::sweep::sweep_pair(ma.mesh().unwrap(), pa, mb.mesh().unwrap(), pb);
    let all = collide(ma, pa, mb, pb, &CollisionRequest::new(Mode::All)).unwrap();
    assert_eq!(all.pairs, want, "{label}: {} × {}", a.name, b.name);
    let first = collide(ma, pa, mb, pb, &CollisionRequest::new(Mode::First)).unwrap();
    assert_eq!(first.intersects, !want.is_empty(), "{label}");
    assert!(first.pairs.iter().all(|p| want.contains(p)));
    // parry sees B placed in A's frame by obbtree's own placement, A at the identity.
    let b_in_a = pa.inv_mul(pb);
    let placed = TriMesh::new(
        mb.mesh()
            .unwrap()
            .vertices()
            .iter()
            .map(|p| b_in_a.transform_point(p))
            .collect(),
        mb.mesh().unwrap().triangles().to_vec(),
    )
    .unwrap();
    let (qa, qb) = (
        parry::trimesh(ma.mesh().unwrap()).unwrap(),
        parry::trimesh(&placed).unwrap(),
    );
    let id = parry3d_f64::math::Pose::IDENTITY;
    let theirs = parry::pairs(&qa, &qb, &id, false);
    let (mut differences, mut max_distance) = (0, 0.0f64);
    for pair in want
        .iter()
        .filter(|p| !theirs.contains(p))
        .chain(theirs.iter().filter(|p| !want.contains(p)))
    {
        let (t1, t2) = (qa.triangle(pair[0]), qb.triangle(pair[1]));
        let d = parry3d_f64::query::distance(&id, &t1, &id, &t2)
            .unwrap()
            .distance;
        if verbose() {
            println!(
                "  {label} {} × {}: pair {pair:?} obbtree {} parry {} (distance {d:e})",
                a.name,
                b.name,
                want.contains(pair),
                theirs.contains(pair)
            );
        }
        // The independent exact oracle decides the pair; obbtree must agree with it.
        let exact = oracles::sat::triangles_meet(
            &ma.mesh().unwrap().triangle(pair[0] as usize).vertices(),
            &placed.triangle(pair[1] as usize).vertices(),
        );
        assert_eq!(
            exact,
            want.contains(pair),
            "{label} {} × {}: obbtree {} {pair:?}, the exact oracle says they {} (parry {}, \
             distance {d:e})",
            a.name,
            b.name,
            if want.contains(pair) {
                "reports"
            } else {
                "misses"
            },
            if exact { "meet" } else { "are apart" },
            theirs.contains(pair)
        );
        // parry's GJK stops at a tolerance, so a pair it alone reports, or alone misses, must be
        // (numerically) touching.
        assert!(
            d <= TOLERANCE,
            "unexplained difference {pair:?}: distance {d:e}"
        );
        max_distance = max_distance.max(d);
        differences += 1;
    }
    println!(
        "{label} {} × {}: {} pairs (parry {}, {differences} near-touching differences, max distance {max_distance:e})",
        a.name,
        b.name,
        want.len(),
        theirs.len()
    );
    !want.is_empty()
}

/// Every pair of the six meshes at joint values `q` (only pairs with a mesh of link `moved` if
/// given); returns the touching pairs' names.
fn check_all(
    robot: &Robot,
    parts: &[Part],
    q: &[f64],
    moved: Option<usize>,
    label: &str,
) -> Vec<String> {
    let visuals = robot.mesh_poses(q).unwrap();
    let poses: Vec<Pose> = visuals.iter().map(|v| v.2).collect();
    let mut touching = Vec::new();
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            let links = [visuals[i].0, visuals[j].0];
            if moved.is_none_or(|l| links.contains(&l))
                && check(&parts[i], &poses[i], &parts[j], &poses[j], label)
            {
                touching.push(format!("{} × {}", parts[i].name, parts[j].name));
            }
        }
    }
    touching
}

#[test]
fn gear_set_at_assembled_poses() {
    let robot = Robot::from_file(asset("differential/diff_ring.urdf")).unwrap();
    let parts = parts(&robot);
    assert_eq!(parts.len(), 6);
    let touching = check_all(&robot, &parts, &[0.0; 5], None, "assembled");
    println!("assembled: touching {touching:?}");
    // The ring is bolted to the carrier (coincident faces) and each spider's teeth overlap both
    // side gears' in the model as shipped; nothing else touches.
    let want = [
        "diff_ring:diff_ring × diff_ring:diff_carrier",
        "diff_spiderA:diff_spider × diff_sideA:diff_side",
        "diff_spiderA:diff_spider × diff_sideB:diff_side",
        "diff_spiderB:diff_spider × diff_sideA:diff_side",
        "diff_spiderB:diff_spider × diff_sideB:diff_side",
    ];
    assert_eq!(touching, want);
}

/// The sweep oracle itself against the all-pairs brute force (every triangle pair through the
/// exact predicate) at the assembled pose, on a meshing pair (spider A × side A, 138.8 million
/// triangle pairs) and on the ring bolted to the carrier (coincident faces, 161.9 million).
#[test]
fn sweep_oracle_matches_all_pairs_at_assembled_pose() {
    let robot = Robot::from_file(asset("differential/diff_ring.urdf")).unwrap();
    let v = robot.mesh_poses(&[0.0; 5]).unwrap();
    let part = |name: &str, k: usize| {
        let l = robot.link(name).unwrap();
        let (_, _, pose) = v.iter().find(|x| x.0 == l && x.1 == k).unwrap();
        (&robot.links[l].meshes[k].mesh, *pose)
    };
    for ((a, b), count) in [
        ((("diff_spiderA", 0), ("diff_sideA", 0)), 200),
        ((("diff_ring", 0), ("diff_ring", 1)), 10_178),
    ] {
        let ((ma, pa), (mb, pb)) = (part(a.0, a.1), part(b.0, b.1));
        let want = brute_force(ma, &pa, mb, &pb);
        assert_eq!(common::sweep::sweep_pair(ma, &pa, mb, &pb), want);
        assert_eq!(want.len(), count, "{a:?} × {b:?}");
    }
}

/// Each gear turned about its own joint axis by small angles (one per gear and sign in CI, up to
/// 0.05 rad; `OBBTREE_PROPTEST_CASES` scales the count), the other joints at 0; the pairs with
/// the turned gear.
#[test]
fn gear_set_turned_gears() {
    let robot = Robot::from_file(asset("differential/diff_ring.urdf")).unwrap();
    let parts = parts(&robot);
    let n = common::cases(1);
    let moving: Vec<usize> = robot.moving_joints().map(|j| j.child).collect();
    for joint in 1..5 {
        for k in 1..=n {
            for sign in [-1.0, 1.0] {
                let mut q = [0.0; 5];
                q[joint] = sign * 0.05 * k as f64 / n as f64;
                let label = format!("joint {joint} at {:+.4}", q[joint]);
                let touching = check_all(&robot, &parts, &q, Some(moving[joint]), &label);
                println!("{label}: touching {touching:?}");
            }
        }
    }
}
