//! `obbtree scene SCENE.json [--frames FRAMES.json] [--margin D] [--min-distance]`: which
//! objects of a scene touch, in how many triangle pairs, at the scene's poses and after each
//! frame of moves; with a margin, which are within it at the scene's poses, and how far apart;
//! with `--min-distance`, the closest pair of objects at the scene's poses and after each frame.
//!
//! `SCENE.json` is `{"objects":[{"name","mesh","pose":{"translation","rotation"}}, …],
//! "allow":[["name","name"], …]}`: mesh paths relative to the scene file, world poses
//! (`p' = R·p + t`, `R` of the rotation vector). `FRAMES.json` is `{"frames":[{"name": pose,
//! …}, …]}`, each frame the new poses of the objects that move in it. Objects naming the same
//! mesh file share one model. The JSON report (the contract other tools' harnesses mirror) is
//! `{"objects", "build_ms", "query_total_ms", "contacts":[{"a","b","pairs"}], "frames":
//! [{"contacts"}]}`: each touching pair once, `a < b` by name, sorted, `pairs` the number of
//! distinct intersecting triangle pairs. `--margin D` adds `"within":[{"a","b","distance"}]`
//! for the scene's poses: each pair at most `D` apart (decided exactly), once, `a < b` by name,
//! sorted, with its distance. `--min-distance` adds `"closest":{"a","b","distance"}` (or
//! `null` when no pair is admitted) at the top level and in each frame entry, `a < b` by name,
//! and `"closest_total_ms"`: the closest-pair queries alone, a part of `query_total_ms`
//! (`build_ms` then includes every model's distance index).

