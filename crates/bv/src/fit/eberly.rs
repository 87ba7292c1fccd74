//! Minimum-volume OBB by iterative refinement (Eberly's method, as summarised in *Real-Time
//! Rendering*, 3rd ed. (2008), §16.3: start from the best of a set of sampled orientations,
//! then minimise the volume; never return a box larger than the start).
//!
//! Each refinement step rotates the box about one of its own axes. Such a rotation leaves the
//! extent along that axis unchanged, so the volume is that extent times the area of the box's
//! cross-section, and the best rotation is the minimum-area rectangle around the points projected
//! onto the perpendicular plane, found exactly by rotating calipers ([`super::min_rect`]). Cycling
//! through the three axes is a coordinate descent on the rotation: the objective never increases,
//! and a step is taken only when it strictly shrinks the box.

use crate::fit::{covariance, min_rect};
use crate::{BoundingVolume, Obb, Point};
use nalgebra::{Matrix3, UnitQuaternion, Vector2};
use rand::{Rng, SeedableRng};

/// Full descent cycles (three axis steps each) before giving up on convergence.
const MAX_CYCLES: usize = 64;
/// A step must shrink the objective by this relative amount to count.
const MIN_GAIN: f64 = 1e-12;
/// Random orientations sampled as extra starts (besides the caller's frames).
const SAMPLES: usize = 64;
/// How many of the best starts are refined.
const REFINED_STARTS: usize = 4;
/// Seed of the sampled orientations, fixed so that fits are reproducible.
const SEED: u64 = 0x0bb7_7ee5;

/// Whether `a` is strictly smaller than `b`: by volume, and by surface area among equal volumes
/// (flat point sets all have volume zero; then the smallest rectangle wins).
fn smaller(a: &Obb, b: &Obb) -> bool {
    let (va, vb) = (a.volume(), b.volume());
    va < vb * (1.0 - MIN_GAIN)
        || (va <= vb && a.surface_area() < b.surface_area() * (1.0 - MIN_GAIN))
}

/// Refines `start` by the coordinate descent described in the module docs, over `points`
/// (non-empty; pass the convex hull's vertices for speed: the extremes are the same).
///
/// The result contains `points` (zero tolerance) and is never larger than `start` re-fitted to
/// `points` along its own axes, hence never larger than `start` if `start` contains them.
pub fn refine(points: &[Point], start: &Obb) -> Obb {
    let mut best = Obb::from_axes(start.axes, points);
    let mut projected = Vec::with_capacity(points.len());
    for _ in 0..MAX_CYCLES {
        let mut improved = false;
        for k in 0..3 {
            let (a, b, c) = (
                best.axes.column(k),
                best.axes.column((k + 1) % 3),
                best.axes.column((k + 2) % 3),
            );
            projected.clear();
            projected.extend(
                points
                    .iter()
                    .map(|p| Vector2::new(b.dot(&p.coords), c.dot(&p.coords))),
            );
            let Some((dir, _)) = min_rect::min_area_rectangle(&projected) else {
                break;
            };
            let nb = b * dir.x + c * dir.y;
            let mut axes = best.axes;
            axes.set_column((k + 1) % 3, &nb);
            axes.set_column((k + 2) % 3, &a.cross(&nb));
            let candidate = Obb::from_axes(covariance::orthonormalize(&axes), points);
            if smaller(&candidate, &best) {
                best = candidate;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    best
}

/// Eberly's minimum-volume box: the `starts` frames (e.g. the covariance frames) and
/// 64 seeded random orientations are sized to `points`, the 4
/// smallest are refined, and the smallest result is returned. It is never larger than the box
/// along any of the `starts` frames.
pub fn min_volume(points: &[Point], starts: &[Matrix3<f64>]) -> Obb {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(SEED);
    let sampled = (0..SAMPLES).map(|_| {
        let q = nalgebra::Quaternion::new(
            rng.gen::<f64>() - 0.5,
            rng.gen::<f64>() - 0.5,
            rng.gen::<f64>() - 0.5,
            rng.gen::<f64>() - 0.5,
        );
        UnitQuaternion::new_normalize(q)
            .to_rotation_matrix()
            .into_inner()
    });
    let mut boxes: Vec<Obb> = starts
        .iter()
        .copied()
        .chain(sampled)
        .map(|axes| Obb::from_axes(axes, points))
        .collect();
    boxes.sort_by(|a, b| {
        a.volume()
            .total_cmp(&b.volume())
            .then(a.surface_area().total_cmp(&b.surface_area()))
    });
    let mut best = boxes[0];
    for start in boxes.iter().take(REFINED_STARTS) {
        let refined = refine(points, start);
        if smaller(&refined, &best) {
            best = refined;
        }
    }
    best
}
