//! Continuous checking of a path: every segment between consecutive configurations is either
//! certified free of contact for every pair the discrete check considers, or its first contact
//! is bracketed, with no sampling resolution.
//!
//! The method is the adaptive dynamic collision checking of Schwarzer, Saha & Latombe,
//! "Adaptive dynamic collision checking for single and multiple articulated robots in complex
//! environments", IEEE Transactions on Robotics 21(3), 2005. For two objects whose points move
//! (relative to each other) by at most `μ(s₁, s₂)` while the segment's parameter goes from `s₁`
//! to `s₂`, the distance `d(s)` between them is `μ`-Lipschitz: `d(s) ≥ d(s₁) − μ(s₁, s)`. So with
//! certified lower bounds `l₁ ≤ d(s₁)` and `l₂ ≤ d(s₂)`, `l₁ + l₂ > μ(s₁, s₂)` proves `d > 0` on
//! all of `[s₁, s₂]` (at any `s`, `l₁ − μ(s₁, s) + l₂ − μ(s, s₂) > 0`, so one of the two bounds
//! is positive). Where the proof fails the interval is bisected, each pair on its own.
//!
//! # The motion bound
//!
//! Along a segment from `a` to `b` every joint value moves linearly in `s` and every floating
//! joint's rotation turns at constant speed about a fixed axis (the interpolation of
//! [`RobotScene::check_path`]), so every joint's motion over `[s₁, s₂]` is `|s₂ − s₁|` times its
//! motion over the segment, and `μ(s₁, s₂) = M·|s₂ − s₁|` for a per-pair rate `M`:
//! [`RobotScene::motion_bound`] states it and why it holds.
//!
//! # The search
//!
//! Pairs are searched one at a time, each on `[0, end]` where `end` is the earliest contact
//! found so far in the segment; a pair whose world bounds at the segment's start, each grown
//! by how far its object can move in the world along the segment, never meet is apart at once.
//! A pair's search keeps the end `lo` of its certified part and a stack of targets: the target
//! `e` is certified from `lo` when `l(lo) + l(e) > M·(e − lo)`, else halved; a target where
//! the surfaces meet (distance exactly 0) drops every later one, and the search stops when the
//! motion from `lo` to it is at most the tolerance `δ`. An interval whose motion bound is at
//! most `δ` and which the distances do not certify is decided exactly: apart on all of it when
//! [`crate::within_margin`] at its middle says the pair is farther apart than half the bound,
//! else it is a near pass (the pair's exact distance is at most `δ` all along it), passed over
//! in search of a contact after it; after [`MAX_NEAR_PASSES`] of them, or at the end, the first
//! near pass is reported as a hit within `δ`. So every search ends, after about `log₂(M/δ)`
//! halvings per contact or near pass. The guarantee is in
//! [`RobotScene::check_path_continuous`].
//!
//! Coherence: each pair's distance queries start from its last closest triangle pair
//! ([`crate::DistanceRequest::hint`]) along the whole path, and the link poses of each probed
//! `s` are computed once per segment.

use super::{RobotContacts, RobotError, RobotScene};
use crate::bv::{Aabb, Pose};
use crate::scene::{ObjectId, SceneError};
use crate::urdf::configuration::{rotation_angle, Steps};
use crate::urdf::{Joint, JointKind};
use crate::{distance, within_margin, DistanceRequest, Model, PosedOverlap, QueryError};
use std::collections::HashMap;

/// The default tolerance `δ` of [`RobotScene::check_path_continuous`]: 1e-6 m, a micrometre.
/// Far below any robot's modelling accuracy (meshes of millimetres, encoders of about 1e-4
/// rad at a metre's reach: 0.1 mm), so a hit within it is a contact for any purpose, and far
/// above the distance query's error (`1e-12` relative to the coordinates), so closeness is
/// decided by the geometry and not by rounding. Each contact costs about `log₂(M/δ)` halvings
/// (about 20 for a metre of motion), so a smaller tolerance costs little.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// Relative safety added to motion bounds for their rounding.
const ROUNDING: f64 = 1e-9;

/// How many intervals within the tolerance a pair's search passes over, looking for a contact
/// after them, before it reports the first as a hit within the tolerance: an approach into
/// contact slower than the motion bound's rate needs a few; a long graze within the
/// tolerance would need a number without end.
const MAX_NEAR_PASSES: usize = 64;

