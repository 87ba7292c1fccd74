//! Robots from URDF files: each link's visual meshes and the joint tree, so that given joint
//! values every mesh can be posed in the world frame (forward kinematics in f64).
//!
//! Parsing is done by the `urdf-rs` crate; this module resolves mesh files, loads them with
//! [`crate::load::load_mesh`] and composes the poses. Conventions (the URDF specification):
//! - `origin` is `xyz` then `rpy`, the rotation being roll about x, then pitch about y, then yaw
//!   about z, all about the fixed parent axes: `R = Rz(yaw) Ry(pitch) Rx(roll)`.
//! - A joint's child frame is `parent · origin · motion(q)`, where `motion` is a rotation by `q`
//!   about the (normalised) `axis` for `revolute` and `continuous` joints, a translation by
//!   `q · axis` for `prismatic` ones, and the identity for `fixed` ones. `floating`, `planar` and
//!   `spherical` joints are refused ([`UrdfError::UnsupportedJoint`]).
//! - A visual's mesh vertex `p` lands at `link · visual_origin · (scale ⊙ p)` in the world. The
//!   scale is applied to the vertices when the mesh is loaded ([`Visual::mesh`]), so the rest of
//!   the pose is rigid ([`Robot::visual_poses`]).
//! - Mesh file names: a `file://` prefix is dropped, `package://NAME/` is treated as a relative
//!   path; a relative name is looked up in the URDF's folder, then in each folder above it (the
//!   way pybullet finds `differential/diff_ring.stl` from `differential/diff_ring.urdf`).
//! - Visuals that are not meshes (box, cylinder, sphere, capsule) are refused
//!   ([`UrdfError::NotAMesh`]) rather than silently left out of a collision query.
//!
//! [`RobotScene`] makes a robot's visuals objects of a [`Scene`](crate::Scene): self-collision,
//! fixtures, and paths of configurations checked with the scene's temporal coherence.

mod scene;

pub use scene::{
    PathCheck, PathClearance, PathCollision, RobotContacts, RobotError, RobotScene, FIXTURE_GROUP,
    LINK_GROUP,
};

use crate::bv::Pose;
use crate::bv::TriMesh;
use crate::load::{load_mesh, LoadError};
use nalgebra::{Rotation3, Unit, Vector3};
use std::path::{Path, PathBuf};

