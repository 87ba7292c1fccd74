//! `obbtree.Robot`: a URDF robot whose links are scene objects posed by forward kinematics
//! ([`obbtree::urdf::RobotScene`]), checked at joint configurations for self-collision, against
//! its fixtures and against the objects of an `obbtree.Scene`; paths of configurations; batches
//! of configurations on rayon's pool without the GIL.
//!
//! One lock per robot: single configurations are checked in the robot's own scene, whose
//! records carry over from one call to the next; a batch locks it only to copy it, and every
//! worker checks its share of the batch in a copy of its own.

use crate::arrays::{check_shape, float_array, pose};
use crate::distance::point_array;
use crate::errors::{check_directory, robot_error, robot_refusal, value_error, Area};
use crate::model::Model;
use crate::scene::PyScene;
use crate::volumes::{AnyModel, AnyScene};
use numpy::ndarray::{ArrayViewD, Ix2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use obbtree::bv::Obb;
use obbtree::scene::{ObjectDistance, ObjectId};
use obbtree::urdf::{
    ContinuousPathCheck, Geometry, PathCheck, Robot, RobotContacts, RobotError, RobotScene, Srdf,
    UrdfOptions, DEFAULT_TOLERANCE,
};
use obbtree::{Point, SceneError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The robot scenes of the bindings: links and fixtures with OBB trees.
type Links = RobotScene<Obb>;

/// Two names: of two links, or of a link and a fixture.
type NamePair = (String, String);

/// The closest pair as Python sees it: `(link, other, distance, point_link, point_other)`.
type ClosestTuple<'py> = (
    String,
    String,
    f64,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// A copy of the robot's scene with the objects of an `obbtree.Scene` as fixtures: current
/// while that scene's stamp and the robot's own stamp are the ones it was made at.
struct SceneCopy {
    scene_stamp: u64,
    robot_stamp: u64,
    links: Links,
    /// The fixtures that are the scene's objects (not the robot's own).
    objects: BTreeSet<ObjectId>,
}

/// The robot's scene, what it is stamped with, and its copy with the last scene's objects.
struct State {
    links: Links,
    /// Renewed when fixtures or allowed pairs change, which makes a copy stale.
    stamp: u64,
    copy: Option<SceneCopy>,
}

/// The scene a query runs in: the robot's own, or its copy with a scene's objects, and which
/// fixtures are that scene's objects.
struct Target<'a> {
    links: &'a mut Links,
    objects: Option<&'a BTreeSet<ObjectId>>,
}

impl State {
    /// The scene to query: the robot's own, or with `scene` the copy with its objects as
    /// fixtures, made again when the scene or the robot's fixtures changed since.
    fn target(&mut self, scene: Option<&PyScene>) -> PyResult<Target<'_>> {
        let Some(scene) = scene else {
            return Ok(Target {
                links: &mut self.links,
                objects: None,
            });
        };
        let made = scene.read_stamped(|scene_stamp, objects| {
            let current = self
                .copy
                .as_ref()
                .is_some_and(|c| c.scene_stamp == scene_stamp && c.robot_stamp == self.stamp);
            match current {
                true => Ok(None),
                false => copy_with(&self.links, objects).map(|(links, objects)| {
                    Some(SceneCopy {
                        scene_stamp,
                        robot_stamp: self.stamp,
                        links,
                        objects,
                    })
                }),
            }
        })?;
        if let Some(made) = made {
            self.copy = Some(made);
        }
        let copy = self.copy.as_mut().expect("made above if there was none");
        Ok(Target {
            links: &mut copy.links,
            objects: Some(&copy.objects),
        })
    }
}

/// A copy of `links` with the objects of `scene` as fixtures (their models shared, not
/// copied), and the ids of those fixtures.
fn copy_with(links: &Links, scene: &AnyScene) -> PyResult<(Links, BTreeSet<ObjectId>)> {
    let AnyScene::Obb(scene) = scene else {
        return Err(value_error(
            "scene",
            format!(
                "the robot's links are obb models, the scene holds {} ones; build the scene \
                 with bv=\"obb\"",
                scene.volume()
            ),
        ));
    };
    let mut copy = links.clone();
    let mut ids = BTreeSet::new();
    for (_, object) in scene.objects() {
        let id = copy
            .add_fixture(object.name(), object.model().clone(), *object.pose())
            .map_err(|e| robot_refusal("scene", e))?;
        ids.insert(id);
    }
    Ok((copy, ids))
}

/// The name of the link or fixture that a scene object is, and whether it is a link.
fn owner(links: &Links, id: ObjectId) -> (String, bool) {
    match links.link_of(id) {
        Some(link) => (links.robot().links[link].name.clone(), true),
        None => (links.scene().name(id).to_string(), false),
    }
}

