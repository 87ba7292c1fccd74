//! The scene against brute force: after random sequences of insertions, removals, pose
//! changes, allowed pairs and group changes, `collide_all` must report exactly the object
//! pairs that the exact two-mesh query reports when run on every pair of objects (filtered by
//! groups and the allowed list written out here), with the same triangle pairs; `First` mode
//! the same object pairs, each witness one of the pair's intersecting triangle pairs. Warm
//! answers (records reused, witnesses tested again) are compared with a fresh scene's over
//! smooth motions, rays with every object cast one by one, `collide_with` and
//! `collide_scenes` with every pair; `within_margin_all` and `min_distance` with every pair's
//! exact margin and distance queries. The oracles share no broad-phase or scene code.

/// The one knob that sizes every property test, and failure persistence.
#[path = "../../../tests/common/knob.rs"]
mod knob;

use obbtree_bv::{Point, Pose, Ray, TriMesh, Vector};
use obbtree_query::{
    cast_ray, collide, distance, within_margin, CollisionRequest, CollisionResult, DistanceRequest,
    Mode, Model, QueryError,
};
use obbtree_scene::{
    CollisionFilter, ObjectContact, ObjectDistance, Scene, SceneError, SMALL_SCENE,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------------------
// Meshes: small, so that brute force over every pair stays cheap.

/// An axis-aligned box `[0, s]³` as 12 triangles.
fn cube(s: f64) -> TriMesh {
    TriMesh::cuboid(Point::origin(), Point::new(s, s, s)).unwrap()
}

/// An octahedron of radius `r` about the origin.
fn octahedron(r: f64) -> TriMesh {
    let v = vec![
        Point::new(r, 0.0, 0.0),
        Point::new(-r, 0.0, 0.0),
        Point::new(0.0, r, 0.0),
        Point::new(0.0, -r, 0.0),
        Point::new(0.0, 0.0, r),
        Point::new(0.0, 0.0, -r),
    ];
    let t = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    TriMesh::new(v, t).unwrap()
}

/// A long thin open strip (two triangles) of length `l`: a mesh whose box turns badly.
fn strip(l: f64) -> TriMesh {
    let v = vec![
        Point::new(0.0, 0.0, 0.0),
        Point::new(l, 0.0, 0.0),
        Point::new(l, 0.1, 0.0),
        Point::new(0.0, 0.1, 0.0),
    ];
    TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3]]).unwrap()
}

fn models() -> Vec<Model> {
    [cube(1.0), octahedron(0.7), strip(2.0), cube(0.4)]
        .into_iter()
        .map(|m| Model::new(m).unwrap())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The brute-force oracle: the scene as plain data, every pair through `collide`.

#[derive(Clone, Debug)]
struct Entry {
    model: usize,
    pose: Pose,
    filter: CollisionFilter,
}

#[derive(Default, Debug)]
struct Plain {
    objects: BTreeMap<String, Entry>,
    allowed: BTreeSet<(String, String)>,
}

fn ordered(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
    }
}

/// Bullet's group rule, written out again.
fn checked(x: &CollisionFilter, y: &CollisionFilter) -> bool {
    (x.group & y.mask) != 0 && (y.group & x.mask) != 0
}

impl Plain {
    /// Every touching pair `(a, b, pairs)` with `a < b` by name, by every pair's exact query.
    fn contacts(&self, models: &[Model]) -> Vec<(String, String, Vec<[u32; 2]>)> {
        let all: Vec<_> = self.objects.iter().collect();
        let mut out = Vec::new();
        for (i, (na, a)) in all.iter().enumerate() {
            for (nb, b) in &all[i + 1..] {
                if !checked(&a.filter, &b.filter) || self.allowed.contains(&ordered(na, nb)) {
                    continue;
                }
                let r = collide(
                    &models[a.model],
                    &a.pose,
                    &models[b.model],
                    &b.pose,
                    &CollisionRequest::new(Mode::All),
                )
                .unwrap();
                if r.intersects {
                    out.push((na.to_string(), nb.to_string(), r.pairs));
                }
            }
        }
        out
    }
}

fn named<V>(scene: &Scene<V>, contacts: &[ObjectContact]) -> Vec<(String, String, Vec<[u32; 2]>)> {
    contacts
        .iter()
        .map(|c| {
            (
                scene.name(c.a).to_string(),
                scene.name(c.b).to_string(),
                c.result.pairs.clone(),
            )
        })
        .collect()
}