/// The first collision of a path found by [`RobotScene::check_path_continuous`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContinuousCollision {
    /// The segment, by the index in the path of its start configuration.
    pub segment: usize,
    /// Every pair is certified without contact on `[0, certified]` of the segment.
    pub certified: f64,
    /// Every `s` of `[certified, lo]` is certified without contact for every pair, or within a
    /// near pass of one: an interval where the pair's exact distance is at most the tolerance
    /// throughout (`certified = lo` when there is none).
    pub lo: f64,
    /// The robot touches (or is within the tolerance) at `hi`: `lo ≤ hi ≤ 1`.
    pub hi: f64,
    /// The configuration at `hi`.
    pub configuration: Vec<f64>,
    /// Whether the exact discrete check finds contacts at `hi`; false for a hit within the
    /// tolerance only.
    pub touching: bool,
    /// What touches at `hi` ([`RobotScene::check`]), or, when nothing touches, the pairs at
    /// most the tolerance apart there.
    pub contacts: RobotContacts,
}

/// What [`RobotScene::check_path_continuous`] found, and what it took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContinuousPathCheck {
    /// The first collision, or `None` when every segment is certified free.
    pub collision: Option<ContinuousCollision>,
    /// Segments examined: all of them, or up to and including the colliding one.
    pub segments: usize,
    /// Pair distance queries made.
    pub distance_queries: usize,
    /// Exact decisions made: margin queries on straddling or short intervals, and discrete
    /// checks of the whole robot at a hit.
    pub exact_checks: usize,
    /// Intervals bisected.
    pub subdivisions: usize,
}

/// How one joint moves along a segment: the bounds the motion bound sums.
#[derive(Clone, Copy, Debug, Default)]
struct JointMotion {
    /// How far it translates its child frame.
    linear: f64,
    /// How far it turns its child frame (radians).
    angular: f64,
    /// The largest distance between its parent's frame origin and its child's.
    offset: f64,
}

/// The bounds of joint `joint`'s motion between its values `a` and `b` (see
/// [`RobotScene::motion_bound`]).
fn joint_motion(joint: &Joint, a: &[f64], b: &[f64]) -> JointMotion {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let change = |a: &[f64], b: &[f64]| {
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
        norm(&d)
    };
    let (linear, angular, shift) = match (joint.kind, a, b) {
        (JointKind::Revolute | JointKind::Continuous, &[x], &[y]) => (0.0, (y - x).abs(), 0.0),
        (JointKind::Prismatic, &[x], &[y]) => ((y - x).abs(), 0.0, x.abs().max(y.abs())),
        (JointKind::Planar, &[_, _, x], &[_, _, y]) => (
            change(&a[..2], &b[..2]),
            (y - x).abs(),
            norm(&a[..2]).max(norm(&b[..2])),
        ),
        (JointKind::Floating, a, b) if a.len() == 7 && b.len() == 7 => (
            change(&a[..3], &b[..3]),
            rotation_angle(&a[3..], &b[3..]),
            norm(&a[..3]).max(norm(&b[..3])),
        ),
        _ => (0.0, 0.0, 0.0),
    };
    JointMotion {
        linear,
        angular,
        offset: joint.origin.translation().norm() + shift,
    }
}

/// How far any point of an object on the chain's last link, `radius` from that link's frame
/// origin, can move when the joints `chain` (root to link order) move as `motions` say, the
/// joints before the chain held.
fn chain_motion(chain: &[usize], motions: &[JointMotion], radius: f64) -> f64 {
    let mut reach = radius;
    let mut moved = 0.0;
    for &j in chain.iter().rev() {
        let m = motions[j];
        moved += m.linear + m.angular * reach;
        reach += m.offset;
    }
    moved
}

/// Where an object of the scene hangs: the joints from the root to its link (none for a
/// fixture) and its radius about its link's frame origin.
#[derive(Clone, Debug, Default)]
struct Mount {
    chain: Vec<usize>,
    radius: f64,
}

/// The largest distance from the origin of a point of `model` placed by `origin`: its bounds'
/// farthest corner.
fn radius<V>(model: &Model<V>, origin: &Pose) -> f64 {
    model
        .bounds()
        .corners()
        .iter()
        .map(|c| origin.transform_point(c).coords.norm())
        .fold(0.0, f64::max)
}

