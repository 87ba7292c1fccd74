//! Why a query refused its input: the one error type of every query.
//!
//! Poses are checked when they are made ([`Pose`]); what a query checks is the rest of its
//! numeric input (rays, distance limits, margins) and that the meshes, placed by the poses,
//! stay within the coordinate range in which its answers are exact. It checks them where the
//! input enters, before any work, so no path can skip them.

use crate::model::{MeshModel, Model};
use crate::parallel::pool_is_parallel;
use obbtree_bv::intersect::frustum::FrustumError;
use obbtree_bv::range::{placed_in_exact_range, RangeError};
use obbtree_bv::shape::ShapeError;
use obbtree_bv::{Point, Pose, Ray, Vector, MAX_COORDINATE};
use rayon::prelude::*;
use std::fmt;

/// Which of a query's meshes an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The first model of a two-model query.
    A,
    /// The second model of a two-model query.
    B,
    /// The model of a one-model query.
    Model,
}

impl Operand {
    /// The operand named as a model (`"model A"`, `"model B"`, `"the model"`): for errors about
    /// models that may be shapes.
    pub fn model(&self) -> &'static str {
        match self {
            Operand::A => "model A",
            Operand::B => "model B",
            Operand::Model => "the model",
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operand::A => "mesh A",
            Operand::B => "mesh B",
            Operand::Model => "the mesh",
        })
    }
}

/// Why a query could not be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// A mesh placed by the query's poses could have coordinates outside the range in which
    /// the exact tests are exact ([`obbtree_bv::range`]): too large, too fine, or not finite
    /// (a composed pose that overflowed).
    #[error("{which} placed at its pose: {reason}")]
    OutOfRange {
        /// The mesh.
        which: Operand,
        /// Which condition of the exact range fails.
        reason: RangeError,
    },
    /// The pose of a ray query translates beyond [`MAX_COORDINATE`]: the ray, moved into the
    /// mesh's frame, could leave the range in which the exact tests cannot overflow.
    #[error(
        "the mesh's pose translates by {translation:?}, beyond ±{MAX_COORDINATE:e} (the range in \
         which ray answers are exact)"
    )]
    TranslationOutOfRange {
        /// The pose's translation.
        translation: [f64; 3],
    },
    /// The ray's origin has a component beyond [`MAX_COORDINATE`] (or NaN), or its direction
    /// is not finite or zero.
    #[error(
        "the ray is not valid (origin {origin:?}, direction {dir:?}): the origin must be within \
         ±{MAX_COORDINATE:e} and the direction finite and non-zero"
    )]
    InvalidRay {
        /// The origin as given.
        origin: [f64; 3],
        /// The direction as given.
        dir: [f64; 3],
    },
    /// The ray's direction, in the mesh's frame, has a non-zero component below `2⁻¹⁰⁰⁰` of its
    /// largest: scaled to unit size for the exact tests, that component would underflow and the
    /// ray would be cast along another direction.
    #[error(
        "the ray's direction {dir:?} (in the mesh's frame) spans too many orders of magnitude: \
         every non-zero component must be at least 2^-1000 of the largest; set the tiny ones to 0"
    )]
    RayDirectionRange {
        /// The direction in the mesh's frame.
        dir: [f64; 3],
    },
    /// `max_t` is NaN or negative.
    #[error("max_t must be a non-negative number (or infinity), not {0}")]
    InvalidMaxT(f64),
    /// A point to classify has a coordinate beyond [`MAX_COORDINATE`] or NaN.
    #[error("the point {0:?} must be finite and within ±{MAX_COORDINATE:e}")]
    InvalidPoint([f64; 3]),
    /// The frustum, moved into the mesh's frame, has a degenerate plane.
    #[error(transparent)]
    Frustum(#[from] FrustumError),
    /// A distance margin is negative, NaN or infinite.
    #[error("the margin must be a non-negative finite number, not {0}")]
    InvalidMargin(f64),
    /// A distance tolerance (`rel_err` or `abs_err`) is negative, NaN or infinite.
    #[error("{name} must be a non-negative finite number, not {value}")]
    InvalidTolerance {
        /// Which tolerance: `"rel_err"`, `"abs_err"` or `"tolerance"`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// The query works on a mesh's triangles and this model is a shape.
    #[error("{} is a primitive shape, and {query} needs a mesh", which.model())]
    NotAMesh {
        /// The model.
        which: Operand,
        /// The query: `"distance"`, `"a ray"`, ...
        query: &'static str,
    },
    /// A shape placed at its pose (in the other model's frame) could not be placed exactly.
    #[error("{} (a shape) placed at its pose: {source}", which.model())]
    ShapePlacement {
        /// The model.
        which: Operand,
        /// Why the placement failed.
        source: ShapeError,
    },
    /// A continuous query's time tolerance is not a number in `(0, 1]`.
    #[error("the time tolerance must be a number in (0, 1], not {0}")]
    InvalidTimeTolerance(f64),
    /// A continuous query could not decide within its work limit: the motion keeps the models
    /// within a hair of the tolerance for a long stretch (sliding along each other), or moves
    /// so fast that the time steps would fall below `2⁻⁵⁶`. A larger tolerance decides it.
    #[error(
        "the motion could not be decided within the work limit (the models stay within about \
         the tolerance {tolerance:e} of each other for a long stretch); a larger tolerance \
         decides it"
    )]
    MotionUndecided {
        /// The distance tolerance used.
        tolerance: f64,
    },
    /// A grid of points is malformed: its corners not finite, beyond
    /// [`MAX_COORDINATE`] or out of order, a resolution 0, or an output buffer of the wrong
    /// length (the message says which).
    #[error("the grid's {0}")]
    InvalidGrid(&'static str),
    /// A distance hint names a triangle a mesh does not have.
    #[error(
        "the hint {pair:?} names no triangle pair (mesh A has {triangles_a} triangles, mesh B \
         {triangles_b})"
    )]
    InvalidHint {
        /// The hint given, `[triangle of A, triangle of B]`.
        pair: [u32; 2],
        /// Triangles of mesh A.
        triangles_a: usize,
        /// Triangles of mesh B.
        triangles_b: usize,
    },
}