/// Why a URDF file could not be used. Every variant names the URDF file.
#[derive(Debug, thiserror::Error)]
pub enum UrdfError {
    /// The URDF file could not be read.
    #[error("{}: cannot read the file: {source}", path.display())]
    Io {
        /// The URDF file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file is not well-formed URDF XML.
    #[error("{}: not a valid URDF file: {message}", path.display())]
    Xml {
        /// The URDF file.
        path: PathBuf,
        /// The parser's reason.
        message: String,
    },
    /// A joint names a link the file does not define.
    #[error("{}: joint {joint:?} names unknown link {link:?}", path.display())]
    UnknownLink {
        /// The URDF file.
        path: PathBuf,
        /// The joint.
        joint: String,
        /// The missing link.
        link: String,
    },
    /// The links do not form one tree (no root, several roots, or a link with two parents).
    #[error("{}: the joints do not join the links into one tree: {reason}", path.display())]
    NotATree {
        /// The URDF file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A joint type this module does not move (floating, planar, spherical).
    #[error("{}: joint {joint:?} has unsupported type {kind}", path.display())]
    UnsupportedJoint {
        /// The URDF file.
        path: PathBuf,
        /// The joint.
        joint: String,
        /// Its type.
        kind: String,
    },
    /// A moving joint with a zero or non-finite axis, or a non-finite origin or scale.
    #[error("{}: {what} is not finite or is zero", path.display())]
    BadNumber {
        /// The URDF file.
        path: PathBuf,
        /// Which value.
        what: String,
    },
    /// A visual geometry that is not a mesh.
    #[error("{}: link {link:?} has a visual that is not a mesh (only mesh visuals are supported)", path.display())]
    NotAMesh {
        /// The URDF file.
        path: PathBuf,
        /// The link.
        link: String,
    },
    /// A visual's mesh file could not be loaded (the inner error names the mesh file).
    #[error("{}: link {link:?}: {source}", path.display())]
    Mesh {
        /// The URDF file.
        path: PathBuf,
        /// The link.
        link: String,
        /// The loader's error.
        source: Box<LoadError>,
    },
    /// Scaling a mesh made it invalid (coordinates out of the range [`TriMesh`] accepts).
    #[error("{}: link {link:?}: the scaled mesh is invalid: {message}", path.display())]
    BadScale {
        /// The URDF file.
        path: PathBuf,
        /// The link.
        link: String,
        /// Why the mesh was refused.
        message: String,
    },
    /// [`Robot::link_poses`] got the wrong number of joint values, or a non-finite one.
    #[error("{}: expected {expected} finite joint values (one per moving joint), got {got:?}", path.display())]
    JointValues {
        /// The URDF file.
        path: PathBuf,
        /// The number of moving joints.
        expected: usize,
        /// What was given.
        got: Vec<f64>,
    },
}

/// How a joint moves its child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    /// Does not move.
    Fixed,
    /// Rotates about the axis within limits.
    Revolute,
    /// Rotates about the axis without limits.
    Continuous,
    /// Slides along the axis.
    Prismatic,
}

/// A joint: the child link's frame relative to the parent's.
#[derive(Clone, Debug)]
pub struct Joint {
    /// The joint's name.
    pub name: String,
    /// How it moves.
    pub kind: JointKind,
    /// Index of the parent link in [`Robot::links`].
    pub parent: usize,
    /// Index of the child link in [`Robot::links`].
    pub child: usize,
    /// The child frame at joint value 0, in the parent frame.
    pub origin: Pose,
    /// The axis of motion in the child frame (unit).
    pub axis: Unit<Vector3<f64>>,
    /// `(lower, upper)` for revolute and prismatic joints.
    pub limits: Option<(f64, f64)>,
}

/// A visual mesh of a link.
#[derive(Clone, Debug)]
pub struct Visual {
    /// The resolved mesh file.
    pub file: PathBuf,
    /// The mesh with the URDF's `scale` applied to its vertices (triangles as in the file).
    pub mesh: TriMesh,
    /// The visual's `origin` in its link's frame.
    pub origin: Pose,
}

/// A link and its visual meshes.
#[derive(Clone, Debug)]
pub struct Link {
    /// The link's name.
    pub name: String,
    /// Its mesh visuals, in file order.
    pub visuals: Vec<Visual>,
}

/// A robot: links, and joints in an order where every parent comes before its children.
#[derive(Clone, Debug)]
pub struct Robot {
    /// The URDF file.
    pub path: PathBuf,
    /// The robot's name.
    pub name: String,
    /// Links in file order.
    pub links: Vec<Link>,
    /// Joints sorted parent before child (file order among siblings).
    pub joints: Vec<Joint>,
    root: usize,
}

/// An `origin` element as a pose; refused when not finite.
fn origin_pose(p: &urdf_rs::Pose) -> Result<Pose, crate::bv::PoseError> {
    let rot = Rotation3::from_euler_angles(p.rpy[0], p.rpy[1], p.rpy[2]);
    Pose::from_parts(Vector3::from(p.xyz.0), *rot.matrix())
}

fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// The mesh file a URDF names, looked up as the module documentation says.
fn resolve(urdf: &Path, filename: &str) -> PathBuf {
    let name = filename.strip_prefix("file://").unwrap_or(filename);
    let name = match name.strip_prefix("package://") {
        Some(rest) => rest.split_once('/').map_or(rest, |(_, tail)| tail),
        None => name,
    };
    let name = Path::new(name);
    if name.is_absolute() {
        return name.to_path_buf();
    }
    let dir = urdf.parent().unwrap_or(Path::new("."));
    dir.ancestors()
        .map(|d| d.join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| dir.join(name))
}

/// A `BadNumber` error of the URDF file `path`.
fn bad_number(path: &Path, what: String) -> UrdfError {
    UrdfError::BadNumber {
        path: path.to_path_buf(),
        what,
    }
}

/// A link with its visual meshes loaded.
fn read_link(path: &Path, link: &urdf_rs::Link) -> Result<Link, UrdfError> {
    Ok(Link {
        name: link.name.clone(),
        visuals: link
            .visual
            .iter()
            .map(|visual| read_visual(path, &link.name, visual))
            .collect::<Result<_, _>>()?,
    })
}

/// A visual of link `link`: its mesh file resolved and loaded, the `scale` applied to the
/// vertices, its origin as a pose.
fn read_visual(path: &Path, link: &str, v: &urdf_rs::Visual) -> Result<Visual, UrdfError> {
    let urdf_rs::Geometry::Mesh { filename, scale } = &v.geometry else {
        return Err(UrdfError::NotAMesh {
            path: path.to_path_buf(),
            link: link.to_string(),
        });
    };
    let scale = scale.map_or([1.0; 3], |s| s.0);
    if !finite(&scale) || scale.contains(&0.0) {
        return Err(bad_number(path, format!("link {link:?}: a visual's scale")));
    }
    let origin = origin_pose(&v.origin)
        .map_err(|e| bad_number(path, format!("link {link:?}: visual origin: {e}")))?;
    let file = resolve(path, filename);
    let raw = load_mesh(&file).map_err(|source| UrdfError::Mesh {
        path: path.to_path_buf(),
        link: link.to_string(),
        source: Box::new(source),
    })?;
    let vertices = raw
        .vertices()
        .iter()
        .map(|p| p.coords.component_mul(&Vector3::from(scale)).into())
        .collect();
    let mesh =
        TriMesh::new(vertices, raw.triangles().to_vec()).map_err(|e| UrdfError::BadScale {
            path: path.to_path_buf(),
            link: link.to_string(),
            message: e.to_string(),
        })?;
    Ok(Visual { file, mesh, origin })
}

/// A joint, its links looked up by name in `links`.
fn read_joint(path: &Path, j: &urdf_rs::Joint, links: &[Link]) -> Result<Joint, UrdfError> {
    let kind = match j.joint_type {
        urdf_rs::JointType::Fixed => JointKind::Fixed,
        urdf_rs::JointType::Revolute => JointKind::Revolute,
        urdf_rs::JointType::Continuous => JointKind::Continuous,
        urdf_rs::JointType::Prismatic => JointKind::Prismatic,
        ref other => {
            return Err(UrdfError::UnsupportedJoint {
                path: path.to_path_buf(),
                joint: j.name.clone(),
                kind: format!("{other:?}").to_lowercase(),
            })
        }
    };
    let axis = Vector3::from(j.axis.xyz.0);
    let axis = match Unit::try_new(axis, 0.0) {
        Some(a) if finite(axis.as_slice()) => a,
        _ if kind == JointKind::Fixed => Vector3::x_axis(),
        _ => return Err(bad_number(path, format!("joint {:?}: axis", j.name))),
    };
    let index = |link: &str| {
        links
            .iter()
            .position(|l| l.name == link)
            .ok_or_else(|| UrdfError::UnknownLink {
                path: path.to_path_buf(),
                joint: j.name.clone(),
                link: link.to_string(),
            })
    };
    Ok(Joint {
        name: j.name.clone(),
        kind,
        parent: index(&j.parent.link)?,
        child: index(&j.child.link)?,
        origin: origin_pose(&j.origin)
            .map_err(|e| bad_number(path, format!("joint {:?}: origin: {e}", j.name)))?,
        axis,
        limits: matches!(kind, JointKind::Revolute | JointKind::Prismatic)
            .then_some((j.limit.lower, j.limit.upper)),
    })
}

/// The one link no joint has as its child; an error when a link has two parents or when there
/// is not exactly one root.
fn single_root(path: &Path, links: &[Link], joints: &[Joint]) -> Result<usize, UrdfError> {
    let not_tree = |reason: String| UrdfError::NotATree {
        path: path.to_path_buf(),
        reason,
    };
    let mut has_parent = vec![false; links.len()];
    for j in joints {
        if std::mem::replace(&mut has_parent[j.child], true) {
            return Err(not_tree(format!(
                "link {:?} has two parents",
                links[j.child].name
            )));
        }
    }
    let roots: Vec<usize> = (0..links.len()).filter(|&l| !has_parent[l]).collect();
    match roots[..] {
        [root] => Ok(root),
        _ => Err(not_tree(format!(
            "{} root links (need exactly one)",
            roots.len()
        ))),
    }
}

/// `joints` ordered parent before child: depth-first from `root`, siblings in file order; a
/// joint left over is in a cycle.
fn parent_before_child(
    path: &Path,
    root: usize,
    joints: Vec<Joint>,
) -> Result<Vec<Joint>, UrdfError> {
    let mut sorted = Vec::with_capacity(joints.len());
    let mut frontier = vec![root];
    while let Some(link) = frontier.pop() {
        let start = sorted.len();
        sorted.extend(joints.iter().filter(|j| j.parent == link).cloned());
        frontier.extend(sorted[start..].iter().rev().map(|j| j.child));
    }
    if sorted.len() != joints.len() {
        return Err(UrdfError::NotATree {
            path: path.to_path_buf(),
            reason: "the joints form a cycle".to_string(),
        });
    }
    Ok(sorted)
}

impl Robot {
    /// Reads a URDF file and loads every visual mesh it names.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Robot, UrdfError> {
        let path = path.as_ref().to_path_buf();
        let text = std::fs::read_to_string(&path).map_err(|source| UrdfError::Io {
            path: path.clone(),
            source,
        })?;
        let parsed = urdf_rs::read_from_string(&text).map_err(|e| UrdfError::Xml {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let links = parsed
            .links
            .iter()
            .map(|link| read_link(&path, link))
            .collect::<Result<Vec<_>, _>>()?;
        let joints = parsed
            .joints
            .iter()
            .map(|joint| read_joint(&path, joint, &links))
            .collect::<Result<Vec<_>, _>>()?;
        let root = single_root(&path, &links, &joints)?;
        let joints = parent_before_child(&path, root, joints)?;
        Ok(Robot {
            path,
            name: parsed.name,
            links,
            joints,
            root,
        })
    }

    /// The joints that take a value in [`Robot::link_poses`] (all but `fixed`), in that order.
    pub fn moving_joints(&self) -> impl Iterator<Item = &Joint> {
        self.joints.iter().filter(|j| j.kind != JointKind::Fixed)
    }

    /// Index of the link with this name.
    pub fn link(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// Every link's world pose (the root link at the identity) for one value per moving joint,
    /// in [`Robot::moving_joints`] order.
    pub fn link_poses(&self, values: &[f64]) -> Result<Vec<Pose>, UrdfError> {
        let moving = self.moving_joints().count();
        if values.len() != moving || !finite(values) {
            return Err(UrdfError::JointValues {
                path: self.path.clone(),
                expected: moving,
                got: values.to_vec(),
            });
        }
        let mut poses = vec![Pose::identity(); self.links.len()];
        let given = values;
        let mut values = values.iter();
        debug_assert!(self.joints.iter().all(|j| j.child != self.root));
        for j in &self.joints {
            let mut value = || values.next().copied().unwrap_or_default();
            let motion = match j.kind {
                JointKind::Fixed => Ok(Pose::identity()),
                JointKind::Revolute | JointKind::Continuous => {
                    Pose::new(Vector3::zeros(), j.axis.into_inner() * value())
                }
                JointKind::Prismatic => Pose::from_translation(j.axis.into_inner() * value()),
            }
            .map_err(|_| UrdfError::JointValues {
                path: self.path.clone(),
                expected: moving,
                got: given.to_vec(),
            })?;
            poses[j.child] = poses[j.parent] * j.origin * motion;
        }
        Ok(poses)
    }

    /// World pose of every visual, as `(link index, visual index within the link, pose)`, for
    /// the joint values of [`Robot::link_poses`]; a vertex `p` of [`Visual::mesh`] is at
    /// `pose * p`.
    pub fn visual_poses(&self, values: &[f64]) -> Result<Vec<(usize, usize, Pose)>, UrdfError> {
        let links = self.link_poses(values)?;
        Ok(self
            .links
            .iter()
            .enumerate()
            .flat_map(|(l, link)| {
                let pose = links[l];
                link.visuals
                    .iter()
                    .enumerate()
                    .map(move |(k, v)| (l, k, pose * v.origin))
            })
            .collect())
    }
}