use super::report::emit;
use super::Error;
use crate::collide::counted;
use crate::poses::PoseEntry;
use crate::report::counting_bar;
use crate::shape_spec::ShapeSpec;
use obbtree::bv::Obb;
use obbtree::load::load_mesh;
use obbtree::scene::{ObjectContact, ObjectDistance, ObjectId, Scene};
use obbtree::{CollisionRequest, Mode, Model, Pose, QueryError, Shape, TriMesh};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Which objects of a scene touch, at its poses and after each frame of moves.
///
/// Every pair of objects whose bounds meet runs the exact mesh–mesh query (touching counts);
/// pairs listed in "allow" are never checked. Between frames, pairs of objects that did not
/// move keep their answer. With --margin, the pairs at most D apart at the scene's poses
/// (decided exactly), with their distances. With --min-distance, the closest pair of objects
/// at the scene's poses and after each frame.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree scene scene.json\n  obbtree scene scene.json --json --out contacts.json\n  obbtree scene scene.json --frames frames.json --json\n  obbtree scene scene.json --margin 0.01 --json\n  obbtree scene scene.json --frames frames.json --min-distance --json\n\nSCENE.json: {\"objects\":[{\"name\":\"a\",\"mesh\":\"meshes/bunny.obj\",\"pose\":{\"translation\":[x,y,z],\"rotation\":[rx,ry,rz]}}, ...], \"allow\":[[\"a\",\"b\"], ...]}\nFRAMES.json: {\"frames\":[{\"a\":{\"translation\":[x,y,z],\"rotation\":[rx,ry,rz]}, ...}, ...]}"
)]
pub struct Args {
    /// The scene: objects (name, mesh path relative to this file, world pose) and allowed pairs.
    #[arg(value_name = "SCENE.json")]
    scene: PathBuf,
    /// Frames of moves: in each, the new poses of the objects that move.
    #[arg(long, value_name = "FRAMES.json")]
    frames: Option<PathBuf>,
    /// Also list the object pairs at most D apart at the scene's poses, with their distances.
    #[arg(long, value_name = "D", allow_hyphen_values = true)]
    margin: Option<f64>,
    /// Also report the closest pair of objects, and its distance, at the scene's poses and
    /// after each frame.
    #[arg(long)]
    min_distance: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also write the JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// A scene file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    objects: Vec<ObjectEntry>,
    #[serde(default)]
    allow: Vec<[String; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectEntry {
    name: String,
    /// A mesh file, or else:
    mesh: Option<PathBuf>,
    /// A primitive shape.
    shape: Option<ShapeSpec>,
    #[serde(default = "unmoved")]
    pose: PoseEntry,
}

fn unmoved() -> PoseEntry {
    PoseEntry {
        translation: [0.0; 3],
        rotation: [0.0; 3],
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FramesFile {
    frames: Vec<BTreeMap<String, PoseEntry>>,
}

/// What an object of a scene file is made of.
pub(crate) enum Body {
    /// The mesh of this index into [`SceneSpec::meshes`].
    Mesh(usize),
    /// A primitive shape.
    Shape(Shape),
}

/// A scene file read and checked, its meshes loaded (once per distinct file), nothing built.
pub(crate) struct SceneSpec {
    /// The scene file.
    pub path: PathBuf,
    /// Each object: name, body, pose.
    pub objects: Vec<(String, Body, Pose)>,
    /// The distinct mesh files and their meshes.
    pub meshes: Vec<(PathBuf, TriMesh)>,
    /// Allowed pairs, by name.
    pub allow: Vec<[String; 2]>,
}

impl SceneSpec {
    /// Reads `path` and every mesh it names; errors name the file and the object.
    pub(crate) fn read(path: &Path) -> Result<Self, Error> {
        let file: SceneFile = read_json(path, "objects")?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut meshes: Vec<(PathBuf, TriMesh)> = Vec::new();
        let mut by_file: HashMap<PathBuf, usize> = HashMap::new();
        let mut objects = Vec::with_capacity(file.objects.len());
        for (index, entry) in file.objects.iter().enumerate() {
            let at = |e: &dyn std::fmt::Display| {
                Error::Message(format!(
                    "{}: objects[{index}] ({:?}): {e}",
                    path.display(),
                    entry.name
                ))
            };
            let pose = entry_pose(&entry.pose).map_err(|e| at(&e))?;
            let body = match (&entry.mesh, &entry.shape) {
                (Some(mesh), None) => {
                    let mesh_path = dir.join(mesh);
                    Body::Mesh(match by_file.get(&mesh_path) {
                        Some(&k) => k,
                        None => {
                            let mesh = load_mesh(&mesh_path).map_err(|e| at(&e))?;
                            meshes.push((mesh_path.clone(), mesh));
                            by_file.insert(mesh_path, meshes.len() - 1);
                            meshes.len() - 1
                        }
                    })
                }
                (None, Some(shape)) => Body::Shape(shape.shape(dir).map_err(|e| at(&e))?),
                _ => return Err(at(&"give either \"mesh\" or \"shape\"")),
            };
            objects.push((entry.name.clone(), body, pose));
        }
        Ok(Self {
            path: path.to_path_buf(),
            objects,
            meshes,
            allow: file.allow,
        })
    }

    /// Builds one model per mesh and inserts every object into `scene` (object `i` named as
    /// in the file), then the allowed pairs; errors name the file and the entry.
    pub(crate) fn build_into(&self, scene: &mut Scene<Obb>) -> Result<Vec<ObjectId>, Error> {
        let models = self.models()?;
        let mut ids = Vec::with_capacity(self.objects.len());
        for (index, (name, body, pose)) in self.objects.iter().enumerate() {
            let id = scene
                .insert(name.clone(), self.model(&models, body), *pose)
                .map_err(|e| self.error(format!("objects[{index}]: {e}")))?;
            ids.push(id);
        }
        for (index, [a, b]) in self.allow.iter().enumerate() {
            scene
                .allow_names(a, b)
                .map_err(|e| self.error(format!("allow[{index}]: {e}")))?;
        }
        Ok(ids)
    }

    /// One model per mesh file, in the order of `meshes`; an error names the file.
    pub(crate) fn models(&self) -> Result<Vec<Model>, Error> {
        self.meshes
            .iter()
            .map(|(file, mesh)| {
                Model::new(mesh.clone()).map_err(|e| {
                    Error::Message(format!("{}: cannot build the tree: {e}", file.display()))
                })
            })
            .collect()
    }

    /// The model of an object's `body`, given the models of [`SceneSpec::models`].
    pub(crate) fn model(&self, models: &[Model], body: &Body) -> Model {
        match body {
            Body::Mesh(k) => models[*k].clone(),
            Body::Shape(shape) => Model::from_shape(shape.clone()),
        }
    }

    /// An error about `what` in this scene file, naming the file.
    pub(crate) fn error(&self, what: String) -> Error {
        Error::Message(format!("{}: {what}", self.path.display()))
    }
}

/// A pose entry as a pose; the message without the pose index of pose files.
fn entry_pose(entry: &PoseEntry) -> Result<Pose, String> {
    entry.to_pose(0).map_err(|e| {
        let text = e.to_string();
        text.strip_prefix("pose 0: ").unwrap_or(&text).to_string()
    })
}

/// Reads the JSON file `path` whose top-level object has the list `key`; errors say what is
/// wrong in words (JSON has no NaN or infinity: such a number is named as the reason).
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    key: &str,
) -> Result<T, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Message(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        let non_number = ["NaN", "nan", "Infinity", "inf"]
            .iter()
            .find(|word| text.contains(*word));
        let why = match non_number {
            Some(word) => {
                format!("{e} ({word:?} is not a JSON number: every value must be a finite number)")
            }
            None => match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(serde_json::Value::Object(map)) if !map.contains_key(key) => {
                    format!("the top-level object has no {key:?} list")
                }
                Ok(serde_json::Value::Object(_)) | Err(_) => e.to_string(),
                Ok(_) => format!("the file must hold an object {{\"{key}\": [...]}}"),
            },
        };
        Error::Message(format!("{}: {why}", path.display()))
    })
}

