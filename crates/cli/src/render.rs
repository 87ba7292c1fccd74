//! Software ray-cast pictures through the picking query: one ray per pixel
//! ([`Camera::pixel_ray`]), the first hit over every shape of the scene ([`cast_ray`]),
//! shaded by the angle between the ray and the triangle's normal. No GPU, no window.

use super::Error;
use indicatif::ProgressBar;
use obbtree::bv::Aabb;
use obbtree::{cast_ray, Camera, Model, Point, Pose, Ray, RayHit, RayVolume};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;

/// One model of a scene placed at `pose`, painted `color`, its `highlight` triangles in red.
#[derive(Clone)]
pub struct Shape<V> {
    pub model: Model<V>,
    pub pose: Pose,
    pub color: [f64; 3],
    pub highlight: HashSet<u32>,
}

const HIGHLIGHT: [f64; 3] = [0.95, 0.1, 0.1];
const BACKGROUND: [u8; 3] = [32, 34, 40];

/// The box around every shape's vertices (a primitive's box corners), placed.
pub fn world_bounds<V>(shapes: &[Shape<V>]) -> Aabb {
    let placed: Vec<Point> = shapes
        .iter()
        .flat_map(|s| {
            let points = match s.model.mesh() {
                Some(mesh) => mesh.vertices().to_vec(),
                None => s.model.bounds().corners().to_vec(),
            };
            points.into_iter().map(move |p| s.pose.transform_point(&p))
        })
        .collect();
    Aabb::from_points(&placed)
}

/// A bar counting rendered rows on standard error (hidden when quiet or not on a terminal).
pub fn progress(rows: u32, quiet: bool) -> ProgressBar {
    super::report::counting_bar(rows as usize, "rows", "rendering ", 0, quiet)
}

/// RGB pixels (row-major, top row first) of `shapes` seen by `camera`; `progress` advances by
/// one per row.
pub fn render<V: RayVolume + Send + Sync>(
    shapes: &[Shape<V>],
    camera: &Camera,
    progress: &ProgressBar,
) -> Result<Vec<u8>, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(format!("cannot render: {e}"));
    let rows: Vec<Vec<u8>> = (0..camera.height)
        .into_par_iter()
        .map(|y| {
            let mut row = Vec::with_capacity(3 * camera.width as usize);
            for x in 0..camera.width {
                let ray = camera.pixel_ray(x, y).map_err(|e| fail(&e))?;
                let pixel = match nearest_hit(shapes, &ray).map_err(|e| fail(&e))? {
                    None => BACKGROUND,
                    Some((hit, shape)) => shade(&hit, shape, &ray),
                };
                row.extend(pixel);
            }
            progress.inc(1);
            Ok(row)
        })
        .collect::<Result<_, Error>>()?;
    Ok(rows.concat())
}

/// The first hit of `ray` over all shapes, with its shape.
fn nearest_hit<'s, V: RayVolume>(
    shapes: &'s [Shape<V>],
    ray: &Ray,
) -> Result<Option<(RayHit, &'s Shape<V>)>, obbtree::QueryError> {
    let mut nearest: Option<(RayHit, &Shape<V>)> = None;
    for shape in shapes {
        if let Some(hit) = cast_ray(&shape.model, &shape.pose, ray, f64::INFINITY)? {
            if nearest.as_ref().is_none_or(|(best, _)| hit.t < best.t) {
                nearest = Some((hit, shape));
            }
        }
    }
    Ok(nearest)
}

/// The colour of a hit: the shape's (or red if highlighted), lit by the angle between the ray
/// and the normal.
fn shade<V>(hit: &RayHit, shape: &Shape<V>, ray: &Ray) -> [u8; 3] {
    let light = 0.2 + 0.8 * hit.normal.normalize().dot(&ray.dir).abs();
    let base = if shape.highlight.contains(&hit.triangle) {
        HIGHLIGHT
    } else {
        shape.color
    };
    base.map(|c| (255.0 * c * light).round().clamp(0.0, 255.0) as u8)
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
