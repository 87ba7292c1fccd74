//! `Scene::sweep`: the first object a moving object meets, with the pair's exact contact time;
//! on random scenes, the earliest of the pair queries; a rotation reaching past its end boxes.

use obbtree_bv::{Point, Pose, TriMesh};
use obbtree_query::{Model, MotionRequest};
use obbtree_scene::Scene;

fn slab(lo: [f64; 3], hi: [f64; 3]) -> Model {
    Model::new(TriMesh::cuboid(Point::from(lo), Point::from(hi)).unwrap()).unwrap()
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}

/// Two thin walls across the x axis at x = 2 and x = 4, a wall beside the path, and a cube
/// at the origin about to be swept along x.
fn scene() -> Scene {
    let mut scene = Scene::new();
    let wall = slab([-0.005, -1.0, -1.0], [0.005, 1.0, 1.0]);
    scene
        .insert("far", wall.clone(), at(4.0, 0.0, 0.0))
        .unwrap();
    scene
        .insert("near", wall.clone(), at(2.0, 0.0, 0.0))
        .unwrap();
    scene.insert("beside", wall, at(3.0, 5.0, 0.0)).unwrap();
    let cube = slab([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1]);
    scene.insert("cube", cube, at(0.0, 0.0, 0.0)).unwrap();
    scene
}

#[test]
fn the_first_wall_on_the_way_is_met_first() {
    let scene = scene();
    let cube = scene.id("cube").unwrap();
    let to = at(10.0, 0.0, 0.0);
    let hit = scene
        .sweep(cube, &to, &MotionRequest::default())
        .unwrap()
        .unwrap();
    assert_eq!(scene.name(hit.object), "near");
    // The cube's face x = 0.1 reaches the wall's face x = 1.995 at 10t + 0.1 = 1.995.
    let [lo, hi] = hit.result.toi.unwrap();
    let t = 1.895 / 10.0;
    assert!(
        lo <= t && t <= hi && hi - lo <= 1e-12 && hit.result.exact,
        "{hit:?}"
    );
}

#[test]
fn allowed_pairs_are_swept_through_and_free_motions_are_none() {
    let mut scene = scene();
    let cube = scene.id("cube").unwrap();
    scene.allow_names("cube", "near").unwrap();
    let to = at(10.0, 0.0, 0.0);
    let hit = scene
        .sweep(cube, &to, &MotionRequest::default())
        .unwrap()
        .unwrap();
    assert_eq!(scene.name(hit.object), "far");
    // Turning in place, clear of everything.
    let spin = Pose::new([0.0, 0.0, 0.0], [0.0, 0.0, 3.0]).unwrap();
    assert_eq!(
        scene.sweep(cube, &spin, &MotionRequest::default()).unwrap(),
        None
    );
    // The scene is unchanged.
    assert_eq!(*scene.get(cube).unwrap().pose(), at(0.0, 0.0, 0.0));
}

/// Random scenes of tilted slabs and random motions of a small box through them, some turning:
/// the sweep names the object whose pair query ([`collide_motion`] on that pair alone, with the
/// same request) has the least lower end, and reports that pair's answer unchanged; `None`
/// exactly when every pair is free. This checks the scene's part (the swept box's candidates,
/// the frames, the choice of the first) against no candidate selection at all.
#[test]
fn a_sweep_is_the_earliest_of_the_pair_queries() {
    use obbtree_query::collide_motion;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;
    let mut rng = Pcg64::seed_from_u64(38);
    let mut uniform = |lo: f64, hi: f64| rng.gen_range(lo..hi);
    let mut counts = [0usize; 2];
    for _ in 0..12 {
        let mut scene = Scene::new();
        let mut objects = Vec::new();
        for k in 0..10 {
            let half = [uniform(0.01, 1.0), uniform(0.01, 1.0), uniform(0.01, 0.1)];
            let model = slab(half.map(|h| -h), half);
            let t = [uniform(-3.0, 3.0), uniform(-3.0, 3.0), uniform(-3.0, 3.0)];
            let r = [uniform(-2.0, 2.0), uniform(-2.0, 2.0), uniform(-2.0, 2.0)];
            let pose = Pose::new(t, r).unwrap();
            let id = scene
                .insert(format!("slab {k}"), model.clone(), pose)
                .unwrap();
            objects.push((id, model, pose));
        }
        let mover = slab([-0.1, -0.05, -0.2], [0.1, 0.05, 0.2]);
        for m in 0..6 {
            // From one side of the scene to about the opposite one.
            let from = [uniform(-4.0, 4.0), uniform(-4.0, 4.0), uniform(-4.0, 4.0)];
            let ends: Vec<Pose> = [1.0, -1.0]
                .iter()
                .map(|side| {
                    let t = from.map(|x| side * x + uniform(-1.0, 1.0));
                    let r = [uniform(-2.0, 2.0), uniform(-2.0, 2.0), uniform(-2.0, 2.0)];
                    Pose::new(t, if m % 2 == 0 { [0.3, 0.2, 0.1] } else { r }).unwrap()
                })
                .collect();
            let id = scene
                .insert(format!("mover {m}"), mover.clone(), ends[0])
                .unwrap();
            let request = MotionRequest::default();
            let got = scene.sweep(id, &ends[1], &request).unwrap();
            let motion = obbtree_bv::Motion::new(ends[0], ends[1]);
            let pairs: Vec<_> = objects
                .iter()
                .filter_map(|(object, model, pose)| {
                    let r = collide_motion(model, pose, &mover, &motion, &request).unwrap();
                    r.toi.map(|toi| (toi[0], *object, r))
                })
                .collect();
            let first = pairs.iter().min_by(|x, y| x.0.total_cmp(&y.0));
            match (got, first) {
                (None, None) => counts[0] += 1,
                (Some(hit), Some((lo, _, _))) => {
                    counts[1] += 1;
                    let (_, _, want) = pairs.iter().find(|p| p.1 == hit.object).unwrap();
                    assert_eq!(&hit.result, want, "{}", scene.name(hit.object));
                    assert_eq!(hit.result.toi.unwrap()[0], *lo);
                }
                (got, first) => panic!("sweep {got:?}, pair queries {first:?}"),
            }
            scene.remove(id).unwrap();
        }
    }
    assert!(
        counts.iter().all(|&c| c >= 10),
        "free and hit motions: {counts:?}"
    );
}

/// A rod turning by 160° about its middle sweeps through a post that lies outside the boxes of
/// both its end poses: the swept box must grow by the rotation to keep the post a candidate.
#[test]
fn a_turning_rod_meets_a_post_off_its_end_boxes() {
    let mut scene = Scene::new();
    let post = slab([-0.05, -0.05, -0.05], [0.05, 0.05, 0.05]);
    scene.insert("post", post, at(0.8, 0.0, 0.0)).unwrap();
    let rod = slab([-1.0, -0.02, -0.02], [1.0, 0.02, 0.02]);
    let turned = |degrees: f64| Pose::new([0.0; 3], [0.0, 0.0, degrees.to_radians()]).unwrap();
    let id = scene.insert("rod", rod, turned(-80.0)).unwrap();
    let hit = scene
        .sweep(id, &turned(80.0), &MotionRequest::default())
        .unwrap()
        .expect("the rod meets the post on its way");
    assert_eq!(scene.name(hit.object), "post");
    let [lo, hi] = hit.result.toi.unwrap();
    assert!(0.0 < lo && hi < 0.5, "{hit:?}");
}
