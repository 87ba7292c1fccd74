//! `obbtree robot URDF [--package-dir DIR]… [--srdf FILE] [--geometry collision|visual]
//! [--configs CONFIGS.json [--scene SCENE.json] [--allow PAIRS.json] [--path --resolution R |
//! --path --continuous [--tolerance D]]]`:
//! a robot's moving joints, and for each joint configuration which links touch each other
//! (self-collision, links joined by a joint and the SRDF's disabled pairs excluded) and which
//! touch the scene's objects; or, along a path, the first configuration in collision.
//!
//! Links are made of their `<collision>` meshes, or with `--geometry visual` their `<visual>`
//! ones (the bundled KUKA has visual meshes only). `package://NAME/` is looked up in each
//! `--package-dir` in order, then in `ROS_PACKAGE_PATH`, then beside the URDF
//! ([`obbtree::urdf`]). Without `--configs`, the JSON report is `{"robot", "joints":[…],
//! "values":[…], "links":[{"name", "meshes":[file, …]}, …], "pairs_checked"}`: the moving
//! joints (`{"name", "type", "limits"}`) and the names of a configuration's values, in order
//! (`obbtree::urdf::Robot::value_names`), the last the number of link mesh pairs the
//! self-collision check examines.
//!
//! `CONFIGS.json` is `{"configs":[[q1, …, qn], …]}`, each a configuration: the moving joints'
//! values in the order `obbtree robot URDF` lists them, one value for a revolute, continuous
//! or prismatic joint, `x, y, θ` for a planar one, `x, y, z, qx, qy, qz, qw` for a floating
//! one (`obbtree::urdf::configuration`); `PAIRS.json` is `{"allow":[["name","name"], …]}`, link or
//! scene-object names (MoveIt's SRDF "disabled collisions"). The JSON report is
//! `{"joints":[…], "build_ms", "query_total_ms", "results":[{"self":[["link","link"], …],
//! "environment":[["link","object"], …]}, …]}`, pairs sorted by names; with `--path`,
//! `{"joints", "build_ms", "query_total_ms", "checked", "first_collision": index or null,
//! "configuration", "self", "environment"}` (index after interpolation). With `--margin D`,
//! each result adds `"clearance"`: the smallest distance between the pairs checked (links not
//! joined by a joint, links and fixtures), or null when there are none; the summary counts the
//! configurations closer than D. With `--path --margin D`, the path report adds
//! `"first_within_margin"` (the index of the first configuration whose clearance is at most D,
//! or null) and `"clearance"`: `{"index", "distance", "pair":["object","object"],
//! "configuration"}` for the smallest clearance along the path, or null when none is at most
//! D.
//!
//! `--path --continuous [--tolerance D]` checks each segment between consecutive
//! configurations with no resolution (`obbtree::urdf::RobotScene::check_path_continuous`):
//! certified free of contact, or its first contact bracketed. The report is the `--path` one
//! with `"first_collision_t":[lo, hi]` added (null when the path is free): the fractions of the
//! first colliding segment between which its first contact lies; `"first_collision"` is the
//! index in the path of that segment's start configuration, `"configuration"` and the pairs are
//! those at `hi`, and `"checked"` counts the path's configurations up to that start (all of
//! them when the path is free). A pass within D metres of contact (default 1e-6) may be
//! reported as a collision, with the pairs that close.

use super::report::emit;
use super::scene::{read_json, SceneSpec};
use super::Error;
use crate::collide::counted;
use crate::report::counting_bar;
use crate::shape_spec::ShapeSpec;
use obbtree::bv::Obb;
use obbtree::urdf::{
    Geometry, Joint, PathClearance, PathCollision, Robot, RobotContacts, RobotScene, Srdf,
    UrdfOptions, DEFAULT_TOLERANCE,
};
use obbtree::QueryError;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

