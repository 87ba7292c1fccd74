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

/// A ray's every hit on a scene of shapes (each kind, a halfspace floor among them) and meshes
/// is the union of each object's own `cast_ray_all`, sorted by `t`, then name, then feature;
/// the scene's first hit is the least of those.
#[test]
fn rays_on_shapes_and_meshes_are_the_union_of_each_object() {
    use obbtree::bv::{Ray, Vector};
    use obbtree::cast_ray_all;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let convex = Shape::convex(&[
        Point::new(0.0, 0.0, 0.0),
        Point::new(0.5, 0.0, 0.0),
        Point::new(0.0, 0.5, 0.0),
        Point::new(0.0, 0.0, 0.5),
    ])
    .unwrap();
    let kinds: Vec<Model> = vec![
        Model::from_shape(Shape::sphere(0.4).unwrap()),
        Model::from_shape(Shape::capsule(0.25, 0.5).unwrap()),
        Model::from_shape(Shape::cylinder(0.3, 0.6).unwrap()),
        Model::from_shape(Shape::cuboid([0.5, 0.4, 0.3]).unwrap()),
        Model::from_shape(convex),
        Model::new(triangle(0.0)).unwrap(),
    ];
    let floor = Model::from_shape(Shape::halfspace([0.0, 0.0, 1.0], -1.0).unwrap());
    let mut scene: Scene = Scene::new();
    let mut objects = vec![("floor".to_string(), floor, Pose::identity())];
    for i in 0..24 {
        let t = Vector::from_fn(|_, _| rng.gen_range(0.0..4.0));
        let r = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
        let model = kinds[i % kinds.len()].clone();
        objects.push((format!("o{i:02}"), model, Pose::new(t, r).unwrap()));
    }
    for (name, model, pose) in &objects {
        scene.insert(name.clone(), model.clone(), *pose).unwrap();
    }
    let (mut hits, mut shape_hits) = (0, 0);
    for _ in 0..300 {
        let origin = Point::from(Vector::from_fn(|_, _| rng.gen_range(-1.0..5.0)));
        let target = Point::from(Vector::from_fn(|_, _| rng.gen_range(0.5..3.5)));
        let ray = Ray::new(origin, target - origin);
        let max_t = if rng.gen_bool(0.5) {
            f64::INFINITY
        } else {
            1.5
        };
        let mut want: Vec<(f64, String, u32, bool)> = Vec::new();
        for (name, model, pose) in &objects {
            let every = cast_ray_all(model, pose, &ray, max_t).unwrap();
            want.extend(
                every
                    .iter()
                    .map(|h| (h.t, name.clone(), h.triangle, h.front_face)),
            );
        }
        want.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        let got: Vec<_> = scene
            .cast_ray_all(&ray, max_t)
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h.hit.t,
                    scene.name(h.object).to_string(),
                    h.hit.triangle,
                    h.hit.front_face,
                )
            })
            .collect();
        assert_eq!(got, want, "{ray:?} {max_t}");
        let first = scene
            .cast_ray(&ray, max_t)
            .unwrap()
            .map(|h| (h.hit.t, scene.name(h.object).to_string()));
        assert_eq!(
            first,
            want.first().map(|w| (w.0, w.1.clone())),
            "{ray:?} {max_t}"
        );
        hits += usize::from(!want.is_empty());
        let is_shape = |name: &str| {
            objects
                .iter()
                .any(|o| o.0 == name && o.1.as_shape().is_some())
        };
        shape_hits += want.iter().filter(|w| is_shape(&w.1)).count();
    }
    assert!(
        hits > 100 && shape_hits > 100,
        "{hits} rays hit, {shape_hits} shape hits"
    );
}