/// A pair's state at one probed `s`.
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// A certified lower bound on the pair's distance.
    lower: f64,
    /// Whether the surfaces meet (distance exactly 0).
    touching: bool,
}

/// The first near pass of a pair: an interval it could not be certified on, where its exact
/// distance is at most the tolerance throughout.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Near {
    /// The end of the certified part before it.
    certified: f64,
    /// Its middle (at most half the tolerance apart).
    at: f64,
    /// How many such intervals the search has passed.
    passes: usize,
}

/// What one pair's search found on a segment.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PairEvent {
    /// Certified without contact up to the end searched.
    Free,
    /// Certified on `[0, certified]`, certified or within the tolerance on `[certified, lo]`,
    /// touching (or, after a near pass only, within the tolerance) at `hi`.
    Hit { certified: f64, lo: f64, hi: f64 },
}

impl PairEvent {
    /// A contact at `hi`, bracketed from `lo`, after the near pass `near` if any.
    fn hit(near: Option<Near>, lo: f64, hi: f64) -> Self {
        let certified = near.map_or(lo, |n| n.certified);
        PairEvent::Hit { certified, lo, hi }
    }

    /// A near pass with no contact found after it: a hit within the tolerance at its middle.
    fn near(near: Near) -> Self {
        PairEvent::Hit {
            certified: near.certified,
            lo: near.certified,
            hi: near.at,
        }
    }
}

/// One segment's motion: the configurations at each probed `s` (link poses computed once).
struct Segment<'a> {
    steps: &'a Steps,
    a: &'a [f64],
    b: &'a [f64],
    poses: HashMap<u64, Vec<Pose>>,
}

/// The state of one path check: the objects' mounts, each pair's last closest triangles, the
/// tolerance, and the counts.
struct Checker {
    mounts: HashMap<ObjectId, Mount>,
    hints: HashMap<(ObjectId, ObjectId), [u32; 2]>,
    tolerance: f64,
    stats: ContinuousPathCheck,
}

