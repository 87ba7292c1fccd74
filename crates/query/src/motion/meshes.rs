//! Two meshes under a motion: the kernel's descent over time with one of two leaf visits,
//! exact for a translation ([`translating_leaves`]), bounded by distances for a rotation
//! ([`rotating_leaves`]).

use super::{MotionRequest, MotionResult};
use crate::collide::{checked_relative_pose, run, CollisionRequest, CollisionResult, Mode};
use crate::error::QueryError;
use crate::kernel::descent::in_time::{earliest, LeafVerdict, Span, TimeSlice, Undecided};
use crate::kernel::place;
use crate::kernel::posed::PosedOverlap;
use crate::model::MeshModel;
use obbtree_bv::ccd::{edge_edge, vertex_face};
use obbtree_bv::distance::tri_tri;
use obbtree_bv::{Motion, Point, Pose, Triangle};
use std::cell::Cell;
use std::collections::HashSet;

/// Two meshes under a motion, with what the leaf visits need.
struct MeshMotion<'m, V> {
    a: &'m MeshModel<V>,
    b: &'m MeshModel<V>,
    /// B's motion in A's frame.
    motion: &'m Motion,
    request: &'m MotionRequest,
    /// The distance tolerance `δ` of a rotation.
    tolerance: f64,
    /// The rounding the float bounds allow for.
    slack: f64,
}

/// The first contact of `b` following `motion` (in A's frame) with `a`.
pub(super) fn first_contact<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    motion: &Motion,
    request: &MotionRequest,
    tolerance: f64,
    slack: f64,
) -> Result<MotionResult, QueryError> {
    check_along(b, motion)?;
    if let Some(pair) = touching(a, b, motion.start()) {
        return Ok(MotionResult::hit([0.0, 0.0], pair, true, 0.0));
    }
    let speed = motion.speed_bound(b.bounds());
    let slice = |span: Span| {
        let pose = motion.pose_at(span.middle());
        let margin = speed * span.width() * 0.5 * (1.0 + 1e-12) + slack;
        TimeSlice {
            relative: V::relative_within(&pose, margin),
            pose,
            margin,
        }
    };
    let pair = MeshMotion {
        a,
        b,
        motion,
        request,
        tolerance,
        slack,
    };
    let undecided = |_: Undecided| QueryError::MotionUndecided { tolerance };
    if motion.is_translation() {
        translating_leaves(&pair, slice).map_err(undecided)
    } else {
        rotating_leaves(&pair, slice).map_err(undecided)
    }
}

/// `Ok` when B stays in the exact range at the start, the middle and the end of the motion
/// (a point's coordinates along the way are bounded by its distance from B's origin plus the
/// translation, which these three placements span).
fn check_along<V>(b: &MeshModel<V>, motion: &Motion) -> Result<(), QueryError> {
    for t in [0.0, 0.5, 1.0] {
        checked_relative_pose(&Pose::identity(), b, &motion.pose_at(t))?;
    }
    Ok(())
}

/// A touching triangle pair of `a` and `b` placed by `b_in_a`, exactly.
fn touching<V: PosedOverlap>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
) -> Option<[u32; 2]> {
    let mut result = CollisionResult::default();
    run(
        a,
        b,
        b_in_a,
        &CollisionRequest::new(Mode::First),
        &mut result,
    );
    result.pairs.first().copied()
}

/// The earliest contact found so far: `[lo, hi]` (the least of each end over the hits, which
/// brackets the least contact time) and the pair with the least `lo`.
#[derive(Clone, Copy, Default)]
struct Earliest {
    toi: Option<([f64; 2], [u32; 2])>,
}

impl Earliest {
    fn add(&mut self, toi: [f64; 2], pair: [u32; 2]) {
        self.toi = Some(match self.toi {
            None => (toi, pair),
            Some((best, best_pair)) => {
                let pair = if toi[0] < best[0] { pair } else { best_pair };
                ([best[0].min(toi[0]), best[1].min(toi[1])], pair)
            }
        });
    }

    /// Items that start after this cannot hold an earlier contact.
    fn until(&self) -> f64 {
        self.toi.map_or(f64::INFINITY, |(toi, _)| toi[1])
    }
}

