//! Points against a model, batched over rayon's pool: each point's closest point, its
//! distance and triangle, with a sign when asked ([`closest_points`]); its winding number
//! ([`winding_numbers`], `winding.rs`); whether the solid holds it ([`contains_points`]).
//!
//! Each point is moved into the mesh's frame and measured by a depth-first, nearer-child-first walk
//! (near the surface over the wide tree with its boxes as the bounds, farther out over the binary
//! tree with its rectangle swept spheres), and the closest triangle certified at the end
//! (`distance/point.rs`, `distance/point_wide.rs`, `distance/point_packet.rs`). So every answer
//! carries the two-model distance guarantee: `|d − d*| ≤ 1e-12·(d* + L)` (`L` the largest
//! coordinate of the mesh and the point), a certified interval `lower ≤ d* ≤ upper`, a triangle
//! whose distance to the point is within the same bound, and 0 exactly when the point lies on the
//! surface (in the mesh's frame). A maximum distance caps the walk, so far points are cheap, and is
//! decided exactly near the limit. Within one batch, points are taken along a Morton curve in
//! chunks, each walk starting from the triangle closest to the point before, and far from the
//! surface four consecutive points share one walk over the binary tree
//! (`distance/point_packet.rs`), each with its own best and bounds, so its answer is its own.
//!
//! The sign: on a closed mesh, exact containment (a ray's crossings, each decided by exact
//! orientations; within a batch, from a recent point whose side is known: nothing to cross when
//! the balls about the two points that their certified distances leave clear cover the segment
//! between them, else the crossings of the part between the balls). On an open mesh, the
//! generalized winding number against ½, refined until its rigorous bound decides the side,
//! or within a batch carried from the point before (its bracket shifted by the exact crossings
//! of the segment between them and widened by the bound on the winding number's gradient); a
//! point whose bound still straddles ½ once every near triangle is summed exactly is reported
//! as [`Side::Undecided`], never guessed.

mod grid;
mod winding;

pub use grid::{sdf_grid, sdf_grid_into, Grid};
pub use winding::Winding;

use crate::collide::{clear_radius, contains_after, contains_point, Known, PosedOverlap};
use crate::distance::{point_distance, point_distances, Packing, PointDistance, LANES};
use crate::error::{
    check_each, check_placed, check_point, check_tolerance, BatchError, Operand, QueryError,
};
use crate::model::{MeshModel, Model};
use crate::parallel::{map_each, pool_is_parallel};
use obbtree_bv::{Aabb, Point, Pose};
use rayon::prelude::*;
use winding::{carried_along, estimate, gradient_bound, winding_number, Bracket, Enough, ROOM};

/// Points per chunk: consecutive points of a chunk share the previous answer as a hint.
const CHUNK: usize = 256;

/// What to ask about each point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointRequest {
    /// Points farther than this from the model get `None` (decided exactly: a point at exactly
    /// this distance is answered). A non-negative finite number; `None` for no limit.
    pub max_distance: Option<f64>,
    /// Negative distances inside the model's solid: exact on a closed mesh (a point on the
    /// surface is at distance 0), from the winding number on an open one (see the module
    /// docs and [`ClosestPoint::side`]).
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
    /// Where the point lies, for a signed request (`None` otherwise). The distance is negative
    /// exactly when this is [`Side::Inside`].
    pub side: Option<Side>,
}

/// Where a point lies with respect to a model's solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Outside the solid (on an open mesh: winding number certainly below ½).
    Outside,
    /// On the surface: the distance is 0.
    Surface,
    /// Inside the solid (on an open mesh: winding number certainly above ½).
    Inside,
    /// On an open mesh, the winding number's bound straddles ½ even with every near triangle
    /// summed exactly; the distance is reported unsigned.
    Undecided,
}

/// What to ask of each point's winding number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindingRequest {
    /// On an open mesh (or on a closed mesh's surface), the walk refines its estimate until
    /// the bound is at most this (or every triangle near the point is summed exactly). A
    /// non-negative finite number.
    pub tolerance: f64,
}