impl<V: PosedOverlap> RobotScene<V> {
    /// Checks `path` continuously: each segment between consecutive configurations, moving as
    /// [`check_path`](Self::check_path) interpolates but with no resolution, is certified free
    /// of contact, or its first contact is bracketed. The method is the adaptive dynamic
    /// collision checking of Schwarzer, Saha & Latombe ("Adaptive dynamic collision checking
    /// for single and multiple articulated robots in complex environments", IEEE Transactions
    /// on Robotics 21(3), 2005): for each pair [`check`](Self::check) considers, a certified
    /// lower bound `l(s)` on its distance ([`crate::distance`]'s `lower`) at fractions `s` of
    /// the segment, and a bound `M·|s₂ − s₁|` on how far any point of either object moves
    /// relative to the other between `s₁` and `s₂` ([`motion_bound`](Self::motion_bound));
    /// `l(s₁) + l(s₂) > M·(s₂ − s₁)` proves the pair apart on all of `[s₁, s₂]` (at any `s` in
    /// it, `l(s₁) − M·(s − s₁)` or `l(s₂) − M·(s₂ − s)` is positive), and where it does not the
    /// interval is halved, pair by pair.
    ///
    /// The guarantee, with `tolerance` `δ` (metres; [`DEFAULT_TOLERANCE`] is 1e-6):
    /// * no collision: every pair is apart (distance `> 0`) at every point of every segment;
    /// * a collision in segment `k` ([`ContinuousCollision::segment`], the index of its start
    ///   in `path`) with `certified ≤ lo ≤ hi`: every pair is apart on every segment before
    ///   `k` and on `[0, certified]` of segment `k`; every `s` of `[certified, lo]` has every
    ///   pair apart or lies in a near pass of one (an interval of `s` on which the pair's exact
    ///   distance is at most `δ` throughout); at `hi` the exact discrete check
    ///   ([`check`](Self::check)) finds contacts (`touching`), or else some pair is at most `δ`
    ///   apart there (`touching` false, `contacts` those pairs): a pass within `δ` after which
    ///   no contact was found. The pair whose bracket ends at `hi` moves by at most `δ`
    ///   relative to the other between `lo` and `hi`.
    ///
    /// So a hit is reported only where a pair touches or is at most `δ` apart, and `δ` also
    /// sets how finely the first contact is bracketed. A path whose first configuration is in
    /// collision ([`check`](Self::check), so a link inside a solid fixture counts) gives
    /// segment 0 and `[0, 0]`; along the segments, contact is the surfaces meeting, which a
    /// motion from apart into contact passes through. A path of one configuration is the
    /// segment from it to itself. Inputs are checked as
    /// [`check_path_with`](Self::check_path_with) checks them; a tolerance that is not a
    /// positive finite number is an error ([`RobotError::Tolerance`]). The robot is left at
    /// `hi`, or at the path's last configuration.
    pub fn check_path_continuous(
        &mut self,
        path: &[Vec<f64>],
        tolerance: f64,
    ) -> Result<ContinuousPathCheck, RobotError> {
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(RobotError::Tolerance(tolerance));
        }
        self.check_path_inputs(path, 1.0, None)?;
        let mut checker = Checker::new(self, tolerance);
        if let Some(hit) = self.starts_in_collision(&mut checker, path)? {
            checker.stats.segments = 1;
            checker.stats.collision = Some(hit);
            return Ok(checker.stats);
        }
        let steps = self.robot.steps();
        for (index, (a, b)) in segments(path).enumerate() {
            checker.stats.segments += 1;
            let segment = Segment::new(&steps, a, b);
            if let Some(hit) = self.check_segment(&mut checker, segment, index)? {
                checker.stats.collision = Some(hit);
                return Ok(checker.stats);
            }
        }
        if let Some(q) = path.last() {
            self.set_configuration(q)?;
        }
        Ok(checker.stats)
    }

    /// The bound `M` on how far any point of object `x` can move relative to object `y` (and
    /// `y`'s relative to `x`) while the configuration goes from `a` to `b` as a path segment
    /// does; over the part from `s₁` to `s₂` the bound is `M·|s₂ − s₁|`. A fixture does not
    /// move: against one, `M` bounds how far `x`'s points move in the world.
    ///
    /// `M` sums, over the joints on the kinematic path between the two objects (from their
    /// links' common ancestor to each; for a fixture, from the root), the joint's translation
    /// plus its turn times its reach: `|Δθ|·r` for a revolute or continuous joint, `|Δd|` for a
    /// prismatic one, `|Δ(x, y)| + |Δθ|·r` for a planar one, `|Δt| + φ·r` for a floating one
    /// (`φ` the angle of its rotation from `a` to `b`, which the slerp turns at constant speed
    /// about a fixed axis); a mimicking joint moves by its multiplier times its leader's
    /// change. The reach `r` of a joint bounds the distance from its child frame's origin (on
    /// a revolute joint's axis; the point planar and floating joints turn about) to any point
    /// of the object, whatever the following joints' values along the segment: the object's
    /// radius about its link's frame origin (the farthest corner of its model's bounds, placed
    /// by its origin), plus, for each following joint of the chain, the length of its
    /// origin's translation and the largest translation its values give along the segment
    /// (linear in `s`, so largest at an end). It holds because a motion of all the joints is
    /// the composition of each joint's motion with the others held; turning one joint by `Δθ`
    /// moves each downstream point along an arc of length at most `|Δθ|` times its distance
    /// from the axis, which the reach bounds (the triangle inequality along the chain;
    /// rotations keep lengths); translating moves it by the translation's length; and the
    /// joints above the common ancestor move both objects together. The sum is rounded up by a
    /// relative `1e-9`. Both configurations are checked as
    /// [`Robot::link_poses`](super::Robot::link_poses) checks them.
    pub fn motion_bound(
        &self,
        a: &[f64],
        b: &[f64],
        x: ObjectId,
        y: ObjectId,
    ) -> Result<f64, RobotError> {
        self.robot.check_configuration(a)?;
        self.robot.check_configuration(b)?;
        let mounts = self.mounts();
        let motions = self.joint_motions(a, b);
        let mount = |id: ObjectId| mounts.get(&id).cloned().unwrap_or_default();
        Ok(pair_motion(&mount(x), &mount(y), &motions))
    }

    /// Every link object's mount.
    fn mounts(&self) -> HashMap<ObjectId, Mount> {
        let mut chains: Vec<Vec<usize>> = vec![Vec::new(); self.robot.links.len()];
        for (k, j) in self.robot.joints.iter().enumerate() {
            let mut chain = chains[j.parent].clone();
            chain.push(k);
            chains[j.child] = chain;
        }
        self.parts
            .iter()
            .filter_map(|p| {
                let model = self.scene.get(p.id)?.model();
                let mount = Mount {
                    chain: chains[p.link].clone(),
                    radius: radius(model, &p.origin),
                };
                Some((p.id, mount))
            })
            .collect()
    }

    /// Each joint's motion from configuration `a` to `b` (checked ones).
    fn joint_motions(&self, a: &[f64], b: &[f64]) -> Vec<JointMotion> {
        let (va, vb) = (self.robot.joint_values(a), self.robot.joint_values(b));
        self.robot
            .joints
            .iter()
            .zip(va.iter().zip(&vb))
            .map(|(j, (x, y))| joint_motion(j, x, y))
            .collect()
    }

    /// The first hit on `segment` (the path's segment `index`), or `None` when it is free.
    fn check_segment(
        &mut self,
        checker: &mut Checker,
        mut segment: Segment,
        index: usize,
    ) -> Result<Option<ContinuousCollision>, RobotError> {
        self.set_configuration(segment.a)?;
        let motions = self.joint_motions(segment.a, segment.b);
        let mut end = 1.0;
        let mut hits: Vec<PairHit> = Vec::new();
        for (x, y) in self.pairs_checked() {
            if !self.may_meet(checker, x, y, &motions) {
                continue;
            }
            let rate = checker.pair_rate(x, y, &motions);
            if let PairEvent::Hit { certified, lo, hi } =
                self.pair_search(checker, &mut segment, (x, y), rate, end)?
            {
                end = end.min(hi);
                hits.push(PairHit {
                    pair: (x, y),
                    certified,
                    lo,
                    hi,
                });
            }
        }
        if hits.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.report_hit(
            checker,
            &mut segment,
            index,
            &hits,
            end,
        )?))
    }

    /// The pairs the discrete check considers, each ordered by name, sorted by names.
    fn pairs_checked(&self) -> Vec<(ObjectId, ObjectId)> {
        let ids: Vec<ObjectId> = self.scene.objects().map(|(id, _)| id).collect();
        let name = |id: ObjectId| self.scene.name(id);
        let mut pairs: Vec<(ObjectId, ObjectId)> = ids
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| ids[i + 1..].iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| self.admits(a, b))
            .map(|(a, b)| if name(a) <= name(b) { (a, b) } else { (b, a) })
            .collect();
        pairs.sort_by(|x, y| (name(x.0), name(x.1)).cmp(&(name(y.0), name(y.1))));
        pairs
    }

    /// Whether the groups admit the pair and it is not allowed.
    fn admits(&self, a: ObjectId, b: ObjectId) -> bool {
        match (self.scene.get(a), self.scene.get(b)) {
            (Some(oa), Some(ob)) => {
                oa.filter().admits(&ob.filter()) && !self.scene.is_allowed(a, b)
            }
            _ => false,
        }
    }

    /// Whether the pair's world bounds at the segment's start, each grown by how far its
    /// object can move in the world along the segment, meet (the robot is at the start).
    fn may_meet(
        &self,
        checker: &Checker,
        x: ObjectId,
        y: ObjectId,
        motions: &[JointMotion],
    ) -> bool {
        let grown = |id: ObjectId| {
            let moved = checker.world_motion(id, motions);
            self.scene.bounds(id).map(|b| (*b, moved))
        };
        match (grown(x), grown(y)) {
            (Some((a, ga)), Some((b, gb))) => boxes_meet(&a, &b, ga + gb),
            _ => true,
        }
    }

    /// One pair's first contact on `[0, end]` of the segment, bracketed after the last `s`
    /// certified or within the tolerance (the module documentation's search).
    fn pair_search(
        &self,
        checker: &mut Checker,
        segment: &mut Segment,
        pair: (ObjectId, ObjectId),
        rate: f64,
        end: f64,
    ) -> Result<PairEvent, RobotError> {
        let mut lo = 0.0;
        let mut at_lo = self.probe(checker, segment, pair, lo)?;
        if at_lo.touching {
            return Ok(PairEvent::hit(None, lo, lo));
        }
        let mut near: Option<Near> = None;
        let mut targets = vec![end];
        while let Some(&e) = targets.last() {
            let at_e = self.probe(checker, segment, pair, e)?;
            let motion = rate * (e - lo);
            let middle = lo + (e - lo) / 2.0;
            let split = motion > checker.tolerance && middle > lo && middle < e;
            if at_e.touching {
                // Nothing after a contact matters to the pair's first contact.
                targets.clear();
                if !split {
                    return Ok(PairEvent::hit(near, lo, e));
                }
                targets.push(e);
            } else if at_lo.lower + at_e.lower > motion {
                targets.pop();
                (lo, at_lo) = (e, at_e);
                continue;
            } else if !split {
                if !self.free_around(checker, segment, pair, middle, motion / 2.0)? {
                    let first = near.get_or_insert(Near {
                        certified: lo,
                        at: middle,
                        passes: 0,
                    });
                    first.passes += 1;
                    if first.passes > MAX_NEAR_PASSES {
                        return Ok(PairEvent::near(*first));
                    }
                }
                targets.pop();
                (lo, at_lo) = (e, at_e);
                continue;
            }
            checker.stats.subdivisions += 1;
            targets.push(middle);
        }
        Ok(near.map_or(PairEvent::Free, PairEvent::near))
    }

    /// Whether the pair is more than `radius` apart at `s`, decided exactly.
    fn free_around(
        &self,
        checker: &mut Checker,
        segment: &mut Segment,
        (x, y): (ObjectId, ObjectId),
        s: f64,
        radius: f64,
    ) -> Result<bool, RobotError> {
        checker.stats.exact_checks += 1;
        let poses = segment.poses_at(self, s)?;
        let ((mx, px), (my, py)) = (self.placed(x, poses)?, self.placed(y, poses)?);
        let witness = within_margin(mx, &px, my, &py, radius)
            .map_err(|source| self.pair_error(x, y, source))?;
        Ok(witness.is_none())
    }

    /// The pair's distance lower bound at `s`, and whether it touches.
    fn probe(
        &self,
        checker: &mut Checker,
        segment: &mut Segment,
        (x, y): (ObjectId, ObjectId),
        s: f64,
    ) -> Result<Probe, RobotError> {
        checker.stats.distance_queries += 1;
        let poses = segment.poses_at(self, s)?;
        let ((mx, px), (my, py)) = (self.placed(x, poses)?, self.placed(y, poses)?);
        let hint = checker.hints.get(&(x, y)).copied();
        let request = DistanceRequest::default().with_hint(hint);
        let found =
            distance(mx, &px, my, &py, &request).map_err(|source| self.pair_error(x, y, source))?;
        checker.hints.insert((x, y), found.pair);
        Ok(Probe {
            lower: found.lower.max(0.0),
            touching: found.distance == 0.0,
        })
    }

    /// An object's model and its pose for the link poses `links`.
    fn placed<'s>(
        &'s self,
        id: ObjectId,
        links: &[Pose],
    ) -> Result<(&'s Model<V>, Pose), RobotError> {
        let object = self.scene.get(id).ok_or(SceneError::UnknownObject(id))?;
        let pose = match self.parts.iter().find(|p| p.id == id) {
            Some(part) => links[part.link] * part.origin,
            None => *object.pose(),
        };
        Ok((object.model(), pose))
    }

    /// [`SceneError::Pair`] naming the two objects.
    fn pair_error(&self, a: ObjectId, b: ObjectId, source: QueryError) -> RobotError {
        SceneError::Pair {
            a: self.scene.name(a).to_string(),
            b: self.scene.name(b).to_string(),
            source,
        }
        .into()
    }

    /// The segment's hit from the pairs' brackets: `hi` the earliest, `lo` and `certified` the
    /// least among the brackets that reach below `hi`; the robot posed at `hi` and checked
    /// exactly.
    fn report_hit(
        &mut self,
        checker: &mut Checker,
        segment: &mut Segment,
        index: usize,
        hits: &[PairHit],
        hi: f64,
    ) -> Result<ContinuousCollision, RobotError> {
        let least =
            |of: fn(&PairHit) -> f64| hits.iter().map(of).filter(|&s| s <= hi).fold(hi, f64::min);
        let configuration = segment.configuration(hi);
        self.set_configuration(&configuration)?;
        checker.stats.exact_checks += 1;
        let touching = self.check()?;
        let contacts = match touching.is_empty() {
            false => touching.clone(),
            true => self.sort_pairs(hits.iter().filter(|h| h.hi == hi).map(|h| h.pair)),
        };
        Ok(ContinuousCollision {
            segment: index,
            certified: least(|h| h.certified),
            lo: least(|h| h.lo),
            hi,
            configuration,
            touching: !touching.is_empty(),
            contacts,
        })
    }

    /// The hit of a path whose first configuration is in collision ([`check`](Self::check)).
    fn starts_in_collision(
        &mut self,
        checker: &mut Checker,
        path: &[Vec<f64>],
    ) -> Result<Option<ContinuousCollision>, RobotError> {
        let Some(first) = path.first() else {
            return Ok(None);
        };
        self.set_configuration(first)?;
        checker.stats.exact_checks += 1;
        let contacts = self.check()?;
        Ok((!contacts.is_empty()).then(|| ContinuousCollision {
            segment: 0,
            certified: 0.0,
            lo: 0.0,
            hi: 0.0,
            configuration: first.clone(),
            touching: true,
            contacts,
        }))
    }
}