/// A translation: each pair of leaves reached is decided once over the whole motion, exactly
/// ([`first_contact_of_triangles`]); the descent ends at the first interval that starts after
/// the earliest contact found.
fn translating_leaves<V: PosedOverlap>(
    pair: &MeshMotion<'_, V>,
    slice: impl Fn(Span) -> TimeSlice<V::Relative>,
) -> Result<MotionResult, Undecided> {
    let (a, b, motion) = (pair.a, pair.b, pair.motion);
    let best = Cell::new(Earliest::default());
    let mut decided: HashSet<(usize, usize)> = HashSet::new();
    let (start, end) = (motion.start(), motion.end());
    earliest(
        a.tree(),
        b.tree(),
        slice,
        || best.get().until(),
        |_, _, x, y| {
            if !decided.insert((x, y)) {
                return LeafVerdict::Free;
            }
            let moving: Vec<(u32, [Triangle; 2])> = b
                .tree()
                .leaf_triangles(y)
                .iter()
                .map(|&ib| {
                    let local = b.mesh().triangle(ib as usize);
                    (ib, [placed(&local, start), placed(&local, end)])
                })
                .collect();
            for &ia in a.tree().leaf_triangles(x) {
                let fixed = a.mesh().triangle(ia as usize);
                for &(ib, ref moving) in &moving {
                    let Some([opens, _]) = contact_window(&fixed, moving) else {
                        continue;
                    };
                    if opens > best.get().until() {
                        continue;
                    }
                    if let Some(toi) = first_contact_of_triangles(&fixed, moving) {
                        let mut found = best.get();
                        found.add(toi, [ia, ib]);
                        best.set(found);
                    }
                }
            }
            LeafVerdict::Free
        },
    )?;
    Ok(match best.get().toi {
        Some((toi, pair)) => MotionResult::hit(toi, pair, true, 0.0),
        None => MotionResult::free(true, 0.0),
    })
}

/// `triangle` placed by `pose`.
fn placed(triangle: &Triangle, pose: &Pose) -> Triangle {
    let [p, q, r] = triangle.vertices().map(|v| place(pose, &v));
    Triangle::new(p, q, r)
}

/// The earliest contact of the static triangle `fixed` and the triangle moving linearly from
/// `moving[0]` to `moving[1]`, vertex by vertex, given that they do not touch at the start:
/// the earliest of the six vertex–face and nine edge–edge contacts (a first contact of two
/// closed triangles that start apart is one of these; Provot 1997), exactly. `[lo, hi]` as
/// [`obbtree_bv::ccd::TimeOfImpact`].
pub(crate) fn first_contact_of_triangles(
    fixed: &Triangle,
    moving: &[Triangle; 2],
) -> Option<[f64; 2]> {
    let f = fixed.vertices();
    let [m0, m1] = moving.map(|t| t.vertices());
    let vertex_of_b =
        (0..3).filter_map(|k| vertex_face([m0[k], f[0], f[1], f[2]], [m1[k], f[0], f[1], f[2]]));
    let vertex_of_a = (0..3)
        .filter_map(|k| vertex_face([f[k], m0[0], m0[1], m0[2]], [f[k], m1[0], m1[1], m1[2]]));
    let edges = (0..9).filter_map(|e| {
        let (i, j) = (e / 3, e % 3);
        let (a0, a1) = (f[i], f[(i + 1) % 3]);
        let (b0, b1) = (j, (j + 1) % 3);
        edge_edge([a0, a1, m0[b0], m0[b1]], [a0, a1, m1[b0], m1[b1]])
    });
    vertex_of_b
        .chain(vertex_of_a)
        .chain(edges)
        .map(|toi| [toi.lo, toi.hi])
        .reduce(|x, y| [x[0].min(y[0]), x[1].min(y[1])])
}

/// A window of time `[t₀, t₁]` outside which the static triangle `fixed` and the triangle
/// moving linearly from `moving[0]` to `moving[1]` (vertex by vertex) certainly do not touch,
/// or `None` when they never do: a float filter in front of the exact primitives.
///
/// Along any axis `n`, the moving triangle's projection at `t` lies within the interpolation of
/// its projection's extremes at the ends (the least of a sum is at least the sum of the
/// least), so contact at `t` needs `(1 − t)·min₀ + t·min₁ ≤ max_A` and
/// `(1 − t)·max₀ + t·max₁ ≥ min_A`: two linear conditions, each a half-line of `t`. The axes
/// are those that separate a segment from the Minkowski difference of two triangles (the
/// separating-axis theorem; Ericson, *Real-Time Collision Detection* §5.5.2): the two normals,
/// the nine products of edges and the six products of the motion with the edges. Each
/// comparison has a slack far above the rounding of the projections (a dot product of three
/// terms is off by at most `3u·Σ|nᵢ||pᵢ|`), and the window's ends are widened by `10⁻⁹` for
/// the rounding of the division.
fn contact_window(fixed: &Triangle, moving: &[Triangle; 2]) -> Option<[f64; 2]> {
    let a = fixed.vertices();
    let [b0, b1] = moving.map(|t| t.vertices());
    let edges = |t: &[Point; 3]| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (ea, eb) = (edges(&a), edges(&b0));
    let motion = (b1[0] - b0[0]) + (b1[1] - b0[1]) + (b1[2] - b0[2]);
    let magnitude = a
        .iter()
        .chain(&b0)
        .chain(&b1)
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max);
    let normals = [ea[0].cross(&ea[1]), eb[0].cross(&eb[1])];
    let products = (0..9).map(|k| ea[k / 3].cross(&eb[k % 3]));
    let sweeps = ea.iter().chain(&eb).map(|e| motion.cross(e));
    let mut window = [0.0, 1.0];
    for n in normals.into_iter().chain(products).chain(sweeps) {
        let slack = 1e-14 * n.abs().sum() * magnitude;
        let extent = |t: &[Point; 3]| {
            let d = t.map(|p| n.dot(&p.coords));
            (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
        };
        let ((lo_a, hi_a), (lo_0, hi_0), (lo_1, hi_1)) = (extent(&a), extent(&b0), extent(&b1));
        window = at_most_zero(lo_0 - hi_a - slack, lo_1 - lo_0, window)?;
        window = at_most_zero(lo_a - hi_0 - slack, hi_0 - hi_1, window)?;
    }
    Some(window)
}

