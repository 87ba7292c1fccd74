//! Near-miss poses for the yes/no (`First`) collision benchmark: meshes that come within a small
//! gap of touching and do not touch, the case where a yes/no query must prove disjointness and
//! cannot stop at a first witness.
//!
//! For each of the first `N` poses of `POSES.json` under which A and B intersect, B is moved away
//! from A along the line from A's centroid to B's placed centroid, by the smallest distance `s`
//! (found by bisection with the exact test) such that the pose at `s` is disjoint while the pose
//! at `s - gap` still touches, with `gap = GAP × (r_A + r_B)` (`r`: the largest distance of a
//! vertex from the mesh's vertex centroid). The rotation is kept. Every written pose is disjoint
//! by the exact predicate; poses that never touch are skipped.
//!
//! `cargo run --release --example near_miss_poses -- A B POSES.json N GAP OUT.json`
//! (`benches/data/poses_dragon_res3_near_100.json`: `assets/dragon_res3.ply.gz` twice,
//! `benches/data/poses_dragon_res3_500.json`, 100, 1e-3; `poses_dragon_res2_near_100.json`
//! likewise from dragon_res2 and `poses_dragon_res2_200.json`).

use obbtree::bv::Obb;
use obbtree::load::load_mesh;
use obbtree::{collide, CollisionRequest, Mode, Model, Point, Pose, TriMesh, Vector};
use obbtree_cli::poses::PoseEntry;
use std::path::Path;

#[derive(serde::Deserialize)]
struct PosesFile {
    poses: Vec<PoseEntry>,
}

/// The vertex centroid and the largest distance of a vertex from it.
fn centroid_radius(mesh: &TriMesh) -> (Point, f64) {
    let n = mesh.vertices().len() as f64;
    let c = Point::from(
        mesh.vertices()
            .iter()
            .fold(Vector::zeros(), |s, p| s + p.coords)
            / n,
    );
    let r = mesh
        .vertices()
        .iter()
        .map(|p| (p - c).norm())
        .fold(0.0, f64::max);
    (c, r)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, poses, n, gap, out] = args.as_slice() else {
        return Err("usage: near_miss_poses A B POSES.json N GAP OUT.json".into());
    };
    let (a, b) = (load_mesh(Path::new(a))?, load_mesh(Path::new(b))?);
    let text = std::fs::read_to_string(poses)?;
    let entries = serde_json::from_str::<PosesFile>(&text)?.poses;
    let n: usize = n.parse()?;
    let gap: f64 = gap.parse()?;
    let (a, b) = (std::sync::Arc::new(a), std::sync::Arc::new(b));
    let (model_a, model_b) = (Model::<Obb>::new(a.clone())?, Model::<Obb>::new(b.clone())?);
    let request = CollisionRequest::new(Mode::First);
    let touches = |e: &PoseEntry| -> Result<bool, Box<dyn std::error::Error>> {
        let pose = e.to_pose(0)?;
        Ok(collide(&model_a, &Pose::identity(), &model_b, &pose, &request)?.intersects)
    };
    let ((ca, ra), (cb, rb)) = (centroid_radius(&a), centroid_radius(&b));
    let step = gap * (ra + rb);
    let mut near = Vec::new();
    for entry in &entries {
        if near.len() == n {
            break;
        }
        if !touches(entry)? {
            continue;
        }
        let pose = entry.to_pose(0)?;
        let Some(dir) = (pose.transform_point(&cb) - ca).try_normalize(0.0) else {
            continue;
        };
        let at = |s: f64| PoseEntry {
            translation: (Vector::from(entry.translation) + dir * s).into(),
            rotation: entry.rotation,
        };
        // Touching at `lo`, disjoint at `hi` (the bounding spheres are apart there).
        let (mut lo, mut hi) = (0.0, (pose.transform_point(&cb) - ca).norm() + ra + rb);
        while hi - lo > step {
            let mid = 0.5 * (lo + hi);
            if touches(&at(mid))? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        near.push(at(hi));
    }
    let json = serde_json::json!({
        "meta": {
            "made_by": "examples/near_miss_poses.rs",
            "source": poses,
            "gap": gap,
            "gap_absolute": step,
        },
        "poses": near,
    });
    std::fs::write(out, json.to_string())?;
    eprintln!("{} near-miss poses written to {out}", near.len());
    Ok(())
}
