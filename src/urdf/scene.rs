//! A robot as scene objects: one object per link mesh, posed by forward kinematics, checked
//! for self-collision and against fixtures in one [`Scene`].
//!
//! The robot and its fixtures share one scene, told apart by collision groups: links are in
//! [`LINK_GROUP`] and checked against links and fixtures, fixtures are in [`FIXTURE_GROUP`] and
//! checked against links only (fixtures never against each other). Pairs never checked: the
//! meshes of one link, links joined by a joint (they touch at the joint by design), and the
//! pairs given to [`RobotScene::allow`] (MoveIt's SRDF "disabled collisions"). One scene means
//! one broad phase and one set of pair records for both kinds of pair, so a link that did not
//! move keeps its answers against the fixtures and the other unmoved links.
//!
//! [`RobotScene::check_path`] walks a path of joint configurations, interpolated so that no
//! joint value (and no floating joint's rotation) moves more than a resolution between checked
//! configurations, and stops at the first
//! one in collision; consecutive configurations share the scene's records (the links before
//! the first joint that moves keep their pairs, and touching pairs start from their witness).
//! With a margin ([`RobotScene::check_path_with`]) it also finds the smallest clearance along
//! the path, measuring only pairs closer than the margin and the best clearance so far, each
//! from its closest triangles at the previous configuration.
//!
//! [`RobotScene::check_path_continuous`] checks the same motion with no resolution: each
//! segment between consecutive configurations is certified free of contact, from distance
//! lower bounds and bounds on how far the links move ([`RobotScene::motion_bound`]), or its
//! first contact is bracketed (Schwarzer, Saha & Latombe's adaptive dynamic collision
//! checking; the guarantee is on the method).

mod continuous;

pub use continuous::{ContinuousCollision, ContinuousPathCheck, DEFAULT_TOLERANCE};

use super::configuration::Steps;
use super::{Robot, Srdf, SrdfError, UrdfError};
use crate::bv::{Obb, Pose};
use crate::scene::{CollisionFilter, ObjectContact, ObjectDistance, ObjectId, Scene, SceneError};
use crate::tree::TreeVolume;
use crate::{
    BuildError, BuildOptions, CollisionRequest, Mode, Model, ModelOptions, PosedOverlap, QueryError,
};
use std::collections::BTreeSet;

/// The collision group of a robot's links.
pub const LINK_GROUP: u32 = 1;
/// The collision group of fixtures.
pub const FIXTURE_GROUP: u32 = 2;

/// Why a robot scene refused an operation.
#[derive(Debug, thiserror::Error)]
pub enum RobotError {
    /// The robot's file or joint values (the inner error names the URDF file).
    #[error(transparent)]
    Urdf(#[from] UrdfError),
    /// A configuration of a path that [`Robot::link_poses`] or [`Robot::check_limits`] refuses.
    #[error("configuration {index}: {source}")]
    Configuration {
        /// Position of the configuration in the path as given.
        index: usize,
        /// Why.
        source: UrdfError,
    },
    /// A link's tree could not be built.
    #[error("link {link:?}: cannot build the tree: {source}")]
    Build {
        /// The link.
        link: String,
        /// Why.
        source: BuildError,
    },
    /// The scene refused an object or a query (names the objects).
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// An SRDF file could not be read, or names a link the robot does not have.
    #[error(transparent)]
    Srdf(#[from] SrdfError),
    /// A name in an allowed pair that is neither a link nor a fixture.
    #[error("no link or fixture named {0:?}")]
    UnknownName(String),
    /// The path's resolution is not a positive finite number.
    #[error("the resolution must be a positive finite number of radians (or metres), not {0}")]
    Resolution(f64),
    /// The tolerance of a continuous path check is not a positive finite number.
    #[error("the tolerance must be a positive finite number of metres, not {0}")]
    Tolerance(f64),
}

/// One mesh of a link as a scene object.
#[derive(Clone, Debug)]
struct Part {
    link: usize,
    origin: Pose,
    id: ObjectId,
}

/// What one configuration touches: pairs of links, and links with fixtures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RobotContacts {
    /// Pairs of links in collision, as link indices into [`Robot::links`], the first before
    /// the second by name, sorted by names.
    pub self_collisions: Vec<[usize; 2]>,
    /// Links touching fixtures: (link index, fixture), sorted by link name then fixture name.
    pub environment: Vec<(usize, ObjectId)>,
}

impl RobotContacts {
    /// Whether anything touches.
    pub fn is_empty(&self) -> bool {
        self.self_collisions.is_empty() && self.environment.is_empty()
    }
}

/// The first configuration of a path in collision ([`RobotScene::check_path`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PathCollision {
    /// Its position in the interpolated path.
    pub index: usize,
    /// Its joint values.
    pub configuration: Vec<f64>,
    /// What touches there.
    pub contacts: RobotContacts,
}

