//! A shape under a motion: conservative advancement on certified distances.

use super::MotionResult;
use crate::distance::{distance, within_margin, DistanceRequest};
use crate::error::QueryError;
use crate::kernel::posed::PosedOverlap;
use crate::model::Model;
use obbtree_bv::{Motion, Pose};

/// At most this many steps; beyond them the motion is undecided.
const MAX_STEPS: usize = 100_000;

/// The first time `b`, following `motion` (in A's frame), comes within `tolerance` of `a`:
/// at each step, a hit if the two are exactly within `tolerance`; otherwise the certified
/// lower bound of their distance, less `slack`, divided by the speed bound of B's box, is a
/// time with no contact ahead (no point of B moves farther), and the next step starts there.
/// Every time skipped is proven free, so the hit's time `t` is reported as `[t, t]`.
pub(super) fn first_contact<V: PosedOverlap>(
    a: &Model<V>,
    b: &Model<V>,
    motion: &Motion,
    tolerance: f64,
    slack: f64,
) -> Result<MotionResult, QueryError> {
    let here = Pose::identity();
    let speed = motion.speed_bound(b.bounds());
    let request = DistanceRequest::default();
    let mut t = 0.0;
    for _ in 0..MAX_STEPS {
        let pose = motion.pose_at(t);
        if let Some(pair) = within_margin(a, &here, b, &pose, tolerance)? {
            return Ok(MotionResult::hit([t, t], pair, false, tolerance));
        }
        let lower = distance(a, &here, b, &pose, &request)?.lower - slack;
        // No point of B moves farther than `lower` before `t + step` (the factor absorbs the
        // rounding of the division and the sum).
        let step = lower / speed * (1.0 - 1e-12);
        if speed == 0.0 || t + step > 1.0 {
            return Ok(MotionResult::free(false, tolerance));
        }
        if step.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            break;
        }
        t += step;
    }
    Err(QueryError::MotionUndecided { tolerance })
}