impl Default for WindingRequest {
    /// A tolerance of `1e-4`.
    fn default() -> Self {
        Self { tolerance: 1e-4 }
    }
}

/// The closest point of `model` placed by `pose` to each of `points` (world frame), in the
/// order of `points`; `None` for a point beyond [`PointRequest::max_distance`]. See the module
/// docs for the guarantee.
///
/// An error names the first point that is not finite or lies beyond
/// [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE) (its index), or says why the request is
/// refused (at index 0): a shape (this asks for triangles), a negative or non-finite maximum
/// distance. A placement out of the exact range is refused
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
    let mesh = check_request(model, pose, request).map_err(at_start)?;
    let size = mesh.bounds().largest_coordinate();
    each_group(points, LANES, |group, last: &mut Last, answers| {
        if let Ok(group) = <&[Point; LANES]>::try_from(group) {
            let placed = group.map(|p| pose.inverse_transform_point(&p));
            if placed.iter().all(|q| check_point(q).is_ok()) {
                let max = request.max_distance;
                let found =
                    point_distances(mesh, &placed, last.triangle, max, size, Packing::Scattered);
                for ((p, q), found) in group.iter().zip(&placed).zip(found) {
                    let answer = answer(mesh, pose, [p, q], found, request, last);
                    last.triangle = answer.map(|a| a.triangle);
                    answers.push(Ok(answer));
                }
                return;
            }
        }
        for p in group {
            let answer = closest_point(mesh, pose, p, request, last, size);
            last.triangle = answer.as_ref().ok().and_then(|a| a.map(|a| a.triangle));
            answers.push(answer);
        }
    })
}

/// What one point's answer leaves the next in its chunk: the closest triangle (where the next
/// walk starts) and, on a closed mesh, the points lately known to lie off the surface with
/// their winding numbers (from which a short segment decides the next point's side); on an
/// open mesh, the last point off the surface with its winding number's bracket.
#[derive(Default)]
struct Last {
    triangle: Option<u32>,
    known: Known,
    open: Option<Bracketed>,
}

/// A point off an open mesh's surface (mesh frame), the certified lower bound on its distance
/// to the surface, and its winding number's bracket.
#[derive(Clone, Copy)]
struct Bracketed {
    point: Point,
    lower: f64,
    bracket: Bracket,
}

/// The winding number of the model's mesh placed by `pose` about each of `points` (world
/// frame), in the order of `points`: exact, an integer, on a closed mesh off its surface;
/// otherwise the generalized winding number within the request's tolerance (see
/// [`Winding`] and the module docs of `winding.rs`). Errors as for [`closest_points`].
///
/// ```
/// use obbtree_bv::{Point, Pose, TriMesh};
/// use obbtree_query::{winding_numbers, Model, WindingRequest};
///
/// let cube: Model = Model::new(TriMesh::cuboid(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0))?)?;
/// let points = [Point::new(0.5, 0.0, 0.0), Point::new(3.0, 0.0, 0.0)];
/// let w = winding_numbers(&cube, &Pose::identity(), &points, &WindingRequest::default())?;
/// assert_eq!((w[0].exact(), w[1].exact()), (Some(1), Some(0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn winding_numbers<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    points: &[Point],
    request: &WindingRequest,
) -> Result<Vec<Winding>, BatchError> {
    let mesh = model
        .mesh_for(Operand::Model, "winding_numbers")
        .and_then(|mesh| {
            check_placed(mesh, pose, Operand::Model)?;
            check_tolerance("tolerance", request.tolerance)?;
            Ok(mesh)
        })
        .map_err(at_start)?;
    let enough = Enough::Within(request.tolerance);
    each_point(points, |p, known: &mut Known| {
        check_point(&pose.inverse_transform_point(p))?;
        Ok(winding_number(mesh, pose, p, enough, known))
    })
}