/// The link pairs of `contacts`, by names.
fn link_pairs(links: &Links, contacts: &RobotContacts) -> Vec<NamePair> {
    let name = |l: usize| links.robot().links[l].name.clone();
    contacts
        .self_collisions
        .iter()
        .map(|&[a, b]| (name(a), name(b)))
        .collect()
}

/// The (link, fixture) pairs of `contacts` by names, only those with fixtures in `only` when
/// it is given.
fn fixture_pairs(
    links: &Links,
    contacts: &RobotContacts,
    only: Option<&BTreeSet<ObjectId>>,
) -> Vec<NamePair> {
    contacts
        .environment
        .iter()
        .filter(|(_, id)| only.is_none_or(|o| o.contains(id)))
        .map(|&(link, id)| {
            let link = links.robot().links[link].name.clone();
            (link, links.scene().name(id).to_string())
        })
        .collect()
}

/// The closest pair of a clearance, by the names of its link and of its link or fixture.
#[derive(Clone)]
struct Closest {
    a: String,
    b: String,
    distance: f64,
    point_a: Point,
    point_b: Point,
}

impl Closest {
    /// `found` with a link first: a fixture named before the link is swapped behind it.
    fn of(links: &Links, found: &ObjectDistance) -> Self {
        let (a, a_is_link) = owner(links, found.a);
        let (b, b_is_link) = owner(links, found.b);
        let (a, b, point_a, point_b) = match !a_is_link && b_is_link {
            true => (b, a, found.point_b, found.point_a),
            false => (a, b, found.point_a, found.point_b),
        };
        Self {
            a,
            b,
            distance: found.distance,
            point_a,
            point_b,
        }
    }