/// One pair's bracket on a segment ([`PairEvent::Hit`]).
#[derive(Clone, Copy, Debug)]
struct PairHit {
    pair: (ObjectId, ObjectId),
    certified: f64,
    lo: f64,
    hi: f64,
}

/// The path's segments in order: consecutive configurations, or the one configuration to
/// itself.
fn segments(path: &[Vec<f64>]) -> impl Iterator<Item = (&[f64], &[f64])> {
    let single = (path.len() == 1).then(|| (&path[0][..], &path[0][..]));
    single
        .into_iter()
        .chain(path.windows(2).map(|w| (&w[0][..], &w[1][..])))
}

/// The motion bound of a pair: the joints of each object's chain after their common part.
fn pair_motion(x: &Mount, y: &Mount, motions: &[JointMotion]) -> f64 {
    let common = x
        .chain
        .iter()
        .zip(&y.chain)
        .take_while(|(p, q)| p == q)
        .count();
    let moved = chain_motion(&x.chain[common..], motions, x.radius)
        + chain_motion(&y.chain[common..], motions, y.radius);
    moved * (1.0 + ROUNDING)
}

/// Whether boxes `a` and `b` come within `gap` of each other (per axis).
fn boxes_meet(a: &Aabb, b: &Aabb, gap: f64) -> bool {
    (0..3).all(|k| a.mins[k] - gap <= b.maxs[k] && b.mins[k] - gap <= a.maxs[k])
}