/// A robot's joints; its self-collision and contacts with a scene at joint configurations, or
/// the first configuration in collision along a path.
///
/// Links are made of their collision meshes (--geometry visual: their visual meshes). Links
/// joined by a joint are never checked against each other; pairs listed with --allow or
/// disabled by --srdf are never checked either. Answers are exact; touching counts.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree robot assets/kuka_iiwa/model.urdf --geometry visual\n  obbtree robot robot.urdf --package-dir ~/ws/src --srdf robot.srdf --json\n  obbtree robot assets/kuka_iiwa/model.urdf --geometry visual --configs configs.json --json\n  obbtree robot assets/kuka_iiwa/model.urdf --geometry visual --configs configs.json --scene scene.json --allow pairs.json\n  obbtree robot assets/kuka_iiwa/model.urdf --geometry visual --configs path.json --scene scene.json --path --resolution 0.01\n  obbtree robot assets/kuka_iiwa/model.urdf --geometry visual --configs path.json --scene scene.json --path --continuous\n\nCONFIGS.json: {\"configs\":[[q1, ..., qn], ...]}: the joints' values in the order `obbtree robot URDF` lists\nthem: one for a revolute, continuous or prismatic joint; x y theta for a planar joint (in the\nplane normal to its axis); x y z qx qy qz qw for a floating joint (translation, unit quaternion)\nPAIRS.json: {\"allow\":[[\"link_a\",\"link_b\"], ...]}"
)]
pub struct Args {
    /// The robot (URDF whose links' geometry is meshes).
    #[arg(value_name = "URDF")]
    urdf: PathBuf,
    /// A directory holding ROS packages: package://NAME/ is DIR/NAME/ (repeatable, tried in
    /// order, before ROS_PACKAGE_PATH).
    #[arg(long = "package-dir", value_name = "DIR")]
    package_dirs: Vec<PathBuf>,
    /// A MoveIt SRDF file: its <disable_collisions> link pairs are never checked.
    #[arg(long, value_name = "FILE")]
    srdf: Option<PathBuf>,
    /// Which elements make up each link.
    #[arg(long, value_enum, default_value_t = GeometryArg::Collision)]
    geometry: GeometryArg,
    /// Joint configurations to check.
    #[arg(long, value_name = "CONFIGS.json")]
    configs: Option<PathBuf>,
    /// Fixtures the links are checked against (obbtree scene's format).
    #[arg(long, value_name = "SCENE.json", requires = "configs")]
    scene: Option<PathBuf>,
    /// Pairs of links (or a link and a scene object) never checked.
    #[arg(long, value_name = "PAIRS.json", requires = "configs")]
    allow: Option<PathBuf>,
    /// Treat the configurations as a path: interpolate between them and report the first
    /// configuration in collision (needs --resolution, or --continuous).
    #[arg(long, requires = "configs")]
    path: bool,
    /// With --path: check each segment between consecutive configurations continuously (no
    /// resolution): certified free of contact, or its first contact bracketed to
    /// "first_collision_t":[lo, hi], fractions of the segment; "first_collision" is then the
    /// index of the segment's start configuration, "configuration" the one at hi.
    #[arg(long, requires = "path", conflicts_with_all = ["resolution", "margin"])]
    continuous: bool,
    /// With --continuous: the tolerance (metres): a pass at most this close to contact may
    /// be reported as a collision.
    #[arg(
        long,
        value_name = "D",
        requires = "continuous",
        allow_hyphen_values = true
    )]
    tolerance: Option<f64>,
    /// With --path: the largest step of any joint value between checked configurations
    /// (radians, or metres for translations), and of any floating joint's turn (radians).
    #[arg(
        long,
        value_name = "R",
        requires = "path",
        allow_negative_numbers = true
    )]
    resolution: Option<f64>,
    /// Also report each configuration's clearance (the smallest distance between the pairs
    /// checked) and count the configurations closer than D; with --path, the first
    /// configuration closer than D and the smallest clearance along the path.
    #[arg(
        long,
        value_name = "D",
        requires = "configs",
        allow_hyphen_values = true
    )]
    margin: Option<f64>,
    /// Take configurations outside the joints' limits as they are (by default a value outside
    /// its joint's limits is an error naming the joint).
    #[arg(long, requires = "configs")]
    ignore_limits: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also write the JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `--geometry`: which elements make up each link.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum GeometryArg {
    /// The <collision> elements.
    Collision,
    /// The <visual> elements.
    Visual,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigsFile {
    pub(crate) configs: Vec<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AllowFile {
    allow: Vec<[String; 2]>,
}

/// A moving joint as listed.
#[derive(Serialize)]
struct JointEntry {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limits: Option<[f64; 2]>,
}

/// What touches at one configuration, by names.
#[derive(Serialize)]
struct ContactsEntry {
    #[serde(rename = "self")]
    self_collisions: Vec<[String; 2]>,
    environment: Vec<[String; 2]>,
    /// With --margin: the smallest distance between the pairs checked (null for none).
    #[serde(skip_serializing_if = "Option::is_none")]
    clearance: Option<Option<f64>>,
}

/// A link as listed: its name and the mesh files it is made of.
#[derive(Serialize)]
struct LinkEntry {
    name: String,
    meshes: Vec<PathBuf>,
    /// Primitive elements, as scene files write shapes.
    shapes: Vec<ShapeSpec>,
}

#[derive(Serialize)]
struct JointsReport {
    robot: String,
    joints: Vec<JointEntry>,
    /// The names of a configuration's values, in order.
    values: Vec<String>,
    links: Vec<LinkEntry>,
    /// Link mesh pairs the self-collision check examines.
    pairs_checked: usize,
}

#[derive(Serialize)]
struct ConfigsReport {
    joints: Vec<String>,
    build_ms: f64,
    query_total_ms: f64,
    results: Vec<ContactsEntry>,
}

#[derive(Serialize)]
struct PathReport {
    joints: Vec<String>,
    build_ms: f64,
    query_total_ms: f64,
    /// Configurations checked (after interpolation), up to the first in collision.
    checked: usize,
    first_collision: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    configuration: Option<Vec<f64>>,
    #[serde(rename = "self", skip_serializing_if = "Option::is_none")]
    self_collisions: Option<Vec<[String; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    environment: Option<Vec<[String; 2]>>,
    /// With --margin: the first configuration within the margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    first_within_margin: Option<Option<usize>>,
    /// With --margin: the smallest clearance along the path, if within the margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    clearance: Option<Option<ClearanceEntry>>,
    /// With --continuous: the bracket `[lo, hi]` of the first contact within its segment.
    #[serde(skip_serializing_if = "Option::is_none")]
    first_collision_t: Option<Option<[f64; 2]>>,
}

/// The smallest clearance along a path, by names.
#[derive(Serialize)]
struct ClearanceEntry {
    index: usize,
    distance: f64,
    pair: [String; 2],
    configuration: Vec<f64>,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    if let Some(dir) = args.package_dirs.iter().find(|d| !d.is_dir()) {
        return Err(Error::Message(format!(
            "--package-dir {}: not a directory",
            dir.display()
        )));
    }
    let options = UrdfOptions {
        package_dirs: args.package_dirs.clone(),
        geometry: match args.geometry {
            GeometryArg::Collision => Geometry::Collision,
            GeometryArg::Visual => Geometry::Visual,
        },
    };
    let robot =
        Robot::from_file_with(&args.urdf, &options).map_err(|e| Error::Message(e.to_string()))?;
    let srdf = args
        .srdf
        .as_deref()
        .map(Srdf::from_file)
        .transpose()
        .map_err(|e| Error::Message(e.to_string()))?;
    let Some(configs_path) = &args.configs else {
        let scene = RobotScene::new(robot).map_err(|e| Error::Message(e.to_string()))?;
        let scene = with_srdf(scene, srdf.as_ref())?;
        return list_joints(args, &scene, out);
    };
    if args.path && !args.continuous && args.resolution.is_none() {
        return Err(Error::Message(
            "--path needs --resolution R, or --continuous".into(),
        ));
    }
    if let Some(t) = args.tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(Error::Message(format!(
            "--tolerance {t}: the tolerance must be a positive finite number of metres"
        )));
    }
    if let Some(r) = args.resolution.filter(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(Error::Message(format!(
            "--resolution {r}: the resolution must be a positive finite number of radians (or metres)"
        )));
    }
    if let Some(d) = args.margin.filter(|d| !(d.is_finite() && *d >= 0.0)) {
        return Err(Error::Message(format!(
            "--margin: {}",
            QueryError::InvalidMargin(d)
        )));
    }
    let configs: ConfigsFile = read_json(configs_path, "configs")?;
    let fixtures = args.scene.as_deref().map(SceneSpec::read).transpose()?;
    let allow: Option<AllowFile> = args
        .allow
        .as_deref()
        .map(|p| read_json(p, "allow"))
        .transpose()?;
    let joints: Vec<String> = robot.moving_joints().map(|j| j.name.clone()).collect();
    let start = Instant::now();
    let mut scene = build(
        robot,
        srdf.as_ref(),
        fixtures.as_ref(),
        allow.as_ref(),
        args,
    )?;
    scene.check_limits(!args.ignore_limits);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let configs_at =
        |e: &dyn std::fmt::Display| Error::Message(format!("{}: {e}", configs_path.display()));
    if args.path && args.continuous {
        return check_continuously(args, &mut scene, &configs.configs, joints, build_ms, out)
            .map_err(|e| configs_at(&e));
    }
    if args.path {
        let resolution = args.resolution.unwrap_or(f64::NAN);
        let start = Instant::now();
        let found = scene
            .check_path_with(&configs.configs, resolution, args.margin)
            .map_err(|e| configs_at(&e))?;
        let query_total_ms = start.elapsed().as_secs_f64() * 1e3;
        let mut report = path_report(&scene, joints, build_ms, query_total_ms, found.collision);
        report.checked = found.checked;
        if args.margin.is_some() {
            report.first_within_margin = Some(found.first_within_margin);
            report.clearance = Some(found.clearance.map(|c| clearance_entry(&scene, c)));
        }
        return emit(args.out.as_deref(), args.json, &report, out, |out| {
            path_summary(args, &report, out)
        });
    }
    let progress = counting_bar(configs.configs.len(), "configurations", "", 50, args.json);
    let start = Instant::now();
    let mut results = Vec::with_capacity(configs.configs.len());
    for (index, q) in configs.configs.iter().enumerate() {
        scene
            .set_configuration(q)
            .map_err(|e| configs_at(&format!("configs[{index}]: {e}")))?;
        let contacts = scene.check().map_err(|e| configs_at(&e))?;
        let mut entry = named(&scene, &contacts);
        if args.margin.is_some() {
            let clearance = scene.clearance().map_err(|e| configs_at(&e))?;
            entry.clearance = Some(clearance.map(|c| c.distance));
        }
        results.push(entry);
        progress.inc(1);
    }
    let query_total_ms = start.elapsed().as_secs_f64() * 1e3;
    progress.finish_and_clear();
    let report = ConfigsReport {
        joints,
        build_ms,
        query_total_ms,
        results,
    };
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        configs_summary(&report, args.margin, out)
    })
}

