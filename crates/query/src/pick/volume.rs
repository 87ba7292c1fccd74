//! The one operation ordered traversal needs from a bounding volume: where a ray enters it.

use super::ray::MeshRay;
use obbtree_bv::intersect::{ray_kdop, ray_obb, ray_sphere};
use obbtree_bv::{Aabb, Kdop, Obb, Sphere};

/// `1 + 2·γ(3)` with `γ(n) = nε / (1 - nε)`: the factor by which the far slab distance of the
/// reciprocal-direction slab test is enlarged so that rounding never rejects a box the ray
/// touches (T. Ize, "Robust BVH ray traversal", JCGT 2(2), 2013; Pharr, Jakob & Humphreys,
/// *Physically Based Rendering*, 3rd ed., §3.9.2).
pub(crate) const ROBUST_FAR: f64 = 1.0 + 2.0 * (3.0 * f64::EPSILON / (1.0 - 3.0 * f64::EPSILON));

/// `1 - 2·γ(3)`: the factor by which a positive entry parameter of the slab test is shrunk
/// before the traversal compares it with the best hit so far, so that rounding never puts the
/// entry of a box beyond a hit on its boundary (a node entered exactly at the best `t`, where
/// a lower triangle index may win the tie, is still visited).
pub(crate) const ROBUST_NEAR: f64 = 1.0 - 2.0 * (3.0 * f64::EPSILON / (1.0 - 3.0 * f64::EPSILON));

/// Relative padding (in ulps of the coordinates involved) of the volumes tested through the
/// `bv` slab and sphere tests, whose dot products and divisions round: a point of the volume's
/// boundary that the ray passes through exactly is never rejected.
const PAD_ULPS: f64 = 16.0 * f64::EPSILON;

/// The OBB, sphere and k-DOP tests run on [`MeshRay::unit`], the ray with its direction scaled
/// by a power of two into `[1, 2)` (exact), and convert the entry parameter back: their
/// arithmetic (dot products with the direction, its square for the sphere) then stays in
/// range for every finite non-zero direction (a 1e-300 direction squared underflowed to zero
/// and made sphere trees miss hits).
///
/// A bounding volume a ray can be walked through (test the ray against a node's volume before
/// descending: Akenine-Möller, Haines & Hoffman, *Real-Time Rendering*, 3rd ed. 2008, §16.1).
pub trait RayVolume: obbtree_tree::TreeVolume {
    /// The parameter at which `ray` enters the closed volume (0 if its origin is inside), if it
    /// does so at some `t` in `[0, t_max]`. Conservative: rounding may only accept, never
    /// reject, a volume the exact ray meets within `[0, t_max]`.
    fn entry(&self, ray: &MeshRay, t_max: f64) -> Option<f64>;
}

impl RayVolume for Aabb {
    /// Slab test with the precomputed reciprocal direction and ordered slab ends (Williams et
    /// al. 2005), made robust by Ize's far-distance factor. A zero direction component gives
    /// `±inf` distances, or NaN when the origin lies exactly on that slab's plane; the
    /// comparisons below ignore NaN, which is the right answer there (the origin is in the
    /// closed slab), so no branch is needed for parallel rays.
    #[inline]
    fn entry(&self, ray: &MeshRay, t_max: f64) -> Option<f64> {
        let (mut t0, mut t1) = (0.0f64, t_max * ROBUST_FAR);
        for i in 0..3 {
            let (near, far) = if ray.negative[i] {
                (self.maxs[i], self.mins[i])
            } else {
                (self.mins[i], self.maxs[i])
            };
            let o = ray.ray.origin[i];
            let t_near = (near - o) * ray.inv_dir[i];
            let t_far = (far - o) * ray.inv_dir[i] * ROBUST_FAR;
            if t_near > t0 {
                t0 = t_near;
            }
            if t_far < t1 {
                t1 = t_far;
            }
        }
        (t0 <= t1).then_some(t0 * ROBUST_NEAR)
    }
}

/// The padding for a volume whose coordinates have magnitude up to `scale`.
fn pad(ray: &MeshRay, scale: f64) -> f64 {
    PAD_ULPS * (scale + ray.origin_scale)
}

impl RayVolume for Obb {
    /// [`ray_obb::interval`] on the box grown by a few ulps of its coordinates.
    fn entry(&self, ray: &MeshRay, t_max: f64) -> Option<f64> {
        let mut padded = *self;
        let grow = pad(ray, self.center.coords.amax() + self.half_extents.sum());
        padded.half_extents.add_scalar_mut(grow);
        let (s0, _) = ray_obb::interval(&ray.unit, &padded)?;
        let t0 = ray.from_unit(s0);
        (t0 <= t_max).then_some(t0)
    }
}

impl RayVolume for Sphere {
    /// [`ray_sphere::cast`] on the ball grown by a few ulps of its coordinates.
    fn entry(&self, ray: &MeshRay, t_max: f64) -> Option<f64> {
        let grow = pad(ray, self.center.coords.amax() + self.radius);
        let hit = ray_sphere::cast(&ray.unit, &Sphere::new(self.center, self.radius + grow))?;
        let t = ray.from_unit(hit.t);
        (t <= t_max).then_some(t)
    }
}

impl<const A: usize> RayVolume for Kdop<A> {
    /// [`ray_kdop::interval`] on the polytope grown by a few ulps of its slab values (the axes
    /// have integer components of magnitude at most 1, so `|axis · origin| <= 3 |origin|∞`).
    fn entry(&self, ray: &MeshRay, t_max: f64) -> Option<f64> {
        let scale = self
            .min
            .iter()
            .chain(&self.max)
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let grow = pad(ray, scale + 2.0 * ray.origin_scale);
        let mut padded = *self;
        padded.min.iter_mut().for_each(|v| *v -= grow);
        padded.max.iter_mut().for_each(|v| *v += grow);
        let (s0, _) = ray_kdop::interval(&ray.unit, &padded)?;
        let t0 = ray.from_unit(s0);
        (t0 <= t_max).then_some(t0)
    }
}
