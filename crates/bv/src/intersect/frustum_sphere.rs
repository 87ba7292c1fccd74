//! Frustum–sphere classification.

use super::{containment::RegionRelation, frustum::Frustum, plane::Plane};
use crate::Sphere;

/// Signed distances to the six planes (*Real-Time Rendering*, 3rd ed. (2008), §16.14): some
/// `> r` → outside; all `<= -r` → inside; otherwise intersecting. Conservative: a sphere
/// outside near a frustum edge or corner may be reported intersecting (the approximation the
/// book accepts for speed).
pub fn classify(frustum: &Frustum, sphere: &Sphere) -> RegionRelation {
    classify_planes(frustum.planes().iter(), sphere)
}

/// The octant speed-up (*Real-Time Rendering*, 3rd ed. (2008), §16.14, after Assarsson &
/// Möller, "Optimized view frustum culling algorithms for bounding boxes", JGT 2000): of each
/// pair of opposite planes only the one on the centre's side of their mid-plane is tested (3
/// planes instead of 6). With mid-planes that are the loci of equal signed distance, the
/// untested plane's distance never exceeds the tested one's, so the answer equals
/// [`classify`]'s (up to the rounding of ties) for every sphere: the book's restriction
/// (radius below the frustum's inradius) is not needed.
pub fn classify_octant(frustum: &Frustum, sphere: &Sphere) -> RegionRelation {
    let planes = frustum.planes();
    let chosen = (0..3).map(|k| {
        let far_side = frustum.mid_planes()[k].eval(&sphere.center) < 0.0;
        &planes[2 * k + usize::from(far_side)]
    });
    classify_planes(chosen, sphere)
}

fn classify_planes<'a>(planes: impl Iterator<Item = &'a Plane>, sphere: &Sphere) -> RegionRelation {
    let r = sphere.radius;
    RegionRelation::from_plane_ranges(planes.map(|plane| {
        let dist = plane.eval(&sphere.center);
        (dist - r, dist + r)
    }))
}
