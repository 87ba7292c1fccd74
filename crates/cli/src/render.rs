//! Software ray-cast pictures through the picking query: one ray per pixel
//! ([`Camera::pixel_ray`]), the first hit over every shape of the scene ([`cast_ray`]),
//! shaded by the angle between the ray and the triangle's normal. No GPU, no window.

use super::Error;
use obbtree::bv::{Aabb, Isometry, Point, TriMesh};
use obbtree::query::cast_ray;
use obbtree::query::collide::Pose;
use obbtree::query::pick::camera::Camera;
use obbtree::query::pick::RayTree;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;

/// One mesh of a scene with its picking tree (any [`RayTree`]), placed at `pose`, painted
/// `color`, its `highlight` triangles in red.
pub struct Shape<'a, T> {
    pub mesh: &'a TriMesh,
    pub tree: &'a T,
    pub pose: Isometry,
    pub color: [f64; 3],
    pub highlight: HashSet<u32>,
}

const HIGHLIGHT: [f64; 3] = [0.95, 0.1, 0.1];
const BACKGROUND: [u8; 3] = [32, 34, 40];

/// The quaternion form of a collision pose, as the picking queries take it.
pub fn isometry(pose: &Pose) -> Isometry {
    Isometry::from_parts(
        pose.translation,
        nalgebra::UnitQuaternion::from_rotation_matrix(&pose.rotation),
    )
}

/// The box around every shape's vertices, placed.
pub fn world_bounds<T>(shapes: &[Shape<T>]) -> Aabb {
    let placed: Vec<Point> = shapes
        .iter()
        .flat_map(|s| s.mesh.vertices().iter().map(move |p| s.pose * p))
        .collect();
    Aabb::from_points(&placed)
}

/// RGB pixels (row-major, top row first) of `shapes` seen by `camera`.
pub fn render<T: RayTree + Sync>(shapes: &[Shape<T>], camera: &Camera) -> Result<Vec<u8>, Error> {
    let (w, h) = (camera.width, camera.height);
    let rows: Vec<Vec<u8>> = (0..h)
        .into_par_iter()
        .map(|y| {
            let mut row = Vec::with_capacity(3 * w as usize);
            for x in 0..w {
                let ray = camera
                    .pixel_ray(x, y)
                    .map_err(|e| Error::Message(format!("cannot render: {e}")))?;
                let nearest = shapes
                    .iter()
                    .filter_map(|s| {
                        cast_ray(s.mesh, s.tree, &s.pose, &ray, f64::INFINITY)
                            .ok()
                            .flatten()
                            .map(|hit| (hit, s))
                    })
                    .min_by(|(p, _), (q, _)| p.t.total_cmp(&q.t));
                match nearest {
                    None => row.extend(BACKGROUND),
                    Some((hit, shape)) => {
                        let light = 0.2 + 0.8 * hit.normal.normalize().dot(&ray.dir).abs();
                        let base = if shape.highlight.contains(&hit.triangle) {
                            HIGHLIGHT
                        } else {
                            shape.color
                        };
                        row.extend(
                            base.map(|c| (255.0 * c * light).round().clamp(0.0, 255.0) as u8),
                        );
                    }
                }
            }
            Ok(row)
        })
        .collect::<Result<_, Error>>()?;
    Ok(rows.concat())
}

/// Writes `rgb` (`width` × `height`, 8-bit RGB) as a PNG file.
pub fn write_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::Message(format!("cannot write {}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| fail(&e))?;
    writer.write_image_data(rgb).map_err(|e| fail(&e))?;
    writer.finish().map_err(|e| fail(&e))
}