/// One frame's moves, names resolved.
type Moves = Vec<(ObjectId, Pose)>;

/// Reads the frames file, every name and pose checked against the scene.
fn read_frames(path: &Path, scene: &Scene<Obb>) -> Result<Vec<Moves>, Error> {
    let file: FramesFile = read_json(path, "frames")?;
    file.frames
        .iter()
        .enumerate()
        .map(|(k, frame)| {
            frame
                .iter()
                .map(|(name, entry)| {
                    let at = |e: &dyn std::fmt::Display| {
                        Error::Message(format!("{}: frame {k}: {e}", path.display()))
                    };
                    let id = scene.lookup(name).map_err(|e| at(&e))?;
                    let pose = entry_pose(entry).map_err(|e| at(&format!("{name:?}: {e}")))?;
                    Ok((id, pose))
                })
                .collect()
        })
        .collect()
}

/// One touching pair in the report.
#[derive(Serialize)]
struct ContactEntry {
    a: String,
    b: String,
    pairs: usize,
}

/// One pair and its distance in the report: within the margin, or the closest.
#[derive(Serialize)]
struct DistanceEntry {
    a: String,
    b: String,
    distance: f64,
}

#[derive(Serialize)]
struct FrameEntry {
    contacts: Vec<ContactEntry>,
    /// With --min-distance: the closest pair, `null` when no pair is admitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    closest: Option<Option<DistanceEntry>>,
}

/// The JSON report (the contract of the module docs).
#[derive(Serialize)]
struct Report {
    objects: usize,
    build_ms: f64,
    query_total_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    closest_total_ms: Option<f64>,
    contacts: Vec<ContactEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    closest: Option<Option<DistanceEntry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    within: Option<Vec<DistanceEntry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    frames: Option<Vec<FrameEntry>>,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    if let Some(d) = args.margin.filter(|d| !(d.is_finite() && *d >= 0.0)) {
        return Err(Error::Message(format!(
            "--margin: {}",
            QueryError::InvalidMargin(d)
        )));
    }
    let spec = SceneSpec::read(&args.scene)?;
    let start = Instant::now();
    let mut scene = Scene::new();
    spec.build_into(&mut scene)?;
    if args.min_distance {
        prepare_distance(&scene);
    }
    let build_ms = ms(start);
    let frames = match &args.frames {
        Some(path) => Some(read_frames(path, &scene)?),
        None => None,
    };
    let request = CollisionRequest::new(Mode::All);
    warm_up(&scene, &request, args.min_distance)?;
    let timed = timed_queries(args, &spec, &mut scene, frames.as_deref(), &request)?;
    let entries = |contacts: &[ObjectContact]| -> Vec<ContactEntry> {
        contacts
            .iter()
            .map(|c| ContactEntry {
                a: scene.name(c.a).to_string(),
                b: scene.name(c.b).to_string(),
                pairs: c.result.pairs.len(),
            })
            .collect()
    };
    let closest = |step: &Step| step.closest.map(|c| c.map(|d| distance_entry(&scene, &d)));
    let report = Report {
        objects: scene.len(),
        build_ms,
        query_total_ms: timed.query_total_ms,
        closest_total_ms: timed.closest_total_ms,
        contacts: entries(&timed.loaded.contacts),
        closest: closest(&timed.loaded),
        within: timed
            .within
            .as_deref()
            .map(|w| w.iter().map(|d| distance_entry(&scene, d)).collect()),
        frames: frames.as_ref().map(|_| {
            timed
                .per_frame
                .iter()
                .map(|step| FrameEntry {
                    contacts: entries(&step.contacts),
                    closest: closest(step),
                })
                .collect()
        }),
    };
    emit(args.out.as_deref(), args.json, &report, out, |out| {
        summary(&spec, &report, args.margin, out)
    })
}

