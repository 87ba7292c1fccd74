//! Load two meshes, build OBB trees, ask whether they touch and where, then pick a triangle.
//! `cargo run --release --example collide_and_pick`

use obbtree::bv::{Aabb, BoundingVolume, Obb, Ray, Vector};
use obbtree::load::load_mesh;
use obbtree::query::collide::{
    collide, pose_from_rotation_vector, CollisionRequest, Mode, Model, Pose,
};
use obbtree::query::pick::{cast_ray, PickTree};
use obbtree::tree::{BuildOptions, Bvh};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let a = load_mesh(&assets.join("bunny.obj"))?;
    let b = load_mesh(&assets.join("duck/duck.obj"))?;

    // One tree per mesh, built once; queries never transform a mesh or refit a tree.
    let (tree_a, tree_b) = (
        Bvh::<Obb>::build(&a, &BuildOptions::default())?,
        Bvh::<Obb>::build(&b, &BuildOptions::default())?,
    );
    let (model_a, model_b) = (Model::new(&a, &tree_a)?, Model::new(&b, &tree_b)?);

    // B placed at A's centre: translation, then a rotation vector (axis × angle, radians).
    let centre = Aabb::from_points(a.vertices()).center();
    let pose_b = pose_from_rotation_vector(centre.coords.into(), [0.0, 0.5, 0.0]);
    let result = collide(
        &model_a,
        &Pose::identity(),
        &model_b,
        &pose_b,
        &CollisionRequest::new(Mode::All),
    );
    println!(
        "touch: {}, {} intersecting triangle pairs",
        result.intersects,
        result.pairs.len()
    );
    if let Some([ia, ib]) = result.pairs.first() {
        println!("e.g. bunny triangle {ia} and duck triangle {ib}");
    }

    // The first triangle of the bunny hit by a ray from in front of it.
    // Picking's own tree: an SAH AABB tree collapsed into 4-wide nodes.
    let pick_tree = PickTree::build(&a)?;
    let ray = Ray::new(
        centre + Vector::new(0.0, 0.0, 100.0),
        Vector::new(0.0, 0.0, -1.0),
    );
    match cast_ray(&a, &pick_tree, &Default::default(), &ray, f64::INFINITY)? {
        Some(hit) => println!(
            "ray hits triangle {} at t = {:.4}, point {:?}",
            hit.triangle, hit.t, hit.point
        ),
        None => println!("ray misses"),
    }
    Ok(())
}
