//! The distance from one point to a mesh: a best-first walk over the mesh's wide tree, each
//! child bounded below by the point's distance to its box (`point_wide.rs`), or far from the
//! surface over the binary tree with each node's rectangle swept sphere as the bound; each
//! leaf's triangles measured in floating point (Ericson, *Real-Time Collision Detection*
//! (2005) §5.1.5) after their own boxes and the thick disks around them ([`Disk`]), which
//! leave out most of the tilted triangles a box cannot. The closest triangle found is then measured by the certified triangle
//! distance ([`tri_tri::distance`], which decides contact exactly), so the answer carries the
//! two-model guarantee: `|d − d*| ≤ 1e-12·(d* + L)`, a certified interval, and 0 exactly when
//! the point lies on the surface.
//!
//! Why the walk is exact enough: a node is left out only when its bound, less a pad far above
//! its rounding, is at least the best distance found, so the triangle kept is within that pad
//! and the rounding of a float point–triangle distance of the nearest one. Contact is decided
//! apart from the walk: when the certified interval of the best triangle reaches 0, every
//! triangle the walk could not tell from touching is tested exactly, over the binary tree with
//! each node's rectangle swept sphere as the bound (Larsen, Gottschalk, Lin & Manocha, "Fast
//! proximity queries with swept sphere volumes", 1999).

use super::point_wide::walk_wide;
use crate::model::MeshModel;
use crate::ranked::Ranked;
use obbtree_bv::distance::{point_triangle, tri_tri};
use obbtree_bv::{Aabb, Disk, Point, Rss, Triangle};
use obbtree_tree::TreeVolume;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The relative pad of a node's bound (a few hundred ulps of the coordinates involved), which
/// covers the rounding of the point's move into the rectangle's frame and of the distance.
const BOUND_PAD: f64 = 1e-13;

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
    let pad = BOUND_PAD * (q.coords.abs().sum() + size + max.unwrap_or(0.0));
    let start = hint.unwrap_or_else(|| mesh.tree().leaf_triangles(first_leaf(mesh))[0]);
    let first = measure(mesh, q, start);
    let best = match max {
        None => search(mesh, q, first, f64::INFINITY),
        Some(max) => {
            let best = search(mesh, q, first, max + pad);
            if best.distance > max + pad {
                return None;
            }
            // Near the limit the float distances cannot tell: the exact test decides.
            let triangle = mesh.mesh().triangle(best.triangle as usize);
            let within = best.distance + pad < max
                || tri_tri::within(&triangle, &at(q), max)
                || exactly_within(mesh, q, max, max + pad).is_some();
            within.then_some(best)?
        }
    };
    Some(certified(mesh, q, best, pad))
}

/// The best triangle from `first` on, by the walk that suits the point: near the surface
/// (the first triangle within [`NEAR`] of the mesh's extent) the wide tree's, whose boxes are
/// cheap to test four at a time; farther out the binary tree's, whose rectangle swept spheres
/// bound far points much more tightly. Both find the same distance; the choice is speed only.
fn search<V: TreeVolume>(mesh: &MeshModel<V>, q: &Point, first: Best, cap: f64) -> Best {
    let bounds = mesh.bounds();
    if first.distance < NEAR * (bounds.maxs - bounds.mins).amax() {
        walk_wide(
            mesh.pick_tree(),
            &mesh.triangle_disks().in_wide_order,
            q,
            first,
            cap,
        )
    } else {
        walk(mesh, q, first, cap)
    }
}

/// Where the wide walk takes over, as a share of the mesh's largest extent.
const NEAR: f64 = 0.03;

/// The best-first walk from `first`, leaving out nodes whose bound reaches the best float
/// distance found or `cap`.
fn walk<V: TreeVolume>(mesh: &MeshModel<V>, q: &Point, first: Best, cap: f64) -> Best {
    let rss = &mesh.distance_index().rss;
    let mut best = first;
    let limit = |best: &Best| best.distance.min(cap);
    let mut pending = BinaryHeap::new();
    pending.push(Reverse(Ranked { rank: 0.0, item: 0 }));
    while let Some(Reverse(Ranked {
        rank: bound,
        item: node,
    })) = pending.pop()
    {
        if bound >= limit(&best) {
            break;
        }
        match mesh.tree().node(node).children() {
            Some(children) => {
                for child in children {
                    let limit = limit(&best);
                    let boxed = mesh.node_bounds()[child].distance_squared(q);
                    if boxed * (1.0 - BOX_ROUNDING) >= limit * limit {
                        continue; // the box, cheaper than the RSS, already leaves it out
                    }
                    let bound = lower_bound(&rss[child], q);
                    if bound < limit {
                        pending.push(Reverse(Ranked {
                            rank: bound,
                            item: child,
                        }));
                    }
                }
            }
            None => best = scan_leaf(mesh, q, node, best),
        }
    }
    best
}

