//! Shaft culling: the region between two AABBs, and shaft–AABB / shaft–sphere tests.

use super::{containment::RegionRelation, plane::Plane, plane_aabb};
use crate::{Aabb, Point, Sphere, Vector};

/// The region between two AABBs: their joint bounding box cut by planes through corresponding
/// edges of the two boxes (E. Haines, J. Wallace, "Shaft Culling for Efficient Ray-Traced
/// Radiosity", Eurographics Workshop on Rendering 1991, in *Photorealistic Rendering in
/// Computer Graphics*, Springer 1994; *Real-Time Rendering*, 3rd ed. (2008), §16.15). It
/// contains the convex hull of the two boxes and every plane touches both boxes, but it is not
/// always the hull: hull faces spanned by non-parallel edges (cutting a corner of the joint
/// box) are not added, as in the paper, so the shaft is conservative there. Planes have unit
/// normals pointing out of the shaft.
#[derive(Clone, Debug, PartialEq)]
pub struct Shaft {
    bounds: Aabb,
    planes: Vec<Plane>,
}

impl Shaft {
    /// The shaft between `a` and `b`. For each face of the joint box, note which box alone
    /// reaches it; for each pair of faces on different axes reached by different boxes, the
    /// plane through the two boxes' edges along those faces bounds the hull.
    pub fn new(a: &Aabb, b: &Aabb) -> Self {
        let bounds = Aabb::new(a.mins.inf(&b.mins), a.maxs.sup(&b.maxs));
        // bound(box, axis, side): side 0 = min face, 1 = max face.
        let bound = |x: &Aabb, k: usize, side: usize| if side == 0 { x.mins[k] } else { x.maxs[k] };
        // Some(true) when only `a` reaches that face of the joint box, Some(false) only `b`.
        let owner = |k: usize, side: usize| {
            let (ea, eb) = (
                bound(a, k, side) == bound(&bounds, k, side),
                bound(b, k, side) == bound(&bounds, k, side),
            );
            (ea != eb).then_some(ea)
        };
        let mut planes = Vec::new();
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            for (si, sj) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let (Some(oi), Some(oj)) = (owner(i, si), owner(j, sj)) else {
                    continue;
                };
                if oi == oj {
                    continue;
                }
                let (ei, ej) = (
                    bound(b, i, si) - bound(a, i, si),
                    bound(b, j, sj) - bound(a, j, sj),
                );
                let sign = |side: usize| if side == 0 { -1.0 } else { 1.0 };
                let mut normal = Vector::zeros();
                normal[i] = sign(si) * ej.abs();
                normal[j] = sign(sj) * ei.abs();
                let mut on_plane = Point::origin();
                on_plane[i] = bound(a, i, si);
                on_plane[j] = bound(a, j, sj);
                planes.extend(Plane::from_point_normal(&on_plane, normal).normalized());
            }
        }
        Self { bounds, planes }
    }

    /// The joint bounding box of the two boxes.
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }

    /// The cutting planes (unit normals, pointing out of the shaft; at most 8).
    pub fn planes(&self) -> &[Plane] {
        &self.planes
    }

    /// Whether `p` lies in the closed shaft.
    pub fn contains_point(&self, p: &Point) -> bool {
        (0..3).all(|k| self.bounds.mins[k] <= p[k] && p[k] <= self.bounds.maxs[k])
            && self.planes.iter().all(|pl| pl.eval(p) <= 0.0)
    }
}

/// Shaft–AABB (Haines & Wallace 1994): the box against the shaft's bounds, then against each
/// plane (n/p vertices). Outside if outside the bounds or any plane; inside if inside the
/// bounds and all planes; otherwise intersecting (conservative near edges).
pub fn classify_aabb(shaft: &Shaft, aabb: &Aabb) -> RegionRelation {
    let bounds = shaft.bounds();
    let box_ranges = (0..3).flat_map(|k| {
        [
            (bounds.mins[k] - aabb.maxs[k], bounds.mins[k] - aabb.mins[k]),
            (aabb.mins[k] - bounds.maxs[k], aabb.maxs[k] - bounds.maxs[k]),
        ]
    });
    let plane_ranges = shaft.planes().iter().map(|plane| {
        let (v_min, v_max) = plane_aabb::diagonal(plane, aabb);
        (plane.eval(&v_min), plane.eval(&v_max))
    });
    RegionRelation::from_plane_ranges(box_ranges.chain(plane_ranges))
}

/// Shaft–sphere (Haines & Wallace 1994): the sphere against the shaft's bounds (squared
/// distance to the closest point, Arvo), then the signed distance to each plane.
pub fn classify_sphere(shaft: &Shaft, sphere: &Sphere) -> RegionRelation {
    let (bounds, c, r) = (shaft.bounds(), &sphere.center, sphere.radius);
    let closest = c.sup(&bounds.mins).inf(&bounds.maxs);
    if (closest - c).norm_squared() > r * r {
        return RegionRelation::Outside;
    }
    let box_ranges = (0..3).flat_map(|k| {
        [
            (bounds.mins[k] - c[k] - r, bounds.mins[k] - c[k] + r),
            (c[k] - r - bounds.maxs[k], c[k] + r - bounds.maxs[k]),
        ]
    });
    let plane_ranges = shaft.planes().iter().map(|plane| {
        let dist = plane.eval(c);
        (dist - r, dist + r)
    });
    RegionRelation::from_plane_ranges(box_ranges.chain(plane_ranges))
}