/// Builds every model's distance index now, under `build_ms` (as other engines build theirs
/// with their trees), rather than in the first frame that measures one of its objects.
fn prepare_distance(scene: &Scene<Obb>) {
    for (_, object) in scene.objects() {
        object.model().prepare_distance();
    }
}

/// What one step of the timed queries found: the touching pairs and, with --min-distance,
/// the closest pair (inside, `None` when no pair is admitted).
struct Step {
    contacts: Vec<ObjectContact>,
    closest: Option<Option<ObjectDistance>>,
}

/// What the timed queries found, at the scene's poses and after each frame, and their times.
struct Timed {
    loaded: Step,
    within: Option<Vec<ObjectDistance>>,
    per_frame: Vec<Step>,
    query_total_ms: f64,
    /// With --min-distance: the closest-pair queries alone.
    closest_total_ms: Option<f64>,
}

/// The scene's poses queried, then every frame's moves applied and queried, under the clock.
fn timed_queries(
    args: &Args,
    spec: &SceneSpec,
    scene: &mut Scene<Obb>,
    frames: Option<&[Moves]>,
    request: &CollisionRequest,
) -> Result<Timed, Error> {
    let progress = counting_bar(
        frames.map_or(0, <[Moves]>::len),
        "frames",
        "",
        20,
        args.json,
    );
    let mut closest_time = Duration::ZERO;
    let start = Instant::now();
    let mut query = |scene: &mut Scene<Obb>, moves: &[(ObjectId, Pose)]| {
        step(scene, moves, request, args.min_distance, &mut closest_time)
    };
    let loaded = query(scene, &[]).map_err(scene_error(spec))?;
    let within = args
        .margin
        .map(|d| scene.within_margin_all(d))
        .transpose()
        .map_err(scene_error(spec))?;
    let mut per_frame = Vec::new();
    for (k, moves) in frames.into_iter().flatten().enumerate() {
        let in_frame = |e: obbtree::SceneError| {
            let file = args.frames.as_deref().unwrap_or(&args.scene);
            Error::Message(format!("{}: frame {k}: {e}", file.display()))
        };
        per_frame.push(query(scene, moves).map_err(in_frame)?);
        progress.inc(1);
    }
    let query_total_ms = ms(start);
    progress.finish_and_clear();
    Ok(Timed {
        loaded,
        within,
        per_frame,
        query_total_ms,
        closest_total_ms: args
            .min_distance
            .then_some(closest_time.as_secs_f64() * 1e3),
    })
}

/// One step of the timed queries: moves the objects, finds the touching pairs and, with
/// `min_distance`, the closest pair, adding that query's time to `closest_time`.
fn step(
    scene: &mut Scene<Obb>,
    moves: &[(ObjectId, Pose)],
    request: &CollisionRequest,
    min_distance: bool,
    closest_time: &mut Duration,
) -> Result<Step, obbtree::SceneError> {
    let contacts = scene.frame(moves, request)?;
    if !min_distance {
        return Ok(Step {
            contacts,
            closest: None,
        });
    }
    let start = Instant::now();
    let closest = scene.min_distance()?;
    *closest_time += start.elapsed();
    Ok(Step {
        contacts,
        closest: Some(closest),
    })
}

