//! Shapes as scene objects: a halfspace floor (whose world box is the whole exact range) and
//! a ball among meshes. The oracle is the two-model query on every object pair, brute force
//! with no broad phase: the scene must report exactly the pairs it finds touching.

use obbtree::bv::{Point, Pose, TriMesh};
use obbtree::{collide, CollisionRequest, Mode, Model, Scene, Shape};

/// A unit triangle at height `z`.
fn triangle(z: f64) -> TriMesh {
    TriMesh::new(
        vec![
            Point::new(0.0, 0.0, z),
            Point::new(1.0, 0.0, z),
            Point::new(0.0, 1.0, z),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap()
}

#[test]
fn a_floor_and_a_ball_touch_what_the_pair_query_says() {
    let mut scene: Scene = Scene::new();
    let objects: Vec<(&str, Model, Pose)> = vec![
        (
            "floor",
            Model::from_shape(Shape::halfspace([0.0, 0.0, 1.0], 0.0).unwrap()),
            Pose::identity(),
        ),
        (
            "ball",
            Model::from_shape(Shape::sphere(0.5).unwrap()),
            Pose::from_translation([0.2, 0.2, 1.4]).unwrap(),
        ),
        ("low", Model::new(triangle(0.0)).unwrap(), Pose::identity()),
        (
            "high",
            Model::new(triangle(0.0)).unwrap(),
            Pose::from_translation([0.0, 0.0, 1.0]).unwrap(),
        ),
        (
            "far",
            Model::new(triangle(0.0)).unwrap(),
            Pose::from_translation([50.0, 0.0, 3.0]).unwrap(),
        ),
    ];
    for (name, model, pose) in &objects {
        scene.insert(*name, model.clone(), *pose).unwrap();
    }
    let request = CollisionRequest::new(Mode::First);
    let mut got: Vec<(String, String)> = scene
        .collide_all(&request)
        .unwrap()
        .iter()
        .map(|c| {
            let mut pair = [scene.name(c.a).to_string(), scene.name(c.b).to_string()];
            pair.sort();
            (pair[0].clone(), pair[1].clone())
        })
        .collect();
    got.sort();
    let mut want = Vec::new();
    for (i, (na, ma, pa)) in objects.iter().enumerate() {
        for (nb, mb, pb) in &objects[i + 1..] {
            if collide(ma, pa, mb, pb, &request).unwrap().intersects {
                let mut pair = [na.to_string(), nb.to_string()];
                pair.sort();
                want.push((pair[0].clone(), pair[1].clone()));
            }
        }
    }
    want.sort();
    // The floor touches the triangle lying on it; the ball (down to z = 0.9) meets the raised
    // triangle at z = 1; the far triangle, above the floor, touches nothing.
    assert_eq!(
        want,
        [
            ("ball".to_string(), "high".to_string()),
            ("floor".to_string(), "low".to_string())
        ]
    );
    assert_eq!(got, want);
}
