//! Robots from URDF files: each link's meshes and the joint tree, so that given joint values
//! every mesh can be posed in the world frame (forward kinematics in f64).
//!
//! A link's meshes are its `<collision>` elements, or its `<visual>` elements on request
//! ([`UrdfOptions::geometry`]); one kind is read, never the other in its place, so a missing
//! collision mesh is an error rather than a silent swap for the (finer) visual one.
//! [`Robot::from_file`] reads visuals, as it always has; [`Robot::from_file_with`] reads what
//! the options say, collision elements by default.
//!
//! Parsing is done by the `urdf-rs` crate; this module resolves mesh files, loads them with
//! [`crate::load::load_mesh`] and composes the poses. Conventions (the URDF specification):
//! - `origin` is `xyz` then `rpy`, the rotation being roll about x, then pitch about y, then yaw
//!   about z, all about the fixed parent axes: `R = Rz(yaw) Ry(pitch) Rx(roll)`.
//! - A joint's child frame is `parent · origin · motion(q)`, where `motion` is a rotation by `q`
//!   about the (normalised) `axis` for `revolute` and `continuous` joints, a translation by
//!   `q · axis` for `prismatic` ones, and the identity for `fixed` ones. A `planar` joint moves
//!   in the plane through its origin perpendicular to its `axis` and turns about the axis; a
//!   `floating` joint moves freely. Each takes several values: a configuration is the moving
//!   joints' values one joint after the other, as the [configuration
//!   documentation](configuration) tabulates (a floating joint's values are pinocchio's
//!   `x, y, z, qx, qy, qz, qw`; a planar joint's MoveIt's `x, y, θ`). `spherical` joints are
//!   refused ([`UrdfError::UnsupportedJoint`]).
//! - A planar joint without an `<axis>` element moves in its frame's `x, y` plane (axis `z`),
//!   as MoveIt and pinocchio move every planar joint, rather than about the specification's
//!   default axis `x`. A floating joint's axis is not read.
//! - `<limit>` bounds the value of `revolute` and `prismatic` joints only
//!   ([`Robot::check_limits`]); `continuous`, `planar` and `floating` joints have none.
//! - A joint with a `<mimic joint=… multiplier=… offset=…/>` takes no value: it turns (or
//!   slides) by `multiplier · leader + offset` ([`Mimic`]). It and its leader must be joints of
//!   one value (revolute, continuous, prismatic), the leader taking a value of its own;
//!   anything else is refused ([`UrdfError::BadMimic`]).
//! - An element's mesh vertex `p` lands at `link · element_origin · (scale ⊙ p)` in the world.
//!   The scale is applied to the vertices when the mesh is loaded ([`LinkMesh::mesh`]), so the
//!   rest of the pose is rigid ([`Robot::mesh_poses`]).
//! - Mesh file names: a `file://` prefix is dropped. `package://NAME/REST` is resolved the ROS
//!   way: `DIR/NAME/REST` for the first directory `DIR/NAME` found among the
//!   [`UrdfOptions::package_dirs`] in order, then among the entries `ENTRY` of the
//!   `ROS_PACKAGE_PATH` environment variable (`ENTRY/NAME`, or `ENTRY` itself when its own name
//!   is `NAME`); failing those, `REST` is looked up like a relative name. A relative name is
//!   looked up in the URDF's folder, then in each folder above it (the way pybullet finds
//!   `differential/diff_ring.stl` from `differential/diff_ring.urdf`). A package found nowhere
//!   is an error listing every directory searched ([`UrdfError::Package`]).
//! - A material's `<texture />` that names no file (some exporters write one) is skipped: it is
//!   drawing data, and the parser would refuse the whole file for it.
//! - A file with no links is refused ([`UrdfError::NotATree`]).
//! - `<box size>`, `<sphere radius>`, `<cylinder radius length>` and `<capsule radius length>`
//!   elements are primitive solids ([`LinkShape`], [`Shape`]): a box of full sizes, a cylinder
//!   or capsule along the element's z axis, centred.
//!
//! [`RobotScene`] makes a robot's meshes objects of a [`Scene`](crate::Scene): self-collision,
//! fixtures, and paths of configurations checked with the scene's temporal coherence. An SRDF
//! file's `<disable_collisions>` pairs ([`Srdf`]) are allowed with
//! [`RobotScene::allow_srdf`].

pub mod configuration;
mod scene;
mod srdf;

