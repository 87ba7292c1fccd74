//! Configurations: how many values each joint takes, in which order and under which names, the
//! checks a configuration passes before it poses the links, each joint's motion for its values,
//! and how a path moves from one configuration to the next.
//!
//! A configuration is a flat list of `f64`: the values of the moving joints
//! ([`Robot::moving_joints`]) one joint after the other, in that order. Each joint takes:
//!
//! | joint | values | the child frame, in the joint frame (after the joint's `origin`) |
//! | --- | --- | --- |
//! | `revolute`, `continuous` | `θ` (radians) | turned by `θ` about the axis |
//! | `prismatic` | `d` (metres) | moved by `d · axis` |
//! | `planar` | `x, y, θ` | moved to `x·e₁ + y·e₂` and turned by `θ` about the axis `n`, the plane's normal ([`Joint::plane_axes`] gives `e₁`, `e₂`) |
//! | `floating` | `x, y, z, qx, qy, qz, qw` | moved to `(x, y, z)` and turned by the unit quaternion `qw + qx·i + qy·j + qz·k` |
//! | `fixed`, or a joint with `<mimic>` | none | |
//!
//! The floating joint's values are those of pinocchio's free-flyer joint
//! (`JointModelFreeFlyer`: translation, then the quaternion's `x, y, z, w`), as which
//! pinocchio's URDF parser reads a `floating` joint, and MoveIt's floating joint variables
//! (`trans_x`, …, `rot_w`). So a pinocchio configuration of a robot whose joints are floating,
//! prismatic and bounded revolute ones, none mimicking another, is one here, joint by joint.
//! The planar joint's values are MoveIt's (`x`, `y`, `theta`): an angle, like the continuous
//! joint's value, where pinocchio's `JointModelPlanar` and its unbounded revolute joints take
//! `cos θ, sin θ` (`θ = atan2(sin θ, cos θ)`).
//!
//! A floating joint's quaternion need not be of unit norm to the last bit, but nearly: it is
//! refused ([`UrdfError::BadQuaternion`]) unless `|qx² + qy² + qz² + qw² − 1| ≤`
//! [`QUATERNION_TOLERANCE`], and normalised before use, so that the link's pose is always a
//! rigid motion. The tolerance is the one of pinocchio's own check of a free-flyer quaternion
//! (the assertion in `JointModelFreeFlyerTpl::forwardKinematics`): a configuration pinocchio
//! accepts is accepted here, one whose quaternion is far from unit (Euler angles, a zero
//! quaternion, `w` first) is an error rather than a silently different pose.

use super::{squared_norm, Joint, JointKind, Robot, UrdfError};
use crate::bv::{Pose, PoseError};
use nalgebra::{Quaternion, UnitQuaternion, Vector3, Vector4};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// How far the squared norm of a floating joint's quaternion may be from 1:
/// `|qx² + qy² + qz² + qw² − 1| ≤ 1e-4`, the bound pinocchio asserts in
/// `JointModelFreeFlyerTpl::forwardKinematics`. Four significant digits suffice
/// (`[0, 0, 0.7071, 0.7071]` passes).
pub const QUATERNION_TOLERANCE: f64 = 1e-4;

/// The names of a floating joint's values after the joint's name (MoveIt's
/// `FloatingJointModel` variables), in configuration order.
const FLOATING_VALUES: [&str; 7] = [
    "trans_x", "trans_y", "trans_z", "rot_x", "rot_y", "rot_z", "rot_w",
];

/// The names of a planar joint's values after the joint's name (MoveIt's `PlanarJointModel`
/// variables), in configuration order.
const PLANAR_VALUES: [&str; 3] = ["x", "y", "theta"];

/// Where a floating joint's quaternion starts among its values.
const QUATERNION_START: usize = 3;

/// One value of a configuration: its index, its name ([`Robot::value_names`]) and its joint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueRef {
    /// Its index in the configuration.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// The name of the joint it belongs to.
    pub joint: String,
}

impl fmt::Display for ValueRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name == self.joint {
            true => write!(f, "value {} (joint {:?})", self.index, self.joint),
            false => write!(
                f,
                "value {} ({} of joint {:?})",
                self.index, self.name, self.joint
            ),
        }
    }
}

impl JointKind {
    /// How many values a joint of this kind takes when it mimics no other: 0 (fixed), 1
    /// (revolute, continuous, prismatic), 3 (planar) or 7 (floating).
    pub fn value_count(self) -> usize {
        match self {
            JointKind::Fixed => 0,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic => 1,
            JointKind::Planar => PLANAR_VALUES.len(),
            JointKind::Floating => FLOATING_VALUES.len(),
        }
    }

