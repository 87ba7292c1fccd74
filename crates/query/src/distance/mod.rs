//! Distance between meshes, closest points, and exact safety margins, by simultaneous descent
//! of two hierarchies ordered by lower bounds, with the triangle tests of
//! [`obbtree_bv::distance::tri_tri`] at the leaves.
//!
//! * [`distance`]: the distance, the closest triangle pair, its closest points and a certified
//!   interval around the exact distance; optionally seeded with the previous query's pair
//!   ([`DistanceRequest::hint`]), with tolerances, or between solids.
//! * [`within_margin`]: whether the meshes are at most a margin apart, decided exactly, with a
//!   witness pair (shapes: see [`distance`]'s section on them).
//! * [`proximity_pairs`]: every triangle pair at most a margin apart.
//! * [`distance_many`]: one mesh pair under many poses, in parallel.
//! * [`DistanceTracker`]: one mesh pair along a sequence of nearby poses, each query starting
//!   where the last one stopped.
//!
//! # The guarantee
//!
//! Let `d*` be the exact minimum distance between the placed triangles (B's vertices placed in
//! A's frame by `R·p + t` in `f64`, as collision places them) and `L` the largest absolute
//! coordinate of the two placed meshes. With both tolerances 0 (the default):
//! * the reported distance `d` satisfies `|d − d*| <= 1e-12·(d* + L)`, and so does the exact
//!   distance of the reported pair;
//! * the reported points lie on those triangles (up to rounding), `d` apart;
//! * `lower <= d* <= upper`;
//! * meshes that intersect give exactly 0, with an intersecting pair;
//! * [`within_margin`] and [`proximity_pairs`] are exact.
//!
//! Why: the walk prunes a pair of nodes only when a conservative lower bound on their distance
//! (the distance between rectangle swept spheres, [`rss_rss::lower_bound`], or the gap between
//! exact boxes around triangles, or the gap between two triangles' projections on the best
//! pair's direction, or the distance between two nodes' vertices' boxes in the frame of the
//! first best pair's direction, each allowed for their rounding) is at least the best distance found less
//! `1e-13·(d + L_A)` (`L_A` the largest coordinate of A: a tenth of the promise, spent on
//! leaving out pairs exactly as far as the best, such as all those around a closest vertex
//! pair); the triangle pairs it measures go through the exact intersection test when their boxes
//! meet and through the float search of the fifteen vertex–face and edge–edge candidates, whose
//! error is at most [`DISTANCE_ERROR`]` · (M + d)` (`16ε`, four hundred times below the promise),
//! otherwise. The margin queries decide each triangle pair with the exact predicate
//! [`tri_tri::within`] and prune only node pairs whose volumes, grown by the margin, are
//! apart ([`PosedOverlap::relative_within`], conservative like collision's tests), and leaf
//! pairs whose triangles' boxes are certainly farther apart than the margin.
//!
//! With tolerances, `d <= d*·(1 + rel_err) + abs_err` (to the same rounding), and the
//! interval still holds.
//!
//! # Meshes far apart
//!
//! Before the walk, a query whose meshes' hulls are apart tries to settle without one
//! ([`apart`]): GJK over samples of the meshes' hull vertices (kept with each model's convex
//! hull) gives nearly the closest points of their convex hulls, the triangles nearest them give a
//! pair, and if no vertex of either mesh lies inside the slab between that pair's closest
//! points (measured exactly, allowed for rounding), the slab's width proves the pair the
//! closest and the query ends there (how often is in `docs/performance.md`); otherwise the
//! walk starts with that pair as the best, and with a second screen for node pairs
//! ([`screen`]): the distance between their boxes in a frame whose first axis is that pair's
//! direction, each node's box in it computed once per query (exactly, from its vertices, for
//! nodes near the leaves). Near the closest pair that bound is nearly the distance, where the
//! rectangle swept spheres of nearly flat patches fall short by their thickness.
//!
//! # The walk
//!
//! Best first: the pending node pair with the least lower bound is expanded next (a priority
//! queue, as in Hjaltason & Samet's best-first nearest-neighbour search, *Distance browsing in
//! spatial databases*, ACM TODS 1999), so only pairs whose bound is below the distance are ever
//! expanded: fewer than PQP's depth-first, nearer-child-first order (Larsen, Gottschalk,
//! Lin & Manocha 1999) expands, about as many as that order needs when a hint gives the answer
//! before it starts (the counts are in `docs/performance.md`). Node pairs with an internal
//! node of B are bounded by the model's distance index, a rectangle swept sphere around each
//! node's triangles of the model's own tree, whatever its volume type
//! ([`Model::prepare_distance`]; 15 numbers, 120 bytes per node, plus the node's height; its size per triangle is in `docs/performance.md`); pairs with a leaf of B by
//! the boxes around the triangles, and by the rectangle swept spheres where the boxes' gap does
//! not prune (B's leaf triangles are placed in A's frame once per query,
//! and each triangle pair is screened by its boxes' gap and by its projections on the best
//! pair's direction before it is measured). Rectangle swept spheres bound distances more
//! tightly than the trees' own oriented boxes, spheres and k-DOPs (compared in
//! `docs/performance.md`), so they are the one index kept.
//!
//! [`rss_rss::lower_bound`]: obbtree_bv::distance::rss_rss::lower_bound
//! [`DISTANCE_ERROR`]: obbtree_bv::distance::tri_tri::DISTANCE_ERROR
//! [`tri_tri::within`]: obbtree_bv::distance::tri_tri::within