pub use configuration::{ValueRef, QUATERNION_TOLERANCE};

pub use scene::{
    ContinuousCollision, ContinuousPathCheck, PathCheck, PathClearance, PathCollision,
    RobotContacts, RobotError, RobotScene, DEFAULT_TOLERANCE, FIXTURE_GROUP, LINK_GROUP,
};
pub use srdf::{DisabledCollision, Srdf, SrdfError};

use crate::bv::shape::{Shape, ShapeError};
use crate::bv::Pose;
use crate::bv::TriMesh;
use crate::load::{load_mesh, LoadError};
use nalgebra::{Rotation3, Unit, Vector3};
use std::collections::HashSet;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which of a link's geometry elements make up the robot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Geometry {
    /// The `<collision>` elements: the shapes a robot's own software checks for contact.
    #[default]
    Collision,
    /// The `<visual>` elements: the shapes it draws, often finer than the collision ones.
    Visual,
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Geometry::Collision => "collision",
            Geometry::Visual => "visual",
        })
    }
}

/// How [`Robot::from_file_with`] reads a URDF file. The default reads collision elements and
/// resolves `package://` names through `ROS_PACKAGE_PATH` and the URDF's folders only.
#[derive(Clone, Debug, Default)]
pub struct UrdfOptions {
    /// Directories holding packages, tried in order before `ROS_PACKAGE_PATH`: `package://NAME/`
    /// is `DIR/NAME/` for the first `DIR` that has a directory `NAME`.
    pub package_dirs: Vec<PathBuf>,
    /// Which elements of each link are read.
    pub geometry: Geometry,
}

impl UrdfOptions {
    /// The options of [`Robot::from_file`]: visual elements, no package directories.
    pub fn visual() -> Self {
        UrdfOptions {
            geometry: Geometry::Visual,
            ..Self::default()
        }
    }
}

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
    /// A joint type this module does not move (spherical).
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
    /// A `<mimic>` that cannot be followed.
    #[error("{}: joint {joint:?}: bad mimic: {reason}", path.display())]
    BadMimic {
        /// The URDF file.
        path: PathBuf,
        /// The mimicking joint.
        joint: String,
        /// Why.
        reason: String,
    },
    /// A primitive's sizes were refused (not finite, not positive, or out of the exact range).
    #[error("{}: link {link:?}: {geometry} <{element}>: {source}", path.display())]
    BadShape {
        /// The URDF file.
        path: PathBuf,
        /// The link.
        link: String,
        /// Which kind of element it is.
        geometry: Geometry,
        /// The element name: `box`, `sphere`, `cylinder` or `capsule`.
        element: &'static str,
        /// Why.
        source: ShapeError,
    },
    /// A `package://` name whose package is in none of the places searched.
    #[error("{}: link {link:?}: package {package:?} not found; searched {}", path.display(), list(searched))]
    Package {
        /// The URDF file.
        path: PathBuf,
        /// The link.
        link: String,
        /// The package name.
        package: String,
        /// Every directory searched, in order: candidate package directories, then the
        /// folders the rest of the name was looked up in.
        searched: Vec<PathBuf>,
    },
    /// An element's mesh file could not be loaded (the inner error names the mesh file).
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
    /// A joint value outside the joint's `<limit lower upper>` ([`Robot::check_limits`]).
    #[error("{}: joint {joint:?}: value {value} is outside its limits [{lower}, {upper}] (value {index} of the configuration)", path.display())]
    OutsideLimits {
        /// The URDF file.
        path: PathBuf,
        /// The joint.
        joint: String,
        /// The value's index in the configuration.
        index: usize,
        /// The value given.
        value: f64,
        /// The joint's lower limit.
        lower: f64,
        /// The joint's upper limit.
        upper: f64,
    },
    /// A configuration whose length is not [`Robot::configuration_len`]. `boundary` is the
    /// first missing value of a short configuration, the robot's last value for a long one
    /// (`None` for a robot without moving joints).
    #[error("{}: expected {expected} finite joint values, got {got}{}", path.display(), length_detail(*got, boundary.as_ref()))]
    ConfigurationLength {
        /// The URDF file.
        path: PathBuf,
        /// [`Robot::configuration_len`].
        expected: usize,
        /// The number of values given.
        got: usize,
        /// The first missing value, or the last one the robot takes.
        boundary: Option<ValueRef>,
    },
    /// A configuration value that is NaN or infinite.
    #[error("{}: {value} is {got}; joint values must be finite", path.display())]
    NonFiniteValue {
        /// The URDF file.
        path: PathBuf,
        /// Which value.
        value: ValueRef,
        /// What was given.
        got: f64,
    },
    /// A floating joint's quaternion whose squared norm is not within
    /// [`QUATERNION_TOLERANCE`] of 1.
    #[error("{}: joint {joint:?}: the quaternion [qx, qy, qz, qw] = {quaternion:?} (values {index} to {}) has squared norm {}, not 1 within {QUATERNION_TOLERANCE:e}; a floating joint turns by a unit quaternion, x y z w", path.display(), index + 3, squared_norm(quaternion))]
    BadQuaternion {
        /// The URDF file.
        path: PathBuf,
        /// The floating joint.
        joint: String,
        /// The index of `qx` in the configuration.
        index: usize,
        /// The values given, `[qx, qy, qz, qw]`.
        quaternion: [f64; 4],
    },
    /// Finite values for which a joint's motion is still not a pose (a rotation vector whose
    /// norm overflows).
    #[error("{}: joint {joint:?}: values {values:?}: {source}", path.display())]
    JointMotion {
        /// The URDF file.
        path: PathBuf,
        /// The joint.
        joint: String,
        /// Its values (a mimicking joint's computed one).
        values: Vec<f64>,
        /// Why the pose was refused (boxed: the error stays small).
        source: Box<crate::bv::PoseError>,
    },
}