/// Checks a `First` answer against the oracle's `All` answer: the same object pairs, each
/// witness one of the pair's intersecting triangle pairs.
fn check_first(
    scene: &Scene,
    first: &[ObjectContact],
    expected: &[(String, String, Vec<[u32; 2]>)],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(first.len(), expected.len());
    for (c, (a, b, pairs)) in first.iter().zip(expected) {
        prop_assert_eq!((scene.name(c.a), scene.name(c.b)), (a.as_str(), b.as_str()));
        prop_assert_eq!(c.result.pairs.len(), 1);
        prop_assert!(
            pairs.contains(&c.result.pairs[0]),
            "{a} {b}: witness {:?}",
            c.result.pairs
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Random operation sequences.

#[derive(Clone, Debug)]
enum Op {
    Insert {
        name: u8,
        model: usize,
        pose: PoseSpec,
    },
    Remove(u8),
    Move {
        name: u8,
        pose: PoseSpec,
    },
    Allow(u8, u8),
    Disallow(u8, u8),
    Filter {
        name: u8,
        group: u32,
        mask: u32,
    },
    /// Both modes, `All` first or `First` first.
    Query(bool),
}

/// A pose on a half-unit grid, unturned (faces that touch exactly) or turned.
#[derive(Clone, Copy, Debug)]
struct PoseSpec {
    cell: [i8; 3],
    jitter: [f64; 3],
    turn: Option<[f64; 3]>,
}

impl PoseSpec {
    fn pose(&self) -> Pose {
        let t = Vector::from(self.cell.map(|c| 0.5 * f64::from(c))) + Vector::from(self.jitter);
        Pose::new(t, self.turn.unwrap_or([0.0; 3])).unwrap()
    }
}

fn pose_spec() -> impl Strategy<Value = PoseSpec> {
    (
        prop::array::uniform3(0i8..7),
        prop_oneof![Just([0.0; 3]), prop::array::uniform3(-0.2f64..0.2)],
        prop::option::of(prop::array::uniform3(-3.0f64..3.0)),
    )
        .prop_map(|(cell, jitter, turn)| PoseSpec { cell, jitter, turn })
}

const NAMES: u8 = 12;

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..NAMES, 0..4usize, pose_spec())
            .prop_map(|(name, model, pose)| Op::Insert { name, model, pose }),
        1 => (0..NAMES).prop_map(Op::Remove),
        4 => (0..NAMES, pose_spec()).prop_map(|(name, pose)| Op::Move { name, pose }),
        1 => (0..NAMES, 0..NAMES).prop_map(|(a, b)| Op::Allow(a, b)),
        1 => (0..NAMES, 0..NAMES).prop_map(|(a, b)| Op::Disallow(a, b)),
        1 => (0..NAMES, 1u32..4, 1u32..4)
            .prop_map(|(name, group, mask)| Op::Filter { name, group, mask }),
        2 => any::<bool>().prop_map(Op::Query),
    ]
}

fn name(n: u8) -> String {
    format!("object {n:02}")
}

/// Applies `op` to both the scene and the oracle; every refusal must be the expected one.
fn apply(
    op: &Op,
    scene: &mut Scene,
    plain: &mut Plain,
    models: &[Model],
) -> Result<(), TestCaseError> {
    match op {
        Op::Insert {
            name: n,
            model,
            pose,
        } => {
            let result = scene.insert(name(*n), models[*model].clone(), pose.pose());
            match plain.objects.entry(name(*n)) {
                std::collections::btree_map::Entry::Occupied(_) => {
                    prop_assert_eq!(result, Err(SceneError::DuplicateName(name(*n))));
                }
                std::collections::btree_map::Entry::Vacant(slot) => {
                    result.unwrap();
                    slot.insert(Entry {
                        model: *model,
                        pose: pose.pose(),
                        filter: CollisionFilter::default(),
                    });
                }
            }
        }
        Op::Remove(n) => match scene.id(&name(*n)) {
            Some(id) => {
                let removed = scene.remove(id).unwrap();
                prop_assert_eq!(removed.name(), name(*n));
                plain.objects.remove(&name(*n));
                plain
                    .allowed
                    .retain(|(a, b)| *a != name(*n) && *b != name(*n));
                prop_assert!(scene.remove(id).is_err());
            }
            None => prop_assert!(!plain.objects.contains_key(&name(*n))),
        },
        Op::Move { name: n, pose } => {
            if let Some(id) = scene.id(&name(*n)) {
                scene.set_pose(id, pose.pose()).unwrap();
                plain.objects.get_mut(&name(*n)).unwrap().pose = pose.pose();
            }
        }
        Op::Allow(a, b) => {
            let result = scene.allow_names(&name(*a), &name(*b));
            let known = |n: u8| plain.objects.contains_key(&name(n));
            match (known(*a), known(*b)) {
                (true, true) => {
                    result.unwrap();
                    plain.allowed.insert(ordered(&name(*a), &name(*b)));
                }
                (false, _) => prop_assert_eq!(result, Err(SceneError::UnknownName(name(*a)))),
                (true, false) => {
                    prop_assert_eq!(result, Err(SceneError::UnknownName(name(*b))))
                }
            }
        }
        Op::Disallow(a, b) => {
            if let (Some(x), Some(y)) = (scene.id(&name(*a)), scene.id(&name(*b))) {
                scene.disallow(x, y);
                plain.allowed.remove(&ordered(&name(*a), &name(*b)));
            }
        }
        Op::Filter {
            name: n,
            group,
            mask,
        } => {
            if let Some(id) = scene.id(&name(*n)) {
                let filter = CollisionFilter::new(*group, *mask);
                scene.set_filter(id, filter).unwrap();
                plain.objects.get_mut(&name(*n)).unwrap().filter = filter;
            }
        }
        Op::Query(all_first) => check_queries(scene, plain, models, *all_first)?,
    }
    Ok(())
}

/// Both modes in the order asked, each twice (the second time every pair's answer is
/// reused), against the oracle. With records of the other mode, `First` starts from the `All`
/// answers' first pairs as witnesses; with records of its own mode, a query after moves must
/// not reuse the moved pairs' answers.
fn check_queries(
    scene: &mut Scene,
    plain: &Plain,
    models: &[Model],
    all_first: bool,
) -> Result<(), TestCaseError> {
    let expected = plain.contacts(models);
    let modes = if all_first {
        [Mode::All, Mode::First]
    } else {
        [Mode::First, Mode::All]
    };
    for mode in modes {
        let once = scene.collide_all(&CollisionRequest::new(mode)).unwrap();
        match mode {
            Mode::All => prop_assert_eq!(&named(scene, &once), &expected),
            Mode::First => check_first(scene, &once, &expected)?,
        }
        let twice = scene.collide_all(&CollisionRequest::new(mode)).unwrap();
        prop_assert_eq!(scene.last_stats().reused, scene.last_stats().candidates);
        prop_assert_eq!(&twice, &once);
    }
    Ok(())
}

