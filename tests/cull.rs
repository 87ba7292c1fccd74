//! Frustum culling through a tree against classifying every triangle on its own, for every
//! volume type, random frusta and random poses. Frusta per mesh: `OBBTREE_PROPTEST_CASES`
//! (default 24).

mod common;

use common::{asset, cases};
use obbtree::bv::intersect::containment::Containment;
use obbtree::bv::intersect::frustum::Frustum;
use obbtree::bv::{Aabb, BoundingVolume, Kdop18, Obb, Point, Pose, Sphere, Triangle, Vector};
use obbtree::tree::TreeVolume;
use obbtree::{classify_triangle, cull, Camera, FrustumVolume, Model};
use rand::{Rng, SeedableRng};

/// Compares `cull` with each triangle moved into the world and classified alone. A triangle may
/// differ only when one of its vertices lies within rounding of a frustum plane.
fn check<V: FrustumVolume + TreeVolume>(
    model: &Model<V>,
    pose: &Pose,
    frustum: &Frustum,
) -> (usize, usize) {
    let mesh = model.mesh();
    let culled = cull(model, pose, frustum).unwrap();
    let n = mesh.triangles().len();
    let mut seen = vec![None; n];
    for (list, what) in [
        (&culled.inside, Containment::Inside),
        (&culled.outside, Containment::Outside),
        (&culled.intersecting, Containment::Intersecting),
    ] {
        assert!(list.windows(2).all(|w| w[0] < w[1]), "lists are ascending");
        for &t in list {
            assert!(seen[t as usize].is_none(), "triangle {t} listed twice");
            seen[t as usize] = Some(what);
        }
    }
    let mut near_ties = 0;
    for (i, got) in seen.iter().enumerate() {
        let got = got.unwrap_or_else(|| panic!("triangle {i} not listed"));
        let t = mesh.triangle(i);
        let world = Triangle::new(
            pose.transform_point(&t.a),
            pose.transform_point(&t.b),
            pose.transform_point(&t.c),
        );
        let alone = classify_triangle(frustum, &world);
        if got != alone {
            let scale = world
                .vertices()
                .iter()
                .map(|p| p.coords.amax())
                .fold(1.0, f64::max);
            let close = frustum.planes().iter().any(|pl| {
                world
                    .vertices()
                    .iter()
                    .any(|v| pl.eval(v).abs() <= 1e-9 * scale)
            });
            assert!(close, "triangle {i}: tree says {got:?}, alone {alone:?}");
            near_ties += 1;
        }
        // Independent of the classification code: what the lists promise.
        match got {
            Containment::Inside => assert!(world.vertices().iter().all(|v| frustum
                .planes()
                .iter()
                .all(|pl| pl.eval(v) <= 1e-9 * v.coords.amax().max(1.0)))),
            Containment::Outside => assert!(frustum.planes().iter().any(|pl| world
                .vertices()
                .iter()
                .all(|v| pl.eval(v) >= -1e-9 * v.coords.amax().max(1.0)))),
            Containment::Intersecting => {}
        }
    }
    (culled.nodes_tested, near_ties)
}

#[test]
fn cull_equals_classifying_every_triangle() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
    let mut kinds = [0usize; 3];
    for name in ["bunny.obj", "dragon_res4.ply.gz", "kuka_iiwa/link_2.obj"] {
        let mesh = obbtree::load::load_mesh(&asset(name)).unwrap();
        let bounds = Aabb::from_points(mesh.vertices());
        let (c, r) = (bounds.center(), (bounds.maxs - bounds.mins).norm() * 0.5);
        // The trees do not depend on the pose: one model per volume type.
        let aabb = Model::<Aabb>::new(mesh.clone()).unwrap();
        let obb = Model::<Obb>::new(mesh.clone()).unwrap();
        let sphere = Model::<Sphere>::new(mesh.clone()).unwrap();
        let kdop = Model::<Kdop18>::new(mesh).unwrap();
        for _ in 0..cases(24) {
            let pose = Pose::new(
                Vector::new(rng.gen(), rng.gen(), rng.gen()),
                Vector::new(rng.gen(), rng.gen(), rng.gen()) * 3.0,
            )
            .unwrap();
            let center = pose.transform_point(&c);
            let eye = center
                + Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| x - 0.5) * (6.0 * r);
            let target =
                center + Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| x - 0.5) * r;
            let fov = rng.gen_range(10.0f64..90.0).to_radians();
            let near = rng.gen_range(0.01..1.0) * r;
            let far = near + rng.gen_range(0.5..6.0) * r;
            let camera = Camera::look_at(&eye, &target, &Vector::y(), fov, near, far, 640, 480);
            let frustum =
                Frustum::from_view_projection(&(camera.projection * camera.view)).unwrap();
            check(&aabb, &pose, &frustum);
            check(&obb, &pose, &frustum);
            check(&sphere, &pose, &frustum);
            check(&kdop, &pose, &frustum);
            let culled = cull(&aabb, &pose, &frustum).unwrap();
            kinds[0] += culled.inside.len();
            kinds[1] += culled.outside.len();
            kinds[2] += culled.intersecting.len();
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "frusta too uniform: {kinds:?}"
    );
}

/// A frustum around the whole mesh accepts the root without descending; one beside it rejects
/// the root.
#[test]
fn whole_subtrees_are_accepted_or_rejected_at_once() {
    let mesh = obbtree::load::load_mesh(&asset("duck/duck.obj")).unwrap();
    let bounds = Aabb::from_points(mesh.vertices());
    let camera = Camera::framing(&bounds, 100, 100);
    let frustum = Frustum::from_view_projection(&(camera.projection * camera.view)).unwrap();
    let n = mesh.triangles().len();
    let model = Model::<Obb>::new(mesh).unwrap();
    let culled = cull(&model, &Pose::identity(), &frustum).unwrap();
    assert!(
        culled.inside.len() == n || culled.nodes_tested < n,
        "{culled:?}"
    );
    let far = Pose::from_translation([0.0, 1e3 * bounds.maxs.coords.amax().max(1.0), 0.0]).unwrap();
    let culled = cull(&model, &far, &frustum).unwrap();
    assert_eq!((culled.outside.len(), culled.nodes_tested), (n, 1));
    let _ = Point::origin();
}