/// Whether the model's solid placed by `pose` holds each of `points` (world frame), in the
/// order of `points`: [`contains_point`] for each, exact (points on the surface count as
/// inside). For a mesh that is not closed the answer is one ray's parity, which means little:
/// ask for [`winding_numbers`] there.
pub fn contains_points<V: PosedOverlap>(
    model: &Model<V>,
    pose: &Pose,
    points: &[Point],
) -> Result<Vec<bool>, BatchError> {
    let closed = model.as_mesh().filter(|mesh| mesh.is_closed());
    // The placement is checked once, and refused at every point as `contains_point` would.
    let placed = closed.map(|mesh| check_placed(mesh, pose, Operand::Model));
    each_point(points, |p, known: &mut Known| match (closed, &placed) {
        (Some(mesh), Some(Ok(()))) => Ok(contains_after(mesh, pose, p, 0.0, known)),
        (_, Some(Err(refused))) => Err(refused.clone()),
        _ => contains_point(model, pose, p),
    })
}

/// A refusal of the whole request, reported at the first point.
fn at_start(source: QueryError) -> BatchError {
    BatchError { index: 0, source }
}

/// `answer` for each of `points`, in their order: the points are checked, then answered along
/// a Morton curve in chunks on rayon's pool (on the calling thread when the pool has one
/// thread), each chunk carrying its own `S` from one point to the next (a hint). An error
/// names the first point it concerns.
fn each_point<T: Send, S: Default>(
    points: &[Point],
    answer: impl Fn(&Point, &mut S) -> Result<T, QueryError> + Sync,
) -> Result<Vec<T>, BatchError> {
    each_group(points, 1, |group, state, answers| {
        answers.extend(group.iter().map(|p| answer(p, state)));
    })
}

/// [`each_point`] for groups of up to `size` consecutive points along the curve (the last of
/// a chunk may be smaller): `answer` pushes one answer for each point of its group, in order.
fn each_group<T: Send, S: Default>(
    points: &[Point],
    size: usize,
    answer: impl Fn(&[Point], &mut S, &mut Vec<Result<T, QueryError>>) + Sync,
) -> Result<Vec<T>, BatchError> {
    check_each(points, check_point)?;
    let order = spatial_order(points);
    let answer_chunk = |chunk: &[usize]| {
        let mut state = S::default();
        let mut answers = Vec::with_capacity(chunk.len());
        let mut group = Vec::with_capacity(size);
        for indices in chunk.chunks(size) {
            group.clear();
            group.extend(indices.iter().map(|&index| points[index]));
            answer(&group, &mut state, &mut answers);
        }
        answers
    };
    let chunks: Vec<&[usize]> = order.chunks(CHUNK).collect();
    let answered = map_each(&chunks, |chunk| answer_chunk(chunk));
    // Back in the order of `points`, so that an error names the first point it concerns.
    let mut answers: Vec<Option<Result<T, QueryError>>> = (0..points.len()).map(|_| None).collect();
    for (chunk, chunk_answers) in chunks.iter().zip(answered) {
        for (&index, answer) in chunk.iter().zip(chunk_answers) {
            answers[index] = Some(answer);
        }
    }
    answers
        .into_iter()
        .enumerate()
        .map(|(index, answer)| {
            answer
                .expect("every point is answered")
                .map_err(|source| BatchError { index, source })
        })
        .collect()
}

/// The indices of `points` along a Morton (Z-order) curve over their bounding box (Morton,
/// "A computer oriented geodetic data base and a new technique in file sequencing", IBM 1966),
/// so that consecutive points are near each other: each one's search starts close to its
/// answer, and the part of the tree it reads is still in cache.
///
/// The batch functions ([`closest_points`], [`winding_numbers`], [`contains_points`]) already
/// answer each batch in this order. A caller that splits one large batch into several calls
/// (to report progress, say) should split it in this order, so that each call's points stay
/// near each other; the answers are the same in any order.
///
/// ```
/// use obbtree_bv::Point;
/// use obbtree_query::spatial_order;
///
/// let points = [Point::new(1.0, 1.0, 1.0), Point::new(0.0, 0.0, 0.0), Point::new(0.9, 1.0, 1.0)];
/// assert_eq!(spatial_order(&points), vec![1, 2, 0]);
/// ```
pub fn spatial_order(points: &[Point]) -> Vec<usize> {
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
    let mut order: Vec<(u64, usize)> = map_each(points, key).into_iter().zip(0..).collect();
    // The keys with their indices are distinct, so both sorts give the one order.
    if pool_is_parallel() {
        order.par_sort_unstable();
    } else {
        order.sort_unstable();
    }
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
/// distance a non-negative finite number.
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
    mesh.distance_index();
    Ok(mesh)
}

