//! Robots as scene objects (`obbtree::urdf::RobotScene`), on the bundled KUKA iiwa among
//! fixtures: each configuration's self-collision and environment contacts, and
//! `check_path`'s first collision, against every interpolated configuration checked cold and
//! independently: link poses from the URDF's forward kinematics, the interpolation written out
//! again, and the exact two-mesh query on every pair of links not joined by a joint (nor
//! allowed) and every link–fixture pair. No scene code is involved in the oracle.

use obbtree::urdf::{Robot, RobotError, RobotScene};
use obbtree::{
    collide, distance, CollisionRequest, DistanceRequest, Mode, Model, Point, Pose, TriMesh,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeSet;
use std::path::Path;

fn kuka() -> Robot {
    Robot::from_file(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/kuka_iiwa/model.urdf"),
    )
    .unwrap()
}

/// A box of half sizes `h` centred at the origin, 12 triangles.
fn block(h: [f64; 3]) -> TriMesh {
    TriMesh::cuboid(Point::from(h).map(|c| -c), Point::from(h)).unwrap()
}

/// Fixtures around the arm (which reaches about 1.3 m up from the origin): posts and shelves.
fn fixtures() -> Vec<(String, Model, Pose)> {
    let post: Model = Model::new(block([0.05, 0.05, 0.6])).unwrap();
    let shelf: Model = Model::new(block([0.3, 0.2, 0.02])).unwrap();
    let mut out = Vec::new();
    for (k, angle) in [0.0f64, 1.3, 2.6, 3.9, 5.2].iter().enumerate() {
        let (s, c) = angle.sin_cos();
        let pose = Pose::new([0.55 * c, 0.55 * s, 0.6], [0.0, 0.0, *angle]).unwrap();
        out.push((format!("post{k}"), post.clone(), pose));
        let pose = Pose::new([0.7 * c, 0.7 * s, 0.9 - 0.1 * k as f64], [0.0, 0.0, *angle]).unwrap();
        out.push((format!("shelf{k}"), shelf.clone(), pose));
    }
    out
}

/// The oracle's robot: one model per visual, its link, and which pairs it skips.
struct Oracle {
    robot: Robot,
    visuals: Vec<(usize, Pose, Model)>,
    fixtures: Vec<(String, Model, Pose)>,
    allowed: BTreeSet<(String, String)>,
}

impl Oracle {
    fn new(robot: Robot, fixtures: Vec<(String, Model, Pose)>, allowed: &[(&str, &str)]) -> Self {
        let visuals = robot
            .links
            .iter()
            .enumerate()
            .flat_map(|(l, link)| {
                link.meshes
                    .iter()
                    .map(move |v| (l, v.origin, Model::new(v.mesh.clone()).unwrap()))
            })
            .collect();
        let allowed = allowed
            .iter()
            .flat_map(|&(a, b)| {
                [
                    (a.to_string(), b.to_string()),
                    (b.to_string(), a.to_string()),
                ]
            })
            .collect();
        Self {
            robot,
            visuals,
            fixtures,
            allowed,
        }
    }

    fn joined(&self, a: usize, b: usize) -> bool {
        a == b
            || self
                .robot
                .joints
                .iter()
                .any(|j| (j.parent, j.child) == (a, b) || (j.parent, j.child) == (b, a))
    }

    /// Link-name pairs and (link, fixture) pairs in contact at `q`, sorted.
    fn contacts(&self, q: &[f64]) -> (Vec<[String; 2]>, Vec<[String; 2]>) {
        let links = self.robot.link_poses(q).unwrap();
        let name = |l: usize| self.robot.links[l].name.clone();
        let first = CollisionRequest::new(Mode::First);
        let mut selfish = BTreeSet::new();
        let mut environment = BTreeSet::new();
        for (i, (la, oa, ma)) in self.visuals.iter().enumerate() {
            let pa = links[*la] * *oa;
            for (lb, ob, mb) in &self.visuals[i + 1..] {
                if self.joined(*la, *lb) || self.allowed.contains(&(name(*la), name(*lb))) {
                    continue;
                }
                if collide(ma, &pa, mb, &(links[*lb] * *ob), &first)
                    .unwrap()
                    .intersects
                {
                    let mut pair = [name(*la), name(*lb)];
                    pair.sort();
                    selfish.insert(pair);
                }
            }
            for (fixture, mf, pf) in &self.fixtures {
                if self.allowed.contains(&(name(*la), fixture.clone())) {
                    continue;
                }
                if collide(ma, &pa, mf, pf, &first).unwrap().intersects {
                    environment.insert([name(*la), fixture.clone()]);
                }
            }
        }
        (
            selfish.into_iter().collect(),
            environment.into_iter().collect(),
        )
    }

    /// The smallest distance at `q` over the pairs `contacts` checks, each measured cold.
    fn clearance(&self, q: &[f64]) -> f64 {
        let links = self.robot.link_poses(q).unwrap();
        let name = |l: usize| self.robot.links[l].name.clone();
        let cold = DistanceRequest::default();
        let mut smallest = f64::INFINITY;
        for (i, (la, oa, ma)) in self.visuals.iter().enumerate() {
            let pa = links[*la] * *oa;
            for (lb, ob, mb) in &self.visuals[i + 1..] {
                if self.joined(*la, *lb) || self.allowed.contains(&(name(*la), name(*lb))) {
                    continue;
                }
                let d = distance(ma, &pa, mb, &(links[*lb] * *ob), &cold).unwrap();
                smallest = smallest.min(d.distance);
            }
            for (fixture, mf, pf) in &self.fixtures {
                if !self.allowed.contains(&(name(*la), fixture.clone())) {
                    smallest = smallest.min(distance(ma, &pa, mf, pf, &cold).unwrap().distance);
                }
            }
        }
        smallest
    }
}

fn robot_scene(allowed: &[(&str, &str)]) -> RobotScene {
    let mut scene = RobotScene::new(kuka()).unwrap();
    for (name, model, pose) in fixtures() {
        scene.add_fixture(name, model, pose).unwrap();
    }
    for (a, b) in allowed {
        scene.allow(a, b).unwrap();
    }
    scene
}

/// The scene's contacts as names.
fn named(
    scene: &RobotScene,
    c: &obbtree::urdf::RobotContacts,
) -> (Vec<[String; 2]>, Vec<[String; 2]>) {
    let link = |l: usize| scene.robot().links[l].name.clone();
    (
        c.self_collisions
            .iter()
            .map(|&[a, b]| [link(a), link(b)])
            .collect(),
        c.environment
            .iter()
            .map(|&(l, id)| [link(l), scene.scene().name(id).to_string()])
            .collect(),
    )
}

fn random_configuration(rng: &mut Pcg64, robot: &Robot) -> Vec<f64> {
    robot
        .moving_joints()
        .map(|j| {
            let (lo, hi) = j.limits.unwrap_or((-3.0, 3.0));
            rng.gen_range(lo..hi)
        })
        .collect()
}

const ALLOWED: &[(&str, &str)] = &[
    ("lbr_iiwa_link_5", "lbr_iiwa_link_7"),
    ("lbr_iiwa_link_0", "post0"),
];

#[test]
fn each_configuration_matches_every_pair() {
    let mut scene = robot_scene(ALLOWED);
    let oracle = Oracle::new(kuka(), fixtures(), ALLOWED);
    let mut rng = Pcg64::seed_from_u64(11);
    let (mut selfish, mut touching) = (0, 0);
    // Folded configurations (the wrist folds back onto the base; found by a scan of random
    // configurations with this oracle), then random ones.
    let folded = [
        vec![-1.69, 1.91, 0.1, -1.9, 1.64, 0.21, 0.21],
        vec![-0.19, -1.74, -0.11, 2.07, -1.25, -0.18, -2.26],
        vec![2.39, 1.91, 2.77, 2.05, -2.93, 1.54, -0.44],
        vec![-0.03, 2.08, -2.49, 2.07, -1.1, -1.36, 2.91],
        vec![0.64, 2.0, -2.79, 2.0, -0.18, -1.42, 0.41],
    ];
    let random: Vec<_> = (0..30)
        .map(|_| random_configuration(&mut rng, scene.robot()))
        .collect();
    for q in folded.into_iter().chain(random) {
        scene.set_configuration(&q).unwrap();
        let got = scene.check().unwrap();
        let expected = oracle.contacts(&q);
        selfish += usize::from(!expected.0.is_empty());
        touching += usize::from(!expected.1.is_empty());
        assert_eq!(named(&scene, &got), expected, "{q:?}");
    }
    assert!(
        selfish > 3 && touching > 3,
        "{selfish} self, {touching} environment"
    );
}

/// The interpolation of `check_path`'s documentation, written out again.
fn interpolated(path: &[Vec<f64>], resolution: f64) -> Vec<Vec<f64>> {
    let mut out = vec![path[0].clone()];
    for w in path.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let mut largest: f64 = 0.0;
        for j in 0..a.len() {
            largest = largest.max((b[j] - a[j]).abs());
        }
        let n = ((largest / resolution).ceil() as usize).max(1);
        for k in 1..n {
            let s = k as f64 / n as f64;
            out.push((0..a.len()).map(|j| a[j] + (b[j] - a[j]) * s).collect());
        }
        out.push(b.clone());
    }
    out
}