/// `scene` with the SRDF's disabled pairs allowed.
pub(crate) fn with_srdf(
    mut scene: RobotScene<Obb>,
    srdf: Option<&Srdf>,
) -> Result<RobotScene<Obb>, Error> {
    if let Some(srdf) = srdf {
        scene
            .allow_srdf(srdf)
            .map_err(|e| Error::Message(e.to_string()))?;
    }
    Ok(scene)
}

/// The robot scene: links, the SRDF's disabled pairs, fixtures, allowed pairs.
fn build(
    robot: Robot,
    srdf: Option<&Srdf>,
    fixtures: Option<&SceneSpec>,
    allow: Option<&AllowFile>,
    args: &Args,
) -> Result<RobotScene<Obb>, Error> {
    let mut scene = with_srdf(with_fixtures(robot, fixtures)?, srdf)?;
    if let (Some(file), Some(path)) = (allow, &args.allow) {
        for (index, [a, b]) in file.allow.iter().enumerate() {
            scene
                .allow(a, b)
                .map_err(|e| Error::Message(format!("{}: allow[{index}]: {e}", path.display())))?;
        }
    }
    Ok(scene)
}

/// The robot's links, and the objects and allowed pairs of a scene file as fixtures.
pub(crate) fn with_fixtures(
    robot: Robot,
    fixtures: Option<&SceneSpec>,
) -> Result<RobotScene<Obb>, Error> {
    let mut scene = RobotScene::new(robot).map_err(|e| Error::Message(e.to_string()))?;
    let Some(spec) = fixtures else {
        return Ok(scene);
    };
    let models = spec.models()?;
    for (index, (name, body, pose)) in spec.objects.iter().enumerate() {
        scene
            .add_fixture(name.clone(), spec.model(&models, body), *pose)
            .map_err(|e| spec.error(format!("objects[{index}]: {e}")))?;
    }
    for (index, [a, b]) in spec.allow.iter().enumerate() {
        scene
            .allow(a, b)
            .map_err(|e| spec.error(format!("allow[{index}]: {e}")))?;
    }
    Ok(scene)
}