/// An item of a batch (a ray, a pose) that could not be queried: the first one, by position.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("item {index} of the batch: {source}")]
pub struct BatchError {
    /// Position of the item in the batch.
    pub index: usize,
    /// Why.
    pub source: QueryError,
}

/// `Ok` when every item of `items` passes `check`; otherwise the first failure, with its index.
pub(crate) fn check_each<T: Sync>(
    items: &[T],
    check: impl Fn(&T) -> Result<(), QueryError> + Sync,
) -> Result<(), BatchError> {
    let failure =
        |(index, item): (usize, &T)| check(item).err().map(|source| BatchError { index, source });
    let first = if items.len() < PARALLEL_CHECKS || !pool_is_parallel() {
        items.iter().enumerate().find_map(failure)
    } else {
        items.par_iter().enumerate().find_map_first(failure)
    };
    first.map_or(Ok(()), Err)
}

/// Batches at least this long are checked on rayon's pool when it has more than one thread: a
/// pass on the calling thread leaves the pool idle before the batch's queries start (on a
/// one-thread pool, handing the pass over costs more than it saves).
const PARALLEL_CHECKS: usize = 4096;

/// `Ok` when every vertex of `model`'s mesh placed by `pose` (`R·p + t` in `f64`) certainly
/// stays in the exact range: [`placed_in_exact_range`], O(1) from the mesh's bounds and its
/// smallest nonzero coordinate.
pub(crate) fn check_placed<V>(
    model: &MeshModel<V>,
    pose: &Pose,
    which: Operand,
) -> Result<(), QueryError> {
    placed_in_exact_range(
        model.bounds(),
        model.smallest_nonzero_coordinate(),
        pose.rotation(),
        pose.translation(),
    )
    .map_err(|reason| QueryError::OutOfRange { which, reason })
}

