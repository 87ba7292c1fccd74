//! Points against a mesh: each point's closest point, its distance and triangle, and with a
//! sign from exact containment, batched over rayon's pool.
//!
//! Each point is moved into the mesh's frame and measured by a best-first walk over the tree
//! with the point's distance to each node's rectangle swept sphere as the bound, and the
//! closest triangle certified at the end (`distance/point.rs`). So every answer carries the
//! two-model distance guarantee: `|d − d*| ≤ 1e-12·(d* + L)` (`L` the largest coordinate of
//! the mesh and the point), a certified interval `lower ≤ d* ≤ upper`, a triangle whose
//! distance to the point is within the same bound, and 0 exactly when the point lies on the
//! surface (in the mesh's frame). A maximum distance caps the walk, so far points are cheap,
//! and is decided exactly near the limit. Within one batch, points are taken along a Morton
//! curve in chunks, and each point's walk starts from the triangle closest to the one before.

use crate::collide::{contains_point, PosedOverlap};
use crate::distance::point_distance;
use crate::error::{
    check_each, check_placed, check_point, check_tolerance, BatchError, Operand, QueryError,
};
use crate::model::{MeshModel, Model};
use obbtree_bv::{Point, Pose};
use rayon::prelude::*;

/// Points per chunk: consecutive points of a chunk share the previous answer as a hint.
const CHUNK: usize = 256;

/// What to ask about each point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointRequest {
    /// Points farther than this from the model get `None` (decided exactly: a point at exactly
    /// this distance is answered). A non-negative finite number; `None` for no limit.
    pub max_distance: Option<f64>,
    /// Negative distances inside the model's closed solid (exact containment: a point on the
    /// surface is at distance 0). Needs a closed mesh.
    pub signed: bool,
}

impl PointRequest {
    /// The same request with points beyond `max_distance` left unanswered.
    pub fn with_max_distance(self, max_distance: Option<f64>) -> Self {
        Self {
            max_distance,
            ..self
        }
    }

    /// The same request with signed distances on or off.
    pub fn with_signed(self, signed: bool) -> Self {
        Self { signed, ..self }
    }
}

/// A point's closest point on the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The distance from the point to the model's surface (with [`PointRequest::signed`],
    /// negative inside the solid).
    pub distance: f64,
    /// The certified interval of the unsigned distance: `lower ≤ d* ≤ upper`.
    pub lower: f64,
    /// See [`ClosestPoint::lower`].
    pub upper: f64,
    /// The closest triangle.
    pub triangle: u32,
    /// The closest point of that triangle, in the world frame.
    pub point: Point,
}

/// The closest point of `model` placed by `pose` to each of `points` (world frame), in the
/// order of `points`; `None` for a point beyond [`PointRequest::max_distance`]. See the module
/// docs for the guarantee.
///
/// An error names the first point that is not finite or lies beyond
/// [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE) (its index), or says why the request is
/// refused (at index 0): a shape (this asks for triangles), a negative or non-finite maximum
/// distance, a signed request on an open mesh. A placement out of the exact range is refused
/// at the first point it concerns.
///
/// ```
/// use obbtree_bv::{Point, Pose, TriMesh};
/// use obbtree_query::{closest_points, Model, PointRequest};
///
/// let cube: Model = Model::new(TriMesh::cuboid(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0))?)?;
/// let points = [Point::new(3.0, 0.0, 0.0), Point::new(0.0, 0.5, 0.0)];
/// let request = PointRequest::default().with_signed(true);
/// let found = closest_points(&cube, &Pose::identity(), &points, &request)?;
/// let [outside, inside] = [found[0].unwrap(), found[1].unwrap()];
/// assert_eq!((outside.distance, outside.point), (2.0, Point::new(1.0, 0.0, 0.0)));
/// assert_eq!((inside.distance, inside.point), (-0.5, Point::new(0.0, 1.0, 0.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn closest_points<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    points: &[Point],
    request: &PointRequest,
) -> Result<Vec<Option<ClosestPoint>>, BatchError> {
    let at_start = |source| BatchError { index: 0, source };
    let mesh = check_request(model, pose, request).map_err(at_start)?;
    check_each(points, check_point)?;
    let size = largest_coordinate(mesh);
    let order = spatial_order(points);
    let answered: Vec<(usize, Result<Option<ClosestPoint>, QueryError>)> = order
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut hint = None;
            chunk.iter().map(move |&index| {
                let answer =
                    closest_point(model, mesh, pose, &points[index], request, (hint, size));
                hint = answer.as_ref().ok().and_then(|a| a.map(|a| a.triangle));
                (index, answer)
            })
        })
        .collect();
    // Back in the order of `points`, so that an error names the first point it concerns.
    let mut answers: Vec<Result<Option<ClosestPoint>, QueryError>> =
        (0..points.len()).map(|_| Ok(None)).collect();
    for (index, answer) in answered {
        answers[index] = answer;
    }
    answers
        .into_iter()
        .enumerate()
        .map(|(index, answer)| answer.map_err(|source| BatchError { index, source }))
        .collect()
}

