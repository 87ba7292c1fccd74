//! The demo's robot paths: a robot along a bundled path among a bundled cell's fixtures, the
//! first configuration in contact found by `RobotScene::check_path`, and a picture of it: the
//! links in contact blue, where every colliding pair touches red. The KUKA iiwa's path
//! (`assets/scenes/kuka_configs.json`, interpolated) among `assets/scenes/cell.json` is here;
//! the panda's is in [`super::panda_contact`].

use crate::render::{self, Shape};
use crate::robot::{with_fixtures, with_srdf, ConfigsFile};
use crate::scene::{read_json, SceneSpec};
use crate::tessellate::shape_mesh;
use crate::Error;
use obbtree::bv::{Aabb, Obb};
use obbtree::urdf::{Robot, RobotContacts, RobotScene, Srdf};
use obbtree::{
    collide, Camera, CollisionRequest, CollisionResult, Mode, Model, Object, ObjectId, Pose, Vector,
};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The largest step of any joint between checked configurations (radians).
const RESOLUTION: f64 = 0.02;
const LINK_COLOR: [f64; 3] = [0.85, 0.55, 0.2];
/// A link in contact: blue, apart from the other links' orange and the contacts' red.
const TOUCHING_LINK_COLOR: [f64; 3] = [0.35, 0.55, 0.95];
const FIXTURE_COLOR: [f64; 3] = [0.45, 0.7, 0.5];

/// A robot, the bundled files of its cell and path, and the picture's file name.
pub(crate) struct RobotPath<'a> {
    /// What the printed line calls the robot ("the KUKA").
    pub name: &'a str,
    /// The robot, its links made of the geometry it was read with.
    pub robot: Robot,
    /// Its SRDF, whose disabled pairs are never checked.
    pub srdf: Option<Srdf>,
    /// The fixtures: a scene file under the assets folder.
    pub cell: &'a str,
    /// The path: a configurations file under the assets folder.
    pub configs: &'a str,
    /// The picture's file name in the output folder.
    pub picture: &'a str,
}

impl RobotPath<'_> {
    /// Checks the path, prints a line about its first contact (an error if it has none: the
    /// bundled files are made to meet), and writes the picture into `out_dir` (its path is
    /// returned).
    pub(crate) fn first_contact_picture(
        self,
        assets: &Path,
        quick: bool,
        out_dir: &Path,
        out: &mut impl Write,
    ) -> Result<PathBuf, Error> {
        let fail = |e: &dyn std::fmt::Display| Error::Message(e.to_string());
        let cell = SceneSpec::read(&assets.join(self.cell))?;
        let path: ConfigsFile = read_json(&assets.join(self.configs), "configs")?;
        let mut scene = with_srdf(with_fixtures(self.robot, Some(&cell))?, self.srdf.as_ref())?;
        let start = Instant::now();
        let first = scene
            .check_path(&path.configs, RESOLUTION)
            .map_err(|e| fail(&e))?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let Some(first) = first else {
            return Err(Error::Message(format!(
                "the bundled path of {} no longer meets {}",
                self.name, self.cell
            )));
        };
        scene
            .set_configuration(&first.configuration)
            .map_err(|e| fail(&e))?;
        writeln!(
            out,
            "robot: {} along {} path configurations among {} fixtures (resolution {RESOLUTION} rad): \
             first contact at checked configuration {}, {}; {ms:.2} ms",
            self.name,
            path.configs.len(),
            cell.objects.len(),
            first.index,
            touching_names(&scene, &first.contacts)
        )?;
        let shapes = shapes_with_contacts(&scene, &first.contacts)?;
        let side = if quick { 160 } else { 480 };
        let framed: Vec<Shape<Obb>> = shapes
            .iter()
            .filter(|s| s.color != FIXTURE_COLOR || !s.highlight.is_empty())
            .cloned()
            .collect();
        let camera = side_view(&render::world_bounds(&framed), side);
        let file = out_dir.join(self.picture);
        let rgb = render::render(&shapes, &camera, &indicatif::ProgressBar::hidden())?;
        render::write_png(&file, camera.width, camera.height, &rgb)?;
        Ok(file)
    }
}

/// The KUKA's path: see the module documentation; writes `robot_path.png`.
pub(crate) fn path_picture(
    assets: &Path,
    quick: bool,
    out_dir: &Path,
    out: &mut impl Write,
) -> Result<PathBuf, Error> {
    let robot = Robot::from_file(assets.join("kuka_iiwa/model.urdf"))
        .map_err(|e| Error::Message(e.to_string()))?;
    RobotPath {
        name: "the KUKA",
        robot,
        srdf: None,
        cell: "scenes/cell.json",
        configs: "scenes/kuka_configs.json",
        picture: "robot_path.png",
    }
    .first_contact_picture(assets, quick, out_dir, out)
}

/// A camera on `bounds` from the front, right and a little above, `+z` up (the robot's
/// frame), far enough that the box's bounding sphere fits.
fn side_view(bounds: &Aabb, side: u32) -> Camera {
    let center = nalgebra::center(&bounds.mins, &bounds.maxs);
    let radius = ((bounds.maxs - bounds.mins).norm() * 0.5).max(f64::MIN_POSITIVE);
    let fov_y = 40f64.to_radians();
    let distance = radius / (fov_y * 0.5).sin() * 1.05;
    let eye = center + Vector::new(0.6, -1.0, 0.45).normalize() * distance;
    Camera::look_at(
        &eye,
        &center,
        &Vector::z(),
        fov_y,
        (distance - radius) * 0.5,
        distance + 2.0 * radius,
        side,
        side,
    )
}

