//! Points against a model: each point's closest point on the model, its distance, and with a
//! sign from exact containment, batched over rayon's pool.
//!
//! A point is measured as a model of its own: a mesh of one vertex (one triangle whose three
//! corners coincide, the core of a sphere of radius 0), placed by a translation. So every
//! answer is a two-model [`distance`] and carries its guarantee: `|d − d*| ≤ 1e-12·(d* + L)`
//! (`L` the size of the meshes' coordinates), a certified interval `lower ≤ d* ≤ upper`, and a
//! triangle whose distance to the point is within the same bound. A maximum distance is
//! decided first by the exact margin test ([`within_margin`]), whose descent prunes every node
//! farther than it, so far points are cheap. Within one batch, points are taken in chunks and
//! each point's search starts from the triangle closest to the one before (the previous
//! answer as [`DistanceRequest::hint`]), which pays for points that arrive in spatial order.

use crate::collide::{contains_point, PosedOverlap};
use crate::distance::{distance, within_margin, DistanceRequest};
use crate::error::{check_each, check_point, check_tolerance, BatchError, Operand, QueryError};
use crate::model::Model;
use obbtree_bv::{Point, Pose, TriMesh};
use obbtree_tree::TreeVolume;
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
pub fn closest_points<V: PosedOverlap + TreeVolume>(
    model: &Model<V>,
    pose: &Pose,
    points: &[Point],
    request: &PointRequest,
) -> Result<Vec<Option<ClosestPoint>>, BatchError> {
    let at_start = |source| BatchError { index: 0, source };
    check_request(model, request).map_err(at_start)?;
    check_each(points, check_point)?;
    let probe = &probe::<V>();
    let answers: Vec<Result<Option<ClosestPoint>, QueryError>> = points
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut hint = None;
            chunk.iter().map(move |p| {
                let answer = closest_point(model, pose, probe, p, request, hint)?;
                hint = answer.map(|a| [a.triangle, 0]);
                Ok(answer)
            })
        })
        .collect();
    answers
        .into_iter()
        .enumerate()
        .map(|(index, answer)| answer.map_err(|source| BatchError { index, source }))
        .collect()
}

/// `Ok` when the model is a mesh, the maximum distance a non-negative finite number, and a
/// signed request's mesh closed.
fn check_request<V>(model: &Model<V>, request: &PointRequest) -> Result<(), QueryError> {
    let mesh = model.mesh_for(Operand::Model, "closest_points")?;
    if let Some(max) = request.max_distance {
        check_tolerance("max_distance", max)?;
    }
    if request.signed && !mesh.is_closed() {
        return Err(QueryError::SignOfOpenMesh);
    }
    Ok(())
}

/// The model of one point at the origin: a mesh of one vertex.
fn probe<V: TreeVolume>() -> Model<V> {
    let mesh = TriMesh::new(vec![Point::origin()], vec![[0, 0, 0]]);
    Model::new(mesh.expect("one vertex is a valid mesh")).expect("one vertex has a tree")
}

/// One point's answer (see [`closest_points`]), the search seeded with `hint`.
fn closest_point<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    probe: &Model<V>,
    p: &Point,
    request: &PointRequest,
    hint: Option<[u32; 2]>,
) -> Result<Option<ClosestPoint>, QueryError> {
    let at =
        Pose::from_translation(p.coords).map_err(|_| QueryError::InvalidPoint(p.coords.into()))?;
    if let Some(max) = request.max_distance {
        if within_margin(model, pose, probe, &at, max)?.is_none() {
            return Ok(None);
        }
    }
    let request_hinted = DistanceRequest::default().with_hint(hint);
    let found = distance(model, pose, probe, &at, &request_hinted)?;
    let inside = request.signed && found.distance > 0.0 && contains_point(model, pose, p)?;
    Ok(Some(ClosestPoint {
        distance: if inside {
            -found.distance
        } else {
            found.distance
        },
        lower: found.lower,
        upper: found.upper,
        triangle: found.pair[0],
        point: found.point_a,
    }))
}