mod apart;
mod closest;
mod cylinder;
mod halfspace;
mod margin;
mod point;
mod point_packet;
mod point_wide;
mod request;
mod screen;
mod shape;
mod slab;
mod tracker;

pub(crate) use point::Packing;
pub(crate) use point::{point_distance, PointDistance};
pub(crate) use point_packet::{point_distances, LANES};

pub use request::{DistanceRequest, DistanceResult};
pub use tracker::DistanceTracker;

use crate::collide::{checked_relative_pose, containment, Containment, PosedOverlap};
use crate::error::{check_each, check_margin, check_tolerance, BatchError, QueryError};
use crate::kernel::descent::best_first::{walk, Settled, Start, Trees, Visitor};
use crate::kernel::descent::depth_first::leaf_pairs;
use crate::kernel::leaf::{placed_triangle, with_leaf_test, Leaf, LeafTest};
use crate::parallel::map_each;
use crate::MeshModel;
use crate::Model;
use apart::Hulls;
use closest::Closest;
use margin::Margin;
use obbtree_bv::{Pose, Vector};
use obbtree_tree::TreeVolume;
pub(crate) use screen::release as release_screen;
use screen::{with_screen, FrameScreen};
use std::ops::ControlFlow;

/// The distance between the meshes of `a` (posed by `pose_a`) and `b` (posed by `pose_b`), the
/// closest triangle pair and its closest points (world frame), within the guarantee below. An
/// error when a tolerance or the hint is not valid, or when B, placed in A's frame, would leave
/// the coordinate range in which the answer is exact.
///
/// The walk descends both trees together, best first, pruning node pairs by a
/// conservative lower bound (the distance between rectangle swept spheres around each node's
/// triangles, Larsen, Gottschalk, Lin & Manocha 1999, built on the first query or by
/// [`Model::prepare_distance`]) against the best distance found; a hint
/// ([`DistanceRequest::hint`], PQP's `last_tri`) gives that distance before the walk starts.
///
/// # The guarantee
///
/// Let `d*` be the exact minimum distance between the placed triangles (B's vertices placed in
/// A's frame by `R·p + t` in `f64`, as collision places them) and `L` the largest absolute
/// coordinate of the two placed meshes. With both tolerances 0 (the default):
/// * the reported distance `d` satisfies `|d − d*| <= 1e-12·(d* + L)`, and so does the exact
///   distance of the reported pair;
/// * the reported points lie on those triangles (to the same bound), `d` apart;
/// * `lower <= d* <= upper`;
/// * meshes that intersect give exactly 0, with an intersecting pair; `intersects` is decided
///   by the exact triangle test (disjoint meshes whose distance rounds to 0 against `L` report
///   the least positive normal number);
/// * [`within_margin`] and [`proximity_pairs`] are exact.
///
/// With tolerances, `d <= d*·(1 + rel_err) + abs_err` (to the same rounding), and the interval
/// still holds.
///
/// # Shapes
///
/// Either model may be a sphere, capsule, box or convex shape (a solid): touching solids are
/// at distance 0, and otherwise the shape is measured by its core, a mesh and a radius, with the
/// guarantee above (`L` counting the radii); margins are exact when the margin plus the radius
/// is a float. See the `distance::shape` module for the details. A halfspace is measured by
/// its plane (margins exact, `distance::halfspace`). A cylinder is measured as a convex set
/// (GJK on its support mapping, the interval certified by supporting planes; a mesh's tree
/// searched best first), with the guarantee above whenever its search settles (nearly always;
/// the interval holds regardless), and its margins are decided from the certified interval:
/// never "no" for a gap within the margin, possibly "yes" for one above it by at most the
/// interval's width (see `distance::cylinder`). With [`DistanceRequest::solids`], a shape
/// wholly inside a closed mesh's solid is at distance 0 and [`DistanceResult::contained`] says
/// so (a mesh inside a shape touches it anyway; two shapes are not checked).
///
/// ```
/// use obbtree_bv::{Point, Pose, TriMesh};
/// use obbtree_query::{distance, within_margin, DistanceRequest, Model};
///
/// let mesh = TriMesh::new(
///     vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)],
///     vec![[0, 1, 2]],
/// )?;
/// let model: Model = Model::new(mesh)?;
/// let above = Pose::from_translation([0.0, 0.0, 0.5])?;
/// let r = distance(&model, &Pose::identity(), &model, &above, &DistanceRequest::default())?;
/// assert_eq!((r.distance, r.intersects), (0.5, false));
/// assert!(within_margin(&model, &Pose::identity(), &model, &above, 0.5)?.is_some());
/// assert!(within_margin(&model, &Pose::identity(), &model, &above, 0.4999)?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn distance<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    request: &DistanceRequest,
) -> Result<DistanceResult, QueryError> {
    let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
        return shape::distance_shapes(a, pose_a, b, pose_b, request);
    };
    check_request(a, b, request)?;
    let b_in_a = checked_relative_pose(pose_a, b, pose_b)?;
    Ok(run(a, pose_a, b, &b_in_a, request))
}

