//! Every fit of every volume type contains every vertex of every bundled mesh, with zero
//! tolerance (the guarantee documented in `obbtree_bv::fit`).

mod common;

use obbtree::bv::{
    BoundingVolume, Kdop14, Kdop18, Kdop26, Kdop6, Obb, ObbFit, Point, Sphere, SphereFit,
};
use obbtree::load::load_mesh;

fn assert_contains<V: BoundingVolume>(v: &V, points: &[Point], what: &str) {
    let outside = points.iter().filter(|p| !v.contains_point(p, 0.0)).count();
    assert_eq!(outside, 0, "{what}: {outside} vertices outside {v:?}");
}

#[test]
fn every_fit_contains_every_bundled_vertex() {
    for mesh in &common::BUNDLED {
        let m =
            load_mesh(&common::asset(mesh.name)).unwrap_or_else(|e| panic!("{}: {e}", mesh.name));
        let points = m.vertices();
        let triangles: Vec<[Point; 3]> = (0..m.triangles().len())
            .map(|i| m.triangle(i).vertices())
            .collect();
        for method in ObbFit::ALL {
            assert_contains(
                &Obb::fit_triangles(&triangles, method),
                points,
                &format!("{} {method:?} triangles", mesh.name),
            );
            assert_contains(
                &Obb::fit_points(points, method),
                points,
                &format!("{} {method:?} points", mesh.name),
            );
        }
        for method in SphereFit::ALL {
            assert_contains(
                &Sphere::fit_points(points, method),
                points,
                &format!("{} {method:?}", mesh.name),
            );
        }
        assert_contains(&Kdop6::fit_triangles(&triangles, ()), points, mesh.name);
        assert_contains(&Kdop14::fit_triangles(&triangles, ()), points, mesh.name);
        assert_contains(&Kdop18::fit_triangles(&triangles, ()), points, mesh.name);
        assert_contains(&Kdop26::fit_triangles(&triangles, ()), points, mesh.name);
    }
}