/// The end of a length error's message: which value is missing, or which is the last.
fn length_detail(got: usize, boundary: Option<&ValueRef>) -> String {
    match boundary {
        None => " (the robot has no moving joints)".to_string(),
        Some(b) if got <= b.index => format!("; {b} is the first missing"),
        Some(b) => format!("; {b} is the last the robot takes"),
    }
}

/// `|q|²` of a quaternion's four values.
fn squared_norm(q: &[f64; 4]) -> f64 {
    q.iter().map(|v| v * v).sum()
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
    /// Moves in the plane perpendicular to the axis and turns about it (three values).
    Planar,
    /// Moves and turns freely (seven values: a translation and a unit quaternion).
    Floating,
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
    /// The axis of motion in the child frame (unit): a planar joint's plane normal; `x` for
    /// fixed and floating joints, which have none.
    pub axis: Unit<Vector3<f64>>,
    /// `(lower, upper)` for revolute and prismatic joints.
    pub limits: Option<(f64, f64)>,
    /// The joint whose value drives this one, if it mimics one: then it takes no value of
    /// its own.
    pub mimic: Option<Mimic>,
}

/// A joint that follows another: its value is `multiplier · leader + offset` (the URDF
/// `<mimic>` element; both default to 1 and 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Mimic {
    /// The leading joint's name (a joint that takes a value of its own).
    pub leader: String,
    /// The factor on the leader's value.
    pub multiplier: f64,
    /// The value added.
    pub offset: f64,
}

/// The mesh of one geometry element (`<collision>` or `<visual>`) of a link.
#[derive(Clone, Debug)]
pub struct LinkMesh {
    /// The resolved mesh file.
    pub file: PathBuf,
    /// The mesh with the URDF's `scale` applied to its vertices (triangles as in the file).
    pub mesh: TriMesh,
    /// The element's `origin` in its link's frame.
    pub origin: Pose,
}

/// A primitive geometry element (`<box>`, `<sphere>`, `<capsule>`) of a link.
#[derive(Clone, Debug)]
pub struct LinkShape {
    /// The solid, in the element's frame.
    pub shape: Shape,
    /// The element's `origin` in its link's frame.
    pub origin: Pose,
}

/// A link and its geometry elements of the kind read ([`Robot::geometry`]).
#[derive(Clone, Debug)]
pub struct Link {
    /// The link's name.
    pub name: String,
    /// One mesh per `<mesh>` element, in file order.
    pub meshes: Vec<LinkMesh>,
    /// One shape per primitive element, in file order.
    pub shapes: Vec<LinkShape>,
}