/// The smallest clearance along a path ([`RobotScene::check_path_with`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PathClearance {
    /// The position of the configuration in the interpolated path (the first, among
    /// configurations at the same clearance).
    pub index: usize,
    /// Its joint values.
    pub configuration: Vec<f64>,
    /// The closest pair there (as [`RobotScene::clearance`] gives it): 0 apart when the path
    /// collides.
    pub closest: ObjectDistance,
}

/// What a path check found ([`RobotScene::check_path_with`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathCheck {
    /// How many configurations were checked: the whole interpolated path, or up to and
    /// including the first in collision.
    pub checked: usize,
    /// The first configuration in collision.
    pub collision: Option<PathCollision>,
    /// With a margin: the first configuration whose clearance is at most the margin.
    pub first_within_margin: Option<usize>,
    /// With a margin: the smallest clearance among the configurations checked, if it is at
    /// most the margin.
    pub clearance: Option<PathClearance>,
}

/// A robot's links and its fixtures in one scene. See the [module documentation](crate::urdf).
#[derive(Clone, Debug)]
pub struct RobotScene<V = Obb> {
    robot: Robot,
    scene: Scene<V>,
    parts: Vec<Part>,
    configuration: Vec<f64>,
    /// Whether configurations outside the joint limits are refused.
    limits_checked: bool,
}

/// The build options of a robot's mesh trees: built once and queried for every configuration,
/// so they take the volume type's [`TreeVolume::reused_method`]. Their large leaves are kept
/// ([`BuildOptions::large_leaf_ratio`] infinite): links' meshes are small and coarse, and
/// splitting their long triangles' leaves made random configurations slower (measurements in
/// `docs/performance.md`).
fn reused_tree_options<V: TreeVolume>() -> ModelOptions<V> {
    ModelOptions::from(BuildOptions {
        method: V::reused_method(),
        large_leaf_ratio: f64::INFINITY,
        ..BuildOptions::default()
    })
}

impl<V: PosedOverlap + TreeVolume> RobotScene<V> {
    /// The robot's geometry elements as scene objects at the neutral configuration
    /// ([`Robot::neutral_configuration`]: all zeros but each floating joint's `qw`) (one
    /// model per mesh or primitive, so a link with several elements is several objects), links
    /// joined by a joint and elements of one link never checked. A link's first element is
    /// named after the link, further ones `link#1`, `link#2`, … (its meshes first, then its
    /// primitives).
    pub fn new(robot: Robot) -> Result<Self, RobotError> {
        let neutral = robot.neutral_configuration();
        let links = robot.link_poses(&neutral)?;
        let mut scene = Scene::new();
        let mut parts = Vec::new();
        for (link, l) in robot.links.iter().enumerate() {
            let meshes = l.meshes.iter().map(|mesh| {
                let model = Model::build(mesh.mesh.clone(), &reused_tree_options::<V>());
                let model = model.map_err(|source| RobotError::Build {
                    link: l.name.clone(),
                    source,
                })?;
                Ok::<_, RobotError>((model, mesh.origin))
            });
            let shapes = l
                .shapes
                .iter()
                .map(|s| Ok((Model::from_shape(s.shape.clone()), s.origin)));
            for (k, element) in meshes.chain(shapes).enumerate() {
                let (model, origin) = element?;
                let name = match k {
                    0 => l.name.clone(),
                    k => format!("{}#{k}", l.name),
                };
                let id = scene.insert(name, model, links[link] * origin)?;
                scene.set_filter(
                    id,
                    CollisionFilter::new(LINK_GROUP, LINK_GROUP | FIXTURE_GROUP),
                )?;
                parts.push(Part { link, origin, id });
            }
        }
        let mut this = Self {
            robot,
            scene,
            parts,
            configuration: neutral,
            limits_checked: true,
        };
        this.allow_adjacent()?;
        Ok(this)
    }