proptest! {
    #![proptest_config(knob::config(256))]

    /// With 0 objects far away, the scene stays small; with `SMALL_SCENE − 6`, the operations'
    /// insertions and removals carry it across the limit of the small scenes' broad phase and
    /// back; with `SMALL_SCENE + 2`, it stays large. The far objects touch nothing.
    #[test]
    fn collide_all_matches_every_pair(
        ops in prop::collection::vec(op(), 1..80),
        far in prop::sample::select(vec![0, SMALL_SCENE - 6, SMALL_SCENE + 2]),
    ) {
        let models = models();
        let mut scene = Scene::new();
        for i in 0..far {
            let pose = Pose::from_translation([1e3 + 4.0 * i as f64, 0.0, 0.0]).unwrap();
            scene.insert(format!("far {i}"), models[0].clone(), pose).unwrap();
        }
        let mut plain = Plain::default();
        for op in &ops {
            apply(op, &mut scene, &mut plain, &models)?;
        }
        check_queries(&mut scene, &plain, &models, true)?;
    }
}

/// Unit cubes packed face to face on a grid, unturned: every neighbour touches exactly (faces,
/// edges, corners), the case where the broad phase's boxes must not lose a pair.
#[test]
fn cubes_touching_exactly_are_all_found() {
    let models = models();
    let mut scene = Scene::new();
    let mut plain = Plain::default();
    for (i, cell) in (0..27).map(|c| [c % 3, c / 3 % 3, c / 9]).enumerate() {
        let pose = Pose::from_translation(cell.map(f64::from)).unwrap();
        scene
            .insert(name(i as u8), models[0].clone(), pose)
            .unwrap();
        let filter = CollisionFilter::default();
        plain.objects.insert(
            name(i as u8),
            Entry {
                model: 0,
                pose,
                filter,
            },
        );
    }
    let expected = plain.contacts(&models);
    // Every pair of distinct cells within one step on each axis: per axis 7 ordered pairs of
    // values in {0, 1, 2} differ by at most 1, so (7³ − 27) / 2 unordered pairs.
    assert_eq!(expected.len(), 158);
    let all = scene
        .collide_all(&CollisionRequest::new(Mode::All))
        .unwrap();
    assert_eq!(named(&scene, &all), expected);
}

// ---------------------------------------------------------------------------------------------
// Warm against cold over smooth motions.

/// `n` objects on a jittered grid, each drifting and turning a little every frame; a fresh
/// scene per frame (nothing remembered) gives the cold answer. Checks equality for `All` and
/// the `First` contract, and that the warm runs did take their shortcuts.
#[test]
fn warm_answers_equal_cold_answers_over_smooth_motion() {
    let models = models();
    let mut rng = Pcg64::seed_from_u64(7);
    let n = 40;
    let start: Vec<(usize, Vector, Vector)> = (0..n)
        .map(|_| {
            let t = Vector::from_fn(|_, _| rng.gen_range(0.0..4.0));
            let r = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
            (rng.gen_range(0..models.len()), t, r)
        })
        .collect();
    let velocity: Vec<(Vector, Vector)> = (0..n)
        .map(|i| {
            let still = i % 3 != 0; // two thirds of the objects stand still
            let v = Vector::from_fn(|_, _| rng.gen_range(-0.01..0.01));
            let w = Vector::from_fn(|_, _| rng.gen_range(-0.02..0.02));
            if still {
                (Vector::zeros(), Vector::zeros())
            } else {
                (v, w)
            }
        })
        .collect();
    let pose_at = |i: usize, frame: usize| {
        let (_, t, r) = start[i];
        let (v, w) = velocity[i];
        Pose::new(t + v * frame as f64, r + w * frame as f64).unwrap()
    };
    let build = |frame: usize| {
        let mut scene = Scene::new();
        for (i, (m, _, _)) in start.iter().enumerate() {
            scene
                .insert(format!("o{i:02}"), models[*m].clone(), pose_at(i, frame))
                .unwrap();
        }
        scene
    };
    let mut warm_all = build(0);
    let mut warm_first = build(0);
    let (mut reused, mut witnessed, mut separated) = (0, 0, 0);
    for frame in 0..60 {
        let updates: Vec<_> = (0..n)
            .map(|i| (warm_all.id(&format!("o{i:02}")).unwrap(), pose_at(i, frame)))
            .collect();
        let all = warm_all
            .frame(&updates, &CollisionRequest::new(Mode::All))
            .unwrap();
        reused += warm_all.last_stats().reused;
        separated += warm_all.last_stats().separated;
        let cold = build(frame)
            .collide_all(&CollisionRequest::new(Mode::All))
            .unwrap();
        assert_eq!(
            named(&warm_all, &all),
            named(&build(frame), &cold),
            "frame {frame}"
        );
        let updates: Vec<_> = (0..n)
            .map(|i| {
                (
                    warm_first.id(&format!("o{i:02}")).unwrap(),
                    pose_at(i, frame),
                )
            })
            .collect();
        let first = warm_first
            .frame(&updates, &CollisionRequest::new(Mode::First))
            .unwrap();
        witnessed += warm_first.last_stats().witnessed;
        separated += warm_first.last_stats().separated;
        let expected = named(&build(frame), &cold);
        check_first(&warm_first, &first, &expected).unwrap();
    }
    // The test exercised both shortcuts.
    assert!(reused > 100, "{reused} pairs reused");
    assert!(witnessed > 20, "{witnessed} witnesses held");
    assert!(separated > 20, "{separated} separating planes held");
}

