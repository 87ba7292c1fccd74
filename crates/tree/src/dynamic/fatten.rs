//! Fat boxes: the margin around a proxy's tight box that lets small motions leave the tree
//! untouched, the displacement prediction, and the check of the bounds users hand in.
//!
//! The policy is Box2D's (`b2DynamicTree::MoveProxy`, Box2D 2.4): a proxy's tree box is its
//! tight box grown by a margin and stretched along its predicted displacement; an update that
//! still fits in the stored fat box changes nothing, unless the stored box has grown much larger
//! than a fresh one would be (an object that moved fast and stopped), in which case the proxy is
//! reinserted with the fresh box.

use obbtree_bv::{Aabb, Vector, MAX_COORDINATE};
use thiserror::Error;

use super::ProxyId;

/// How far a fat box may exceed a fresh fat box, in units of the proxy's margin, before an
/// update shrinks it (Box2D 2.4 uses four margins).
const LOOSE_MARGINS: f64 = 4.0;

/// No fat box coordinate goes beyond `±FAT_LIMIT`, whatever the options: surface areas (up to
/// ~1e281) and the SAH sums over a path or over 2^32 leaves then stay finite.
const FAT_LIMIT: f64 = 1e140;

/// How a [`DynamicTree`](super::DynamicTree) fattens the boxes it is given.
///
/// The margin added on every side is `margin + relative_margin × (largest side of the tight
/// box)`. A larger margin means fewer tree updates and more pairs whose fat boxes meet while
/// their tight boxes do not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicOptions {
    /// Absolute margin, in scene units (Box2D uses 0.1 m for objects of about a metre).
    pub margin: f64,
    /// Margin as a fraction of the box's largest side (scale-free).
    pub relative_margin: f64,
    /// Factor on the displacement given to
    /// [`update_with_displacement`](super::DynamicTree::update_with_displacement): the fat box
    /// reaches that many steps ahead along it (Box2D 2.4 uses 4), unless it is longer than
    /// the box's largest side (a jump).
    pub displacement_scale: f64,
}

impl Default for DynamicOptions {
    /// No absolute margin, a tenth of the box's largest side, two steps of predicted motion.
    fn default() -> Self {
        Self {
            margin: 0.0,
            relative_margin: 0.1,
            displacement_scale: 2.0,
        }
    }
}

impl DynamicOptions {
    /// Panics unless every field is finite and non-negative.
    pub(super) fn validate(&self) {
        for (name, value) in [
            ("margin", self.margin),
            ("relative_margin", self.relative_margin),
            ("displacement_scale", self.displacement_scale),
        ] {
            assert!(
                value.is_finite() && value >= 0.0,
                "DynamicOptions::{name} must be finite and non-negative, got {value}"
            );
        }
    }

    /// The margin for `tight`.
    fn margin_for(&self, tight: &Aabb) -> f64 {
        self.margin + self.relative_margin * (tight.maxs - tight.mins).max()
    }

    /// The fat box of `tight`, stretched along `displacement` if one is given.
    pub(super) fn fatten(&self, tight: &Aabb, displacement: Option<&Vector>) -> Aabb {
        let mut fat = grow(tight, self.margin_for(tight));
        if let Some(d) = displacement.filter(|d| is_step(tight, d)) {
            let reach = d * self.displacement_scale;
            for i in 0..3 {
                if reach[i] < 0.0 {
                    fat.mins[i] += reach[i];
                } else {
                    fat.maxs[i] += reach[i];
                }
            }
        }
        clamp(&fat)
    }

    /// Whether the stored fat box may stay: it holds the new tight box and is not much larger
    /// than the fresh fat box.
    pub(super) fn still_fits(&self, stored: &Aabb, tight: &Aabb, fresh: &Aabb) -> bool {
        let loose = clamp(&grow(fresh, LOOSE_MARGINS * self.margin_for(tight)));
        contains(stored, tight) && contains(&loose, stored)
    }
}

/// Whether `displacement` is a step of a motion worth extrapolating: no longer than the
/// box's largest side. A longer one is a jump (an object set down elsewhere), and stretching
/// the fat box along it would sweep it across the space between, meeting every proxy there.
fn is_step(tight: &Aabb, displacement: &Vector) -> bool {
    displacement.amax() <= (tight.maxs - tight.mins).max()
}

/// `aabb` grown by `margin` on every side. The rounded corners never move inwards, so the
/// result contains `aabb` exactly.
fn grow(aabb: &Aabb, margin: f64) -> Aabb {
    let m = Vector::repeat(margin);
    Aabb::new(aabb.mins - m, aabb.maxs + m)
}

fn clamp(aabb: &Aabb) -> Aabb {
    let limit = |x: f64| x.clamp(-FAT_LIMIT, FAT_LIMIT);
    Aabb::new(aabb.mins.map(limit), aabb.maxs.map(limit))
}

/// Whether `outer` contains `inner` (closed boxes).
fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    (0..3).all(|i| outer.mins[i] <= inner.mins[i] && inner.maxs[i] <= outer.maxs[i])
}

/// Why a [`DynamicTree`](super::DynamicTree) refused a box, a displacement or a handle.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ProxyError {
    /// A coordinate is NaN or infinite.
    #[error("box {0:?} has a coordinate that is NaN or infinite")]
    NonFinite(Aabb),
    /// `mins` exceeds `maxs` on some axis (an empty box).
    #[error("box {aabb:?} is inverted on axis {axis} (mins above maxs)")]
    Inverted {
        /// The box.
        aabb: Aabb,
        /// The first axis on which `mins > maxs`.
        axis: usize,
    },
    /// A coordinate's magnitude exceeds [`MAX_COORDINATE`] (the meshes' limit).
    #[error("box {0:?} has a coordinate beyond ±{MAX_COORDINATE:e}; rescale the scene")]
    OutOfRange(Aabb),
    /// A displacement component is NaN or infinite.
    #[error("displacement {0:?} has a component that is NaN or infinite")]
    NonFiniteDisplacement(Vector),
    /// The handle names no proxy of this tree (removed, or from another tree).
    #[error("no proxy {0:?} in this tree")]
    UnknownProxy(ProxyId),
}

/// Accepts finite, non-inverted boxes within `±MAX_COORDINATE`.
pub(super) fn check_bounds(aabb: &Aabb) -> Result<(), ProxyError> {
    let corners = || aabb.mins.iter().chain(aabb.maxs.iter());
    if !corners().all(|c| c.is_finite()) {
        return Err(ProxyError::NonFinite(*aabb));
    }
    if let Some(axis) = (0..3).find(|&i| aabb.mins[i] > aabb.maxs[i]) {
        return Err(ProxyError::Inverted { aabb: *aabb, axis });
    }
    if corners().any(|c| c.abs() > MAX_COORDINATE) {
        return Err(ProxyError::OutOfRange(*aabb));
    }
    Ok(())
}

/// Accepts finite displacements (their reach is clamped with the fat box).
pub(super) fn check_displacement(d: &Vector) -> Result<(), ProxyError> {
    if d.iter().all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(ProxyError::NonFiniteDisplacement(*d))
    }
}
