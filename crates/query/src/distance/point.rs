//! The distance from one point to a mesh: a depth-first walk over the mesh's wide tree, nearer
//! children first (the order of Larsen, Gottschalk, Lin & Manocha 1999), each child bounded
//! below by the point's distance to its box and a leaf then by its rectangle swept sphere
//! (`point_wide.rs`), or far from the surface over the binary tree with each node's rectangle
//! swept sphere as the bound; each leaf's triangles measured in floating point (Ericson,
//! *Real-Time Collision Detection* (2005) §5.1.5) after the prisms around them ([`Prism`]; in
//! the binary walk after their stored boxes), which leave out nearly every triangle no nearer
//! than the best, ties included. The closest triangle found is then measured by the certified
//! triangle distance ([`tri_tri::distance`], which decides contact exactly), so the answer
//! carries the two-model guarantee: `|d − d*| ≤ 1e-12·(d* + L)`, a certified interval, and 0
//! exactly when the point lies on the surface.
//!
//! Why the walk is exact enough: a node is left out only when its bound, less a pad far above
//! its rounding, is at least the best distance found, and a leaf triangle only when its prism's
//! bound is at least the best distance less a tie far below that pad ([`TIE`]), so the triangle
//! kept is within that pad and the rounding of a float point–triangle distance of the nearest
//! one. Contact is decided apart from the walk: when the certified interval of the best
//! triangle reaches 0, every triangle the walk could not tell from touching is tested exactly,
//! over the binary tree with each node's rectangle swept sphere as the bound (Larsen,
//! Gottschalk, Lin & Manocha, "Fast proximity queries with swept sphere volumes", 1999).

use super::point_packet::{point_distances, walk_packet};
use super::point_wide::walk_wide;
use crate::model::MeshModel;
use obbtree_bv::distance::point_triangle::PreparedTriangle;
use obbtree_bv::distance::tri_tri;
use obbtree_bv::{Aabb, Point, Prism, Rss, Triangle};
use obbtree_tree::TreeVolume;

/// The relative pad of a node's bound (a few hundred ulps of the coordinates involved), which
/// covers the rounding of the point's move into the rectangle's frame and of the distance.
pub(super) const BOUND_PAD: f64 = 1e-13;

/// A point's distance to a mesh, in the mesh's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointDistance {
    /// The closest triangle.
    pub triangle: u32,
    /// Its closest point to the point.
    pub point: Point,
    /// The distance: exactly 0 when the point lies on the surface.
    pub distance: f64,
    /// `lower ≤ d* ≤ upper` for the exact distance `d*`.
    pub lower: f64,
    /// See `lower`.
    pub upper: f64,
}

/// The best triangle so far: its float distance, index and closest point.
#[derive(Clone, Copy)]
pub(crate) struct Best {
    pub distance: f64,
    pub triangle: u32,
    pub point: Point,
}

/// The distance from `q` (in the mesh's frame) to `mesh`, the walk first measuring the triangle
/// `hint` if any; with `max = Some(m)`, `None` exactly when the distance exceeds `m`. `size` is
/// the largest coordinate magnitude of the mesh (see the module docs).
pub(crate) fn point_distance<V: TreeVolume>(
    mesh: &MeshModel<V>,
    q: &Point,
    hint: Option<u32>,
    max: Option<f64>,
    size: f64,
) -> Option<PointDistance> {
    let [found] = point_distances(mesh, &[*q], hint, max, size, Packing::Scattered);
    found
}

/// The pad of `q`'s bounds and answer: [`BOUND_PAD`] of the coordinates involved.
pub(super) fn pad(q: &Point, size: f64, max: Option<f64>) -> f64 {
    BOUND_PAD * (q.coords.abs().sum() + size + max.unwrap_or(0.0))
}

/// `best`, unless `max` is `Some(m)` and the distance exceeds `m`: decided by the float
/// distance away from the limit, exactly near it (`pad` is `q`'s).
pub(super) fn within_limit<V: TreeVolume>(
    mesh: &MeshModel<V>,
    q: &Point,
    best: Best,
    max: Option<f64>,
    pad: f64,
) -> Option<Best> {
    let Some(max) = max else {
        return Some(best);
    };
    if best.distance > max + pad {
        return None;
    }
    // Near the limit the float distances cannot tell: the exact test decides.
    let triangle = mesh.mesh().triangle(best.triangle as usize);
    let within = best.distance + pad < max
        || tri_tri::within(&triangle, &at(q), max)
        || exactly_within(mesh, q, max, max + pad).is_some();
    within.then_some(best)
}