// ---------------------------------------------------------------------------------------------
// Rays, external models, two scenes.

/// A scene of `n` random objects and its oracle.
fn random_scene(models: &[Model], n: usize, seed: u64) -> (Scene, Vec<(String, usize, Pose)>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut scene = Scene::new();
    let mut plain = Vec::new();
    for i in 0..n {
        let m = rng.gen_range(0..models.len());
        let t = Vector::from_fn(|_, _| rng.gen_range(0.0..5.0));
        let r = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
        let pose = Pose::new(t, r).unwrap();
        let name = format!("s{seed}-{i:02}");
        scene.insert(name.clone(), models[m].clone(), pose).unwrap();
        plain.push((name, m, pose));
    }
    (scene, plain)
}

#[test]
fn rays_match_every_object_cast_one_by_one() {
    let models = models();
    let (scene, plain) = random_scene(&models, 30, 1);
    let mut rng = Pcg64::seed_from_u64(2);
    let mut hits = 0;
    for _ in 0..400 {
        let origin = Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.0..6.0)));
        let target = Point::from(Vector::from_fn(|_, _| rng.gen_range(1.0..4.0)));
        let ray = Ray::new(origin, target - origin);
        let max_t = if rng.gen_bool(0.5) {
            f64::INFINITY
        } else {
            2.0
        };
        let mut all: Vec<(f64, String, u32)> = Vec::new();
        for (name, m, pose) in &plain {
            let every = obbtree_query::cast_ray_all(&models[*m], pose, &ray, max_t).unwrap();
            all.extend(every.iter().map(|h| (h.t, name.clone(), h.triangle)));
        }
        all.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        let got: Vec<_> = scene
            .cast_ray_all(&ray, max_t)
            .unwrap()
            .iter()
            .map(|h| (h.hit.t, scene.name(h.object).to_string(), h.hit.triangle))
            .collect();
        assert_eq!(got, all);
        // The first hit: the smallest t, ties to the first name, and the mesh's own first hit.
        let first = plain
            .iter()
            .filter_map(|(name, m, pose)| {
                cast_ray(&models[*m], pose, &ray, max_t)
                    .unwrap()
                    .map(|h| (h.t, name.clone(), h.triangle))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let got = scene
            .cast_ray(&ray, max_t)
            .unwrap()
            .map(|h| (h.hit.t, scene.name(h.object).to_string(), h.hit.triangle));
        assert_eq!(got, first);
        hits += usize::from(first.is_some());
    }
    assert!(hits > 100, "{hits} rays hit");
    let bad = Ray::new(Point::origin(), Vector::zeros());
    assert!(matches!(
        Scene::<obbtree_bv::Obb>::new().cast_ray(&bad, 1.0),
        Err(SceneError::Query(_))
    ));
    assert!(scene
        .cast_ray(&Ray::new(Point::origin(), Vector::x()), -1.0)
        .is_err());
}

/// The oracle's answer of one model at one pose against every object.
fn against_all(
    models: &[Model],
    plain: &[(String, usize, Pose)],
    model: &Model,
    pose: &Pose,
) -> Vec<(String, CollisionResult)> {
    let mut out: Vec<_> = plain
        .iter()
        .filter_map(|(name, m, p)| {
            let r = collide(model, pose, &models[*m], p, &CollisionRequest::default()).unwrap();
            r.intersects.then(|| (name.clone(), r))
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out
}

#[test]
fn collide_with_and_collide_scenes_match_every_pair() {
    let models = models();
    let (scene, plain) = random_scene(&models, 30, 3);
    let (other, other_plain) = random_scene(&models, 25, 4);
    let mut rng = Pcg64::seed_from_u64(5);
    let mut touching = 0;
    for _ in 0..40 {
        let m = rng.gen_range(0..models.len());
        let t = Vector::from_fn(|_, _| rng.gen_range(0.0..5.0));
        let pose = Pose::new(t, Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0))).unwrap();
        let got: Vec<_> = scene
            .collide_with(&models[m], &pose, &CollisionRequest::default())
            .unwrap()
            .into_iter()
            .map(|c| (scene.name(c.object).to_string(), c.result))
            .collect();
        let expected = against_all(&models, &plain, &models[m], &pose);
        touching += expected.len();
        assert_eq!(got, expected);
    }
    assert!(touching > 20, "{touching}");
    let got: Vec<_> = scene
        .collide_scenes(&other, &CollisionRequest::default())
        .unwrap()
        .into_iter()
        .map(|c| {
            (
                scene.name(c.a).to_string(),
                other.name(c.b).to_string(),
                c.result,
            )
        })
        .collect();
    let mut expected = Vec::new();
    for (name, m, pose) in &plain {
        for (other_name, r) in against_all(&models, &other_plain, &models[*m], pose) {
            expected.push((name.clone(), other_name, r));
        }
    }
    assert!(expected.len() > 10, "{}", expected.len());
    assert_eq!(got, expected);
    // An object whose filter admits no object of the other scene drops out of the pairs.
    let mut scene = scene;
    let apart = expected[0].0.clone();
    let id = scene.id(&apart).unwrap();
    scene.set_filter(id, CollisionFilter::new(2, 2)).unwrap();
    let got: Vec<_> = scene
        .collide_scenes(&other, &CollisionRequest::default())
        .unwrap()
        .into_iter()
        .map(|c| (scene.name(c.a).to_string(), other.name(c.b).to_string()))
        .collect();
    let expected: Vec<_> = expected
        .into_iter()
        .filter(|e| e.0 != apart)
        .map(|e| (e.0, e.1))
        .collect();
    assert_eq!(got, expected);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_input_is_refused_with_the_names() {
    let models = models();
    let mut scene = Scene::new();
    let a = scene
        .insert("a", models[0].clone(), Pose::identity())
        .unwrap();
    let err = scene
        .insert("a", models[1].clone(), Pose::identity())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "an object named \"a\" is already in the scene (names must be unique)"
    );
    let err = scene.allow_names("a", "ghost").unwrap_err();
    assert_eq!(err.to_string(), "no object named \"ghost\" in the scene");
    let far = Pose::from_translation([1e101, 0.0, 0.0]).unwrap();
    let err = scene.insert("far", models[0].clone(), far).unwrap_err();
    assert!(
        err.to_string().starts_with("object \"far\" at its pose: "),
        "{err}"
    );
    assert!(
        scene.id("far").is_none(),
        "a refused object is not in the scene"
    );
    let err = scene.set_pose(a, far).unwrap_err();
    assert!(
        err.to_string().starts_with("object \"a\" at its pose: "),
        "{err}"
    );
    assert_eq!(
        scene.get(a).unwrap().pose(),
        &Pose::identity(),
        "a refused pose leaves the object"
    );
    let removed = scene.remove(a).unwrap();
    assert!(matches!(scene.remove(a), Err(SceneError::UnknownObject(_))));
    assert!(matches!(
        scene.set_pose(a, Pose::identity()),
        Err(SceneError::UnknownObject(_))
    ));
    // A frame with an unknown id moves nothing.
    let b = scene
        .insert("b", removed.model().clone(), Pose::identity())
        .unwrap();
    let moved = Pose::from_translation([1.0, 0.0, 0.0]).unwrap();
    let err = scene.frame(&[(b, moved), (a, moved)], &CollisionRequest::default());
    assert!(matches!(err, Err(SceneError::UnknownObject(id)) if id == a));
    assert_eq!(scene.get(b).unwrap().pose(), &Pose::identity());
}