#[test]
fn check_path_finds_the_first_collision_of_the_cold_walk() {
    let oracle = Oracle::new(kuka(), fixtures(), ALLOWED);
    let mut rng = Pcg64::seed_from_u64(12);
    let robot = kuka();
    let mut found = 0;
    for trial in 0..6 {
        // A path from folded-up (clear) through random waypoints, small steps.
        let mut path = vec![vec![0.0; 7]];
        for _ in 0..3 {
            let q = random_configuration(&mut rng, &robot);
            path.push(q.iter().map(|x| x * 0.5).collect());
        }
        let resolution = 0.05;
        let expected = interpolated(&path, resolution)
            .into_iter()
            .enumerate()
            .map(|(i, q)| (i, oracle.contacts(&q), q))
            .find(|(_, c, _)| !c.0.is_empty() || !c.1.is_empty());
        let mut scene = robot_scene(ALLOWED);
        let got = scene.check_path(&path, resolution).unwrap();
        match (&got, &expected) {
            (None, None) => {}
            (Some(g), Some((i, c, q))) => {
                found += 1;
                assert_eq!(g.index, *i, "trial {trial}");
                assert_eq!(&g.configuration, q, "trial {trial}");
                assert_eq!(&named(&scene, &g.contacts), c, "trial {trial}");
            }
            _ => panic!("trial {trial}: {got:?} against {:?}", expected.map(|e| e.0)),
        }
    }
    assert!(found >= 2, "{found} paths collide");
}