/// Whether the meshes of `a` and `b` (posed) are at most `margin` apart, decided exactly (each
/// candidate triangle pair by the exact predicate
/// [`tri_tri::within`](obbtree_bv::distance::tri_tri::within); node pairs are pruned only when
/// their bound is certainly above the margin): a witness pair `[triangle of A, triangle of B]` at most `margin` apart,
/// or `None`. An error when `margin` is negative, NaN or infinite, or the placement leaves the
/// exact range.
pub fn within_margin<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    margin: f64,
) -> Result<Option<[u32; 2]>, QueryError> {
    check_margin(margin)?;
    let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
        let pairs = shape::margin_shapes(a, pose_a, b, pose_b, margin, true)?;
        return Ok(pairs.first().copied());
    };
    let b_in_a = checked_relative_pose(pose_a, b, pose_b)?;
    let mut visitor = Margin::new(margin, true);
    search_margin(a, b, &b_in_a, &mut visitor);
    Ok(visitor.pairs.first().copied())
}

/// Every triangle pair `[triangle of A, triangle of B]` at most `margin` apart (each decided
/// exactly), sorted: the candidates of contact generation. Errors as [`within_margin`].
pub fn proximity_pairs<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    pose_b: &Pose,
    margin: f64,
) -> Result<Vec<[u32; 2]>, QueryError> {
    check_margin(margin)?;
    let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
        return shape::margin_shapes(a, pose_a, b, pose_b, margin, false);
    };
    let b_in_a = checked_relative_pose(pose_a, b, pose_b)?;
    let mut visitor = Margin::new(margin, false);
    search_margin(a, b, &b_in_a, &mut visitor);
    let mut pairs = visitor.pairs;
    pairs.sort_unstable_by_key(|&[a, b]| u64::from(a) << 32 | u64::from(b));
    Ok(pairs)
}

/// [`distance`] of `a` at `pose_a` with `b` at each of `poses_b`, on rayon's thread pool (on
/// the calling thread when it has one thread);
/// results in the order of `poses_b`. The request and every pose are checked before any query
/// runs: the error is the first pose that fails, with its position (a request error is
/// reported at position 0).
pub fn distance_many<V: PosedOverlap>(
    a: &Model<V>,
    pose_a: &Pose,
    b: &Model<V>,
    poses_b: &[Pose],
    request: &DistanceRequest,
) -> Result<Vec<DistanceResult>, BatchError> {
    let (Some(a), Some(b)) = (a.as_mesh(), b.as_mesh()) else {
        return poses_b
            .iter()
            .enumerate()
            .map(|(index, pose_b)| {
                shape::distance_shapes(a, pose_a, b, pose_b, request)
                    .map_err(|source| BatchError { index, source })
            })
            .collect();
    };
    check_request(a, b, request).map_err(|source| BatchError { index: 0, source })?;
    check_each(poses_b, |pose_b| {
        checked_relative_pose(pose_a, b, pose_b).map(drop)
    })?;
    a.prepare_distance();
    b.prepare_distance();
    Ok(map_each(poses_b, |pose_b| {
        run(a, pose_a, b, &pose_a.inv_mul(pose_b), request)
    }))
}