/// "link – object" for every colliding pair.
fn touching_names(scene: &RobotScene<Obb>, contacts: &RobotContacts) -> String {
    let link = |l: usize| scene.robot().links[l].name.as_str();
    let selfish = contacts
        .self_collisions
        .iter()
        .map(|&[a, b]| format!("{} – {}", link(a), link(b)));
    let environment = contacts
        .environment
        .iter()
        .map(|&(l, id)| format!("{} – {}", link(l), scene.scene().name(id)));
    selfish.chain(environment).collect::<Vec<_>>().join(", ")
}

/// Every object of the robot scene as drawn ([`drawing`]): links in their colour (the links
/// in contact in theirs, so that a contact hidden behind its link still shows which link it
/// is), fixtures in theirs, and where each colliding pair touches highlighted
/// ([`highlight_contact`]).
fn shapes_with_contacts(
    scene: &RobotScene<Obb>,
    contacts: &RobotContacts,
) -> Result<Vec<Shape<Obb>>, Error> {
    let objects = scene.scene();
    let touching: HashSet<usize> = contacts
        .self_collisions
        .iter()
        .flatten()
        .copied()
        .chain(contacts.environment.iter().map(|&(link, _)| link))
        .collect();
    let mut drawn: Vec<(ObjectId, Shape<Obb>)> = Vec::new();
    for (id, object) in objects.objects() {
        let color = match scene.link_of(id) {
            Some(link) if touching.contains(&link) => TOUCHING_LINK_COLOR,
            Some(_) => LINK_COLOR,
            None => FIXTURE_COLOR,
        };
        if let Some(shape) = drawing(object, color)? {
            drawn.push((id, shape));
        }
    }
    for (a, b) in element_pairs(scene, contacts) {
        let (Some(oa), Some(ob)) = (objects.get(a), objects.get(b)) else {
            continue;
        };
        let exact = collide_all(oa.model(), oa.pose(), ob.model(), ob.pose())?;
        for (id, own, other, side) in [(a, oa, ob, 0), (b, ob, oa, 1)] {
            if let Some((_, shape)) = drawn.iter_mut().find(|(x, _)| *x == id) {
                let features = exact.pairs.iter().map(|p| p[side]);
                highlight_contact(shape, own, features, other)?;
            }
        }
    }
    Ok(drawn.into_iter().map(|(_, shape)| shape).collect())
}

/// Every pair of scene objects (a link's meshes and primitives, fixtures) of the colliding
/// link pairs and link–fixture pairs.
fn element_pairs(scene: &RobotScene<Obb>, contacts: &RobotContacts) -> Vec<(ObjectId, ObjectId)> {
    let objects = scene.scene();
    let of_link = |l: usize| -> Vec<ObjectId> {
        objects
            .objects()
            .filter(|(id, _)| scene.link_of(*id) == Some(l))
            .map(|(id, _)| id)
            .collect()
    };
    contacts
        .self_collisions
        .iter()
        .flat_map(|&[a, b]| {
            let bs = of_link(b);
            of_link(a)
                .into_iter()
                .flat_map(move |x| bs.clone().into_iter().map(move |y| (x, y)))
        })
        .chain(
            contacts
                .environment
                .iter()
                .flat_map(|&(l, fixture)| of_link(l).into_iter().map(move |x| (x, fixture))),
        )
        .collect()
}

/// Every intersecting triangle pair (a primitive's one feature is 0), by the exact query.
fn collide_all(
    a: &Model<Obb>,
    pose_a: &Pose,
    b: &Model<Obb>,
    pose_b: &Pose,
) -> Result<CollisionResult, Error> {
    collide(a, pose_a, b, pose_b, &CollisionRequest::new(Mode::All))
        .map_err(|e| Error::Message(e.to_string()))
}

/// What a picture draws for a scene object: a mesh as it is; a primitive as its tessellation
/// ([`shape_mesh`]: rays refuse primitives); nothing for a halfspace.
fn drawing(object: &Object<Obb>, color: [f64; 3]) -> Result<Option<Shape<Obb>>, Error> {
    let model = match object.model().as_shape() {
        None => object.model().clone(),
        Some(primitive) => match shape_mesh(primitive)? {
            Some(mesh) => Model::new(mesh).map_err(|e| Error::Message(e.to_string()))?,
            None => return Ok(None),
        },
    };
    Ok(Some(Shape {
        model,
        pose: *object.pose(),
        color,
        highlight: HashSet::new(),
    }))
}

/// Highlights on `shape`, the drawing of `object`, where `object` touches `other`; `features`
/// are the exact query's features of `object` in that contact (none: they do not touch). A
/// mesh's features are its triangles. A primitive has one feature, so the drawing shows the
/// triangles of its stand-in that touch `other` (the same query on the stand-in, for the
/// picture only), or all of them when none does (the stand-in lies inside the true surface
/// and can miss a grazing contact).
fn highlight_contact(
    shape: &mut Shape<Obb>,
    object: &Object<Obb>,
    mut features: impl Iterator<Item = u32>,
    other: &Object<Obb>,
) -> Result<(), Error> {
    let Some(first) = features.next() else {
        return Ok(());
    };
    if object.model().as_shape().is_none() {
        shape
            .highlight
            .extend(std::iter::once(first).chain(features));
        return Ok(());
    }
    let near = collide_all(&shape.model, &shape.pose, other.model(), other.pose())?;
    if near.pairs.is_empty() {
        let triangles = crate::mesh_of(&shape.model, "a drawing")?.triangles().len() as u32;
        shape.highlight.extend(0..triangles);
    } else {
        shape.highlight.extend(near.pairs.iter().map(|p| p[0]));
    }
    Ok(())
}