/// A robot: links, and joints in an order where every parent comes before its children.
#[derive(Clone, Debug)]
pub struct Robot {
    /// The URDF file.
    pub path: PathBuf,
    /// The robot's name.
    pub name: String,
    /// Which elements the links' meshes come from.
    pub geometry: Geometry,
    /// Links in file order.
    pub links: Vec<Link>,
    /// Joints sorted parent before child (file order among siblings).
    pub joints: Vec<Joint>,
    root: usize,
    /// For each joint of [`Robot::joints`], the index there of the joint it mimics: found once
    /// when the file is read, not per configuration.
    leaders: Vec<Option<usize>>,
    /// For each joint of [`Robot::joints`], the index of its first value in a configuration
    /// (`None` when it takes none).
    value_starts: Vec<Option<usize>>,
    /// [`Robot::configuration_len`].
    configuration_len: usize,
}

/// An `origin` element as a pose; refused when not finite.
fn origin_pose(p: &urdf_rs::Pose) -> Result<Pose, crate::bv::PoseError> {
    let rot = Rotation3::from_euler_angles(p.rpy[0], p.rpy[1], p.rpy[2]);
    Pose::from_parts(Vector3::from(p.xyz.0), *rot.matrix())
}

fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// `paths` for a message: each shown, separated by commas.
fn list(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}

/// Where `package://` names are looked up: the options' package directories, then the entries
/// of `ROS_PACKAGE_PATH` (see the [module documentation](self)).
struct PackagePath {
    dirs: Vec<PathBuf>,
    ros: Vec<PathBuf>,
}

impl PackagePath {
    /// The package directories `dirs`, then the entries of `ros_package_path` (a
    /// `ROS_PACKAGE_PATH` value: colon-separated; empty entries are skipped).
    fn new(dirs: &[PathBuf], ros_package_path: Option<&OsStr>) -> Self {
        let ros = ros_package_path
            .map(|value| std::env::split_paths(value).collect::<Vec<_>>())
            .unwrap_or_default();
        PackagePath {
            dirs: dirs.to_vec(),
            ros: ros
                .into_iter()
                .filter(|p| !p.as_os_str().is_empty())
                .collect(),
        }
    }

    /// The directories that would be package `name`, in the order they are tried.
    fn candidates(&self, name: &str) -> Vec<PathBuf> {
        let own =
            |entry: &PathBuf| (entry.file_name() == Some(OsStr::new(name))).then(|| entry.clone());
        self.dirs
            .iter()
            .map(|d| d.join(name))
            .chain(
                self.ros
                    .iter()
                    .flat_map(|entry| std::iter::once(entry.join(name)).chain(own(entry))),
            )
            .collect()
    }
}

/// A mesh file name that names a package nobody has: the package, and every directory searched.
struct Unresolved {
    package: String,
    searched: Vec<PathBuf>,
}

/// The mesh file a URDF names, looked up as the module documentation says.
fn resolve(urdf: &Path, filename: &str, packages: &PackagePath) -> Result<PathBuf, Unresolved> {
    let name = filename.strip_prefix("file://").unwrap_or(filename);
    let Some(rest) = name.strip_prefix("package://") else {
        return Ok(relative(urdf, Path::new(name)).unwrap_or_else(|dir| dir.join(name)));
    };
    let (package, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let candidates = packages.candidates(package);
    if let Some(dir) = candidates.iter().find(|d| d.is_dir()) {
        return Ok(dir.join(tail));
    }
    relative(urdf, Path::new(tail)).map_err(|_| Unresolved {
        package: package.to_string(),
        searched: candidates.into_iter().chain(folders(urdf)).collect(),
    })
}

/// `name` if absolute, else the first existing `FOLDER/name` among the URDF's folder and the
/// folders above it; `Err` with the URDF's folder when there is none.
fn relative(urdf: &Path, name: &Path) -> Result<PathBuf, PathBuf> {
    if name.is_absolute() {
        return Ok(name.to_path_buf());
    }
    folders(urdf)
        .map(|d| d.join(name))
        .find(|p| p.exists())
        .ok_or_else(|| urdf.parent().unwrap_or(Path::new(".")).to_path_buf())
}

/// The URDF's folder, then each folder above it.
fn folders(urdf: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    urdf.parent()
        .unwrap_or(Path::new("."))
        .ancestors()
        .map(Path::to_path_buf)
}

/// A `BadNumber` error of the URDF file `path`.
fn bad_number(path: &Path, what: String) -> UrdfError {
    UrdfError::BadNumber {
        path: path.to_path_buf(),
        what,
    }
}

/// What a link is read with: the URDF file, the kind of element, the package path.
struct Reader<'a> {
    path: &'a Path,
    geometry: Geometry,
    packages: PackagePath,
}

