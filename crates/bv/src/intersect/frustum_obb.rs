//! Frustum–OBB classification.

use super::{containment::RegionRelation, frustum::Frustum, plane_obb};
use crate::Obb;

/// The two-vertex test of [`super::frustum_aabb::classify`] for an oriented box (*Real-Time
/// Rendering*, 3rd ed. (2008), §16.14), the n/p-vertices evaluated as centre value ∓
/// projected radius ([`plane_obb::interval`]). Conservative near frustum edges.
pub fn classify(frustum: &Frustum, obb: &Obb) -> RegionRelation {
    RegionRelation::from_plane_ranges(
        frustum
            .planes()
            .iter()
            .map(|plane| plane_obb::interval(plane, obb)),
    )
}
