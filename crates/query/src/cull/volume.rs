//! The one operation culling needs from a bounding volume: where it lies relative to a frustum.

use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::{frustum_aabb, frustum_obb, frustum_sphere};
use obbtree_bv::{Aabb, Kdop, Obb, Sphere};

/// A bounding volume that can be classified against a frustum (conservatively: `Outside` and
/// `Inside` are proven, `Intersecting` is the rest).
pub trait FrustumVolume {
    /// Where the volume lies relative to the closed frustum.
    fn classify(&self, frustum: &Frustum) -> RegionRelation;
}

impl FrustumVolume for Aabb {
    /// [`frustum_aabb::classify`] (n/p-vertex test).
    fn classify(&self, frustum: &Frustum) -> RegionRelation {
        frustum_aabb::classify(frustum, self)
    }
}

impl FrustumVolume for Obb {
    /// [`frustum_obb::classify`] (projected radius).
    fn classify(&self, frustum: &Frustum) -> RegionRelation {
        frustum_obb::classify(frustum, self)
    }
}

impl FrustumVolume for Sphere {
    /// [`frustum_sphere::classify_octant`] (three planes of six).
    fn classify(&self, frustum: &Frustum) -> RegionRelation {
        frustum_sphere::classify_octant(frustum, self)
    }
}

impl<const A: usize> FrustumVolume for Kdop<A> {
    /// The k-DOP's AABB ([`Kdop::aabb`], its first three slabs) classified by
    /// [`frustum_aabb::classify`]: the k-DOP lies in its AABB, so an AABB inside or outside
    /// proves the same of the k-DOP (conservative, cheaper than clipping the polytope).
    fn classify(&self, frustum: &Frustum) -> RegionRelation {
        frustum_aabb::classify(frustum, &self.aabb())
    }
}