/// The best triangle from `first` on, by the walk that suits the point: within [`WIDE_REACH`]
/// of the surface the wide tree's, whose boxes are cheap to test four at a time; farther out
/// the binary tree's, whose rectangle swept spheres bound far points much more tightly. Both
/// find the same distance; the choice is speed only.
pub(super) fn search<V: TreeVolume>(mesh: &MeshModel<V>, q: &Point, first: Best, cap: f64) -> Best {
    if within_share(mesh, &first, WIDE_REACH) {
        walk_wide(
            mesh.pick_tree(),
            &mesh.triangle_prisms().in_wide_order,
            mesh.wide_leaf_bounds(),
            q,
            first,
            cap,
        )
    } else {
        walk_packet(mesh, &[*q], [first], [cap])[0]
    }
}

/// How far from the surface, as a share of the mesh's largest extent, a point walks the wide
/// tree on its own (see `docs/performance.md`).
const WIDE_REACH: f64 = 0.5;

/// How the points of a packet lie, which decides from how far from the surface they share one
/// walk over the binary tree rather than each walking on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Packing {
    /// Evenly spaced neighbours along a grid's row, a spacing apart: their walks share most
    /// nodes once the points are a few spacings off the surface, so they share one from 3% of
    /// the extent (tuned on 128³ grids, where that is about three spacings).
    Row,
    /// Consecutive points of a batch along its Morton curve: a shared walk pays only where the
    /// points walk the binary tree anyway.
    Scattered,
}

impl Packing {
    /// The share of the mesh's largest extent from which the packet's points share a walk.
    fn shared_from(self) -> f64 {
        match self {
            Packing::Row => 0.03,
            Packing::Scattered => WIDE_REACH,
        }
    }

    /// Whether a point whose first triangle is `first` is too near the surface to share a
    /// walk packed this way.
    pub(super) fn walks_alone<V>(self, mesh: &MeshModel<V>, first: &Best) -> bool {
        within_share(mesh, first, self.shared_from())
    }
}

/// Whether a point whose first triangle is `first` lies within `share` of the mesh's largest
/// extent.
fn within_share<V>(mesh: &MeshModel<V>, first: &Best, share: f64) -> bool {
    let bounds = mesh.bounds();
    first.distance < share * (bounds.maxs - bounds.mins).amax()
}

/// The best of `best[k]` and the triangles of `leaf` for each point `packet[k]` that `needs`
/// the leaf, each triangle measured for a point only when its box and its prism may be nearer
/// than that point's best so far, and prepared once for all of them.
pub(super) fn scan_leaf<V: TreeVolume, const N: usize>(
    mesh: &MeshModel<V>,
    packet: &[Point; N],
    leaf: usize,
    best: &mut [Best; N],
    needs: [bool; N],
) {
    let range = mesh.tree().node(leaf).triangle_range().unwrap_or(0..0);
    let boxes = &mesh.boxed()[range.clone()];
    let prisms = &mesh.triangle_prisms().in_tree_order[range];
    let leaf = mesh.tree().leaf_triangles(leaf).iter();
    for ((&t, boxed), prism) in leaf.zip(boxes).zip(prisms) {
        let open: [bool; N] = std::array::from_fn(|k| {
            needs[k]
                && box_may_be_nearer(&packet[k], &best[k], &boxed.bounds)
                && may_be_nearer(&packet[k], &best[k], t, prism)
        });
        if !open.contains(&true) {
            continue;
        }
        let [a, b, c] = *boxed.tri.vertices();
        let triangle = PreparedTriangle::new(&Triangle::new(a, b, c));
        for k in (0..N).filter(|&k| open[k]) {
            best[k] = nearest(best[k], &triangle, &packet[k], t);
        }
    }
}