    fn into_tuple(self, py: Python<'_>) -> ClosestTuple<'_> {
        (
            self.a,
            self.b,
            self.distance,
            point_array(py, &self.point_a),
            point_array(py, &self.point_b),
        )
    }
}

/// A robot read from a URDF file: its links' collision (or visual) geometry as OBB trees,
/// posed by forward kinematics at joint configurations, checked exactly for self-collision,
/// against fixtures (`add_fixture`) and against the objects of an `obbtree.Scene` (the
/// `scene` argument).
///
/// A configuration `q` is the moving joints' values, joint after joint in the order of
/// `joints`, named by `values`: one float for a revolute, continuous or prismatic joint;
/// `x, y, theta` for a planar joint (in the plane normal to its axis, the joint frame's x-y
/// plane when the URDF gives no axis); `x, y, z, qx, qy, qz, qw` for a floating joint
/// (translation, then a unit quaternion, x y z w: pinocchio's free-flyer order). Fixed joints
/// and joints that mimic another take none. A quaternion whose squared norm is more than 1e-4
/// from 1 is refused, one within is normalised; `neutral` is the configuration of zeros with
/// unit quaternions. Links joined by a joint, the elements of one
/// link, the SRDF's disabled pairs and pairs given to `allow` are never checked; fixtures are
/// checked against links only. Meshes are surfaces and primitives solids; touching counts.
/// Collision answers are exact, and none depends on the order of calls, the threads or the
/// size of rayon's pool; distances are the engine's (within `obbtree.distance`'s guarantee,
/// exactly 0 where objects touch). A robot is safe to share between threads (one lock; the
/// batch forms hold it only to copy the robot). It does not pickle: it is read from its
/// files.
///
/// Joint values must be finite, and within the joints' limits unless `check_limits=False`
/// (floating and planar joints have none): else `obbtree.RobotError` naming the joint and the
/// value (and the configuration of a batch or path).
///
/// >>> import pathlib, tempfile, obbtree
/// >>> urdf = pathlib.Path(tempfile.mkdtemp()) / "arm.urdf"
/// >>> _ = urdf.write_text('''<robot name="arm">
/// ...   <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
/// ...   <link name="arm"><collision><origin xyz="0 0 0.5"/>
/// ...     <geometry><box size="0.1 0.1 0.6"/></geometry></collision></link>
/// ...   <link name="tower"><collision><origin xyz="0 0.6 0.3"/>
/// ...     <geometry><box size="0.2 0.2 0.6"/></geometry></collision></link>
/// ...   <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
/// ...     <axis xyz="1 0 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
/// ...   <joint name="mount" type="fixed"><parent link="base"/><child link="tower"/></joint>
/// ... </robot>''')
/// >>> robot = obbtree.Robot(urdf)
/// >>> robot.joints, robot.pairs_checked
/// (['shoulder'], 1)
/// >>> robot.collide_self([0.0]), robot.collide_self([-1.5])
/// ([], [('arm', 'tower')])
#[pyclass(name = "Robot", module = "obbtree", frozen)]
pub struct PyRobot {
    state: Mutex<State>,
    name: String,
    joints: Vec<String>,
    /// The name of each value of a configuration, and the name of its joint.
    values: Vec<(String, String)>,
    links: Vec<String>,
    /// Per value of a configuration.
    limits: Vec<(f64, f64)>,
    neutral: Vec<f64>,
    limits_checked: bool,
}

impl PyRobot {
    /// The robot's state, locked. A panic cannot poison it: the engine returns errors instead.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// One configuration, argument `name`: `(n,)` finite floats, `n` the number of values.
    fn configuration(&self, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<f64>> {
        let array = float_array(obj, name, Area::Robot)?;
        let view = array.as_array();
        let n = self.values.len();
        check_shape(&view, name, &[Some(n)], &format!("({n},)"), Area::Robot)?;
        let q: Vec<f64> = view.iter().copied().collect();
        self.check_finite(&q, name)?;
        Ok(q)
    }

    /// Many configurations, argument `name`: `(m, n)` finite floats, one row each.
    fn configurations(&self, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Vec<f64>>> {
        let array = float_array(obj, name, Area::Robot)?;
        let n = self.values.len();
        rows_of(array.as_array(), name, n)?
            .into_iter()
            .enumerate()
            .map(|(i, q)| self.check_finite(&q, &format!("{name}[{i}]")).map(|()| q))
            .collect()
    }

    /// A `RobotError` naming the first value in `q` (argument `name`) that is not finite, and
    /// its joint.
    fn check_finite(&self, q: &[f64], name: &str) -> PyResult<()> {
        let Some(k) = q.iter().position(|v| !v.is_finite()) else {
            return Ok(());
        };
        let (value, joint) = &self.values[k];
        let which = match value == joint {
            true => format!("{name}[{k}]"),
            false => format!("{name}[{k}], {value}"),
        };
        Err(robot_error(
            name,
            format!(
                "the value of joint {joint:?} ({which}) is {}; joint values must be finite",
                q[k]
            ),
        ))
    }

    /// Runs `query` without the GIL on the robot's scene (with `scene`: its copy with the
    /// scene's objects), posed at `q`; errors name argument `q`.
    fn at<T: Send>(
        &self,
        py: Python<'_>,
        q: &[f64],
        scene: Option<&PyScene>,
        query: impl FnOnce(&mut Target<'_>) -> Result<T, RobotError> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut state = self.lock();
            let mut target = state.target(scene)?;
            target
                .links
                .set_configuration(q)
                .map_err(|e| robot_refusal("q", e))?;
            query(&mut target).map_err(|e| robot_refusal("q", e))
        })
    }

    /// `answer` of what touches at each configuration of `qs` (argument `name`), without the
    /// GIL: the batch in one contiguous share per thread of rayon's pool, each share checked
    /// in a copy of the robot's scene (with `scene`: its copy with the scene's objects). Every
    /// configuration's limits are checked before any is checked for collision; an error names
    /// the first configuration refused.
    fn many<T: Send>(
        &self,
        py: Python<'_>,
        qs: Vec<Vec<f64>>,
        scene: Option<&PyScene>,
        name: &str,
        answer: impl Fn(&Links, &RobotContacts) -> T + Sync,
    ) -> PyResult<Vec<T>> {
        py.detach(|| {
            let template = self.lock().target(scene)?.links.clone();
            let at = |i: usize| format!("{name}[{i}]");
            if self.limits_checked {
                let robot = template.robot();
                for (i, q) in qs.iter().enumerate() {
                    robot
                        .check_limits(q)
                        .map_err(|e| robot_refusal(&at(i), e.into()))?;
                }
            }
            let share = qs.len().div_ceil(rayon::current_num_threads()).max(1);
            let shares: Vec<Result<Vec<T>, (usize, RobotError)>> = qs
                .par_chunks(share)
                .enumerate()
                .map(|(c, chunk)| {
                    let mut links = template.clone();
                    let check = |(k, q): (usize, &Vec<f64>)| {
                        links
                            .set_configuration(q)
                            .and_then(|()| links.check())
                            .map(|contacts| answer(&links, &contacts))
                            .map_err(|e| (c * share + k, e))
                    };
                    chunk.iter().enumerate().map(check).collect()
                })
                .collect();
            let mut answers = Vec::with_capacity(qs.len());
            for found in shares {
                answers.extend(found.map_err(|(i, e)| robot_refusal(&at(i), e))?);
            }
            Ok(answers)
        })
    }
}

/// The rows of an `(m, n)` array argument `name`.
fn rows_of(view: ArrayViewD<'_, f64>, name: &str, n: usize) -> PyResult<Vec<Vec<f64>>> {
    check_shape(
        &view,
        name,
        &[None, Some(n)],
        &format!("(m, {n})"),
        Area::Robot,
    )?;
    let rows = view.into_dimensionality::<Ix2>().expect("checked 2-d");
    Ok(rows.outer_iter().map(|r| r.to_vec()).collect())
}

/// `"collision"` or `"visual"`.
fn geometry(text: &str) -> PyResult<Geometry> {
    match text {
        "collision" => Ok(Geometry::Collision),
        "visual" => Ok(Geometry::Visual),
        other => Err(value_error(
            "geometry",
            format!("{other:?} is not a kind of geometry; use \"collision\" or \"visual\""),
        )),
    }
}

/// The robot of `urdf` (argument names in its errors: `urdf`, `srdf`), its links in one
/// scene, the SRDF's pairs allowed.
fn read_robot(urdf: PathBuf, options: &UrdfOptions, srdf: Option<PathBuf>) -> PyResult<Links> {
    let robot =
        Robot::from_file_with(urdf, options).map_err(|e| robot_refusal("urdf", e.into()))?;
    let srdf = srdf
        .map(Srdf::from_file)
        .transpose()
        .map_err(|e| robot_refusal("srdf", e.into()))?;
    let mut links = RobotScene::new(robot).map_err(|e| robot_refusal("urdf", e))?;
    if let Some(srdf) = &srdf {
        links
            .allow_srdf(srdf)
            .map_err(|e| robot_refusal("srdf", e))?;
    }
    Ok(links)
}

#[pymethods]
impl PyRobot {
    /// Reads the URDF file `urdf` (a str or path) and the meshes it names: `package://NAME/`
    /// is `DIR/NAME/` for the first of `package_dirs` that has it, then looked up in
    /// `ROS_PACKAGE_PATH`, then beside the URDF. `srdf`: a MoveIt SRDF file whose
    /// `<disable_collisions>` pairs are never checked. `geometry`: the links' `"collision"`
    /// elements (the default) or `"visual"` ones. `check_limits=False` takes joint values
    /// outside the joints' limits as they are.
    ///
    /// A file that cannot be read raises `OSError` (`FileNotFoundError` when missing), so does
    /// a package directory that is not one; a URDF or SRDF that cannot be used (not valid, a
    /// package or mesh not found, an SRDF naming a link the robot does not have) raises
    /// `obbtree.LoadError`. Messages name the file at fault.
    #[new]
    #[pyo3(signature = (urdf, package_dirs = Vec::new(), srdf = None, geometry = "collision", check_limits = true))]
    fn new(
        py: Python<'_>,
        urdf: PathBuf,
        package_dirs: Vec<PathBuf>,
        srdf: Option<PathBuf>,
        geometry: &str,
        check_limits: bool,
    ) -> PyResult<Self> {
        for (i, dir) in package_dirs.iter().enumerate() {
            check_directory(&format!("package_dirs[{i}]"), dir)?;
        }
        let options = UrdfOptions {
            package_dirs,
            geometry: self::geometry(geometry)?,
        };
        let mut links = py.detach(|| read_robot(urdf, &options, srdf))?;
        links.check_limits(check_limits);
        let robot = links.robot();
        let unlimited = (f64::NEG_INFINITY, f64::INFINITY);
        let (mut values, mut limits) = (Vec::new(), Vec::new());
        for j in robot.moving_joints() {
            for value in j.value_names() {
                values.push((value, j.name.clone()));
                limits.push(j.limits.unwrap_or(unlimited));
            }
        }
        Ok(Self {
            name: robot.name.clone(),
            joints: robot.moving_joints().map(|j| j.name.clone()).collect(),
            values,
            links: robot.links.iter().map(|l| l.name.clone()).collect(),
            limits,
            neutral: robot.neutral_configuration(),
            limits_checked: check_limits,
            state: Mutex::new(State {
                links,
                stamp: 0,
                copy: None,
            }),
        })
    }