/// Link and object names of the contacts.
fn named(scene: &RobotScene<Obb>, contacts: &RobotContacts) -> ContactsEntry {
    let link = |l: usize| scene.robot().links[l].name.clone();
    ContactsEntry {
        self_collisions: contacts
            .self_collisions
            .iter()
            .map(|&[a, b]| [link(a), link(b)])
            .collect(),
        environment: contacts
            .environment
            .iter()
            .map(|&(l, id)| [link(l), scene.scene().name(id).to_string()])
            .collect(),
        clearance: None,
    }
}

/// `--path --continuous`: the path's segments checked continuously, reported as `--path`
/// reports, with the first contact's bracket.
fn check_continuously(
    args: &Args,
    scene: &mut RobotScene<Obb>,
    path: &[Vec<f64>],
    joints: Vec<String>,
    build_ms: f64,
    out: &mut impl Write,
) -> Result<(), Error> {
    let tolerance = args.tolerance.unwrap_or(DEFAULT_TOLERANCE);
    let start = Instant::now();
    let found = scene
        .check_path_continuous(path, tolerance)
        .map_err(|e| Error::Message(e.to_string()))?;
    let query_total_ms = start.elapsed().as_secs_f64() * 1e3;
    let bracket = found.collision.as_ref().map(|c| [c.lo, c.hi]);
    let collision = found.collision.map(|c| PathCollision {
        index: c.segment,
        configuration: c.configuration,
        contacts: c.contacts,
    });
    let mut report = path_report(scene, joints, build_ms, query_total_ms, collision);
    report.checked = match bracket {
        Some(_) => report.first_collision.map_or(0, |k| k + 1),
        None => path.len(),
    };
    report.first_collision_t = Some(bracket);
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        path_summary(args, &report, out)
    })
}

