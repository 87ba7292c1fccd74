//! `Scene::sweep`: the first object a moving object meets, with the pair's exact contact time.

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
