//! Frustum culling through a tree, for every volume type, random frusta and random poses,
//! against an exact oracle of its own (`oracles::planes`): each vertex placed exactly (`R·p + t`
//! in dyadic arithmetic, no rounding) and its side of each world plane `n·x + d` decided
//! exactly, then the plane-by-plane classification of *Real-Time Rendering* §16.14 that `cull`
//! documents (outside one plane → outside; inside all → inside; otherwise intersecting). It
//! shares no code with `cull`, which moves the planes into the mesh frame (rounded) and
//! classifies volumes and triangles there (and not `classify_triangle`, which `cull` calls at
//! its leaves: that is checked against the oracle here too).
//!
//! `cull` rounds, so a vertex within `TIE` (a few hundred ulps of its terms) of a plane may land
//! on either side: the tree's answer must be one the oracle allows when each such vertex is put
//! on either side, and equal to the exact class when no vertex is that close. Every class,
//! `Intersecting` included, must occur in the oracle's and in `cull`'s answers.
//!
//! Frusta per mesh: 24 in CI (`OBBTREE_PROPTEST_CASES` scales them).

mod common;
mod oracles;

use common::{asset, cases};
use obbtree::bv::intersect::containment::RegionRelation;
use obbtree::bv::intersect::frustum::Frustum;
use obbtree::bv::{Aabb, BoundingVolume, Kdop18, Obb, Point, Pose, Sphere, TriMesh, Vector};
use obbtree::cull::classify_triangle;
use obbtree::tree::TreeVolume;
use obbtree::{cull, Camera, FrustumVolume, Model};
use oracles::planes::{allowed, sides, Side};
use rand::{Rng, SeedableRng};

/// What a run saw: triangles of each exact class (inside, outside, intersecting), the same for
/// `cull`'s answers, and near ties (answers other than the exact class).
#[derive(Default, Debug)]
struct Tally {
    exact: [usize; 3],
    culled: [usize; 3],
    both_intersecting: usize,
    near_ties: usize,
}

fn index(c: RegionRelation) -> usize {
    match c {
        RegionRelation::Inside => 0,
        RegionRelation::Outside => 1,
        RegionRelation::Intersecting => 2,
    }
}

/// `cull`'s three lists: each triangle once, each list ascending; the class of every triangle.
fn listed(culled: &obbtree::Culled, n: usize) -> Vec<RegionRelation> {
    let mut seen = vec![None; n];
    for (list, what) in [
        (&culled.inside, RegionRelation::Inside),
        (&culled.outside, RegionRelation::Outside),
        (&culled.intersecting, RegionRelation::Intersecting),
    ] {
        assert!(list.windows(2).all(|w| w[0] < w[1]), "lists are ascending");
        for &t in list {
            assert!(seen[t as usize].is_none(), "triangle {t} listed twice");
            seen[t as usize] = Some(what);
        }
    }
    seen.iter()
        .enumerate()
        .map(|(i, c)| c.unwrap_or_else(|| panic!("triangle {i} not listed")))
        .collect()
}

/// Checks `cull` through `model`'s tree against the exact sides.
fn check<V: FrustumVolume + TreeVolume>(
    model: &Model<V>,
    pose: &Pose,
    frustum: &Frustum,
    sides: &[[Side; 6]],
    tally: &mut Tally,
    what: &str,
) {
    let mesh = model.mesh().unwrap();
    let got = listed(&cull(model, pose, frustum).unwrap(), mesh.triangles().len());
    for (i, (tri, &got)) in mesh.triangles().iter().zip(&got).enumerate() {
        let vertices = tri.map(|v| sides[v as usize]);
        let (exact, ok) = allowed(&vertices, got);
        assert!(
            ok,
            "{what} {}: triangle {i} culled {got:?}, exactly {exact:?} (sides {vertices:?})",
            V::NAME
        );
        tally.exact[index(exact)] += 1;
        tally.culled[index(got)] += 1;
        tally.both_intersecting += usize::from(got == exact && got == RegionRelation::Intersecting);
        tally.near_ties += usize::from(got != exact);
    }
}

/// A random pose (rotation vector up to 3 per axis, translation up to 1) and a camera around
/// the posed mesh: eye within 3 radii of the centre, looking near it, random field of view and
/// depth range, so that frusta hold the mesh wholly, partly or not at all.
fn random_view(rng: &mut rand_pcg::Pcg64, bounds: &Aabb) -> (Pose, Frustum) {
    let (c, r) = (bounds.center(), (bounds.maxs - bounds.mins).norm() * 0.5);
    let pose = Pose::new(
        Vector::new(rng.gen(), rng.gen(), rng.gen()),
        Vector::new(rng.gen(), rng.gen(), rng.gen()) * 3.0,
    )
    .unwrap();
    let center = pose.transform_point(&c);
    let eye =
        center + Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| x - 0.5) * (6.0 * r);
    let target = center + Vector::new(rng.gen(), rng.gen(), rng.gen()).map(|x: f64| x - 0.5) * r;
    let fov = rng.gen_range(10.0f64..90.0).to_radians();
    let near = rng.gen_range(0.01..1.0) * r;
    let far = near + rng.gen_range(0.5..6.0) * r;
    let camera = Camera::look_at(&eye, &target, &Vector::y(), fov, near, far, 640, 480);
    let frustum = Frustum::from_view_projection(&(camera.projection * camera.view)).unwrap();
    (pose, frustum)
}