/// The largest coordinate magnitude of the mesh's vertices, from its stored bounds.
fn largest_coordinate<V>(mesh: &MeshModel<V>) -> f64 {
    let bounds = mesh.bounds();
    bounds.mins.coords.amax().max(bounds.maxs.coords.amax())
}

/// The indices of `points` along a Morton (Z-order) curve over their bounding box, so that
/// consecutive points are near each other and each one's search starts close to its answer.
fn spatial_order(points: &[Point]) -> Vec<usize> {
    let Some(first) = points.first() else {
        return Vec::new();
    };
    let (lo, hi) = points
        .iter()
        .fold((*first, *first), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
    let extent = hi - lo;
    let cell = |p: &Point, k: usize| {
        let unit = if extent[k] > 0.0 {
            (p[k] - lo[k]) / extent[k]
        } else {
            0.0
        };
        (unit * f64::from(MORTON_CELLS - 1)) as u64
    };
    let key = |p: &Point| (0..3).fold(0u64, |key, k| key | spread(cell(p, k)) << k);
    let mut order: Vec<(u64, usize)> = points.par_iter().map(key).zip(0..points.len()).collect();
    order.par_sort_unstable();
    order.into_iter().map(|(_, index)| index).collect()
}

/// Cells per axis of the Morton order (21 bits, three of which fit a `u64`).
const MORTON_CELLS: u32 = 1 << 21;

/// The 21 low bits of `x` spread to every third bit.
fn spread(x: u64) -> u64 {
    let mut x = x & 0x1f_ffff;
    x = (x | x << 32) & 0x1f_0000_0000_ffff;
    x = (x | x << 16) & 0x1f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    (x | x << 2) & 0x1249_2492_4924_9249
}

/// The model's mesh, when the model is a mesh placed in the exact range by `pose`, the maximum
/// distance a non-negative finite number, and a signed request's mesh closed.
fn check_request<'m, V: PosedOverlap>(
    model: &'m Model<V>,
    pose: &Pose,
    request: &PointRequest,
) -> Result<&'m MeshModel<V>, QueryError> {
    let mesh = model.mesh_for(Operand::Model, "closest_points")?;
    check_placed(mesh, pose, Operand::Model)?;
    if let Some(max) = request.max_distance {
        check_tolerance("max_distance", max)?;
    }
    if request.signed && !mesh.is_closed() {
        return Err(QueryError::SignOfOpenMesh);
    }
    mesh.distance_index();
    Ok(mesh)
}

/// One point's answer (see [`closest_points`]), the search seeded with the triangle `hint`;
/// `size` is the mesh's largest coordinate magnitude.
fn closest_point<V: PosedOverlap>(
    model: &Model<V>,
    mesh: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    request: &PointRequest,
    (hint, size): (Option<u32>, f64),
) -> Result<Option<ClosestPoint>, QueryError> {
    let q = pose.inverse_transform_point(p);
    check_point(&q)?;
    let Some(found) = point_distance(mesh, &q, hint, request.max_distance, size) else {
        return Ok(None);
    };
    let inside = request.signed && found.distance > 0.0 && contains_point(model, pose, p)?;
    Ok(Some(ClosestPoint {
        distance: if inside {
            -found.distance
        } else {
            found.distance
        },
        lower: found.lower,
        upper: found.upper,
        triangle: found.triangle,
        point: pose.transform_point(&found.point),
    }))
}