/// `Ok` when `pose` translates by at most [`MAX_COORDINATE`] on each axis.
pub(crate) fn check_translation(pose: &Pose) -> Result<(), QueryError> {
    let t = pose.translation();
    if t.iter().all(|c| c.abs() <= MAX_COORDINATE) {
        Ok(())
    } else {
        Err(QueryError::TranslationOutOfRange {
            translation: (*t).into(),
        })
    }
}

/// `Ok` when `ray` can be cast: an origin within [`MAX_COORDINATE`] (the mesh rule, so the
/// exact predicates on the origin and the triangles cannot overflow; an origin at 6.7e153 made
/// `orient3d` return a wrong sign), and a finite, non-zero direction of any magnitude.
pub(crate) fn check_ray(ray: &Ray) -> Result<(), QueryError> {
    let valid = ray.origin.iter().all(|c| c.abs() <= MAX_COORDINATE)
        && ray.dir.iter().all(|c| c.is_finite())
        && ray.dir != Vector::zeros();
    if valid {
        Ok(())
    } else {
        Err(QueryError::InvalidRay {
            origin: ray.origin.coords.into(),
            dir: ray.dir.into(),
        })
    }
}

/// `Ok` when `dir` (a ray's direction in the mesh's frame) has no non-zero component below
/// `2⁻¹⁰⁰⁰` of its largest, so that scaling it to a largest component in `[1, 2)` (as the exact
/// ray–triangle test does) is exact: a direction of `(1.9e214, 2.2e-308, 2.2e-308)` lost its
/// small components and missed a triangle it crosses.
pub(crate) fn check_direction_range(dir: &Vector) -> Result<(), QueryError> {
    let smallest_allowed = dir.amax() * DIRECTION_RANGE;
    if dir.iter().all(|c| *c == 0.0 || c.abs() >= smallest_allowed) {
        Ok(())
    } else {
        Err(QueryError::RayDirectionRange { dir: (*dir).into() })
    }
}

/// `2⁻¹⁰⁰⁰`: the smallest ratio of a direction's non-zero components that
/// [`check_direction_range`] admits.
const DIRECTION_RANGE: f64 = 9.332636185032189e-302;

/// `Ok` for a ray length limit that is a non-negative number or `+∞`.
pub(crate) fn check_max_t(max_t: f64) -> Result<(), QueryError> {
    if max_t.is_nan() || max_t < 0.0 {
        Err(QueryError::InvalidMaxT(max_t))
    } else {
        Ok(())
    }
}

/// `Ok` for a point within [`MAX_COORDINATE`] (NaN fails). Any finite coordinate of that size
/// will do: the orientation predicates the point goes through are exact for all finite input
/// ([`obbtree_bv::predicates::orient3d`]).
pub(crate) fn check_point(p: &Point) -> Result<(), QueryError> {
    if p.iter().all(|c| c.abs() <= MAX_COORDINATE) {
        Ok(())
    } else {
        Err(QueryError::InvalidPoint(p.coords.into()))
    }
}

/// `Ok` for a distance margin that is a non-negative finite number.
pub(crate) fn check_margin(margin: f64) -> Result<(), QueryError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(QueryError::InvalidMargin(margin))
    }
}

/// `Ok` for a distance tolerance (named `name`) that is a non-negative finite number.
pub(crate) fn check_tolerance(name: &'static str, value: f64) -> Result<(), QueryError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(QueryError::InvalidTolerance { name, value })
    }
}

impl<V> Model<V> {
    /// The mesh form, or [`QueryError::NotAMesh`] naming `which` and `query`.
    pub(crate) fn mesh_for(
        &self,
        which: Operand,
        query: &'static str,
    ) -> Result<&MeshModel<V>, QueryError> {
        self.as_mesh().ok_or(QueryError::NotAMesh { which, query })
    }
}

/// `Ok` for a time tolerance in `(0, 1]`.
pub(crate) fn check_time_tolerance(value: f64) -> Result<(), QueryError> {
    if value > 0.0 && value <= 1.0 {
        Ok(())
    } else {
        Err(QueryError::InvalidTimeTolerance(value))
    }
}