    /// The robot's name (the URDF's `<robot name>`).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The names of the moving joints, in the order of a configuration's values.
    #[getter]
    fn joints(&self) -> Vec<String> {
        self.joints.clone()
    }

    /// The names of a configuration's values, in order: a joint of one value by its name, a
    /// planar joint's `NAME/x`, `NAME/y`, `NAME/theta`, a floating joint's `NAME/trans_x`,
    /// `NAME/trans_y`, `NAME/trans_z`, `NAME/rot_x`, `NAME/rot_y`, `NAME/rot_z`, `NAME/rot_w`
    /// (MoveIt's variable names).
    #[getter]
    fn values(&self) -> Vec<String> {
        self.values.iter().map(|(value, _)| value.clone()).collect()
    }

    /// The neutral configuration, `(n,)`: zeros, but 1 for each floating joint's `qw`
    /// (pinocchio's `neutral`).
    #[getter]
    fn neutral<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.neutral.clone().into_pyarray(py)
    }

    /// The names of the links, in the URDF's order.
    #[getter]
    fn links(&self) -> Vec<String> {
        self.links.clone()
    }

    /// The limits of a configuration's values, `(n, 2)` float64: lower and upper per value of
    /// `values`, `-inf` and `inf` for a value without limits (of a continuous, planar or
    /// floating joint).
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let rows = self.limits.len();
        numpy::ndarray::Array2::from_shape_fn((rows, 2), |(j, k)| match k {
            0 => self.limits[j].0,
            _ => self.limits[j].1,
        })
        .into_pyarray(py)
    }