/// Queries run untimed before the clock starts (as the other harnesses do), each on a copy
/// of the scene so that the timed queries start cold: what is warmed is the caches and the
/// threads, not the scene's records. With `min_distance`, the closest-pair query too.
fn warm_up(
    scene: &Scene<Obb>,
    request: &CollisionRequest,
    min_distance: bool,
) -> Result<(), Error> {
    let fail = |e: obbtree::SceneError| Error::Message(e.to_string());
    for _ in 0..super::WARM_UP_QUERIES.min(3) {
        let mut copy = scene.clone();
        copy.collide_all(request).map_err(fail)?;
        if min_distance {
            copy.min_distance().map_err(fail)?;
        }
    }
    Ok(())
}

fn scene_error(spec: &SceneSpec) -> impl Fn(obbtree::SceneError) -> Error + '_ {
    move |e| Error::Message(format!("{}: {e}", spec.path.display()))
}

/// A pair and its distance, by name.
fn distance_entry(scene: &Scene<Obb>, d: &ObjectDistance) -> DistanceEntry {
    DistanceEntry {
        a: scene.name(d.a).to_string(),
        b: scene.name(d.b).to_string(),
        distance: d.distance,
    }
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// Touching pairs listed one per line when there are at most this many.
const LIST_MAX: usize = 20;

/// One frame's touching object pairs on one line, or "nothing touches".
fn touching_pairs(contacts: &[ContactEntry]) -> String {
    if contacts.is_empty() {
        return "nothing touches".into();
    }
    let pairs: Vec<String> = contacts
        .iter()
        .map(|c| {
            format!(
                "{} — {} ({})",
                c.a,
                c.b,
                counted(c.pairs, "triangle pair", "triangle pairs")
            )
        })
        .collect();
    pairs.join(", ")
}

/// The closest pair as "a — b, d apart", or "none (no pair is checked)".
fn closest_pair(closest: &Option<DistanceEntry>) -> String {
    match closest {
        Some(c) => format!("{} — {}, {} apart", c.a, c.b, c.distance),
        None => "none (no pair is checked)".into(),
    }
}

fn summary(
    spec: &SceneSpec,
    r: &Report,
    margin: Option<f64>,
    out: &mut impl Write,
) -> Result<(), Error> {
    writeln!(
        out,
        "scene {}: {} sharing {}, built in {:.1} ms",
        spec.path.display(),
        counted(r.objects, "object", "objects"),
        counted(spec.meshes.len(), "mesh", "meshes"),
        r.build_ms
    )?;
    let pairs: usize = r.contacts.iter().map(|c| c.pairs).sum();
    writeln!(
        out,
        "at the scene's poses: {} touching ({})",
        counted(r.contacts.len(), "object pair", "object pairs"),
        counted(pairs, "triangle pair", "triangle pairs")
    )?;
    if r.contacts.len() <= LIST_MAX {
        for c in &r.contacts {
            writeln!(
                out,
                "  {} — {}: {}",
                c.a,
                c.b,
                counted(c.pairs, "triangle pair", "triangle pairs")
            )?;
        }
    }
    if let Some(closest) = &r.closest {
        writeln!(out, "closest pair: {}", closest_pair(closest))?;
    }
    if let (Some(within), Some(margin)) = (&r.within, margin) {
        writeln!(
            out,
            "within {margin}: {}",
            counted(within.len(), "object pair", "object pairs")
        )?;
        if within.len() <= LIST_MAX {
            for w in within {
                writeln!(out, "  {} — {}: {}", w.a, w.b, w.distance)?;
            }
        }
    }
    match &r.frames {
        Some(frames) => {
            let touching: usize = frames.iter().map(|f| f.contacts.len()).sum();
            writeln!(
                out,
                "{}: {:.1} touching object pairs per frame on average",
                counted(frames.len(), "frame", "frames"),
                touching as f64 / frames.len().max(1) as f64
            )?;
            if frames.len() <= LIST_MAX {
                for (k, frame) in frames.iter().enumerate() {
                    write!(out, "  frame {k}: {}", touching_pairs(&frame.contacts))?;
                    match &frame.closest {
                        Some(closest) => writeln!(out, "; closest {}", closest_pair(closest))?,
                        None => writeln!(out)?,
                    }
                }
            }
            writeln!(
                out,
                "queries (the scene's poses and every frame, moves included): {:.2} ms, {:.3} ms per frame",
                r.query_total_ms,
                r.query_total_ms / (frames.len() + 1) as f64
            )?;
        }
        None => writeln!(out, "query: {:.2} ms", r.query_total_ms)?,
    }
    Ok(())
}