    /// Allows the mesh pairs of one link and of links joined by a joint.
    fn allow_adjacent(&mut self) -> Result<(), RobotError> {
        let joined: BTreeSet<(usize, usize)> = self
            .robot
            .joints
            .iter()
            .flat_map(|j| [(j.parent, j.child), (j.child, j.parent)])
            .collect();
        for (i, a) in self.parts.iter().enumerate() {
            for b in &self.parts[i + 1..] {
                if a.link == b.link || joined.contains(&(a.link, b.link)) {
                    self.scene.allow(a.id, b.id)?;
                }
            }
        }
        Ok(())
    }
}

impl<V: PosedOverlap> RobotScene<V> {
    /// The robot.
    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    /// The scene of links and fixtures.
    pub fn scene(&self) -> &Scene<V> {
        &self.scene
    }

    /// The configuration the links are posed at ([`Robot::value_names`] order).
    pub fn configuration(&self) -> &[f64] {
        &self.configuration
    }

    /// Forgets what the scene's queries learnt about pairs ([`Scene::clear_records`]).
    pub fn clear_records(&mut self) {
        self.scene.clear_records();
    }

    /// The link of a scene object, if it is one of the robot's.
    pub fn link_of(&self, id: ObjectId) -> Option<usize> {
        self.parts.iter().find(|p| p.id == id).map(|p| p.link)
    }

    /// Adds a fixture (checked against the links only).
    pub fn add_fixture(
        &mut self,
        name: impl Into<String>,
        model: Model<V>,
        pose: Pose,
    ) -> Result<ObjectId, RobotError> {
        let id = self.scene.insert(name, model, pose)?;
        self.scene
            .set_filter(id, CollisionFilter::new(FIXTURE_GROUP, LINK_GROUP))?;
        Ok(id)
    }

    /// Never check the pair named `a`, `b`: two links (MoveIt's SRDF "disabled collisions"),
    /// or a link and a fixture (a base bolted to a table).
    pub fn allow(&mut self, a: &str, b: &str) -> Result<(), RobotError> {
        let (objects_a, objects_b) = (self.objects_named(a)?, self.objects_named(b)?);
        for &x in &objects_a {
            for &y in &objects_b {
                if x != y {
                    self.scene.allow(x, y)?;
                }
            }
        }
        Ok(())
    }

    /// Never check the link pairs of an SRDF file's `<disable_collisions>` elements. Every
    /// link is checked before any pair is allowed: a name the robot does not have as a link
    /// (a fixture's name included) is an error naming the SRDF file and the link.
    pub fn allow_srdf(&mut self, srdf: &Srdf) -> Result<(), RobotError> {
        for pair in &srdf.disabled {
            for link in [&pair.link1, &pair.link2] {
                if self.robot.link(link).is_none() {
                    return Err(srdf.unknown_link(pair, link).into());
                }
            }
        }
        for pair in &srdf.disabled {
            self.allow(&pair.link1, &pair.link2)?;
        }
        Ok(())
    }

    /// How many object pairs the self-collision check examines: pairs of link meshes that are
    /// not of one link, not of links joined by a joint, and not allowed
    /// ([`allow`](Self::allow), [`allow_srdf`](Self::allow_srdf)).
    pub fn self_pairs_checked(&self) -> usize {
        self.parts
            .iter()
            .enumerate()
            .flat_map(|(i, a)| self.parts[i + 1..].iter().map(move |b| (a.id, b.id)))
            .filter(|&(a, b)| !self.scene.is_allowed(a, b))
            .count()
    }

    /// Every object of the link named `name`, or the fixture of that name.
    fn objects_named(&self, name: &str) -> Result<Vec<ObjectId>, RobotError> {
        match self.robot.link(name) {
            Some(link) => Ok(self
                .parts
                .iter()
                .filter(|p| p.link == link)
                .map(|p| p.id)
                .collect()),
            None => self
                .scene
                .id(name)
                .filter(|&id| self.link_of(id).is_none())
                .map(|id| vec![id])
                .ok_or_else(|| RobotError::UnknownName(name.to_string())),
        }
    }