    /// The URDF `type` of the joint: `fixed`, `revolute`, `continuous`, `prismatic`, `planar`
    /// or `floating`.
    pub fn urdf_type(self) -> &'static str {
        match self {
            JointKind::Fixed => "fixed",
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
            JointKind::Planar => "planar",
            JointKind::Floating => "floating",
        }
    }
}

impl fmt::Display for JointKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.urdf_type())
    }
}

impl Joint {
    /// How many values the joint takes in a configuration: its kind's
    /// ([`JointKind::value_count`]), or none when it mimics another joint.
    pub fn value_count(&self) -> usize {
        match self.mimic {
            Some(_) => 0,
            None => self.kind.value_count(),
        }
    }

    /// The names of the joint's values, in configuration order (MoveIt's variable names): the
    /// joint's name for a joint of one value; `NAME/x`, `NAME/y`, `NAME/theta` for a planar
    /// joint; `NAME/trans_x`, `NAME/trans_y`, `NAME/trans_z`, `NAME/rot_x`, `NAME/rot_y`,
    /// `NAME/rot_z`, `NAME/rot_w` for a floating one; none for a fixed or mimicking joint.
    pub fn value_names(&self) -> Vec<String> {
        let suffixes: &[&str] = match self.kind {
            JointKind::Planar => &PLANAR_VALUES,
            JointKind::Floating => &FLOATING_VALUES,
            _ => return vec![self.name.clone(); self.value_count()],
        };
        suffixes
            .iter()
            .map(|suffix| format!("{}/{suffix}", self.name))
            .collect()
    }

    /// The axes `e₁`, `e₂` of a planar joint's plane, in the joint frame: with the joint's
    /// axis `n`, `(e₁, e₂, n)` is a right-handed orthonormal frame, and the values `x, y, θ`
    /// move the child to `x·e₁ + y·e₂` turned by `θ` about `n` (`e₁` towards `e₂`).
    ///
    /// The frame is the one of Duff et al., "Building an Orthonormal Basis, Revisited" (JCGT
    /// 6(1), 2017): for `n_z ≥ 0`, `e₁` and `e₂` are the joint frame's `x` and `y` turned by
    /// the smallest rotation that takes `z` onto `n`; for `n_z < 0`, its `x` and `−y` turned by
    /// the smallest rotation that takes `−z` onto `n`. Written out, with `s` the sign of `n_z`
    /// (`+1` for 0), `a = −1 / (s + n_z)` and `b = a·n_x·n_y`:
    /// `e₁ = (1 + s·a·n_x², s·b, −s·n_x)` and `e₂ = (b, s + a·n_y², −n_y)`. So the axis `z`
    /// gives the plane `x, y` (pinocchio's `JointModelPlanar`, MoveIt's planar joint), `−z`
    /// gives `x, −y`, `x` gives `−z, y` and `y` gives `x, −z`. The division is by at least 1:
    /// no axis is a special case.
    pub fn plane_axes(&self) -> [Vector3<f64>; 2] {
        let n = self.axis.into_inner();
        let s = if n.z >= 0.0 { 1.0 } else { -1.0 };
        let a = -1.0 / (s + n.z);
        let b = a * n.x * n.y;
        [
            Vector3::new(1.0 + s * a * n.x * n.x, s * b, -s * n.x),
            Vector3::new(b, s + a * n.y * n.y, -n.y),
        ]
    }

    /// The child frame's motion in the joint frame for the joint's values `values` (as many as
    /// its kind takes; a mimicking joint's one computed value), checked finite: see the
    /// [module documentation](self). A floating joint's quaternion is normalised.
    fn motion(&self, values: &[f64]) -> Result<Pose, PoseError> {
        let axis = self.axis.into_inner();
        match (self.kind, values) {
            (JointKind::Revolute | JointKind::Continuous, &[angle]) => {
                Pose::new(Vector3::zeros(), axis * angle)
            }
            (JointKind::Prismatic, &[distance]) => Pose::from_translation(axis * distance),
            (JointKind::Planar, &[x, y, angle]) => {
                let [e1, e2] = self.plane_axes();
                Pose::new(e1 * x + e2 * y, axis * angle)
            }
            (JointKind::Floating, &[x, y, z, ..]) => {
                let rotation = unit_quaternion(&values[QUATERNION_START..]);
                Pose::from_parts(
                    Vector3::new(x, y, z),
                    rotation.to_rotation_matrix().into_inner(),
                )
            }
            _ => Ok(Pose::identity()),
        }
    }
}

