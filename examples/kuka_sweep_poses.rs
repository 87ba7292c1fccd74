//! Writes the poses of the distance table's KUKA case: while the arm of
//! `assets/kuka_iiwa/model.urdf` folds (joints 2, 4 and 6 from 0 to ±2 rad together, as in the
//! demo's clearance plot), the pose of one link's mesh in another's frame, for the pair of links
//! not joined by a joint that comes nearest without touching; prints the two mesh files.
//! Run: `cargo run --release --features urdf --example kuka_sweep_poses -- OUT.json [STEPS]`

use obbtree::urdf::Robot;
use obbtree::{distance, DistanceRequest, Model, Pose};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args
        .get(1)
        .ok_or("usage: kuka_sweep_poses OUT.json [STEPS]")?;
    let steps: usize = match args.get(2) {
        None => 100,
        Some(s) => match s.parse() {
            Ok(n) if n >= 2 => n,
            _ => {
                return Err(
                    format!("STEPS: expected a whole number of at least 2, got {s:?}").into(),
                )
            }
        },
    };
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let robot = Robot::from_file(assets.join("kuka_iiwa/model.urdf"))?;
    let models: Vec<Model> = robot
        .links
        .iter()
        .map(|l| Model::new(l.meshes[0].mesh.clone()))
        .collect::<Result<_, _>>()?;
    let joined = |a: usize, b: usize| {
        robot
            .joints
            .iter()
            .any(|j| (j.parent, j.child) == (a, b) || (j.parent, j.child) == (b, a))
    };
    let sweep: Vec<Vec<Pose>> = (0..steps)
        .map(|k| {
            let s = 2.0 * k as f64 / (steps - 1) as f64;
            let links = robot.link_poses(&[0.0, s, 0.0, -s, 0.0, s, 0.0])?;
            Ok(robot
                .links
                .iter()
                .zip(links)
                .map(|(l, pose)| pose * l.meshes[0].origin)
                .collect())
        })
        .collect::<Result<_, obbtree::urdf::UrdfError>>()?;
    let n = robot.links.len();
    let least = |a: usize, b: usize| -> Result<f64, Box<dyn std::error::Error>> {
        let mut least = f64::INFINITY;
        for poses in &sweep {
            let r = distance(
                &models[a],
                &poses[a],
                &models[b],
                &poses[b],
                &DistanceRequest::default(),
            )?;
            least = least.min(r.distance);
        }
        Ok(least)
    };
    let mut nearest = (f64::INFINITY, 0, 0);
    for a in 0..n {
        for b in a + 1..n {
            if !joined(a, b) {
                let d = least(a, b)?;
                if d > 0.0 && d < nearest.0 {
                    nearest = (d, a, b);
                }
            }
        }
    }
    let (d, a, b) = nearest;
    let poses: Vec<_> = sweep
        .iter()
        .map(|p| {
            let rel = p[a].inv_mul(&p[b]);
            serde_json::json!({
                "translation": rel.translation().as_slice(),
                "rotation": rel.rotation_vector().as_slice(),
            })
        })
        .collect();
    std::fs::write(
        out,
        serde_json::to_string_pretty(&serde_json::json!({ "poses": poses }))?,
    )?;
    println!(
        "{} in {}'s frame, {steps} poses, least distance {d:.4}: A = {}, B = {}",
        robot.links[b].name,
        robot.links[a].name,
        robot.links[a].meshes[0].file.display(),
        robot.links[b].meshes[0].file.display()
    );
    Ok(())
}
