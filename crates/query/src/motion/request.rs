//! What a continuous query asks and answers.

use crate::error::{check_time_tolerance, check_tolerance, QueryError};
use serde::{Deserialize, Serialize};

/// The time tolerance by default: the first contact time is bracketed within `10⁻⁹`.
pub const DEFAULT_TIME_TOLERANCE: f64 = 1e-9;

/// A continuous collision query's options ([`collide_motion`](crate::collide_motion)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotionRequest {
    /// The distance tolerance `δ` of a motion that rotates, or that involves a shape: a hit may
    /// be reported where the models come within `δ` of each other without touching. `None`:
    /// `10⁻⁹` of the larger model's size (see the module docs for the floor every `δ` is raised
    /// to). Two meshes that only translate are decided exactly and ignore it.
    pub tolerance: Option<f64>,
    /// The largest width `hi − lo` of the reported interval of a rotating motion, in `(0, 1]`
    /// (a translation of two meshes is bracketed within `10⁻¹²` whatever it is).
    pub time_tolerance: f64,
}

impl Default for MotionRequest {
    fn default() -> Self {
        Self {
            tolerance: None,
            time_tolerance: DEFAULT_TIME_TOLERANCE,
        }
    }
}

impl MotionRequest {
    /// The same request with distance tolerance `tolerance`.
    pub fn with_tolerance(self, tolerance: f64) -> Self {
        Self {
            tolerance: Some(tolerance),
            ..self
        }
    }

    /// The same request with time tolerance `time_tolerance`.
    pub fn with_time_tolerance(self, time_tolerance: f64) -> Self {
        Self {
            time_tolerance,
            ..self
        }
    }

    /// `Ok` when both tolerances are valid.
    pub(crate) fn check(&self) -> Result<(), QueryError> {
        if let Some(tolerance) = self.tolerance {
            check_tolerance("tolerance", tolerance)?;
        }
        check_time_tolerance(self.time_tolerance)
    }
}

/// The answer to a continuous collision query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MotionResult {
    /// The models meet during the motion (within the tolerance where it applies).
    pub hit: bool,
    /// `[lo, hi]` in `[0, 1]`: the models do not touch before `lo`; for an exact answer the
    /// first contact time lies in `[lo, hi]`, otherwise they come within the tolerance of each
    /// other at some time in `[lo, hi]`. `[0, 0]` when they touch at the start.
    pub toi: Option<[f64; 2]>,
    /// The feature pair of the contact, `[triangle of A, triangle of B]` (a shape's feature
    /// is 0).
    pub pair: Option<[u32; 2]>,
    /// The answer is exact: two meshes under a pure translation, or contact at the start.
    pub exact: bool,
    /// The distance tolerance `δ` the answer was decided with (0 when exact).
    pub tolerance: f64,
}

impl MotionResult {
    /// No contact during the motion.
    pub(crate) fn free(exact: bool, tolerance: f64) -> Self {
        Self {
            exact,
            tolerance,
            ..Self::default()
        }
    }

    /// A contact bracketed by `toi`, at `pair`.
    pub(crate) fn hit(toi: [f64; 2], pair: [u32; 2], exact: bool, tolerance: f64) -> Self {
        Self {
            hit: true,
            toi: Some(toi),
            pair: Some(pair),
            exact,
            tolerance,
        }
    }
}
