//! The demo's distance picture: the dragon moved out of the bunny, the distance between them,
//! the closest triangle pair highlighted and a small marker at each closest point.

use crate::render::{self, Shape};
use crate::Error;
use obbtree::bv::Obb;
use obbtree::{distance, Camera, DistanceRequest, Model, Point, Pose, TriMesh, Vector};
use std::io::Write;
use std::path::{Path, PathBuf};

const MARKER_COLOR: [f64; 3] = [0.95, 0.85, 0.2];

/// Moves `b` (posed at `contact` against `a`) out along `+x` until its box is a twentieth of
/// `a`'s width clear of `a`'s, measures
/// the distance, prints it and writes `distance.png` into `out_dir`.
pub(crate) fn closest_points_picture(
    a: &Model<Obb>,
    b: &Model<Obb>,
    contact: &Pose,
    quick: bool,
    out_dir: &Path,
    out: &mut impl Write,
) -> Result<PathBuf, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(e.to_string());
    let width = a.bounds().maxs.x - a.bounds().mins.x;
    let b_min_x = crate::mesh_of(b, "the distance picture")?
        .vertices()
        .iter()
        .map(|p| contact.transform_point(p).x)
        .fold(f64::INFINITY, f64::min);
    // B's lowest x a twentieth of A's width past A's highest x.
    let gap = a.bounds().maxs.x - b_min_x + 0.05 * width;
    let shift = Pose::from_translation(Vector::new(gap, 0.0, 0.0)).map_err(|e| fail(&e))?;
    let apart = shift * *contact;
    let d = distance(a, &Pose::identity(), b, &apart, &DistanceRequest::default())
        .map_err(|e| fail(&e))?;
    writeln!(
        out,
        "distance: the dragon moved out of the bunny along x until their boxes are 5% of the bunny's width apart: {:.6} (certified in [{:.6}, {:.6}]), triangles {} and {}",
        d.distance, d.lower, d.upper, d.pair[0], d.pair[1]
    )?;
    let size = 0.025 * (a.bounds().maxs - a.bounds().mins).norm();
    let shapes = vec![
        Shape {
            model: a.clone(),
            pose: Pose::identity(),
            color: [0.85, 0.8, 0.7],
            highlight: [d.pair[0]].into(),
        },
        Shape {
            model: b.clone(),
            pose: apart,
            color: [0.45, 0.7, 0.5],
            highlight: [d.pair[1]].into(),
        },
        marker(&d.point_a, size)?,
        marker(&d.point_b, size)?,
    ];
    let side = if quick { 160 } else { 480 };
    let camera = Camera::framing(&render::world_bounds(&shapes), side, side);
    let file = out_dir.join("distance.png");
    let rgb = render::render(&shapes, &camera, &indicatif::ProgressBar::hidden())?;
    render::write_png(&file, camera.width, camera.height, &rgb)?;
    Ok(file)
}

/// A small octahedron of radius `size` at `at`, to mark a point.
fn marker(at: &Point, size: f64) -> Result<Shape<Obb>, Error> {
    let corners: Vec<Point> = [
        Vector::x(),
        -Vector::x(),
        Vector::y(),
        -Vector::y(),
        Vector::z(),
        -Vector::z(),
    ]
    .iter()
    .map(|v| at + v * size)
    .collect();
    let faces = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    let mesh = TriMesh::new(corners, faces).map_err(|e| Error::Message(e.to_string()))?;
    Ok(Shape {
        model: Model::new(mesh).map_err(|e| Error::Message(e.to_string()))?,
        pose: Pose::identity(),
        color: MARKER_COLOR,
        highlight: Default::default(),
    })
}