    /// The world pose of every link at configuration `q`, `(len(links), 4, 4)` float64
    /// homogeneous matrices in the order of `links`, the root link's the identity (forward
    /// kinematics: a joint's child is its parent's pose times the joint's origin times its
    /// motion). `q` is checked as `collide` checks it, limits included.
    fn link_poses<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray3<f64>>> {
        let q = self.configuration(q, "q")?;
        let poses = py.detach(|| {
            let state = self.lock();
            let robot = state.links.robot();
            if self.limits_checked {
                robot.check_limits(&q)?;
            }
            robot.link_poses(&q)
        });
        let poses = poses.map_err(|e| robot_refusal("q", e.into()))?;
        let matrices: Vec<_> = poses.iter().map(|p| p.to_homogeneous()).collect();
        Ok(
            numpy::ndarray::Array3::from_shape_fn((matrices.len(), 4, 4), |(l, r, c)| {
                matrices[l][(r, c)]
            })
            .into_pyarray(py),
        )
    }

    /// How many pairs of link elements the self-collision check examines: pairs not of one
    /// link, not of links joined by a joint, not allowed (SRDF, `allow`). A link with several
    /// geometry elements counts each.
    #[getter]
    fn pairs_checked(&self, py: Python<'_>) -> usize {
        py.detach(|| self.lock().links.self_pairs_checked())
    }

    /// Adds a fixture: `model` (of volume type "obb") at `pose` (`(4, 4)`, `None`: identity)
    /// under the name `name`, unique among links and fixtures (`obbtree.SceneError`
    /// otherwise). Fixtures are checked against the links, never against each other.
    #[pyo3(signature = (name, model, pose = None))]
    fn add_fixture(
        &self,
        py: Python<'_>,
        name: String,
        model: PyRef<'_, Model>,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let placed = self::pose(pose, "pose")?;
        let AnyModel::Obb(model) = model.inner.clone() else {
            return Err(value_error(
                "model",
                format!(
                    "the robot's links are obb models, not {}; build the fixture with bv=\"obb\"",
                    model.inner.volume()
                ),
            ));
        };
        py.detach(|| {
            let mut state = self.lock();
            state
                .links
                .add_fixture(name, model, placed)
                .map_err(|e| robot_refusal("name", e))?;
            state.stamp += 1;
            Ok(())
        })
    }

    /// Never check the pair `a`, `b`: two links, or a link and a fixture (a base bolted to a
    /// table). `obbtree.RobotError` when a name is neither. To exempt a link from an object of
    /// a `Scene`, add that object as a fixture instead.
    fn allow(&self, py: Python<'_>, a: String, b: String) -> PyResult<()> {
        py.detach(|| {
            let mut state = self.lock();
            state
                .links
                .allow(&a, &b)
                .map_err(|e| robot_refusal("allow", e))?;
            state.stamp += 1;
            Ok(())
        })
    }

    /// What touches at configuration `q`: `(self_collisions, environment)`, the first a list
    /// of `(link, link)` pairs (the two names in order, the pairs sorted), the second of
    /// `(link, fixture)` pairs (sorted by link, then fixture). With `scene`, an
    /// `obbtree.Scene` of volume type "obb", its objects are fixtures too, at their current
    /// poses (the robot copies the scene's objects, sharing their models, on the first such
    /// query and whenever the scene has changed since; a name both a fixture's and an
    /// object's is an `obbtree.SceneError`).
    #[pyo3(signature = (q, scene = None))]
    fn collide(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        scene: Option<PyRef<'_, PyScene>>,
    ) -> PyResult<(Vec<NamePair>, Vec<NamePair>)> {
        let q = self.configuration(q, "q")?;
        self.at(py, &q, scene.as_deref(), |t| {
            let contacts = t.links.check()?;
            Ok((
                link_pairs(t.links, &contacts),
                fixture_pairs(t.links, &contacts, None),
            ))
        })
    }