    /// Whether configurations outside the joint limits are refused (the default) or taken as
    /// they are.
    pub fn check_limits(&mut self, checked: bool) {
        self.limits_checked = checked;
    }

    /// Poses the links for the configuration `q` ([`Robot::value_names`] order; checked by
    /// [`Robot::link_poses`]). Links whose pose does not change do not count as moved. A value
    /// outside its joint's limits is an error naming the joint ([`Robot::check_limits`]) unless
    /// [`check_limits(false)`](Self::check_limits) was asked for.
    pub fn set_configuration(&mut self, q: &[f64]) -> Result<(), RobotError> {
        let links = self.robot.link_poses(q)?;
        if self.limits_checked {
            self.robot.check_limits(q)?;
        }
        for part in &self.parts {
            self.scene
                .set_pose(part.id, links[part.link] * part.origin)?;
        }
        self.configuration.clear();
        self.configuration.extend_from_slice(q);
        Ok(())
    }

    /// What touches at the current configuration. In [`Mode::First`] each object pair stops
    /// at a witness, which is all the answer needs.
    pub fn check(&mut self) -> Result<RobotContacts, RobotError> {
        let contacts = self
            .scene
            .collide_all(&CollisionRequest::new(Mode::First))?;
        Ok(self.sort_contacts(&contacts))
    }

    /// The clearance at the current configuration: the closest pair among the pairs
    /// [`check`](Self::check) checks (links not joined by a joint, links and fixtures, neither
    /// allowed), with its distance, triangles and world points ([`Scene::min_distance`]);
    /// `None` when there is no such pair.
    pub fn clearance(&mut self) -> Result<Option<ObjectDistance>, RobotError> {
        Ok(self.scene.min_distance()?)
    }

    /// Link pairs and link–fixture pairs of scene contacts, each once, sorted by names.
    fn sort_contacts(&self, contacts: &[ObjectContact]) -> RobotContacts {
        self.sort_pairs(contacts.iter().map(|c| (c.a, c.b)))
    }

    /// Link pairs and link–fixture pairs of object pairs, each once, sorted by names.
    fn sort_pairs(&self, pairs: impl IntoIterator<Item = (ObjectId, ObjectId)>) -> RobotContacts {
        let mut links = BTreeSet::new();
        let mut environment = BTreeSet::new();
        for (a, b) in pairs {
            match (self.link_of(a), self.link_of(b)) {
                (Some(a), Some(b)) => {
                    let name = |l: usize| self.robot.links[l].name.as_str();
                    let pair = if name(a) <= name(b) { [a, b] } else { [b, a] };
                    links.insert((name(pair[0]), name(pair[1]), pair));
                }
                (Some(link), None) => {
                    environment.insert((
                        &*self.robot.links[link].name,
                        self.scene.name(b),
                        (link, b),
                    ));
                }
                (None, Some(link)) => {
                    environment.insert((
                        &*self.robot.links[link].name,
                        self.scene.name(a),
                        (link, a),
                    ));
                }
                (None, None) => {}
            }
        }
        RobotContacts {
            self_collisions: links.into_iter().map(|(_, _, pair)| pair).collect(),
            environment: environment.into_iter().map(|(_, _, pair)| pair).collect(),
        }
    }

    /// Walks `path` in order and returns the first configuration in collision, or `None`
    /// ([`check_path_with`](Self::check_path_with) without a margin).
    pub fn check_path(
        &mut self,
        path: &[Vec<f64>],
        resolution: f64,
    ) -> Result<Option<PathCollision>, RobotError> {
        Ok(self.check_path_with(path, resolution, None)?.collision)
    }