/// The unit quaternion of the values `[qx, qy, qz, qw]` (normalised).
fn unit_quaternion(xyzw: &[f64]) -> UnitQuaternion<f64> {
    let [x, y, z, w] = quaternion_values(xyzw);
    UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z))
}

/// The four values of a quaternion, `[qx, qy, qz, qw]`, from the first four of `values`.
fn quaternion_values(values: &[f64]) -> [f64; 4] {
    [values[0], values[1], values[2], values[3]]
}

/// The index in a configuration of each moving joint's first value, per joint of `joints`
/// (`None` for a joint that takes none); and the configuration's length.
pub(super) fn value_starts(joints: &[Joint]) -> (Vec<Option<usize>>, usize) {
    let mut next = 0;
    let starts = joints
        .iter()
        .map(|j| {
            let start = next;
            next += j.value_count();
            (j.value_count() > 0).then_some(start)
        })
        .collect();
    (starts, next)
}

impl Robot {
    /// How many values a configuration has: the sum of the moving joints' value counts
    /// ([`Joint::value_count`]).
    pub fn configuration_len(&self) -> usize {
        self.configuration_len
    }

    /// The name of every value of a configuration, in order ([`Joint::value_names`]): for a
    /// robot with a floating base `base` and a revolute joint `elbow`, `base/trans_x`, …,
    /// `base/rot_w`, `elbow`.
    pub fn value_names(&self) -> Vec<String> {
        self.moving_joints().flat_map(Joint::value_names).collect()
    }

    /// The moving joints ([`Robot::moving_joints`]), each with the indices of its values in a
    /// configuration.
    pub fn value_ranges(&self) -> impl Iterator<Item = (&Joint, Range<usize>)> {
        self.joints
            .iter()
            .zip(&self.value_starts)
            .filter_map(|(j, start)| Some((j, (*start)?..(*start)? + j.value_count())))
    }

    /// The value at `index` of a configuration: its name and joint; `None` past the end.
    pub fn value(&self, index: usize) -> Option<ValueRef> {
        self.joints
            .iter()
            .zip(&self.value_starts)
            .find_map(|(j, start)| {
                let within = index.checked_sub((*start)?)?;
                let name = j.value_names().into_iter().nth(within)?;
                Some(ValueRef {
                    index,
                    name,
                    joint: j.name.clone(),
                })
            })
    }

    /// The configuration where every value is 0 but each floating joint's `qw`, which is 1
    /// (pinocchio's `neutral`): every link at its joints' origins.
    pub fn neutral_configuration(&self) -> Vec<f64> {
        let mut q = vec![0.0; self.configuration_len];
        for qx in self.quaternion_starts() {
            q[qx + 3] = 1.0; // qw
        }
        q
    }