/// Random paths through the fixtures: the path check with a margin against every interpolated
/// configuration's clearance measured cold, pair by pair, up to the first collision.
#[test]
fn path_clearance_matches_every_configuration_measured_cold() {
    let oracle = Oracle::new(kuka(), fixtures(), ALLOWED);
    let mut rng = Pcg64::seed_from_u64(13);
    let robot = kuka();
    let margin = 0.08;
    let (mut within, mut collided) = (0, 0);
    for trial in 0..4 {
        let mut path = vec![vec![0.0; 7]];
        for _ in 0..2 {
            let q = random_configuration(&mut rng, &robot);
            path.push(q.iter().map(|x| x * 0.5).collect());
        }
        let resolution = 0.1;
        let mut clearances = Vec::new();
        let mut collision = None;
        for (index, q) in interpolated(&path, resolution).into_iter().enumerate() {
            clearances.push(oracle.clearance(&q));
            if oracle.contacts(&q) != (vec![], vec![]) {
                collision = Some(index);
                collided += 1;
                break;
            }
        }
        let mut scene = robot_scene(ALLOWED);
        let got = scene
            .check_path_with(&path, resolution, Some(margin))
            .unwrap();
        assert_eq!(got.checked, clearances.len(), "trial {trial}");
        // Distances agree to the engine's guarantee (1e-12 of the coordinates), far below
        // the slack allowed here; no clearance of these paths lies that close to the margin.
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9;
        let first = clearances.iter().position(|&d| d <= margin);
        assert_eq!(
            got.first_within_margin, first,
            "trial {trial}: {clearances:?}"
        );
        let smallest = clearances.iter().copied().fold(f64::INFINITY, f64::min);
        match &got.clearance {
            None => assert!(smallest > margin, "trial {trial}: {smallest} missed"),
            Some(c) => {
                within += 1;
                assert!(
                    close(c.closest.distance, smallest),
                    "trial {trial}: {c:?} against {smallest}"
                );
                assert!(
                    close(clearances[c.index], smallest),
                    "trial {trial}: at {}",
                    c.index
                );
                let earlier = clearances[..c.index]
                    .iter()
                    .all(|&d| !close(d, smallest) && d > smallest);
                assert!(
                    earlier,
                    "trial {trial}: an earlier configuration is as close"
                );
                let at = interpolated(&path, resolution)[c.index].clone();
                assert_eq!(c.configuration, at, "trial {trial}");
            }
        }
        assert_eq!(got.collision.map(|c| c.index), collision, "trial {trial}");
        if collision.is_some() {
            assert_eq!(
                clearances.last(),
                Some(&0.0),
                "trial {trial}: touching is 0 apart"
            );
        }
    }
    assert!(
        within >= 2 && collided >= 1,
        "{within} within the margin, {collided} collide"
    );
}

#[test]
fn bad_input_is_refused() {
    let mut scene = robot_scene(&[]);
    let err = scene.set_configuration(&[0.0; 6]).unwrap_err();
    assert!(
        err.to_string().contains("expected 7 finite joint values"),
        "{err}"
    );
    let err = scene
        .check_path(
            &[vec![0.0; 7], vec![0.0, f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0]],
            0.1,
        )
        .unwrap_err();
    assert!(
        matches!(err, RobotError::Configuration { index: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().starts_with("configuration 1: "), "{err}");
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err = scene.check_path(&[vec![0.0; 7]], bad).unwrap_err();
        assert!(matches!(err, RobotError::Resolution(_)), "{err}");
    }
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let err = scene
            .check_path_with(&[vec![0.0; 7]], 0.1, Some(bad))
            .unwrap_err();
        assert!(err.to_string().contains("margin"), "{err}");
    }
    let err = scene.allow("lbr_iiwa_link_1", "ghost").unwrap_err();
    assert_eq!(err.to_string(), "no link or fixture named \"ghost\"");
    let model: Model = Model::new(block([0.1; 3])).unwrap();
    let err = scene
        .add_fixture("lbr_iiwa_link_1", model, Pose::identity())
        .unwrap_err();
    assert!(err.to_string().contains("already in the scene"), "{err}");
}