    /// The pairs of links that touch at configuration `q`, as `collide` gives them.
    fn collide_self(&self, py: Python<'_>, q: &Bound<'_, PyAny>) -> PyResult<Vec<NamePair>> {
        let q = self.configuration(q, "q")?;
        self.at(py, &q, None, |t| {
            let contacts = t.links.check()?;
            Ok(link_pairs(t.links, &contacts))
        })
    }

    /// The `(link, object)` pairs of a link and an object of `scene` that touch at
    /// configuration `q`, sorted (the robot's own fixtures left out); see `collide`.
    fn collide_scene(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        scene: PyRef<'_, PyScene>,
    ) -> PyResult<Vec<NamePair>> {
        let q = self.configuration(q, "q")?;
        self.at(py, &q, Some(&scene), |t| {
            let contacts = t.links.check()?;
            Ok(fixture_pairs(t.links, &contacts, t.objects))
        })
    }

    /// The clearance at configuration `q`: the closest of the pairs `collide` checks (with
    /// `scene`, its objects too), as `(link, other, distance, point_link, point_other)`, where
    /// `other` is a link or a fixture, the points `(3,)` world-frame arrays and the distance
    /// 0 when they touch; `None` when no pair is checked. Ties go to the first pair by the
    /// names of the objects (a link's element beyond its first is named `link#k`).
    #[pyo3(signature = (q, scene = None))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        scene: Option<PyRef<'py, PyScene>>,
    ) -> PyResult<Option<ClosestTuple<'py>>> {
        let q = self.configuration(q, "q")?;
        let closest = self.at(py, &q, scene.as_deref(), |t| {
            let found = t.links.clearance()?;
            Ok(found.map(|f| Closest::of(t.links, &f)))
        })?;
        Ok(closest.map(|c| c.into_tuple(py)))
    }

    /// Walks the path `path` (`(k, n)`: configurations in order) and stops at the first
    /// configuration in collision (as `collide` checks it, with `scene` too). Between
    /// consecutive configurations `a` and `b`, `m = max(1, ceil(d / resolution))` are checked,
    /// `d` the largest of `|b - a|` over the values and of each floating joint's turn from `a`
    /// to `b` (radians, the shorter way): `a + (b - a) * (i / m)` for `i = 1, ..., m - 1`, but
    /// for floating joints' quaternions, which turn along the shorter arc at constant speed
    /// (slerp), then `b`; so no value moves more than `resolution` (radians, or metres) and no
    /// floating joint turns by more, between checked configurations.
    /// Indices count every checked configuration from 0 for `path[0]`. Every configuration
    /// of the path is checked for its values and limits before any is checked for collision.
    ///
    /// With `margin`, also finds the first configuration whose clearance (see `distance`) is
    /// at most `margin` and the smallest clearance up to the first collision, measuring only
    /// pairs closer than both. Returns an `obbtree.PathCheck`. The walk runs without the GIL
    /// and cannot be interrupted: its length is the sum of the `m`, whatever `resolution`
    /// makes it.
    ///
    /// With `continuous=True` (no `resolution`, no `margin`), each segment between
    /// consecutive configurations, moving as above, is checked with no resolution
    /// (`RobotScene::check_path_continuous`: distance lower bounds against bounds on how far
    /// the links can move, Schwarzer, Saha & Latombe 2005): certified free of contact, or its
    /// first contact bracketed. Then `first_collision` is the index in `path` of the first
    /// colliding segment's start, `first_collision_t` the fractions `(lo, hi)` of that segment
    /// between which its first contact lies, `configuration` and the pairs those at `hi`, and
    /// `checked` the configurations of `path` up to that start (all when it is free). A pass
    /// within `tolerance` metres of contact (default 1e-6) may be reported as a collision, with
    /// the pairs that close.
    #[pyo3(signature = (path, resolution = None, margin = None, scene = None, continuous = false, tolerance = None))]
    #[allow(clippy::too_many_arguments)]
    fn check_path(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        resolution: Option<f64>,
        margin: Option<f64>,
        scene: Option<PyRef<'_, PyScene>>,
        continuous: bool,
        tolerance: Option<f64>,
    ) -> PyResult<PyPathCheck> {
        let path = self.configurations(path, "path")?;
        let scene = scene.as_deref();
        let how = path_walk(resolution, margin, continuous, tolerance)?;
        py.detach(|| {
            let mut state = self.lock();
            let target = state.target(scene)?;
            let refused = |e: RobotError| robot_refusal(path_argument(&e), e);
            match how {
                PathWalk::Sampled(resolution) => {
                    let found = target.links.check_path_with(&path, resolution, margin);
                    Ok(PyPathCheck::of(target.links, found.map_err(refused)?))
                }
                PathWalk::Continuous(tolerance) => {
                    let found = target.links.check_path_continuous(&path, tolerance);
                    let found = found.map_err(refused)?;
                    Ok(PyPathCheck::continuous(target.links, found, path.len()))
                }
            }
        })
    }

    /// For each row of `qs` (`(m, n)`), the pairs of links that touch there, as
    /// `collide_self` gives them: a list of `m` lists. Runs on rayon's pool without the GIL;
    /// the answers are those of `collide_self` on each row.
    fn collide_self_many(
        &self,
        py: Python<'_>,
        qs: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Vec<NamePair>>> {
        let qs = self.configurations(qs, "qs")?;
        self.many(py, qs, None, "qs", link_pairs)
    }

    /// For each row of `qs` (`(m, n)`), whether anything touches there (a pair of links or,
    /// with `scene` too, a link and a fixture): an `(m,)` bool array. Runs on rayon's pool
    /// without the GIL; the answers are those of `collide` on each row.
    #[pyo3(signature = (qs, scene = None))]
    fn collides_many<'py>(
        &self,
        py: Python<'py>,
        qs: &Bound<'py, PyAny>,
        scene: Option<PyRef<'py, PyScene>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let qs = self.configurations(qs, "qs")?;
        let touching = self.many(py, qs, scene.as_deref(), "qs", |_, c| !c.is_empty())?;
        Ok(touching.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "obbtree.Robot({:?}, {} joints, {} links)",
            self.name,
            self.joints.len(),
            self.links.len()
        )
    }
}