    /// `Ok` when `values` is a configuration [`Robot::link_poses`] can pose: of
    /// [`Robot::configuration_len`] values, each finite, every floating joint's quaternion
    /// within [`QUATERNION_TOLERANCE`] of unit norm. Otherwise the first fault, naming the
    /// joint and the value's index ([`UrdfError::ConfigurationLength`],
    /// [`UrdfError::NonFiniteValue`], [`UrdfError::BadQuaternion`]).
    pub fn check_configuration(&self, values: &[f64]) -> Result<(), UrdfError> {
        self.check_length(values)?;
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(UrdfError::NonFiniteValue {
                path: self.path.clone(),
                value: self.value(index).expect("the length is checked"),
                got: values[index],
            });
        }
        for (j, start) in self.floating_joints() {
            let quaternion = quaternion_values(&values[start + QUATERNION_START..]);
            if (squared_norm(&quaternion) - 1.0).abs() > QUATERNION_TOLERANCE {
                return Err(UrdfError::BadQuaternion {
                    path: self.path.clone(),
                    joint: j.name.clone(),
                    index: start + QUATERNION_START,
                    quaternion,
                });
            }
        }
        Ok(())
    }

    /// `Ok` when `values` has [`Robot::configuration_len`] values; else an error naming the
    /// first missing value (or the last value of the robot, when there are too many).
    pub(super) fn check_length(&self, values: &[f64]) -> Result<(), UrdfError> {
        let expected = self.configuration_len;
        if values.len() == expected {
            return Ok(());
        }
        let boundary = match values.len() < expected {
            true => values.len(),
            false => expected.saturating_sub(1),
        };
        Err(UrdfError::ConfigurationLength {
            path: self.path.clone(),
            expected,
            got: values.len(),
            boundary: self.value(boundary),
        })
    }

    /// Each joint's values in the (checked) configuration `values`: its own, a mimicking
    /// joint's `multiplier · leader + offset`, none for a fixed joint; per joint of
    /// [`Robot::joints`].
    pub(super) fn joint_values<'a>(&'a self, values: &'a [f64]) -> Vec<Cow<'a, [f64]>> {
        self.joints
            .iter()
            .enumerate()
            .map(
                |(k, j)| match (&j.mimic, self.leaders[k], self.value_starts[k]) {
                    (Some(mimic), Some(leader), _) => {
                        let led = self.value_starts[leader].map_or(0.0, |s| values[s]);
                        Cow::Owned(vec![mimic.multiplier * led + mimic.offset])
                    }
                    (_, _, Some(start)) => Cow::Borrowed(&values[start..start + j.value_count()]),
                    _ => Cow::Borrowed(&[][..]),
                },
            )
            .collect()
    }

    /// The motion of joint `joint` (an index into [`Robot::joints`]) for its values.
    pub(super) fn joint_motion(&self, joint: usize, values: &[f64]) -> Result<Pose, UrdfError> {
        let j = &self.joints[joint];
        j.motion(values).map_err(|source| UrdfError::JointMotion {
            path: self.path.clone(),
            joint: j.name.clone(),
            values: values.to_vec(),
            source: Box::new(source),
        })
    }

    /// The floating joints and the index of each one's first value.
    fn floating_joints(&self) -> impl Iterator<Item = (&Joint, usize)> {
        self.joints
            .iter()
            .zip(&self.value_starts)
            .filter(|(j, _)| j.kind == JointKind::Floating)
            .filter_map(|(j, start)| Some((j, (*start)?)))
    }

    /// The index in a configuration of each floating joint's `qx` (its quaternion's first
    /// value).
    fn quaternion_starts(&self) -> Vec<usize> {
        self.floating_joints()
            .map(|(_, start)| start + QUATERNION_START)
            .collect()
    }

    /// How a path moves between this robot's configurations ([`Steps`]).
    pub(super) fn steps(&self) -> Steps {
        Steps {
            quaternions: self.quaternion_starts(),
        }
    }
}

/// How a path moves between two configurations `a` and `b` of a robot: every value linearly,
/// `a + (b − a)·s`, but each floating joint's rotation, which turns along the shorter arc from
/// `a`'s rotation to `b`'s at constant speed (spherical linear interpolation, Shoemake,
/// "Animating Rotation with Quaternion Curves", SIGGRAPH 1985). Owned, so that a path's steps
/// can be made while the robot's scene moves.
#[derive(Clone, Debug)]
pub(super) struct Steps {
    /// The index of each floating joint's `qx` in a configuration.
    quaternions: Vec<usize>,
}

impl Steps {
    /// How far `b` is from `a`: the largest of `|b_i − a_i|` over the values outside the
    /// floating joints' quaternions, and of the angle (radians, in `[0, π]`) of the rotation
    /// from `a`'s to `b`'s over the floating joints. Both configurations are checked ones.
    pub(super) fn distance(&self, a: &[f64], b: &[f64]) -> f64 {
        let linear = (0..a.len())
            .filter(|&i| !self.in_quaternion(i))
            .map(|i| (b[i] - a[i]).abs());
        let turns = self
            .quaternions
            .iter()
            .map(|&q| rotation_angle(&a[q..q + 4], &b[q..q + 4]));
        linear.chain(turns).fold(0.0, f64::max)
    }

    /// The configuration a fraction `s` of the way from `a` to `b`: `a_i + (b_i − a_i)·s`
    /// (computed in that order) for the values outside the floating joints' quaternions, the
    /// spherical interpolation of the quaternions (normalised, on the shorter arc).
    pub(super) fn between(&self, a: &[f64], b: &[f64], s: f64) -> Vec<f64> {
        let mut q: Vec<f64> = a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect();
        for &start in &self.quaternions {
            let turned = slerp(&a[start..start + 4], &b[start..start + 4], s);
            q[start..start + 4].copy_from_slice(&turned);
        }
        q
    }

    /// Whether value `i` is part of a floating joint's quaternion.
    fn in_quaternion(&self, i: usize) -> bool {
        self.quaternions.iter().any(|&q| (q..q + 4).contains(&i))
    }
}