fn path_report(
    scene: &RobotScene<Obb>,
    joints: Vec<String>,
    build_ms: f64,
    query_total_ms: f64,
    found: Option<PathCollision>,
) -> PathReport {
    let (first, configuration, contacts) = match found {
        Some(c) => (
            Some(c.index),
            Some(c.configuration),
            Some(named(scene, &c.contacts)),
        ),
        None => (None, None, None),
    };
    let (self_collisions, environment) = match contacts {
        Some(c) => (Some(c.self_collisions), Some(c.environment)),
        None => (None, None),
    };
    PathReport {
        joints,
        build_ms,
        query_total_ms,
        checked: 0,
        first_collision: first,
        configuration,
        self_collisions,
        environment,
        first_within_margin: None,
        clearance: None,
        first_collision_t: None,
    }
}

/// The smallest clearance of a path, by the scene's object names.
fn clearance_entry(scene: &RobotScene<Obb>, c: PathClearance) -> ClearanceEntry {
    let name = |id| scene.scene().name(id).to_string();
    ClearanceEntry {
        index: c.index,
        distance: c.closest.distance,
        pair: [name(c.closest.a), name(c.closest.b)],
        configuration: c.configuration,
    }
}

/// `obbtree robot URDF` alone: the moving joints in the order configurations list them, the
/// links' mesh files, and how many pairs a self-collision check examines.
fn list_joints(args: &Args, scene: &RobotScene<Obb>, out: &mut impl Write) -> Result<(), Error> {
    let robot = scene.robot();
    let report = JointsReport {
        robot: robot.name.clone(),
        joints: robot
            .moving_joints()
            .map(|j| JointEntry {
                name: j.name.clone(),
                kind: j.kind.urdf_type(),
                limits: j.limits.map(|(lo, hi)| [lo, hi]),
            })
            .collect(),
        values: robot.value_names(),
        links: robot
            .links
            .iter()
            .map(|l| LinkEntry {
                name: l.name.clone(),
                meshes: l.meshes.iter().map(|m| m.file.clone()).collect(),
                shapes: l
                    .shapes
                    .iter()
                    .filter_map(|s| ShapeSpec::of(&s.shape))
                    .collect(),
            })
            .collect(),
        pairs_checked: scene.self_pairs_checked(),
    };
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        writeln!(
            out,
            "robot {:?} ({}): {} taking {}, in the order of a configuration:",
            report.robot,
            args.urdf.display(),
            counted(report.joints.len(), "moving joint", "moving joints"),
            counted(report.values.len(), "value", "values")
        )?;
        for (j, (joint, values)) in report.joints.iter().zip(robot.value_ranges()) {
            let limits = j
                .limits
                .map_or(String::new(), |[lo, hi]| format!(" [{lo}, {hi}]"));
            let (at, names) = value_labels(joint, values);
            writeln!(out, "  {at}  {} ({}){limits}{names}", j.name, j.kind)?;
        }
        let meshes: usize = report.links.iter().map(|l| l.meshes.len()).sum();
        let shapes: usize = report.links.iter().map(|l| l.shapes.len()).sum();
        writeln!(
            out,
            "{} geometry: {} and {} on {}; self-collision checks {}",
            robot.geometry,
            counted(meshes, "mesh", "meshes"),
            counted(shapes, "primitive", "primitives"),
            counted(report.links.len(), "link", "links"),
            counted(report.pairs_checked, "pair", "pairs")
        )?;
        Ok(())
    })
}