impl Reader<'_> {
    /// A link with the meshes of its elements of the kind read loaded.
    fn link(&self, link: &urdf_rs::Link) -> Result<Link, UrdfError> {
        let elements: Vec<(&urdf_rs::Pose, &urdf_rs::Geometry)> = match self.geometry {
            Geometry::Collision => link
                .collision
                .iter()
                .map(|c| (&c.origin, &c.geometry))
                .collect(),
            Geometry::Visual => link
                .visual
                .iter()
                .map(|v| (&v.origin, &v.geometry))
                .collect(),
        };
        let (mut meshes, mut shapes) = (Vec::new(), Vec::new());
        for (origin, geometry) in elements {
            let shape = match geometry {
                urdf_rs::Geometry::Mesh { filename, scale } => {
                    meshes.push(self.mesh(&link.name, origin, filename, scale)?);
                    continue;
                }
                urdf_rs::Geometry::Box { size } => Shape::cuboid(size.0),
                urdf_rs::Geometry::Sphere { radius } => Shape::sphere(*radius),
                urdf_rs::Geometry::Capsule { radius, length } => Shape::capsule(*radius, *length),
                urdf_rs::Geometry::Cylinder { radius, length } => Shape::cylinder(*radius, *length),
            };
            let element = shape_element(geometry);
            shapes.push(self.shape(&link.name, origin, element, shape)?);
        }
        Ok(Link {
            name: link.name.clone(),
            meshes,
            shapes,
        })
    }

    /// A primitive element of link `link` (`element`: its name): its solid, or why its sizes
    /// were refused, and its origin as a pose.
    fn shape(
        &self,
        link: &str,
        origin: &urdf_rs::Pose,
        element: &'static str,
        shape: Result<Shape, ShapeError>,
    ) -> Result<LinkShape, UrdfError> {
        let (path, kind) = (self.path, self.geometry);
        let shape = shape.map_err(|source| UrdfError::BadShape {
            path: path.to_path_buf(),
            link: link.to_string(),
            geometry: kind,
            element,
            source,
        })?;
        let origin = origin_pose(origin)
            .map_err(|e| bad_number(path, format!("link {link:?}: {kind} origin: {e}")))?;
        Ok(LinkShape { shape, origin })
    }

    /// An element of link `link`: its mesh file resolved and loaded, the `scale` applied to the
    /// vertices, its origin as a pose.
    fn mesh(
        &self,
        link: &str,
        origin: &urdf_rs::Pose,
        filename: &str,
        scale: &Option<urdf_rs::Vec3>,
    ) -> Result<LinkMesh, UrdfError> {
        let path = self.path;
        let kind = self.geometry;
        let scale = scale.map_or([1.0; 3], |s| s.0);
        if !finite(&scale) || scale.contains(&0.0) {
            return Err(bad_number(path, format!("link {link:?}: a {kind} scale")));
        }
        let origin = origin_pose(origin)
            .map_err(|e| bad_number(path, format!("link {link:?}: {kind} origin: {e}")))?;
        let file = resolve(path, filename, &self.packages).map_err(|u| UrdfError::Package {
            path: path.to_path_buf(),
            link: link.to_string(),
            package: u.package,
            searched: u.searched,
        })?;
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
        Ok(LinkMesh { file, mesh, origin })
    }
}

/// The URDF element name of a shape that is not a mesh.
fn shape_element(geometry: &urdf_rs::Geometry) -> &'static str {
    match geometry {
        urdf_rs::Geometry::Box { .. } => "box",
        urdf_rs::Geometry::Cylinder { .. } => "cylinder",
        urdf_rs::Geometry::Capsule { .. } => "capsule",
        urdf_rs::Geometry::Sphere { .. } => "sphere",
        urdf_rs::Geometry::Mesh { .. } => "mesh",
    }
}