/// The best of `best` and the triangles of `leaf`, each measured only when its box and its
/// disk may be nearer than the best so far.
fn scan_leaf<V: TreeVolume>(mesh: &MeshModel<V>, q: &Point, leaf: usize, mut best: Best) -> Best {
    let range = mesh.tree().node(leaf).triangle_range().unwrap_or(0..0);
    let boxes = &mesh.boxed()[range.clone()];
    let disks = &mesh.triangle_disks().in_tree_order[range];
    let leaf = mesh.tree().leaf_triangles(leaf).iter();
    for ((&t, boxed), disk) in leaf.zip(boxes).zip(disks) {
        let [a, b, c] = *boxed.tri.vertices();
        best = nearer(q, best, t, &Triangle::new(a, b, c), &boxed.bounds, disk);
    }
    best
}

/// `best`, or triangle `t` (`triangle`, inside `bounds` and `disk`) when it is nearer to `q`.
/// The triangle is measured only when it is not the best already and neither its box nor its
/// disk leaves it out, so a walk measures each triangle at most once after its first.
#[inline]
pub(crate) fn nearer(
    q: &Point,
    best: Best,
    t: u32,
    triangle: &Triangle,
    bounds: &Aabb,
    disk: &Disk,
) -> Best {
    let farther = t == best.triangle
        || bounds.distance_squared(q) * (1.0 - BOX_ROUNDING) >= best.distance * best.distance
        || beyond(disk, q, best.distance);
    if farther {
        return best;
    }
    let point = point_triangle::closest_point(q, triangle);
    let distance = (point - q).norm();
    if distance < best.distance {
        Best {
            distance,
            triangle: t,
            point,
        }
    } else {
        best
    }
}

/// Whether the triangle inside `disk` is certainly no nearer to `q` than `distance`: the
/// disk's distance, less a pad far above its rounding and the disk's own (see [`Disk`]), is at
/// least `distance`.
#[inline]
fn beyond(disk: &Disk, q: &Point, distance: f64) -> bool {
    let size = (q - disk.center).abs().sum()
        + disk.center.coords.abs().sum()
        + disk.radius
        + disk.half_thickness;
    let reach = distance + BOUND_PAD * size;
    disk.distance_squared(q) >= reach * reach
}

/// The relative rounding of a squared distance to a box (three squares and two sums, a few
/// ulps), with room: a box is left out only when it is certainly no nearer than the best.
pub(crate) const BOX_ROUNDING: f64 = 16.0 * f64::EPSILON;

/// The first leaf of the tree (the hint of a walk that has none).
fn first_leaf<V>(mesh: &MeshModel<V>) -> usize {
    let mut node = 0;
    while let Some([left, _]) = mesh.tree().node(node).children() {
        node = left;
    }
    node
}

/// The float distance from `q` to triangle `t` and its closest point.
fn measure<V>(mesh: &MeshModel<V>, q: &Point, t: u32) -> Best {
    let point = point_triangle::closest_point(q, &mesh.mesh().triangle(t as usize));
    Best {
        distance: (point - q).norm(),
        triangle: t,
        point,
    }
}

/// A lower bound on the distance from `q` to anything inside `rss`: the distance to its
/// rectangle less its radius and the pad.
fn lower_bound(rss: &Rss, q: &Point) -> f64 {
    let local = rss.local(q);
    let x = local.x - local.x.clamp(0.0, rss.lengths[0]);
    let y = local.y - local.y.clamp(0.0, rss.lengths[1]);
    let size = (q - rss.corner).abs().sum() + rss.lengths[0] + rss.lengths[1] + rss.radius;
    (x * x + y * y + local.z * local.z).sqrt() - rss.radius - BOUND_PAD * size
}

/// The answer for the best triangle: its certified distance, or exactly 0 when some triangle
/// the walk could not tell from touching contains `q`.
fn certified<V: TreeVolume>(mesh: &MeshModel<V>, q: &Point, best: Best, pad: f64) -> PointDistance {
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