    /// Walks `path` in order up to the first configuration in collision and, with a
    /// `margin`, measures the clearance along the way.
    ///
    /// Between consecutive configurations `a` and `b` of the path, `n = max(1, ⌈d / resolution⌉)`
    /// configurations are checked, where `d` is the largest of `|b_j − a_j|` over the values
    /// and of the angle of each floating joint's rotation from `a` to `b` (the shorter way):
    /// the configurations a fraction `k / n` of the way from `a` to `b` for `k = 1, …, n − 1`,
    /// then `b` itself. A fraction `s` of the way is `a + (b − a)·s` for each value (computed
    /// in that order of operations) but a floating joint's quaternion, which turns at constant
    /// speed along the shorter arc (spherical linear interpolation). So no value moves more
    /// than `resolution` (radians or metres), and no floating joint turns by more than
    /// `resolution` radians, between checked configurations. The index of a checked
    /// configuration counts from 0 for `path[0]` through every interpolated one. Every
    /// configuration is checked for its length and finiteness before any is checked for
    /// collision. The scene's records carry over from one configuration to the next; the
    /// robot is left at the last configuration checked.
    ///
    /// With a margin, each checked configuration's clearance ([`clearance`](Self::clearance))
    /// is measured only as far as it matters: pairs further apart than the margin, or than
    /// the smallest clearance found so far, are never measured
    /// ([`Scene::min_distance_within`]). The answer gives the first configuration within the
    /// margin and the one of smallest clearance; a colliding configuration has clearance 0.
    /// An error when the margin is negative, NaN or infinite.
    pub fn check_path_with(
        &mut self,
        path: &[Vec<f64>],
        resolution: f64,
        margin: Option<f64>,
    ) -> Result<PathCheck, RobotError> {
        self.check_path_inputs(path, resolution, margin)?;
        let mut found = PathCheck::default();
        let mut index = 0;
        let steps = self.robot.steps();
        for (i, q) in path.iter().enumerate() {
            // The first configuration is the one step from itself to itself.
            let from = &path[i.saturating_sub(1)];
            for q in interpolate(&steps, from, q, resolution) {
                self.set_configuration(&q)?;
                found.checked = index + 1;
                let contacts = self.check()?;
                if let Some(margin) = margin {
                    self.measure_clearance(&mut found, index, &q, margin)?;
                }
                if !contacts.is_empty() {
                    found.collision = Some(PathCollision {
                        index,
                        configuration: q,
                        contacts,
                    });
                    return Ok(found);
                }
                index += 1;
            }
        }
        Ok(found)
    }

    /// Refuses a path with a wrong configuration, a resolution that is not a positive finite
    /// number or a margin that is not a non-negative finite one, before anything moves.
    fn check_path_inputs(
        &self,
        path: &[Vec<f64>],
        resolution: f64,
        margin: Option<f64>,
    ) -> Result<(), RobotError> {
        if !(resolution.is_finite() && resolution > 0.0) {
            return Err(RobotError::Resolution(resolution));
        }
        if let Some(m) = margin.filter(|m| !(m.is_finite() && *m >= 0.0)) {
            return Err(SceneError::Query(QueryError::InvalidMargin(m)).into());
        }
        for (index, q) in path.iter().enumerate() {
            let checked = self
                .robot
                .link_poses(q)
                .and_then(|_| match self.limits_checked {
                    true => self.robot.check_limits(q),
                    false => Ok(()),
                });
            checked.map_err(|source| RobotError::Configuration { index, source })?;
        }
        Ok(())
    }

    /// The clearance at the current configuration, `index` of the path, if it is within the
    /// margin and below the smallest found so far: recorded in `found`.
    fn measure_clearance(
        &mut self,
        found: &mut PathCheck,
        index: usize,
        q: &[f64],
        margin: f64,
    ) -> Result<(), RobotError> {
        let limit = found
            .clearance
            .as_ref()
            .map_or(margin, |c| c.closest.distance);
        let Some(closest) = self.scene.min_distance_within(limit)? else {
            return Ok(());
        };
        found.first_within_margin.get_or_insert(index);
        if found
            .clearance
            .as_ref()
            .is_none_or(|c| closest.distance < c.closest.distance)
        {
            found.clearance = Some(PathClearance {
                index,
                configuration: q.to_vec(),
                closest,
            });
        }
        Ok(())
    }
}

/// The configurations checked after `a` on the way to `b` (see [`RobotScene::check_path`]),
/// made one at a time: a tiny resolution makes many steps, never a list of them all (which
/// could exceed the memory, or the largest allocation, and abort).
fn interpolate<'a>(
    steps: &'a Steps,
    a: &'a [f64],
    b: &'a [f64],
    resolution: f64,
) -> impl Iterator<Item = Vec<f64>> + 'a {
    let n = ((steps.distance(a, b) / resolution).ceil() as usize).max(1);
    (1..=n).map(move |k| match k == n {
        true => b.to_vec(),
        false => steps.between(a, b, k as f64 / n as f64),
    })
}