/// The unit quaternions of `a` and `b` (`[qx, qy, qz, qw]`, normalised) as 4-vectors, `b`'s
/// sign chosen to be on `a`'s side (`q` and `−q` are one rotation), and the angle `φ` between
/// them: `2·atan2(|a − b|, |a + b|)`, accurate for small angles too.
fn aligned(a: &[f64], b: &[f64]) -> (Vector4<f64>, Vector4<f64>, f64) {
    let a = unit_quaternion(a).into_inner().coords;
    let b = unit_quaternion(b).into_inner().coords;
    let b = if a.dot(&b) < 0.0 { -b } else { b };
    let phi = 2.0 * (a - b).norm().atan2((a + b).norm());
    (a, b, phi)
}

/// The angle of the rotation from quaternion `a` to quaternion `b`, the shorter way: twice
/// the angle between their aligned 4-vectors.
pub(super) fn rotation_angle(a: &[f64], b: &[f64]) -> f64 {
    2.0 * aligned(a, b).2
}

/// The quaternion a fraction `s` along the shorter arc from `a` to `b`, as `[qx, qy, qz, qw]`:
/// `(sin((1 − s)φ)·a + sin(sφ)·b) / sin φ`, or `a + (b − a)·s` normalised when `φ` is too small
/// for the division (below `1e-9` radians, where the two agree to rounding).
fn slerp(a: &[f64], b: &[f64], s: f64) -> [f64; 4] {
    let (a, b, phi) = aligned(a, b);
    let q = match phi < 1e-9 {
        true => a + (b - a) * s,
        false => (a * ((1.0 - s) * phi).sin() + b * (s * phi).sin()) / phi.sin(),
    };
    let q = q.normalize();
    [q.x, q.y, q.z, q.w]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[qx, qy, qz, qw]` of the turn by `angle` about z.
    fn about_z(angle: f64) -> [f64; 4] {
        [0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()]
    }

    #[test]
    fn quaternions_turn_at_constant_speed_along_the_shorter_arc() {
        let steps = Steps {
            quaternions: vec![1],
        };
        let a = [5.0, 0.0, 0.0, 0.0, 1.0, -1.0];
        let mut b = [7.0, 0.0, 0.0, 0.0, 0.0, 3.0];
        b[1..5].copy_from_slice(&about_z(2.0));
        assert!(
            (steps.distance(&a, &b) - 4.0).abs() < 1e-15,
            "the last value"
        );
        b[5] = -1.0;
        assert!((steps.distance(&a, &b) - 2.0).abs() < 1e-15, "the turn");
        for s in [0.0, 0.25, 0.5, 1.0] {
            let q = steps.between(&a, &b, s);
            assert_eq!([q[0], q[5]], [5.0 + 2.0 * s, -1.0]);
            let want = about_z(2.0 * s);
            let off = (0..4)
                .map(|k| (q[1 + k] - want[k]).abs())
                .fold(0.0, f64::max);
            assert!(off < 1e-15, "{s}: {q:?}");
        }
        // The turn by 5 rad one way is 2π − 5 the other: half of it is −(π − 2.5).
        b[1..5].copy_from_slice(&about_z(5.0));
        let q = steps.between(&a, &b, 0.5);
        let turned = 2.0 * q[3].atan2(q[4]);
        assert!(
            (turned + (std::f64::consts::PI - 2.5)).abs() < 1e-14,
            "{q:?}"
        );
        // One rotation written with both signs: no turn.
        b[1..5].copy_from_slice(&about_z(0.0).map(|c| -c));
        assert_eq!(steps.distance(&a, &b), 2.0);
        assert_eq!(steps.between(&a, &b, 0.5)[1..5], [0.0, 0.0, 0.0, 1.0]);
        // A value after a quaternion that starts at 3 (a floating joint's `qx`) is a value.
        let later = Steps {
            quaternions: vec![3],
        };
        let a = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        let mut b = a;
        b[7] = 0.75;
        assert_eq!(later.distance(&a, &b), 0.75);
        assert_eq!(later.between(&a, &b, 0.5)[7], 0.375);
        // Below 1e-9 rad the blend is linear, and still ends at the second quaternion.
        let near = Steps {
            quaternions: vec![0],
        };
        let (a, b) = (about_z(0.0), about_z(4e-10));
        for (s, want) in [(1.0, b), (0.5, about_z(2e-10))] {
            let q = near.between(&a, &b, s);
            assert!((0..4).all(|k| (q[k] - want[k]).abs() < 1e-17), "{s}: {q:?}");
        }
    }
}