// ---------------------------------------------------------------------------------------------
// Distances: every pair within a margin, the closest pair.

/// A pair's distance as the oracle and the scene report it: names (`a < b`), distance,
/// triangle pair, closest points.
type Measured = (String, String, f64, [u32; 2], [Point; 2]);

impl Plain {
    /// Every admitted pair `(a, b)` with `a < b` by name, with its exact distance query and
    /// whether the exact margin query finds it within `margin`.
    fn distances(&self, models: &[Model], margin: f64) -> Vec<(Measured, bool)> {
        let all: Vec<_> = self.objects.iter().collect();
        let mut out = Vec::new();
        for (i, (na, a)) in all.iter().enumerate() {
            for (nb, b) in &all[i + 1..] {
                if !checked(&a.filter, &b.filter) || self.allowed.contains(&ordered(na, nb)) {
                    continue;
                }
                let (ma, mb) = (&models[a.model], &models[b.model]);
                let d = distance(ma, &a.pose, mb, &b.pose, &DistanceRequest::default()).unwrap();
                let within = within_margin(ma, &a.pose, mb, &b.pose, margin).unwrap();
                let measured = (
                    na.to_string(),
                    nb.to_string(),
                    d.distance,
                    d.pair,
                    [d.point_a, d.point_b],
                );
                out.push((measured, within.is_some()));
            }
        }
        out
    }
}

fn measured<V>(scene: &Scene<V>, d: &ObjectDistance) -> Measured {
    (
        scene.name(d.a).to_string(),
        scene.name(d.b).to_string(),
        d.distance,
        d.pair,
        [d.point_a, d.point_b],
    )
}

/// How a scene's distances are compared with the oracle's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Compare {
    /// Records cleared: the same numbers, triangles and points as each pair's cold query.
    Cold,
    /// With the records of earlier queries: the same object pairs and margin decisions; the
    /// distances agree within the engine's guarantee (1e-12 of the coordinates, far inside the
    /// slack here), and the closest pair found is (one of) the closest.
    Warm,
}

/// Distances agree within the guarantee of `distance` on these small coordinates.
fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-10 * (1.0 + x.abs())
}