/// How `Robot.check_path` walks a path: at a resolution, or continuously at a tolerance.
#[derive(Clone, Copy, Debug)]
enum PathWalk {
    Sampled(f64),
    Continuous(f64),
}

/// The walk `Robot.check_path`'s arguments ask for: a resolution without `continuous`, a
/// tolerance (by default [`DEFAULT_TOLERANCE`]) and no resolution nor margin with it.
fn path_walk(
    resolution: Option<f64>,
    margin: Option<f64>,
    continuous: bool,
    tolerance: Option<f64>,
) -> PyResult<PathWalk> {
    match (continuous, resolution) {
        (false, Some(r)) if tolerance.is_none() => Ok(PathWalk::Sampled(r)),
        (false, Some(_)) => Err(value_error("tolerance", "needs continuous=True")),
        (false, None) => Err(value_error(
            "resolution",
            "is needed unless continuous=True",
        )),
        (true, Some(_)) => Err(value_error(
            "resolution",
            "does not apply with continuous=True",
        )),
        (true, None) if margin.is_some() => {
            Err(value_error("margin", "does not apply with continuous=True"))
        }
        (true, None) => Ok(PathWalk::Continuous(tolerance.unwrap_or(DEFAULT_TOLERANCE))),
    }
}

/// The argument a path check's refusal is about.
fn path_argument(error: &RobotError) -> &'static str {
    match error {
        RobotError::Resolution(_) => "resolution",
        RobotError::Tolerance(_) => "tolerance",
        RobotError::Scene(SceneError::Query(_)) => "margin",
        _ => "path",
    }
}

/// The first configuration of a path in collision, by names.
struct NamedCollision {
    index: usize,
    configuration: Vec<f64>,
    self_collisions: Vec<NamePair>,
    environment: Vec<NamePair>,
}

/// The smallest clearance along a path, by names.
struct NamedClearance {
    index: usize,
    configuration: Vec<f64>,
    closest: Closest,
}

/// What `Robot.check_path` found. Attributes:
///
/// * `checked`: how many configurations were checked (the interpolated path, or up to and
///   including the first in collision);
/// * `first_collision`: the index of the first configuration in collision, or `None`;
///   `configuration` (`(n,)`), `self_collisions` and `environment` (as `Robot.collide` gives
///   them) are that configuration's (`None`, `[]` and `[]` when there is none);
/// * with a margin: `first_within_margin`, the index of the first configuration whose
///   clearance is at most the margin, or `None`; `clearance`, the smallest clearance up to
///   the first collision if it is at most the margin (as `Robot.distance` gives it, 0 apart
///   at a collision), else `None`; `clearance_index` and `clearance_configuration`, where it
///   is (the first configuration of that clearance).
///
/// With `continuous=True`: `first_collision_t`, the fractions `(lo, hi)` of the first
/// colliding segment between which its first contact lies, or `None` (always `None` without).
#[pyclass(name = "PathCheck", module = "obbtree", frozen)]
pub struct PyPathCheck {
    checked: usize,
    collision: Option<NamedCollision>,
    first_within_margin: Option<usize>,
    clearance: Option<NamedClearance>,
    first_collision_t: Option<(f64, f64)>,
}

