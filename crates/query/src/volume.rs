//! What the queries need of a volume type, one trait per family of queries, and one bound
//! for all of them ([`Volume`]).
//!
//! The volume types of `obbtree-bv` implement every trait here; the associated types of
//! [`PosedOverlap`] are public so that generic code can name them.

pub use crate::cull::FrustumVolume;
pub use crate::kernel::posed::{KdopRelative, PlacedObb, PoseAndMargin, PosedOverlap};
pub use crate::pick::RayVolume;
pub use obbtree_tree::TreeVolume;

/// Every query's needs of a volume type in one bound: code generic over `V: Volume` can build a
/// [`Model<V>`](crate::Model) and call every query on it, including in a scene.
///
/// ```
/// use obbtree_query::{collide, CollisionRequest, Model, QueryError, Volume};
/// use obbtree_bv::Pose;
///
/// fn touch<V: Volume>(a: &Model<V>, b: &Model<V>, b_pose: &Pose) -> Result<bool, QueryError> {
///     let request = CollisionRequest::default();
///     Ok(collide(a, &Pose::identity(), b, b_pose, &request)?.intersects)
/// }
/// ```
pub trait Volume: PosedOverlap + RayVolume + FrustumVolume + TreeVolume {}

impl<V: PosedOverlap + RayVolume + FrustumVolume + TreeVolume> Volume for V {}