/// `within_margin_all` at a few margins and `min_distance` against every pair's exact queries;
/// the closest pair is the oracle's least (distance, names).
fn check_distances(
    scene: &mut Scene,
    plain: &Plain,
    models: &[Model],
    compare: Compare,
) -> Result<(), TestCaseError> {
    for margin in [0.0, 0.05, 0.3, 1.5] {
        if compare == Compare::Cold {
            scene.clear_records();
        }
        let every = plain.distances(models, margin);
        let expected: Vec<Measured> = every
            .iter()
            .filter(|(_, within)| *within)
            .map(|(m, _)| m.clone())
            .collect();
        let got = scene.within_margin_all(margin).unwrap();
        let got: Vec<Measured> = got.iter().map(|d| measured(scene, d)).collect();
        match compare {
            Compare::Cold => prop_assert_eq!(got, expected, "margin {}", margin),
            Compare::Warm => {
                let names = |m: &[Measured]| -> Vec<(String, String)> {
                    m.iter().map(|x| (x.0.clone(), x.1.clone())).collect()
                };
                prop_assert_eq!(names(&got), names(&expected), "margin {}", margin);
                for (g, e) in got.iter().zip(&expected) {
                    prop_assert!(close(g.2, e.2), "{:?} against {:?}", g, e);
                }
            }
        }
        if compare == Compare::Cold {
            scene.clear_records();
        }
        let closest = every.iter().map(|(m, _)| m.clone()).min_by(|x, y| {
            x.2.total_cmp(&y.2)
                .then_with(|| (&x.0, &x.1).cmp(&(&y.0, &y.1)))
        });
        let got = scene.min_distance().unwrap().map(|d| measured(scene, &d));
        match (compare, got, closest) {
            (Compare::Cold, got, closest) => prop_assert_eq!(got, closest),
            (Compare::Warm, Some(g), Some(c)) => {
                let pair = every.iter().find(|(m, _)| (&m.0, &m.1) == (&g.0, &g.1));
                prop_assert!(close(g.2, c.2), "{:?} against {:?}", g, c);
                prop_assert!(pair.is_some_and(|(m, _)| close(m.2, c.2)), "{:?}", g);
            }
            (Compare::Warm, got, closest) => prop_assert_eq!(got, closest),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(knob::config(24))]

    /// Distances after operation sequences, cold at the end, and warm after each query
    /// operation (records kept from the last, across moves, removes and inserts that may
    /// reuse a removed object's id).
    #[test]
    fn distances_match_every_pair(ops in prop::collection::vec(op(), 1..40)) {
        let models = models();
        let mut scene = Scene::new();
        let mut plain = Plain::default();
        for op in &ops {
            match op {
                Op::Query(_) => check_distances(&mut scene, &plain, &models, Compare::Warm)?,
                op => apply(op, &mut scene, &mut plain, &models)?,
            }
        }
        check_distances(&mut scene, &plain, &models, Compare::Cold)?;
    }
}

/// Scattered objects, most far apart: the closest pair's walk must still find the pair that
/// brute force finds, after moves, cold and warm.
#[test]
fn min_distance_matches_every_pair_in_a_sparse_scene() {
    let models = models();
    for seed in 0..3 {
        let mut rng = Pcg64::seed_from_u64(100 + seed);
        let mut scene = Scene::new();
        let mut plain = Plain::default();
        for i in 0..25 {
            let model = rng.gen_range(0..models.len());
            let t = Vector::from_fn(|_, _| rng.gen_range(0.0..30.0));
            let pose = Pose::new(t, Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0))).unwrap();
            let filter = CollisionFilter::default();
            scene.insert(name(i), models[model].clone(), pose).unwrap();
            plain.objects.insert(
                name(i),
                Entry {
                    model,
                    pose,
                    filter,
                },
            );
        }
        for step in 0..10 {
            let n = rng.gen_range(0..25u8);
            let t = Vector::from_fn(|_, _| rng.gen_range(0.0..30.0));
            let pose = Pose::new(t, Vector::zeros()).unwrap();
            scene.set_pose(scene.id(&name(n)).unwrap(), pose).unwrap();
            plain.objects.get_mut(&name(n)).unwrap().pose = pose;
            if step % 3 == 0 {
                check_distances(&mut scene, &plain, &models, Compare::Warm).unwrap();
            }
        }
        let (a, b) = (name(rng.gen_range(0..25)), name(rng.gen_range(0..25)));
        if a != b {
            scene.allow_names(&a, &b).unwrap();
            plain.allowed.insert(ordered(&a, &b));
        }
        check_distances(&mut scene, &plain, &models, Compare::Warm).unwrap();
        check_distances(&mut scene, &plain, &models, Compare::Cold).unwrap();
    }
}

/// Distances over a smooth motion: warm (records kept, hints from the last closest triangles)
/// against cold at every frame, and the records do the work they are for.
#[test]
fn warm_distances_equal_cold_distances_over_smooth_motion() {
    let models = models();
    let mut rng = Pcg64::seed_from_u64(8);
    let n = 30;
    let start: Vec<(usize, Vector, Vector)> = (0..n)
        .map(|_| {
            let t = Vector::from_fn(|_, _| rng.gen_range(0.0..6.0));
            let r = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
            (rng.gen_range(0..models.len()), t, r)
        })
        .collect();
    let moving = |i: usize| i.is_multiple_of(3);
    let pose_at = |i: usize, frame: usize| {
        let (_, t, r) = start[i];
        let s = if moving(i) { frame as f64 } else { 0.0 };
        Pose::new(
            t + Vector::new(0.004, -0.003, 0.002) * s,
            r + Vector::repeat(0.01) * s,
        )
        .unwrap()
    };
    let mut scene = Scene::new();
    let mut plain = Plain::default();
    for (i, (m, _, _)) in start.iter().enumerate() {
        let pose = pose_at(i, 0);
        scene
            .insert(name(i as u8), models[*m].clone(), pose)
            .unwrap();
        let filter = CollisionFilter::default();
        plain.objects.insert(
            name(i as u8),
            Entry {
                model: *m,
                pose,
                filter,
            },
        );
    }
    let (mut reused, mut hinted) = (0, 0);
    for frame in 0..25 {
        for i in (0..n).filter(|&i| moving(i)) {
            let pose = pose_at(i, frame);
            scene
                .set_pose(scene.id(&name(i as u8)).unwrap(), pose)
                .unwrap();
            plain.objects.get_mut(&name(i as u8)).unwrap().pose = pose;
        }
        // The margin check_distances decides last, so that unmoved pairs reuse its decisions.
        scene.within_margin_all(1.5).unwrap();
        reused += scene.last_stats().reused;
        hinted += scene.last_stats().hinted;
        check_distances(&mut scene, &plain, &models, Compare::Warm).unwrap();
    }
    assert!(
        reused > 50 && hinted > 25,
        "{reused} reused, {hinted} hinted"
    );
}