/// `window` narrowed to the `t` with `c + t·k ≤ 0` (widened by `10⁻⁹`), or `None` if no `t`
/// is left.
fn at_most_zero(c: f64, k: f64, [lo, hi]: [f64; 2]) -> Option<[f64; 2]> {
    const WIDEN: f64 = 1e-9;
    let narrowed = if k > 0.0 {
        [lo, hi.min(-c / k + WIDEN)]
    } else if k < 0.0 {
        [lo.max(-c / k - WIDEN), hi]
    } else if c <= 0.0 {
        [lo, hi]
    } else {
        return None;
    };
    (narrowed[0] <= narrowed[1]).then_some(narrowed)
}

/// A rotation: a pair of leaves over an interval is free when every triangle pair's float
/// distance at the middle, less its error bound, the slack and how far B's triangle can move
/// in half the interval, is positive; a hit when the interval is at most the time tolerance
/// wide and some pair is exactly within `tolerance` at the middle; otherwise halved.
fn rotating_leaves<V: PosedOverlap>(
    pair: &MeshMotion<'_, V>,
    slice: impl Fn(Span) -> TimeSlice<V::Relative>,
) -> Result<MotionResult, Undecided> {
    let (a, b, motion) = (pair.a, pair.b, pair.motion);
    let (request, tolerance, slack) = (pair.request, pair.tolerance, pair.slack);
    let mut found = None;
    earliest(
        a.tree(),
        b.tree(),
        slice,
        || f64::INFINITY,
        |span, here, x, y| {
            let reach = span.width() * 0.5 * (1.0 + 1e-12);
            let narrow = span.width() <= request.time_tolerance;
            let moving: Vec<(u32, Triangle, f64)> = b
                .tree()
                .leaf_triangles(y)
                .iter()
                .map(|&ib| {
                    let local = b.mesh().triangle(ib as usize);
                    let moved = motion.speed_bound_of_points(&local.vertices()) * reach + slack;
                    (ib, placed(&local, &here.pose), moved)
                })
                .collect();
            let mut verdict = LeafVerdict::Free;
            for &ia in a.tree().leaf_triangles(x) {
                let fixed = a.mesh().triangle(ia as usize);
                for (ib, there, moved) in &moving {
                    if box_gap(&fixed, there) > *moved {
                        continue;
                    }
                    let d = tri_tri::distance(&fixed, there);
                    if d.distance - d.error - moved > 0.0 {
                        continue;
                    }
                    if narrow && tri_tri::within(&fixed, there, tolerance) {
                        found = Some(MotionResult::hit(span.ends(), [ia, *ib], false, tolerance));
                        return LeafVerdict::Hit;
                    }
                    verdict = LeafVerdict::Split;
                }
            }
            verdict
        },
    )?;
    Ok(found.unwrap_or(MotionResult::free(false, tolerance)))
}

/// A lower bound on the distance between two triangles: the largest gap between their boxes
/// along an axis (each coordinate compared exactly; the gap's subtraction may round down by
/// half an ulp, which the caller's slack covers).
fn box_gap(p: &Triangle, q: &Triangle) -> f64 {
    let (vp, vq) = (p.vertices(), q.vertices());
    (0..3)
        .map(|k| {
            let (lo_p, hi_p) = (
                vp.iter().map(|v| v[k]).fold(f64::INFINITY, f64::min),
                vp.iter().map(|v| v[k]).fold(f64::NEG_INFINITY, f64::max),
            );
            let (lo_q, hi_q) = (
                vq.iter().map(|v| v[k]).fold(f64::INFINITY, f64::min),
                vq.iter().map(|v| v[k]).fold(f64::NEG_INFINITY, f64::max),
            );
            (lo_q - hi_p).max(lo_p - hi_q)
        })
        .fold(0.0, f64::max)
}