/// `best`, or triangle `t` (`triangle`, inside `prism`) when it is nearer to `q`, measured
/// only when it [may be](may_be_nearer).
#[inline(always)]
pub(crate) fn nearer(q: &Point, best: Best, t: u32, triangle: &Triangle, prism: &Prism) -> Best {
    if may_be_nearer(q, &best, t, prism) {
        nearest(best, &PreparedTriangle::new(triangle), q, t)
    } else {
        best
    }
}

/// Whether triangle `t` (inside `prism`) may be nearer to `q` than `best`: it is not the best
/// already (so the hint, measured first, is not measured again while it is the best), and its
/// prism does not leave it out.
#[inline(always)]
fn may_be_nearer(q: &Point, best: &Best, t: u32, prism: &Prism) -> bool {
    t != best.triangle && !beyond(prism, q, best.distance)
}

/// Whether a triangle inside `bounds` may be nearer to `q` than `best`: a test cheaper than the
/// prism's, which the binary walk's leaves make first with the boxes they store (the wide
/// walk's leaves store none, and computing one costs about what it saves).
#[inline(always)]
fn box_may_be_nearer(q: &Point, best: &Best, bounds: &Aabb) -> bool {
    bounds.distance_squared(q) * (1.0 - BOX_ROUNDING) < best.distance * best.distance
}

/// The nearer of `best` and triangle `t` (`triangle`) to `q`, by float distance (`best` on a
/// tie).
#[inline]
fn nearest(best: Best, triangle: &PreparedTriangle, q: &Point, t: u32) -> Best {
    let found = measured(triangle, q, t);
    if found.distance < best.distance {
        found
    } else {
        best
    }
}

/// The float distance from `q` to triangle `t` (`triangle`) and its closest point.
#[inline]
fn measured(triangle: &PreparedTriangle, q: &Point, t: u32) -> Best {
    let point = triangle.closest_point(q);
    Best {
        distance: (point - q).norm(),
        triangle: t,
        point,
    }
}

/// Whether the triangle inside `prism` is certainly no nearer to `q` than `distance`, up to a
/// tie: the prism's distance bound is at least `distance` less [`TIE`] of the coordinates
/// involved. A triangle left out at a tie is nearer, if at all, by no more than that and the
/// bound's rounding (a few ulps of the same coordinates), far within the pad the certified
/// interval allows for; while every triangle around a shared corner, all at the corner's
/// distance, would otherwise be measured to find none nearer.
#[inline]
fn beyond(prism: &Prism, q: &Point, distance: f64) -> bool {
    let reach = distance - TIE * (q.coords.abs().sum() + prism.scale);
    reach > 0.0 && prism.is_at_least(q, reach * reach)
}

/// How near, relative to the coordinates, a triangle's bound may come below the best distance
/// and still count as tied: the rounding of two float point–triangle distances, with room,
/// and a seventh of [`BOUND_PAD`].
const TIE: f64 = 64.0 * f64::EPSILON;

/// The relative rounding of a squared distance to a box (three squares and two sums, a few
/// ulps), with room: a box is left out only when it is certainly no nearer than the best.
pub(crate) const BOX_ROUNDING: f64 = 16.0 * f64::EPSILON;

/// The first triangle of the tree's first leaf (the hint of a walk that has none).
pub(super) fn start_triangle<V>(mesh: &MeshModel<V>) -> u32 {
    let mut node = 0;
    while let Some([left, _]) = mesh.tree().node(node).children() {
        node = left;
    }
    mesh.tree().leaf_triangles(node)[0]
}

/// The float distance from `q` to triangle `t` and its closest point.
pub(super) fn measure<V>(mesh: &MeshModel<V>, q: &Point, t: u32) -> Best {
    measured(
        &PreparedTriangle::new(&mesh.mesh().triangle(t as usize)),
        q,
        t,
    )
}

/// A lower bound on the distance from `q` to anything inside `rss`: the distance to its
/// rectangle less its radius and the pad.
pub(super) fn lower_bound(rss: &Rss, q: &Point) -> f64 {
    lower_bounds(rss, &[*q])[0]
}