impl PyPathCheck {
    fn of(links: &Links, found: PathCheck) -> Self {
        Self {
            checked: found.checked,
            collision: found.collision.map(|c| NamedCollision {
                index: c.index,
                self_collisions: link_pairs(links, &c.contacts),
                environment: fixture_pairs(links, &c.contacts, None),
                configuration: c.configuration,
            }),
            first_within_margin: found.first_within_margin,
            clearance: found.clearance.map(|c| NamedClearance {
                index: c.index,
                closest: Closest::of(links, &c.closest),
                configuration: c.configuration,
            }),
            first_collision_t: None,
        }
    }

    /// A continuous check's answer on a path of `len` configurations.
    fn continuous(links: &Links, found: ContinuousPathCheck, len: usize) -> Self {
        let bracket = found.collision.as_ref().map(|c| (c.lo, c.hi));
        let collision = found.collision.map(|c| NamedCollision {
            index: c.segment,
            self_collisions: link_pairs(links, &c.contacts),
            environment: fixture_pairs(links, &c.contacts, None),
            configuration: c.configuration,
        });
        Self {
            checked: collision.as_ref().map_or(len, |c| c.index + 1),
            collision,
            first_within_margin: None,
            clearance: None,
            first_collision_t: bracket,
        }
    }
}

#[pymethods]
impl PyPathCheck {
    /// How many configurations were checked.
    #[getter]
    fn checked(&self) -> usize {
        self.checked
    }

    /// The index of the first configuration in collision, or `None`.
    #[getter]
    fn first_collision(&self) -> Option<usize> {
        self.collision.as_ref().map(|c| c.index)
    }

    /// The first configuration in collision, `(n,)`, or `None`.
    #[getter]
    fn configuration<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        let c = self.collision.as_ref()?;
        Some(c.configuration.clone().into_pyarray(py))
    }

    /// The `(link, link)` pairs touching at the first configuration in collision.
    #[getter]
    fn self_collisions(&self) -> Vec<NamePair> {
        self.collision
            .as_ref()
            .map_or_else(Vec::new, |c| c.self_collisions.clone())
    }

    /// The `(link, fixture)` pairs touching at the first configuration in collision.
    #[getter]
    fn environment(&self) -> Vec<NamePair> {
        self.collision
            .as_ref()
            .map_or_else(Vec::new, |c| c.environment.clone())
    }

    /// With `continuous=True`: the fractions `(lo, hi)` of the first colliding segment between
    /// which its first contact lies, or `None`.
    #[getter]
    fn first_collision_t(&self) -> Option<(f64, f64)> {
        self.first_collision_t
    }

    /// With a margin: the index of the first configuration within it, or `None`.
    #[getter]
    fn first_within_margin(&self) -> Option<usize> {
        self.first_within_margin
    }

    /// With a margin: the smallest clearance, `(link, other, distance, point_link,
    /// point_other)`, if it is at most the margin; else `None`.
    #[getter]
    fn clearance<'py>(&self, py: Python<'py>) -> Option<ClosestTuple<'py>> {
        let c = self.clearance.as_ref()?;
        Some(c.closest.clone().into_tuple(py))
    }

    /// The index of the configuration of the smallest clearance, or `None`.
    #[getter]
    fn clearance_index(&self) -> Option<usize> {
        self.clearance.as_ref().map(|c| c.index)
    }

    /// The configuration of the smallest clearance, `(n,)`, or `None`.
    #[getter]
    fn clearance_configuration<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        let c = self.clearance.as_ref()?;
        Some(c.configuration.clone().into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        let distance = self.clearance.as_ref().map(|c| c.closest.distance);
        format!(
            "obbtree.PathCheck(checked={}, first_collision={}, first_within_margin={}, \
             clearance={})",
            self.checked,
            python_optional(self.first_collision()),
            python_optional(self.first_within_margin),
            python_optional(distance)
        )
    }
}

/// `value` as Python shows it: the value, or `None`.
fn python_optional(value: Option<impl std::fmt::Display>) -> String {
    value.map_or_else(|| "None".to_string(), |v| v.to_string())
}