impl Checker {
    /// A check of `scene`'s pairs at `tolerance`.
    fn new<V: PosedOverlap>(scene: &RobotScene<V>, tolerance: f64) -> Self {
        Self {
            mounts: scene.mounts(),
            hints: HashMap::new(),
            tolerance,
            stats: ContinuousPathCheck::default(),
        }
    }

    /// The mount of an object (a fixture's is empty).
    fn mount(&self, id: ObjectId) -> Mount {
        self.mounts.get(&id).cloned().unwrap_or_default()
    }

    /// The pair's motion bound over the segment whose joints move as `motions` say.
    fn pair_rate(&self, x: ObjectId, y: ObjectId, motions: &[JointMotion]) -> f64 {
        pair_motion(&self.mount(x), &self.mount(y), motions)
    }

    /// How far an object's points can move in the world over the segment.
    fn world_motion(&self, id: ObjectId, motions: &[JointMotion]) -> f64 {
        pair_motion(&self.mount(id), &Mount::default(), motions)
    }
}

impl<'a> Segment<'a> {
    /// The segment from `a` to `b`.
    fn new(steps: &'a Steps, a: &'a [f64], b: &'a [f64]) -> Self {
        Self {
            steps,
            a,
            b,
            poses: HashMap::new(),
        }
    }

    /// The configuration a fraction `s` of the way.
    fn configuration(&self, s: f64) -> Vec<f64> {
        if s == 0.0 {
            self.a.to_vec()
        } else if s == 1.0 {
            self.b.to_vec()
        } else {
            self.steps.between(self.a, self.b, s)
        }
    }

    /// The link poses a fraction `s` of the way, computed once.
    fn poses_at<V: PosedOverlap>(
        &mut self,
        scene: &RobotScene<V>,
        s: f64,
    ) -> Result<&[Pose], RobotError> {
        if !self.poses.contains_key(&s.to_bits()) {
            let poses = scene.robot.link_poses(&self.configuration(s))?;
            self.poses.insert(s.to_bits(), poses);
        }
        Ok(&self.poses[&s.to_bits()])
    }
}