/// An object removed and another inserted in its slot of the broad phase: what the queries
/// learnt about the old object's pairs (a witness triangle, a closest triangle pair, numbered
/// beyond the new mesh's triangles) is not used for the new one.
#[test]
fn records_do_not_outlive_their_objects() {
    // Twelve far triangles first, then a cube at the origin: the pairs' witnesses and closest
    // triangles are numbered 12 and up, beyond the one triangle of `tiny`.
    let far = cube(0.4);
    let near = cube(1.0);
    let mut vertices: Vec<Point> = far
        .vertices()
        .iter()
        .map(|p| p + Vector::repeat(10.0))
        .collect();
    vertices.extend(near.vertices());
    let mut faces: Vec<[u32; 3]> = far.triangles().to_vec();
    faces.extend(near.triangles().iter().map(|f| f.map(|v| v + 8)));
    let big: Model = Model::new(TriMesh::new(vertices, faces).unwrap()).unwrap();
    let small: Model = Model::new(cube(0.4)).unwrap();
    let tiny: Model = Model::new(
        TriMesh::new(
            vec![
                Point::new(0.0, 0.0, 0.0),
                Point::new(0.5, 0.0, 0.0),
                Point::new(0.0, 0.5, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap(),
    )
    .unwrap();
    let first = CollisionRequest::new(Mode::First);
    let mut scene = Scene::new();
    let other = scene
        .insert(
            "other",
            small,
            Pose::from_translation([0.8, 0.8, 0.2]).unwrap(),
        )
        .unwrap();
    let old = scene.insert("big", big, Pose::identity()).unwrap();
    assert_eq!(scene.collide_all(&first).unwrap().len(), 1);
    assert!(scene.min_distance().unwrap().unwrap().pair[0] >= 12);
    scene.remove(old).unwrap();
    scene.insert("tiny", tiny, Pose::identity()).unwrap();
    scene
        .set_pose(other, Pose::from_translation([0.1, 0.1, -0.1]).unwrap())
        .unwrap();
    assert_eq!(scene.collide_all(&first).unwrap().len(), 1);
    assert_eq!(scene.min_distance().unwrap().unwrap().distance, 0.0);
    assert_eq!(scene.within_margin_all(0.5).unwrap().len(), 1);
}

#[test]
fn bad_margins_are_refused() {
    let models = models();
    let mut scene = Scene::new();
    assert_eq!(scene.min_distance(), Ok(None));
    for bad in [-1.0, f64::NAN] {
        assert!(scene.min_distance_within(bad).is_err(), "{bad}");
    }
    for margin in [-1.0, f64::NAN, f64::INFINITY] {
        assert!(
            matches!(
                scene.within_margin_all(margin),
                Err(SceneError::Query(QueryError::InvalidMargin(m))) if m.total_cmp(&margin).is_eq()
            ),
            "{margin}"
        );
    }
    scene
        .insert("a", models[0].clone(), Pose::identity())
        .unwrap();
    assert_eq!(scene.min_distance(), Ok(None), "one object makes no pair");
}

// ---------------------------------------------------------------------------------------------
// Distances to a model outside the scene and between scenes.

/// The objects of `plain` with their exact distance to `model` at `pose`, cold, sorted by name.
fn distances_to(
    models: &[Model],
    plain: &[(String, usize, Pose)],
    model: &Model,
    pose: &Pose,
) -> Vec<(String, f64, [u32; 2], bool)> {
    let mut out: Vec<_> = plain
        .iter()
        .map(|(name, m, p)| {
            let d = distance(model, pose, &models[*m], p, &DistanceRequest::default()).unwrap();
            (name.clone(), d.distance, d.pair, false)
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out
}

/// The least by (distance, name) of `all`.
fn least<T: Clone>(all: &[T], key: impl Fn(&T) -> (f64, String)) -> Option<T> {
    all.iter()
        .min_by(|x, y| {
            let (kx, ky) = (key(x), key(y));
            kx.0.total_cmp(&ky.0).then_with(|| kx.1.cmp(&ky.1))
        })
        .cloned()
}

#[test]
fn distances_to_a_model_and_between_scenes_match_every_pair() {
    let models = models();
    let (scene, plain) = random_scene(&models, 30, 3);
    let (other, other_plain) = random_scene(&models, 25, 4);
    let mut rng = Pcg64::seed_from_u64(6);
    let mut within_found = 0;
    for _ in 0..30 {
        let m = rng.gen_range(0..models.len());
        let t = Vector::from_fn(|_, _| rng.gen_range(0.0..6.0));
        let pose = Pose::new(t, Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0))).unwrap();
        let every = distances_to(&models, &plain, &models[m], &pose);
        // The closest object, with no limit and with limits either side of its distance.
        let want = least(&every, |e| (e.1, e.0.clone())).unwrap();
        let got = scene
            .min_distance_to(&models[m], &pose, f64::INFINITY)
            .unwrap()
            .unwrap();
        assert_eq!(
            (scene.name(got.object), got.result.distance, got.result.pair),
            (want.0.as_str(), want.1, want.2)
        );
        // The limit is decided exactly: the measured distance may be below the exact one by the
        // guarantee, so a limit just above it keeps the object and one below leaves it out.
        let near = scene
            .min_distance_to(&models[m], &pose, want.1 * (1.0 + 1e-9) + 1e-12)
            .unwrap();
        assert_eq!(near.map(|d| d.object), Some(got.object));
        if want.1 > 0.0 {
            let below = scene
                .min_distance_to(&models[m], &pose, want.1 * 0.999)
                .unwrap();
            assert_eq!(below, None);
        }
        // Every object within a margin, decided by the exact margin query.
        for margin in [0.0, 0.2, 1.0] {
            let expected: Vec<(String, f64)> = plain
                .iter()
                .filter(|(_, o, p)| {
                    within_margin(&models[m], &pose, &models[*o], p, margin)
                        .unwrap()
                        .is_some()
                })
                .map(|(name, ..)| {
                    let d = every.iter().find(|e| &e.0 == name).unwrap();
                    (name.clone(), d.1)
                })
                .collect();
            let got: Vec<(String, f64)> = scene
                .within_margin_of(&models[m], &pose, margin)
                .unwrap()
                .into_iter()
                .map(|d| (scene.name(d.object).to_string(), d.result.distance))
                .collect();
            within_found += got.len();
            assert_eq!(got, expected, "margin {margin}");
        }
    }
    assert!(within_found > 20, "{within_found}");
    // From an object of the scene to the nearest other one.
    for (name, m, pose) in plain.iter().step_by(6) {
        let others: Vec<_> = plain.iter().filter(|o| &o.0 != name).cloned().collect();
        let every = distances_to(&models, &others, &models[*m], pose);
        let want = least(&every, |e| {
            (e.1, ordered(name, &e.0).0 + &ordered(name, &e.0).1)
        })
        .unwrap();
        let got = scene
            .min_distance_from(scene.id(name).unwrap(), f64::INFINITY)
            .unwrap()
            .unwrap();
        let (a, b) = ordered(name, &want.0);
        assert_eq!(
            (scene.name(got.a), scene.name(got.b)),
            (a.as_str(), b.as_str())
        );
        // Measured with the pair in name order: equal within the guarantee.
        assert!(
            close(got.distance, want.1),
            "{name}: {} {}",
            got.distance,
            want.1
        );
    }
    // Between the scenes: every cross pair.
    let mut cross = Vec::new();
    for (name, m, pose) in &plain {
        for (other_name, d, pair, _) in distances_to(&models, &other_plain, &models[*m], pose) {
            cross.push((name.clone(), other_name, d, pair));
        }
    }
    let want = least(&cross, |c| (c.2, format!("{}\u{0}{}", c.0, c.1))).unwrap();
    let got = scene
        .min_distance_scenes(&other, f64::INFINITY)
        .unwrap()
        .unwrap();
    assert_eq!(
        (scene.name(got.a), other.name(got.b), got.distance, got.pair),
        (want.0.as_str(), want.1.as_str(), want.2, want.3)
    );
    // 1.5 reaches beyond the broad phase's fat boxes.
    for margin in [0.0, 0.3, 1.5] {
        let expected: Vec<(String, String)> = cross
            .iter()
            .filter(|c| {
                let (a, b) = (&plain, &other_plain);
                let (_, ma, pa) = a.iter().find(|o| o.0 == c.0).unwrap();
                let (_, mb, pb) = b.iter().find(|o| o.0 == c.1).unwrap();
                within_margin(&models[*ma], pa, &models[*mb], pb, margin)
                    .unwrap()
                    .is_some()
            })
            .map(|c| (c.0.clone(), c.1.clone()))
            .collect();
        let got: Vec<(String, String)> = scene
            .within_margin_scenes(&other, margin)
            .unwrap()
            .into_iter()
            .map(|d| (scene.name(d.a).to_string(), other.name(d.b).to_string()))
            .collect();
        assert!(!expected.is_empty(), "margin {margin}");
        assert_eq!(got, expected, "margin {margin}");
    }
    for bad in [-1.0, f64::NAN] {
        assert!(scene
            .min_distance_to(&models[0], &Pose::identity(), bad)
            .is_err());
        assert!(scene
            .within_margin_of(&models[0], &Pose::identity(), bad)
            .is_err());
        assert!(scene.min_distance_scenes(&other, bad).is_err());
        assert!(scene.within_margin_scenes(&other, bad).is_err());
    }
}

/// A frame in which nothing changed takes the last closest pair without walking; a move, an
/// allowed pair or a filter makes the next call walk again and find the new closest pair.
#[test]
fn min_distance_on_idle_frames_takes_the_last_answer_until_something_changes() {
    let models = models();
    let (mut scene, plain) = random_scene(&models, 20, 9);
    let first = scene.min_distance().unwrap().unwrap();
    let walked = scene.last_stats();
    assert!(walked.candidates > 0);
    let again = scene.min_distance().unwrap().unwrap();
    assert_eq!(again, first);
    let idle = scene.last_stats();
    assert_eq!(
        (idle.candidates, idle.reused),
        (walked.candidates, walked.candidates)
    );
    assert_eq!(idle.queried + idle.hinted, 0);
    // Allowing the closest pair changes the answer to the next closest.
    scene.allow(first.a, first.b).unwrap();
    let next = scene.min_distance().unwrap().unwrap();
    assert_ne!((next.a, next.b), (first.a, first.b));
    assert!(next.distance >= first.distance);
    scene.disallow(first.a, first.b);
    assert_eq!(scene.min_distance().unwrap().unwrap(), first);
    // Moving one of the pair far away: the walk runs and the pair is no longer closest.
    let far = Pose::from_translation([1000.0, 0.0, 0.0]).unwrap();
    scene.set_pose(first.a, far).unwrap();
    let moved = scene.min_distance().unwrap().unwrap();
    assert!(moved.a != first.a && moved.b != first.a);
    assert!(scene.last_stats().reused < scene.last_stats().candidates);
    // A group filter that admits no pair with the first object's partner.
    let lonely = CollisionFilter {
        group: 1 << 7,
        mask: 1 << 7,
    };
    scene.set_filter(moved.a, lonely).unwrap();
    let filtered = scene.min_distance().unwrap().unwrap();
    assert!(filtered.a != moved.a && filtered.b != moved.a);
    assert_eq!(plain.len(), 20);
}
