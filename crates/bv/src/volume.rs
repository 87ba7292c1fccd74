//! The interface every bounding volume offers to the hierarchies.

use crate::fit::covariance::TriangleMoments;
use crate::{Point, Pose, Vector};

/// A closed bounding volume that a hierarchy can be built from.
pub trait BoundingVolume: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The fitting method selectable for this volume type (e.g. covariance vs. hull for OBBs).
    type Method: Copy + Default + std::fmt::Debug + Send + Sync + 'static;

    /// Fits a volume around `points` by `method`. `points` is never empty.
    fn fit_points(points: &[Point], method: Self::Method) -> Self;

    /// Fits a volume around triangles given as vertex triples. `triangles` is never empty.
    fn fit_triangles(triangles: &[[Point; 3]], method: Self::Method) -> Self;

    /// [`Self::fit_triangles`] given each triangle's [`TriangleMoments`] too (`moments[k]` those of
    /// `triangles[k]`), which hierarchies compute once per triangle rather than once per node.
    /// Must return exactly what `fit_triangles` returns (refitting relies on it); the default
    /// ignores the moments.
    fn fit_triangles_with_moments(
        triangles: &[[Point; 3]],
        moments: &[TriangleMoments],
        method: Self::Method,
    ) -> Self {
        let _ = moments;
        Self::fit_triangles(triangles, method)
    }

    /// A volume containing both `self` and `other` (for bottom-up building and refitting).
    fn merge(&self, other: &Self) -> Self;

    /// This volume moved by `motion`; types that cannot represent a rotated copy re-bound it.
    fn transformed(&self, motion: &Pose) -> Self;

    /// Whether `p` lies in the closed volume, allowing `tolerance` (absolute distance).
    fn contains_point(&self, p: &Point, tolerance: f64) -> bool;

    /// Enclosed volume.
    fn volume(&self) -> f64;

    /// Surface area.
    fn surface_area(&self) -> f64;

    /// A representative centre (used by split heuristics and traversal order).
    fn center(&self) -> Point;

    /// Unit directions along which the volume is longest, longest first: the candidate split
    /// axes of a top-down build (Gottschalk, Lin & Manocha 1996, §4: split the node across the
    /// longest axis of its OBB, then try the others). The default `None` lets the builder use the
    /// coordinate axes ordered by the spread of the triangle centroids.
    fn split_axes(&self) -> Option<[Vector; 3]> {
        None
    }

    /// The candidate split axes of a top-down build for the node of `triangles` (with their
    /// `moments`, as in [`Self::fit_triangles_with_moments`]) whose volume, fitted by `method`,
    /// is `self`. By default the volume's own [`Self::split_axes`]; a volume type whose fits
    /// differ in orientation may split every tree along one fit's axes, so that the method
    /// changes the stored volumes but not which triangles share a node (of leaves made by
    /// count: which leaves are large enough to split further is judged by the fitted volume).
    fn split_axes_for(
        &self,
        triangles: &[[Point; 3]],
        moments: &[TriangleMoments],
        method: Self::Method,
    ) -> Option<[Vector; 3]> {
        let _ = (triangles, moments, method);
        self.split_axes()
    }
}