#[test]
fn cull_matches_exact_plane_sides() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
    let mut tallies: [Tally; 5] = Default::default();
    for name in ["bunny.obj", "dragon_res4.ply.gz", "kuka_iiwa/link_2.obj"] {
        let mesh = obbtree::load::load_mesh(&asset(name)).unwrap();
        let bounds = Aabb::from_points(mesh.vertices());
        // The trees do not depend on the pose: one model per volume type.
        let aabb = Model::<Aabb>::new(mesh.clone()).unwrap();
        let obb = Model::<Obb>::new(mesh.clone()).unwrap();
        let sphere = Model::<Sphere>::new(mesh.clone()).unwrap();
        let kdop = Model::<Kdop18>::new(mesh.clone()).unwrap();
        for k in 0..cases(24) {
            let (pose, frustum) = random_view(&mut rng, &bounds);
            let sides = sides(&mesh, &pose, &frustum);
            let what = format!("{name} view {k}");
            let [t_aabb, t_obb, t_sphere, t_kdop, t_alone] = &mut tallies;
            check(&aabb, &pose, &frustum, &sides, t_aabb, &what);
            check(&obb, &pose, &frustum, &sides, t_obb, &what);
            check(&sphere, &pose, &frustum, &sides, t_sphere, &what);
            check(&kdop, &pose, &frustum, &sides, t_kdop, &what);
            // `classify_triangle` on the triangle placed in the world (rounded) against the
            // same exact sides.
            for (i, tri) in mesh.triangles().iter().enumerate() {
                let t = mesh.triangle(i);
                let world = obbtree::bv::Triangle::new(
                    pose.transform_point(&t.a),
                    pose.transform_point(&t.b),
                    pose.transform_point(&t.c),
                );
                let got = classify_triangle(&frustum, &world);
                let vertices = tri.map(|v| sides[v as usize]);
                let (exact, ok) = allowed(&vertices, got);
                assert!(ok, "{what} alone: triangle {i} {got:?}, exactly {exact:?}");
                t_alone.exact[index(exact)] += 1;
                t_alone.culled[index(got)] += 1;
                t_alone.near_ties += usize::from(got != exact);
            }
        }
    }
    for (name, t) in ["aabb", "obb", "sphere", "kdop18", "classify_triangle"]
        .iter()
        .zip(&tallies)
    {
        println!("{name}: {t:?}");
        assert!(
            t.exact.iter().chain(&t.culled).all(|&k| k > 0),
            "{name}: frusta too uniform: {t:?}"
        );
        assert!(
            t.near_ties * 1000 <= t.exact.iter().sum::<usize>(),
            "{name}: {t:?}"
        );
    }
    assert!(tallies[..4].iter().all(|t| t.both_intersecting > 0));
}

/// The oracle itself on hand-made cases: a unit cube's triangles against the frustum of a
/// camera looking at it, placed exactly on a plane (an axis-aligned view whose near plane is
/// the cube's front face), inside, outside and across.
#[test]
fn oracle_on_exact_cases() {
    // The box [-1, 1]² × [-1, 1] seen by planes x = ±2, y = ±2, z = -3 (near, outward -z),
    // z = `far` (far, outward +z).
    let plane = |n: [f64; 3], d: f64| (Vector::from(n), d);
    let frustum_with_far = |far: f64| {
        let planes = [
            plane([-1.0, 0.0, 0.0], -2.0),
            plane([1.0, 0.0, 0.0], -2.0),
            plane([0.0, -1.0, 0.0], -2.0),
            plane([0.0, 1.0, 0.0], -2.0),
            plane([0.0, 0.0, -1.0], -3.0),
            plane([0.0, 0.0, 1.0], -far),
        ]
        .map(|(n, d)| obbtree::bv::intersect::plane::Plane::new(n, d));
        Frustum::from_planes(planes).unwrap()
    };
    let triangle = [
        Point::new(-1.0, -1.0, 1.0),
        Point::new(1.0, -1.0, 1.0),
        Point::new(0.0, 1.0, 1.0),
    ];
    let mesh = TriMesh::new(triangle.to_vec(), vec![[0, 1, 2]]).unwrap();
    let pose = Pose::identity();
    for (far, want) in [
        (2.0, RegionRelation::Inside),
        (1.0, RegionRelation::Inside), // on the far plane: the closed frustum holds it
        (0.0, RegionRelation::Outside),
        (-1.0, RegionRelation::Outside),
    ] {
        let f = frustum_with_far(far);
        let s = sides(&mesh, &pose, &f);
        let (exact, ok) = allowed(&[s[0], s[1], s[2]], want);
        assert_eq!(exact, want, "far {far}: {s:?}");
        assert!(ok);
    }
    // Across the far plane z = 0.5: one vertex lifted beyond it.
    let across = TriMesh::new(
        vec![triangle[0], triangle[1], Point::new(0.0, 1.0, -1.0)],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let s = sides(&across, &pose, &frustum_with_far(0.5));
    assert_eq!(
        allowed(&[s[0], s[1], s[2]], RegionRelation::Intersecting),
        (RegionRelation::Intersecting, true)
    );
    assert!(!allowed(&[s[0], s[1], s[2]], RegionRelation::Inside).1);
    assert!(!allowed(&[s[0], s[1], s[2]], RegionRelation::Outside).1);
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
}