/// [`lower_bound`] for each of `points`, lane by lane over the coordinates (so that the
/// compiler computes the lanes together).
#[inline]
pub(super) fn lower_bounds<const N: usize>(rss: &Rss, points: &[Point; N]) -> [f64; N] {
    let (a, c) = (&rss.axes, &rss.corner);
    let [length_x, length_y] = rss.lengths;
    let mut bounds = [0.0; N];
    for (bound, q) in bounds.iter_mut().zip(points) {
        let d = [q.x - c.x, q.y - c.y, q.z - c.z];
        let along = |i: usize| a[(0, i)] * d[0] + a[(1, i)] * d[1] + a[(2, i)] * d[2];
        let (x, y, z) = (along(0), along(1), along(2));
        let x = x - x.max(0.0).min(length_x);
        let y = y - y.max(0.0).min(length_y);
        let size = d[0].abs() + d[1].abs() + d[2].abs() + length_x + length_y + rss.radius;
        *bound = (x * x + y * y + z * z).sqrt() - rss.radius - BOUND_PAD * size;
    }
    bounds
}

/// The answer for the best triangle: its certified distance, or exactly 0 when some triangle
/// the walk could not tell from touching contains `q`.
pub(super) fn certified<V: TreeVolume>(
    mesh: &MeshModel<V>,
    q: &Point,
    best: Best,
    pad: f64,
) -> PointDistance {
    if let Some(found) = clearly_off(&best, pad) {
        return found;
    }
    let measured = tri_tri::distance(&mesh.mesh().triangle(best.triangle as usize), &at(q));
    let touches = measured.distance == 0.0 && measured.error == 0.0;
    let lower = (measured.distance - measured.error - pad).max(0.0);
    let on = if touches {
        Some(best.triangle)
    } else if lower == 0.0 {
        exactly_within(mesh, q, 0.0, measured.distance + measured.error + pad)
    } else {
        None
    };
    match on {
        Some(triangle) => PointDistance {
            triangle,
            point: *q,
            distance: 0.0,
            lower: 0.0,
            upper: 0.0,
        },
        None => PointDistance {
            triangle: best.triangle,
            point: best.point,
            // Not on the surface: never 0, whatever the rounding.
            distance: best.distance.max(f64::MIN_POSITIVE),
            lower,
            upper: measured.distance + measured.error + pad,
        },
    }
}

/// The answer for the best triangle when its float distance `d` alone keeps the point off the
/// surface. The walk measured it by
/// [`closest_point`](obbtree_bv::distance::point_triangle::closest_point), within
/// `DISTANCE_ERROR · (M + d*)` of the triangle's exact distance `d*`, where `M` (the largest
/// coordinate of the point and the triangle) and `d*` (at most the distance to a corner) are
/// each below `|q|₁ + √3 · size`: the error is under a ninth of `pad` ([`BOUND_PAD`] of
/// `|q|₁ + size`), so `d ± pad` brackets `d*`. `None` when the lower end is not positive, for
/// the certified triangle distance and the exact contact test to decide.
fn clearly_off(best: &Best, pad: f64) -> Option<PointDistance> {
    let lower = best.distance - pad;
    (lower > 0.0).then_some(PointDistance {
        triangle: best.triangle,
        point: best.point,
        distance: best.distance,
        lower,
        upper: best.distance + pad,
    })
}

/// `q` as a triangle whose three corners coincide.
fn at(q: &Point) -> Triangle {
    Triangle::new(*q, *q, *q)
}

/// A triangle exactly within `d` of `q`, among those whose float distance bound is within
/// `reach`.
fn exactly_within<V: TreeVolume>(
    mesh: &MeshModel<V>,
    q: &Point,
    d: f64,
    reach: f64,
) -> Option<u32> {
    let rss = &mesh.distance_index().rss;
    let mut stack = vec![0];
    while let Some(node) = stack.pop() {
        if lower_bound(&rss[node], q) > reach {
            continue;
        }
        match mesh.tree().node(node).children() {
            Some(children) => stack.extend(children),
            None => {
                let leaf = mesh.tree().leaf_triangles(node).iter().copied();
                let found = leaf
                    .filter(|&t| measure(mesh, q, t).distance <= reach)
                    .find(|&t| tri_tri::within(&mesh.mesh().triangle(t as usize), &at(q), d));
                if found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}