/// One point's answer (see [`closest_points`]), the search seeded with the last point's
/// triangle; `size` is the mesh's largest coordinate magnitude.
fn closest_point<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    pose: &Pose,
    p: &Point,
    request: &PointRequest,
    last: &mut Last,
    size: f64,
) -> Result<Option<ClosestPoint>, QueryError> {
    let q = pose.inverse_transform_point(p);
    check_point(&q)?;
    let found = point_distance(mesh, &q, last.triangle, request.max_distance, size);
    Ok(answer(mesh, pose, [p, &q], found, request, last))
}

/// The answer for `p` (world frame; `q` in the mesh's) from its distance to the mesh `found`
/// (`None` beyond the maximum distance), with its side when the request is signed.
fn answer<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    pose: &Pose,
    [p, q]: [&Point; 2],
    found: Option<PointDistance>,
    request: &PointRequest,
    last: &mut Last,
) -> Option<ClosestPoint> {
    let found = found?;
    let side = request
        .signed
        .then(|| side(mesh, pose, [p, q], &found, last));
    Some(ClosestPoint {
        distance: if side == Some(Side::Inside) {
            -found.distance
        } else {
            found.distance
        },
        lower: found.lower,
        upper: found.upper,
        triangle: found.triangle,
        point: pose.transform_point(&found.point),
        side,
    })
}

/// Where `p` (world frame, `q` in the mesh's, `found` its distance to the surface) lies:
/// exact containment on a closed mesh (from `last.known`, the points lately decided off the
/// surface, when it can; the ball of radius `found.lower` about `p` holds no surface, so a
/// point near a recent one often takes its side at once), the winding number against ½ on an
/// open one, carried from the last point's bracket when that decides it.
fn side<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    pose: &Pose,
    [p, q]: [&Point; 2],
    found: &PointDistance,
    last: &mut Last,
) -> Side {
    if found.distance == 0.0 {
        return Side::Surface;
    }
    if mesh.is_closed() {
        let clear = clear_radius(mesh, pose, p, q, found.lower);
        return if contains_after(mesh, pose, p, clear, &mut last.known) {
            Side::Inside
        } else {
            Side::Outside
        };
    }
    let bracket = open_bracket(mesh, q, found.lower, last.open);
    last.open = Some(Bracketed {
        point: *q,
        lower: found.lower,
        bracket,
    });
    bracket.side()
}

/// The bracket of the winding number about `q` (mesh frame, off the open surface, at least
/// `lower` from it): carried from `before`, the last point's, when that decides its side
/// ([`carried_along`]: no crossing when the two points' clear balls cover the segment, the
/// gradient bound over the segment's box), else the point's own estimate with room to spare.
fn open_bracket<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    q: &Point,
    lower: f64,
    before: Option<Bracketed>,
) -> Bracket {
    let carried = before.and_then(|before| {
        let from = &before.point;
        let clear = before.lower + lower > (q - from).norm() * (1.0 + 1e-12);
        let gradient = gradient_bound(mesh, &Aabb::from_points([from, q]));
        carried_along(mesh, before.bracket, [from, q], clear, gradient)
    });
    match carried {
        Some(bracket) if bracket.side() != Side::Undecided => bracket,
        _ => Bracket::of(&estimate(mesh, q, Enough::SideWithRoom(ROOM))),
    }
}