/// A joint, its links looked up by name in `links`; `axis_given`: whether its element has an
/// `<axis>` (the parser puts the default `x` in its place).
fn read_joint(
    path: &Path,
    j: &urdf_rs::Joint,
    links: &[Link],
    axis_given: bool,
) -> Result<Joint, UrdfError> {
    let kind = match j.joint_type {
        urdf_rs::JointType::Fixed => JointKind::Fixed,
        urdf_rs::JointType::Revolute => JointKind::Revolute,
        urdf_rs::JointType::Continuous => JointKind::Continuous,
        urdf_rs::JointType::Prismatic => JointKind::Prismatic,
        urdf_rs::JointType::Planar => JointKind::Planar,
        urdf_rs::JointType::Floating => JointKind::Floating,
        ref other => {
            return Err(UrdfError::UnsupportedJoint {
                path: path.to_path_buf(),
                joint: j.name.clone(),
                kind: format!("{other:?}").to_lowercase(),
            })
        }
    };
    let axis = Vector3::from(j.axis.xyz.0);
    let axis = match (kind, Unit::try_new(axis, 0.0)) {
        (JointKind::Fixed | JointKind::Floating, _) => Vector3::x_axis(),
        (JointKind::Planar, _) if !axis_given => Vector3::z_axis(),
        (_, Some(a)) if finite(axis.as_slice()) => a,
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
        mimic: read_mimic(path, j, kind)?,
    })
}

/// The `<mimic>` of joint `j`, checked: finite numbers, a joint of one value. A fixed joint's
/// `<mimic>` is dropped: such a joint does not move whatever its leader does (talos's grippers
/// have them).
fn read_mimic(
    path: &Path,
    j: &urdf_rs::Joint,
    kind: JointKind,
) -> Result<Option<Mimic>, UrdfError> {
    let Some(m) = j.mimic.as_ref().filter(|_| kind != JointKind::Fixed) else {
        return Ok(None);
    };
    if kind.value_count() != 1 {
        let reason = format!("a {kind} joint cannot mimic: a mimic follows one value");
        return Err(bad_mimic(path, &j.name, &reason));
    }
    let mimic = Mimic {
        leader: m.joint.clone(),
        multiplier: m.multiplier.unwrap_or(1.0),
        offset: m.offset.unwrap_or(0.0),
    };
    if !finite(&[mimic.multiplier, mimic.offset]) {
        return Err(bad_number(path, format!("joint {:?}: mimic", j.name)));
    }
    Ok(Some(mimic))
}

/// A `BadMimic` error of joint `joint` in the URDF file `path`.
fn bad_mimic(path: &Path, joint: &str, reason: &str) -> UrdfError {
    UrdfError::BadMimic {
        path: path.to_path_buf(),
        joint: joint.to_string(),
        reason: reason.to_string(),
    }
}

/// Checks that every mimic names a joint that takes one value of its own (not fixed, planar or
/// floating, not a mimic itself).
fn check_mimics(path: &Path, joints: &[Joint]) -> Result<(), UrdfError> {
    for j in joints {
        let Some(mimic) = &j.mimic else { continue };
        let Some(leader) = joints.iter().find(|l| l.name == mimic.leader) else {
            let reason = format!(
                "it mimics {:?}, which is not a joint of the file",
                mimic.leader
            );
            return Err(bad_mimic(path, &j.name, &reason));
        };
        if leader.kind == JointKind::Fixed || leader.mimic.is_some() {
            let reason = format!(
                "it mimics {:?}, which takes no value of its own (fixed, or a mimic itself)",
                mimic.leader
            );
            return Err(bad_mimic(path, &j.name, &reason));
        }
        if leader.kind.value_count() != 1 {
            let reason = format!(
                "it mimics {:?}, a {} joint, which takes {} values, not one",
                mimic.leader,
                leader.kind,
                leader.kind.value_count()
            );
            return Err(bad_mimic(path, &j.name, &reason));
        }
    }
    Ok(())
}

/// `text` without its `<texture>` elements that name no file. A material's texture is drawing
/// data, which no query reads; URDF files exported by some tools write `<texture />` with no
/// `filename`, which the URDF parser refuses. Text that is not well-formed XML is returned as
/// it is, for the parser to report.
fn without_bare_textures(text: &str) -> std::borrow::Cow<'_, str> {
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return text.into();
    };
    let bare: Vec<std::ops::Range<usize>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("texture") && n.attribute("filename").is_none())
        .map(|n| n.range())
        .collect();
    if bare.is_empty() {
        return text.into();
    }
    crate::load::collada::text_without(text, bare).into()
}