/// `Ok` when the request's tolerances are non-negative finite numbers and its hint names
/// triangles of the meshes.
fn check_request<V>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    request: &DistanceRequest,
) -> Result<(), QueryError> {
    check_tolerance("rel_err", request.rel_err)?;
    check_tolerance("abs_err", request.abs_err)?;
    let (triangles_a, triangles_b) = (a.mesh().triangles().len(), b.mesh().triangles().len());
    match request.hint {
        Some(pair @ [i, j]) if i as usize >= triangles_a || j as usize >= triangles_b => {
            Err(QueryError::InvalidHint {
                pair,
                triangles_a,
                triangles_b,
            })
        }
        _ => Ok(()),
    }
}

/// The distance query on checked input, B placed in A's frame by `b_in_a`.
fn run<V: PosedOverlap>(
    a: &MeshModel<V>,
    pose_a: &Pose,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    request: &DistanceRequest,
) -> DistanceResult {
    let mut closest = Closest::for_request(request, a);
    offer_pair(&mut closest, a, b, b_in_a, request.hint);
    match apart::settle(a, b, b_in_a, &mut closest) {
        Hulls::Settled => {}
        Hulls::Apart if closest.direction() != Vector::zeros() => {
            let n = closest.direction();
            let _ = with_screen(a, b, b_in_a, &n, |screen| {
                search(a, b, b_in_a, &mut closest, Start::Roots, None, Some(screen))
            });
        }
        Hulls::Apart | Hulls::MayMeet => {
            let _ = search(a, b, b_in_a, &mut closest, Start::Roots, None, None);
        }
    }
    answer(a, pose_a, b, b_in_a, request, &closest)
}

/// Measures the triangle pair `pair` (a hint), if any, first.
fn offer_pair<V>(
    closest: &mut Closest,
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    pair: Option<[u32; 2]>,
) {
    if let Some([i, j]) = pair {
        let (p, q) = (
            a.mesh().triangle(i as usize),
            placed_triangle(b.mesh(), j as usize, b_in_a),
        );
        closest.measure_pair([i, j], &p, &q);
    }
}

/// The answer from the closest pair a search found (and, for solids, whether one lies inside
/// the other).
fn answer<V: PosedOverlap>(
    a: &MeshModel<V>,
    pose_a: &Pose,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    request: &DistanceRequest,
    closest: &Closest,
) -> DistanceResult {
    let best = closest
        .best
        .expect("every walk measures at least one triangle pair");
    let found = best.found;
    let intersects = best.intersects;
    let mut result = DistanceResult {
        distance: found.distance,
        lower: if intersects { 0.0 } else { closest.lower() },
        upper: found.distance + found.error,
        intersects,
        pair: best.pair,
        point_a: pose_a.transform_point(&found.point_p),
        point_b: pose_a.transform_point(&found.point_q),
        contained: Containment::NotChecked,
    };
    if request.solids {
        result.contained = if intersects {
            Containment::SurfacesIntersect
        } else {
            containment::between(a, b, b_in_a)
        };
        if matches!(
            result.contained,
            Containment::AInB | Containment::BInA | Containment::Overlapping
        ) {
            (result.distance, result.lower, result.upper) = (0.0, 0.0, 0.0);
        }
    }
    result
}

/// The walk over the two models with their distance indexes from `start`, `visitor`
/// deciding; with `settled`, what it settles (complete when it does not break); with `screen`,
/// node pairs are screened first by the distance between their boxes in its frame.
fn search<V: TreeVolume>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    visitor: &mut impl Visitor,
    start: Start<'_>,
    settled: Option<&mut Vec<Settled>>,
    screen: Option<&mut FrameScreen<'_, V>>,
) -> ControlFlow<()> {
    let trees = Trees {
        a: a.tree(),
        b: b.tree(),
        a_volumes: &a.distance_index().rss,
        b_volumes: &b.distance_index().rss,
        b_in_a,
    };
    with_leaf_test(a, b, b_in_a, |leaves| {
        walk(&trees, leaves, visitor, start, settled, screen)
    })
}

/// The collision walk with every volume test grown by the margin
/// ([`PosedOverlap::relative_within`]) and leaves compared by the gap between the boxes around
/// their triangles, `margin` deciding the leaf pairs.
fn search_margin<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    margin: &mut Margin,
) {
    let rel = V::relative_within(b_in_a, margin.margin());
    let near = margin.box_test();
    let (tree_a, tree_b) = (a.tree(), b.tree());
    let _: ControlFlow<()> = with_leaf_test(a, b, b_in_a, |leaves| {
        leaf_pairs(
            tree_a,
            tree_b,
            &rel,
            false,
            margin.order(),
            leaves,
            |leaves: &mut LeafTest, i, leaf: &Leaf| {
                let around_b = leaves.placed_bounds(leaf);
                near(&leaves.a_side().1[i], &around_b)
            },
            |leaves, i, j| margin.leaves(leaves, Leaf::of(tree_a, i), Leaf::of(tree_b, j)),
        )
    });
}
