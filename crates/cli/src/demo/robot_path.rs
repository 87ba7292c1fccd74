//! The demo's robot path: the KUKA iiwa along the bundled path (`assets/scenes/kuka_configs.json`,
//! interpolated) among the bundled cell's fixtures (`assets/scenes/cell.json`), the first
//! configuration in contact found by `RobotScene::check_path`, and a picture of it with the
//! touching triangles of every colliding pair in red.

use crate::render::{self, Shape};
use crate::robot::{with_fixtures, ConfigsFile};
use crate::scene::{read_json, SceneSpec};
use crate::Error;
use obbtree::bv::{Aabb, Obb};
use obbtree::scene::ObjectId;
use obbtree::urdf::{Robot, RobotContacts, RobotScene};
use obbtree::{collide, Camera, CollisionRequest, Mode, Vector};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The largest step of any joint between checked configurations (radians).
const RESOLUTION: f64 = 0.02;
const LINK_COLOR: [f64; 3] = [0.85, 0.55, 0.2];
const FIXTURE_COLOR: [f64; 3] = [0.45, 0.7, 0.5];

/// Checks the path, prints a line about its first contact, and writes `robot_path.png` into
/// `out_dir` (its path is returned).
pub(crate) fn path_picture(
    assets: &Path,
    quick: bool,
    out_dir: &Path,
    out: &mut impl Write,
) -> Result<PathBuf, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(e.to_string());
    let robot = Robot::from_file(assets.join("kuka_iiwa/model.urdf")).map_err(|e| fail(&e))?;
    let cell = SceneSpec::read(&assets.join("scenes/cell.json"))?;
    let path: ConfigsFile = read_json(&assets.join("scenes/kuka_configs.json"), "configs")?;
    let mut scene = with_fixtures(robot, Some(&cell))?;
    let start = Instant::now();
    let first = scene
        .check_path(&path.configs, RESOLUTION)
        .map_err(|e| fail(&e))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let Some(first) = first else {
        return Err(Error::Message(
            "the bundled KUKA path no longer meets the cell".into(),
        ));
    };
    scene
        .set_configuration(&first.configuration)
        .map_err(|e| fail(&e))?;
    writeln!(
        out,
        "robot: the KUKA along {} path configurations among {} fixtures (resolution {RESOLUTION} rad): \
         first contact at checked configuration {}, {}; {ms:.2} ms",
        path.configs.len(),
        cell.objects.len(),
        first.index,
        touching_names(&scene, &first.contacts)
    )?;
    let shapes = shapes_with_contacts(&scene, &first.contacts)?;
    let side = if quick { 160 } else { 480 };
    let framed: Vec<Shape<Obb>> = shapes
        .iter()
        .filter(|s| s.color == LINK_COLOR || !s.highlight.is_empty())
        .cloned()
        .collect();
    let camera = side_view(&render::world_bounds(&framed), side);
    let file = out_dir.join("robot_path.png");
    let rgb = render::render(&shapes, &camera, &indicatif::ProgressBar::hidden())?;
    render::write_png(&file, camera.width, camera.height, &rgb)?;
    Ok(file)
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

/// Every object of the robot scene as a shape, links and fixtures in their own colours, the
/// triangles of every colliding pair highlighted (found by the exact collision query).
fn shapes_with_contacts(
    scene: &RobotScene<Obb>,
    contacts: &RobotContacts,
) -> Result<Vec<Shape<Obb>>, Error> {
    let objects = scene.scene();
    let of_link = |l: usize| -> Vec<ObjectId> {
        objects
            .objects()
            .filter(|(id, _)| scene.link_of(*id) == Some(l))
            .map(|(id, _)| id)
            .collect()
    };
    let pairs: Vec<(ObjectId, ObjectId)> = contacts
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
        .collect();
    let mut highlight: HashMap<ObjectId, HashSet<u32>> = HashMap::new();
    for (a, b) in pairs {
        let (Some(oa), Some(ob)) = (objects.get(a), objects.get(b)) else {
            continue;
        };
        let result = collide(
            oa.model(),
            oa.pose(),
            ob.model(),
            ob.pose(),
            &CollisionRequest::new(Mode::All),
        )
        .map_err(|e| Error::Message(e.to_string()))?;
        for [ta, tb] in result.pairs {
            highlight.entry(a).or_default().insert(ta);
            highlight.entry(b).or_default().insert(tb);
        }
    }
    Ok(objects
        .objects()
        .map(|(id, object)| Shape {
            model: object.model().clone(),
            pose: *object.pose(),
            color: if scene.link_of(id).is_some() {
                LINK_COLOR
            } else {
                FIXTURE_COLOR
            },
            highlight: highlight.remove(&id).unwrap_or_default(),
        })
        .collect())
}