/// The names of the `<joint>` elements of URDF text `text` that have an `<axis>` element
/// (none when the text is not well-formed XML, which the parser reports).
fn joints_with_axis(text: &str) -> HashSet<String> {
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return HashSet::new();
    };
    doc.root_element()
        .children()
        .filter(|n| n.has_tag_name("joint") && n.children().any(|c| c.has_tag_name("axis")))
        .filter_map(|n| n.attribute("name"))
        .map(str::to_string)
        .collect()
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
    if links.is_empty() {
        return Err(not_tree("it has no links".to_string()));
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
    /// Reads a URDF file and loads every visual mesh it names
    /// ([`from_file_with`](Self::from_file_with) and [`UrdfOptions::visual`]). The bundled
    /// robots are read this way: their collision meshes are not bundled.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Robot, UrdfError> {
        Self::from_file_with(path, &UrdfOptions::visual())
    }

    /// Reads a URDF file and loads the mesh of every element of the kind the options name,
    /// resolving `package://` names through the options' package directories, then the
    /// `ROS_PACKAGE_PATH` environment variable (see the [module documentation](self)).
    pub fn from_file_with(
        path: impl AsRef<Path>,
        options: &UrdfOptions,
    ) -> Result<Robot, UrdfError> {
        let ros = std::env::var_os("ROS_PACKAGE_PATH");
        let packages = PackagePath::new(&options.package_dirs, ros.as_deref());
        Self::read(path.as_ref(), options.geometry, packages)
    }

    /// [`from_file_with`](Self::from_file_with) with the package path already made.
    fn read(path: &Path, geometry: Geometry, packages: PackagePath) -> Result<Robot, UrdfError> {
        let path = path.to_path_buf();
        let text = std::fs::read_to_string(&path).map_err(|source| UrdfError::Io {
            path: path.clone(),
            source,
        })?;
        let readable = without_bare_textures(&text);
        let parsed = urdf_rs::read_from_string(&readable).map_err(|e| UrdfError::Xml {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let reader = Reader {
            path: &path,
            geometry,
            packages,
        };
        let links = parsed
            .links
            .iter()
            .map(|link| reader.link(link))
            .collect::<Result<Vec<_>, _>>()?;
        let with_axis = joints_with_axis(&readable);
        let joints = parsed
            .joints
            .iter()
            .map(|joint| read_joint(&path, joint, &links, with_axis.contains(&joint.name)))
            .collect::<Result<Vec<_>, _>>()?;
        check_mimics(&path, &joints)?;
        let root = single_root(&path, &links, &joints)?;
        let joints = parent_before_child(&path, root, joints)?;
        let leaders = joints
            .iter()
            .map(|j| {
                let mimic = j.mimic.as_ref()?;
                joints.iter().position(|l| l.name == mimic.leader)
            })
            .collect();
        let (value_starts, configuration_len) = configuration::value_starts(&joints);
        Ok(Robot {
            path,
            name: parsed.name,
            geometry,
            links,
            joints,
            root,
            leaders,
            value_starts,
            configuration_len,
        })
    }

    /// The joints that take values in [`Robot::link_poses`] (all but `fixed` ones and those
    /// that mimic another), in that order: a configuration is their values, one joint after
    /// the other ([`Joint::value_count`], [`Robot::value_names`]).
    pub fn moving_joints(&self) -> impl Iterator<Item = &Joint> {
        self.joints.iter().filter(|j| j.value_count() > 0)
    }

    /// `Ok` when every value of the configuration `values` lies within its joint's limits
    /// (closed; `revolute` and `prismatic` joints have them; `continuous`, `planar` and
    /// `floating` ones none, whatever `<limit>` their element has); else the first joint
    /// outside them ([`UrdfError::OutsideLimits`], naming the joint and the value's index).
    /// Mimicking joints take no value and are not checked. A configuration of the wrong length
    /// is refused as [`Robot::link_poses`] refuses it.
    pub fn check_limits(&self, values: &[f64]) -> Result<(), UrdfError> {
        self.check_length(values)?;
        for (joint, start) in self.joints.iter().zip(&self.value_starts) {
            let (Some((lower, upper)), Some(index)) = (joint.limits, *start) else {
                continue;
            };
            let value = values[index];
            if !(lower <= value && value <= upper) {
                return Err(UrdfError::OutsideLimits {
                    path: self.path.clone(),
                    joint: joint.name.clone(),
                    index,
                    value,
                    lower,
                    upper,
                });
            }
        }
        Ok(())
    }

    /// Index of the link with this name.
    pub fn link(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// Every link's world pose (the root link at the identity) for the configuration `values`
    /// (see [`configuration`]), checked first ([`Robot::check_configuration`]).
    pub fn link_poses(&self, values: &[f64]) -> Result<Vec<Pose>, UrdfError> {
        self.check_configuration(values)?;
        let mut poses = vec![Pose::identity(); self.links.len()];
        debug_assert!(self.joints.iter().all(|j| j.child != self.root));
        for (k, own) in self.joint_values(values).iter().enumerate() {
            let j = &self.joints[k];
            let motion = self.joint_motion(k, own)?;
            poses[j.child] = poses[j.parent] * j.origin * motion;
        }
        Ok(poses)
    }

    /// World pose of every mesh, as `(link index, mesh index within the link, pose)`, for the
    /// joint values of [`Robot::link_poses`]; a vertex `p` of [`LinkMesh::mesh`] is at
    /// `pose * p`.
    pub fn mesh_poses(&self, values: &[f64]) -> Result<Vec<(usize, usize, Pose)>, UrdfError> {
        let links = self.link_poses(values)?;
        Ok(self
            .links
            .iter()
            .enumerate()
            .flat_map(|(l, link)| {
                let pose = links[l];
                link.meshes
                    .iter()
                    .enumerate()
                    .map(move |(k, v)| (l, k, pose * v.origin))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the directories `dirs` under `root`.
    fn mkdirs(root: &Path, dirs: &[&str]) {
        for d in dirs {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
    }

    #[test]
    fn packages_resolve_in_the_ros_order() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        mkdirs(
            root,
            &[
                "first/arm",
                "second/arm",
                "ros/arm",
                "ros2/gripper",
                "robot/urdf",
                "robot/meshes",
            ],
        );
        std::fs::write(root.join("robot/meshes/m.stl"), "").unwrap();
        let urdf = root.join("robot/urdf/r.urdf");
        let ros = std::env::join_paths([root.join("ros"), root.join("ros2/gripper")]).unwrap();
        let dirs = [root.join("none"), root.join("first"), root.join("second")];
        let at = |dirs: &[PathBuf], ros: Option<&OsStr>, name: &str| {
            resolve(&urdf, name, &PackagePath::new(dirs, ros)).map_err(|u| (u.package, u.searched))
        };
        // The first package directory that has the package wins, before ROS_PACKAGE_PATH.
        let got = at(&dirs, Some(&ros), "package://arm/meshes/a.stl");
        assert_eq!(got.ok(), Some(root.join("first/arm/meshes/a.stl")));
        // Then ROS_PACKAGE_PATH: ENTRY/NAME, or an entry named NAME itself.
        let got = at(&[], Some(&ros), "package://arm/a.dae");
        assert_eq!(got.ok(), Some(root.join("ros/arm/a.dae")));
        let got = at(&dirs, Some(&ros), "package://gripper/g.stl");
        assert_eq!(got.ok(), Some(root.join("ros2/gripper/g.stl")));
        // Then the rest of the name beside the URDF or in a folder above it, as before.
        let got = at(&dirs, Some(&ros), "package://robot/meshes/m.stl");
        assert_eq!(got.ok(), Some(root.join("robot/meshes/m.stl")));
        // Found nowhere: every directory searched, in order.
        let (package, searched) = at(&dirs, Some(&ros), "package://ghost/x.stl").unwrap_err();
        assert_eq!(package, "ghost");
        let mut want = vec![
            root.join("none/ghost"),
            root.join("first/ghost"),
            root.join("second/ghost"),
            root.join("ros/ghost"),
            root.join("ros2/gripper/ghost"),
        ];
        want.extend(root.join("robot/urdf").ancestors().map(Path::to_path_buf));
        assert_eq!(searched, want);
        // `file://` is dropped; plain names never fail to resolve (loading reports them).
        let got = at(&[], None, "file://../meshes/m.stl");
        assert_eq!(got.ok(), Some(root.join("robot/urdf/../meshes/m.stl")));
    }

    #[test]
    fn empty_ros_package_path_entries_are_skipped() {
        let p = PackagePath::new(&[], Some(OsStr::new("::/a::/b:")));
        assert_eq!(p.ros, [PathBuf::from("/a"), PathBuf::from("/b")]);
        assert_eq!(
            p.candidates("b"),
            [
                PathBuf::from("/a/b"),
                PathBuf::from("/b/b"),
                PathBuf::from("/b")
            ]
        );
    }
}