/// How the listing shows a joint's values (at `values` in a configuration): `q3` for one
/// value; `q1..q7` and `: trans_x … rot_w` for several (numbered from 1; the value names less
/// the joint's).
fn value_labels(joint: &Joint, values: Range<usize>) -> (String, String) {
    let (first, last) = (values.start + 1, values.end);
    if first == last {
        return (format!("q{first}"), String::new());
    }
    let prefix = format!("{}/", joint.name);
    let names = joint.value_names();
    let suffixes: Vec<&str> = names
        .iter()
        .map(|n| n.strip_prefix(&prefix).unwrap_or(n))
        .collect();
    (
        format!("q{first}..q{last}"),
        format!(": {}", suffixes.join(" ")),
    )
}

/// Configurations listed one per line when there are at most this many.
const LIST_MAX: usize = 20;

fn configs_summary(
    r: &ConfigsReport,
    margin: Option<f64>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let colliding = r
        .results
        .iter()
        .filter(|c| !c.self_collisions.is_empty() || !c.environment.is_empty())
        .count();
    writeln!(
        out,
        "{} checked in {:.2} ms (robot built in {:.1} ms): {colliding} in collision",
        counted(r.results.len(), "configuration", "configurations"),
        r.query_total_ms,
        r.build_ms
    )?;
    if let Some(margin) = margin {
        let close = r
            .results
            .iter()
            .filter(|c| c.clearance.flatten().is_some_and(|d| d <= margin))
            .count();
        writeln!(out, "{close} with a clearance of at most {margin}")?;
    }
    if r.results.len() <= LIST_MAX {
        for (k, c) in r.results.iter().enumerate() {
            let clearance = match c.clearance {
                Some(Some(d)) => format!(", clearance {d}"),
                Some(None) => ", no pair to measure".into(),
                None => String::new(),
            };
            writeln!(
                out,
                "  configs[{k}]: {}{clearance}",
                describe(&c.self_collisions, &c.environment)
            )?;
        }
    }
    Ok(())
}

fn path_summary(args: &Args, r: &PathReport, out: &mut dyn Write) -> Result<(), Error> {
    let how = match args.continuous {
        true => format!(
            "continuous, tolerance {}",
            args.tolerance.unwrap_or(DEFAULT_TOLERANCE)
        ),
        false => format!("resolution {}", args.resolution.unwrap_or_default()),
    };
    match r.first_collision {
        None => writeln!(
            out,
            "path clear: {} checked ({how}) in {:.2} ms",
            counted(r.checked, "configuration", "configurations"),
            r.query_total_ms
        )?,
        Some(index) => {
            let position = match r.first_collision_t.flatten() {
                Some([lo, hi]) => format!(
                    "in the segment from configuration {index} of the path, between s = {lo} and {hi}"
                ),
                None => format!("at configuration {index} of the interpolated path"),
            };
            writeln!(
                out,
                "first collision {position} ({how}), found in {:.2} ms: {}",
                r.query_total_ms,
                describe(
                    r.self_collisions.as_deref().unwrap_or_default(),
                    r.environment.as_deref().unwrap_or_default()
                )
            )?;
            if let Some(q) = &r.configuration {
                writeln!(out, "  joint values: {q:?}")?;
            }
        }
    }
    if let Some(margin) = args.margin {
        match (r.first_within_margin.flatten(), r.clearance.as_ref().and_then(Option::as_ref)) {
            (Some(first), Some(c)) => writeln!(
                out,
                "first within {margin} at configuration {first}; smallest clearance {} at configuration {} ({}–{})",
                c.distance, c.index, c.pair[0], c.pair[1]
            )?,
            _ => writeln!(out, "no configuration within {margin}")?,
        }
    }
    Ok(())
}

/// "clear", or the touching pairs in words.
fn describe(selfish: &[[String; 2]], environment: &[[String; 2]]) -> String {
    if selfish.is_empty() && environment.is_empty() {
        return "clear".into();
    }
    let pairs = |list: &[[String; 2]]| {
        list.iter()
            .map(|[a, b]| format!("{a}–{b}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !selfish.is_empty() {
        parts.push(format!("self {}", pairs(selfish)));
    }
    if !environment.is_empty() {
        parts.push(format!("environment {}", pairs(environment)));
    }
    parts.join("; ")
}
