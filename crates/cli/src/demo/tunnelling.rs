//! The demo's tunnelling picture: the bunny thrown through a thin plate in one step. Sampling
//! the motion finds the bunny clear of the plate at every sample (grey); the continuous check
//! finds the first contact, where the bunny is drawn highlighted.

use crate::render::{self, Shape};
use crate::Error;
use obbtree::bv::{BoundingVolume, Obb};
use obbtree::{
    collide, collide_motion, Camera, CollisionRequest, Model, Motion, MotionRequest, Point, Pose,
    TriMesh, Vector,
};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Instants of the sampled check (`t = k / (SAMPLES - 1)`).
const SAMPLES: usize = 5;
const PLATE_COLOR: [f64; 3] = [0.55, 0.65, 0.85];
const SAMPLE_COLOR: [f64; 3] = [0.45, 0.45, 0.45];

/// Throws `bunny` through a plate across its path, prints what sampling and the continuous
/// check find and writes `tunnelling.png` into `out_dir`.
pub(crate) fn tunnelling_picture(
    bunny: &Model<Obb>,
    quick: bool,
    out_dir: &Path,
    out: &mut impl Write,
) -> Result<PathBuf, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(e.to_string());
    let size = (bunny.bounds().maxs - bunny.bounds().mins).norm();
    let centre = bunny.bounds().center();
    let plate = plate_across_x(&centre, size).map_err(|e| fail(&e))?;
    // From 3.125 sizes before the plate to 1.875 after, turning a little on the way: the
    // samples, 1.25 sizes apart, fall 0.625 sizes before and after the plate, where the bunny
    // (at most one size across) is clear of it.
    let pose = |x: f64, turn: f64| Pose::new(Vector::new(x, 0.0, 0.0), [0.0, turn, 0.0]);
    let start = pose(-3.125 * size, 0.0).map_err(|e| fail(&e))?;
    let end = pose(1.875 * size, 0.6).map_err(|e| fail(&e))?;
    let motion = Motion::new(start, end);
    let request = CollisionRequest::default();
    let sampled: Vec<Pose> = (0..SAMPLES)
        .map(|k| motion.pose_at(k as f64 / (SAMPLES - 1) as f64))
        .collect();
    let mut sampled_hits = 0;
    for pose in &sampled {
        let result =
            collide(&plate, &Pose::identity(), bunny, pose, &request).map_err(|e| fail(&e))?;
        sampled_hits += usize::from(result.intersects);
    }
    let first = collide_motion(
        &plate,
        &Pose::identity(),
        bunny,
        &motion,
        &MotionRequest::default(),
    )
    .map_err(|e| fail(&e))?;
    let (Some([lo, hi]), Some(pair)) = (first.toi, first.pair) else {
        return Err(Error::Message(
            "the tunnelling demo's motion missed the plate".into(),
        ));
    };
    writeln!(
        out,
        "tunnelling: the bunny thrown through a plate 1/200 of its size thick; sampling the motion at {SAMPLES} instants finds {sampled_hits} contacts, the continuous check the first at t in [{lo:.9}, {hi:.9}], plate triangle {} and bunny triangle {}",
        pair[0], pair[1]
    )?;
    let mut shapes = vec![Shape {
        model: plate,
        pose: Pose::identity(),
        color: PLATE_COLOR,
        highlight: Default::default(),
    }];
    shapes.extend(sampled.iter().map(|pose| Shape {
        model: bunny.clone(),
        pose: *pose,
        color: SAMPLE_COLOR,
        highlight: Default::default(),
    }));
    let triangles = crate::mesh_of(bunny, "the tunnelling picture")?
        .triangles()
        .len() as u32;
    shapes.push(Shape {
        model: bunny.clone(),
        pose: motion.pose_at(lo),
        color: PLATE_COLOR,
        highlight: (0..triangles).collect(),
    });
    let (width, height) = if quick { (240, 120) } else { (720, 360) };
    let camera = Camera::framing(&render::world_bounds(&shapes), width, height);
    let file = out_dir.join("tunnelling.png");
    let rgb = render::render(&shapes, &camera, &indicatif::ProgressBar::hidden())?;
    render::write_png(&file, camera.width, camera.height, &rgb)?;
    Ok(file)
}

/// A plate `size / 200` thick across the x axis at `centre.x`, `2·size` wide.
fn plate_across_x(centre: &Point, size: f64) -> Result<Model<Obb>, Box<dyn std::error::Error>> {
    let half = Vector::new(size / 400.0, size, size);
    let mesh = TriMesh::cuboid(centre - half, centre + half)?;
    Ok(Model::new(mesh)?)
}
