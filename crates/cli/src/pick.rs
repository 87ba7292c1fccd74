//! `obbtree pick MESH ...`: cast rays from a file, pick a pixel, render a picture. `MESH` may
//! be a primitive shape (`sphere:R`, `capsule:R:L`, `box:X:Y:Z`, `cylinder:R:L`,
//! `convex:PATH`), picked on its surface (its one feature is 0).

use super::render::{self, Shape};
use super::tree::volume_parser;
use super::Error;
use crate::shape_spec::Input;
use crate::steps::{in_steps, STEP_TIME};
use obbtree::bv::{Aabb, BoundingVolume};
use obbtree::tree::{with_volume, SplitRule, TreeVolume, VolumeKind};
use obbtree::{
    cast_rays_into, BuildOptions, Camera, Model, ModelOptions, Point, Pose, Ray, RayHit, RayIndex,
    RayVolume, TriMesh, Vector,
};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Pick triangles with rays: from a rays file, at a pixel of a camera, or for every pixel of
/// an image (PNG, shaded by normal, the picked triangle highlighted).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  obbtree pick assets/bunny.obj --rays rays.json --json\n  obbtree pick assets/bunny.obj --pixel 320 240 --image bunny.png\n  obbtree pick assets/bunny.obj --camera 0,0.1,0.4,0,0.1,0 --pixel 10 20\n  obbtree pick capsule:0.5:2 --pixel 320 240 --image capsule.png"
)]
pub struct Args {
    /// Mesh file (.obj, .stl, .ply, .off, .dae, each optionally .gz), or a shape:
    /// sphere:R, capsule:R:L or cylinder:R:L (along z), box:X:Y:Z (full sizes), convex:PATH
    /// (hull of a mesh file's vertices).
    #[arg(value_name = "MESH")]
    mesh: PathBuf,
    /// Rays in the mesh's frame: {"rays":[{"origin":[x,y,z],"dir":[dx,dy,dz]}, ...]}.
    #[arg(long, value_name = "RAYS.json")]
    rays: Option<PathBuf>,
    /// Bounding volume of the tree (aabb uses the compact picking layout).
    #[arg(long, value_parser = volume_parser(), default_value = "aabb")]
    bv: VolumeKind,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the JSON report to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Camera as "EX,EY,EZ,TX,TY,TZ[,FOV_DEGREES]" (eye, target; +y up; default field of view
    /// 45°). Default: a camera framing the mesh's bounding box.
    #[arg(long, value_name = "EYE,TARGET[,FOV]")]
    camera: Option<String>,
    /// Pick the triangle under this pixel (column, row from the top-left).
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    pixel: Option<Vec<u32>>,
    /// Render the mesh from the camera (one ray per pixel) into this PNG file.
    #[arg(long, value_name = "OUT.png")]
    image: Option<PathBuf>,
    /// Image size for --pixel and --image.
    #[arg(long, value_name = "WxH", default_value = "640x480")]
    size: String,
}

#[derive(Serialize)]
struct HitOut {
    hit: bool,
    triangle: i64,
    t: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    bv: VolumeKind,
    tris: usize,
    build_ms: f64,
    /// Every query, after [`super::WARM_UP_QUERIES`] untimed ones.
    query_total_ms: f64,
    hits: Vec<HitOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pixel: Option<PixelPick>,
    /// A primitive shape rather than a mesh (the text report says so; `tris` is 0).
    #[serde(skip)]
    shape: bool,
}

#[derive(Serialize)]
struct PixelPick {
    x: u32,
    y: u32,
    hit: Option<RayHit>,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    if args.rays.is_none() && args.pixel.is_none() && args.image.is_none() {
        return Err(Error::Message(
            "nothing to do: give --rays RAYS.json, --pixel X Y or --image OUT.png".into(),
        ));
    }
    let rays = args
        .rays
        .as_deref()
        .map(crate::rays::load_rays)
        .transpose()
        .map_err(|e| Error::Message(e.to_string()))?;
    let input = Input::read(&args.mesh)?;
    // An AABB tree is walked in its compact form; every other tree as it is.
    let index = match args.bv {
        VolumeKind::Aabb => RayIndex::Compact,
        _ => RayIndex::ModelTree,
    };
    with_volume!(args.bv, |V| with_model::<V>(args, out, input, rays, index))
}

/// The model `pick` uses: SAH splits (the AABB default), rays through `index`.
pub(super) fn build<V: TreeVolume>(mesh: TriMesh, index: RayIndex) -> Result<Model<V>, Error> {
    let options = ModelOptions {
        tree: BuildOptions {
            split: SplitRule::Sah,
            ..Default::default()
        },
        rays: index,
    };
    let model = Model::build(mesh, &options)
        .map_err(|e| Error::Message(format!("cannot build the tree: {e}")))?;
    Ok(model)
}

fn with_model<V: TreeVolume + RayVolume>(
    args: &Args,
    out: &mut impl Write,
    input: Input,
    rays: Option<Vec<Ray>>,
    index: RayIndex,
) -> Result<(), Error> {
    let start = Instant::now();
    let model: Model<V> = match input {
        Input::Mesh(mesh) => build(mesh, index)?,
        Input::Shape(shape) => Model::from_shape(shape),
    };
    model.prepare_rays();
    finish(args, out, &model, start, rays)
}

fn finish<V: RayVolume>(
    args: &Args,
    out: &mut impl Write,
    model: &Model<V>,
    start: Instant,
    rays: Option<Vec<Ray>>,
) -> Result<(), Error> {
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let (query_total_ms, hits) = match &rays {
        Some(rays) => cast_batch(args, model, rays)?,
        None => (0.0, Vec::new()),
    };
    let camera = camera(args, model)?;
    let pixel = match args.pixel.as_deref() {
        Some(&[x, y]) => Some(pick_at(model, &camera, x, y)?),
        _ => None,
    };
    if let Some(path) = &args.image {
        let picked = pixel.as_ref().and_then(|p| p.hit.map(|h| h.triangle));
        write_image(path, model, &camera, picked, args.json)?;
    }
    let report = Report {
        bv: args.bv,
        tris: model.mesh().map_or(0, |mesh| mesh.triangles().len()),
        build_ms,
        query_total_ms,
        hits: hits
            .iter()
            .map(|h| HitOut {
                hit: h.is_some(),
                triangle: h.map_or(-1, |(triangle, _)| i64::from(triangle)),
                t: h.map(|(_, t)| t),
            })
            .collect(),
        pixel,
        shape: model.as_shape().is_some(),
    };
    if let Some(path) = &args.out {
        let file = std::fs::File::create(path)
            .map_err(|e| Error::Message(format!("{}: cannot write: {e}", path.display())))?;
        serde_json::to_writer(std::io::BufWriter::new(file), &report)?;
    }
    if args.json {
        serde_json::to_writer(&mut *out, &report)?;
        writeln!(out)?;
        return Ok(());
    }
    print_report(args, &report, rays.is_some(), out)
}

/// Rays cast in [`cast_batch`]'s first step; later steps grow with the pace
/// ([`super::steps`]). The result buffer is reused from one step to the next, growing with
/// them, so it is allocated a few times per batch rather than once per step.
const FIRST_STEP_RAYS: usize = 4096;

/// A ray's first hit as (triangle, t), if any.
type FirstHit = Option<(u32, f64)>;

/// Every ray of the file, after [`super::WARM_UP_QUERIES`] untimed ones, in steps through one
/// reused buffer: the query time (ms) and each ray's first hit as (triangle, t).
fn cast_batch<V: RayVolume>(
    args: &Args,
    model: &Model<V>,
    rays: &[Ray],
) -> Result<(f64, Vec<FirstHit>), Error> {
    let pose = Pose::identity();
    let mut buffer = Vec::with_capacity(FIRST_STEP_RAYS);
    let warm_up = &rays[..rays.len().min(super::WARM_UP_QUERIES)];
    // Errors are reported by the timed run below.
    let _ = cast_rays_into(model, &pose, warm_up, f64::INFINITY, &mut buffer);
    let refused = |offset: usize| {
        move |e: obbtree::BatchError| {
            let file = args
                .rays
                .as_deref()
                .unwrap_or(std::path::Path::new("--rays"));
            Error::Message(format!(
                "{}: ray {}: {}",
                file.display(),
                offset + e.index,
                e.source
            ))
        }
    };
    // The answers' array is made (its pages touched) before the clock starts, as the anchors'
    // harnesses make theirs: the time is the queries'.
    let mut hits: Vec<FirstHit> = vec![None; rays.len()];
    let start = Instant::now();
    in_steps::<Error>(rays.len(), FIRST_STEP_RAYS, STEP_TIME, |step| {
        cast_rays_into(
            model,
            &pose,
            &rays[step.clone()],
            f64::INFINITY,
            &mut buffer,
        )
        .map_err(refused(step.start))?;
        for (answer, hit) in hits[step].iter_mut().zip(&buffer) {
            *answer = hit.map(|h| (h.triangle, h.t));
        }
        Ok(())
    })?;
    Ok((start.elapsed().as_secs_f64() * 1e3, hits))
}

/// The first hit under pixel `(x, y)` of `camera`.
fn pick_at<V: RayVolume>(
    model: &Model<V>,
    camera: &Camera,
    x: u32,
    y: u32,
) -> Result<PixelPick, Error> {
    let hit = obbtree::pick_pixel(model, &Pose::identity(), camera, x, y)
        .map_err(|e| Error::Message(format!("--pixel {x} {y}: {e}")))?;
    Ok(PixelPick { x, y, hit })
}

/// Renders the mesh seen by `camera` into the PNG file `path`, `picked` in red, with a
/// progress bar on a terminal.
fn write_image<V: RayVolume>(
    path: &std::path::Path,
    model: &Model<V>,
    camera: &Camera,
    picked: Option<u32>,
    quiet: bool,
) -> Result<(), Error> {
    let shape = Shape {
        model: model.clone(),
        pose: Pose::identity(),
        color: [0.8, 0.8, 0.85],
        highlight: picked.into_iter().collect(),
    };
    let progress = render::progress(camera.height, quiet);
    let rgb = render::render(std::slice::from_ref(&shape), camera, &progress)?;
    progress.finish_and_clear();
    render::write_png(path, camera.width, camera.height, &rgb)
}

/// Rays listed one by one in the text report when there are at most this many.
const RAYS_LISTED: usize = 20;

/// The text report: the tree, the rays (each listed when there are few), the pixel, the image.
fn print_report(
    args: &Args,
    report: &Report,
    had_rays: bool,
    out: &mut impl Write,
) -> Result<(), Error> {
    if report.shape {
        writeln!(
            out,
            "{}: a primitive shape, picked on its surface",
            args.mesh.display()
        )?;
    } else {
        writeln!(
            out,
            "{} triangles, {:?} tree built in {:.1} ms",
            report.tris, args.bv, report.build_ms
        )?;
    }
    if had_rays {
        print_rays(&report.hits, report.query_total_ms, out)?;
    }
    if let Some(p) = &report.pixel {
        match &p.hit {
            Some(h) => writeln!(
                out,
                "pixel ({}, {}): triangle {} at t = {:.6}, point {:?}, normal {:?}, {} face",
                p.x,
                p.y,
                h.triangle,
                h.t,
                h.point.coords.as_slice(),
                h.normal.as_slice(),
                if h.front_face { "front" } else { "back" }
            )?,
            None => writeln!(out, "pixel ({}, {}): nothing", p.x, p.y)?,
        }
    }
    if let Some(path) = &args.image {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// Each ray's triangle and `t` (the first [`RAYS_LISTED`]), then the totals.
fn print_rays(hits: &[HitOut], query_total_ms: f64, out: &mut impl Write) -> Result<(), Error> {
    for (i, h) in hits.iter().take(RAYS_LISTED).enumerate() {
        match h.t {
            Some(t) => writeln!(out, "  ray {i}: triangle {} at t = {t}", h.triangle)?,
            None => writeln!(out, "  ray {i}: no hit")?,
        }
    }
    if hits.len() > RAYS_LISTED {
        writeln!(
            out,
            "  ... ({} more; --json lists every ray)",
            hits.len() - RAYS_LISTED
        )?;
    }
    let hit = hits.iter().filter(|h| h.hit).count();
    writeln!(
        out,
        "{}, {}, {query_total_ms:.1} ms ({:.0} rays/s)",
        super::collide::counted(hits.len(), "ray", "rays"),
        super::collide::counted(hit, "hit", "hits"),
        hits.len() as f64 / (query_total_ms * 1e-3).max(1e-9)
    )?;
    Ok(())
}

/// Most pixels an image may have (8192 × 8192): a picture's RGB bytes stay within 192 MiB.
const MAX_PIXELS: u64 = 1 << 26;

/// `--size WxH`: two positive integers, at most [`MAX_PIXELS`] pixels in all.
fn size(args: &Args) -> Result<(u32, u32), Error> {
    let bad = |why: String| Error::Message(format!("--size {}: {why}", args.size));
    let (w, h) = args
        .size
        .split_once(['x', 'X'])
        .ok_or_else(|| bad("expected WxH, two whole numbers such as 640x480".into()))?;
    let number = |s: &str| {
        s.trim().parse::<u32>().map_err(|_| {
            bad(format!(
                "{s:?} is not a whole number of pixels (e.g. 640x480)"
            ))
        })
    };
    let (w, h) = (number(w)?, number(h)?);
    if w == 0 || h == 0 {
        return Err(bad(
            "the width and the height must be at least 1 pixel".into()
        ));
    }
    let pixels = u64::from(w) * u64::from(h);
    if pixels > MAX_PIXELS {
        return Err(bad(format!(
            "{pixels} pixels is more than the {MAX_PIXELS} (8192x8192) an image may have"
        )));
    }
    Ok((w, h))
}

/// The camera of `--camera`, or one framing the model's box (a mesh's vertices, a shape's
/// box).
fn camera<V>(args: &Args, model: &Model<V>) -> Result<Camera, Error> {
    let (w, h) = size(args)?;
    let bounds = match model.mesh() {
        Some(mesh) => Aabb::from_points(mesh.vertices()),
        None => *model.bounds(),
    };
    let Some(spec) = &args.camera else {
        return Ok(Camera::framing(&bounds, w, h));
    };
    let bad = |why: &str| Error::Message(format!("--camera {spec}: {why}"));
    let v: Vec<f64> = spec
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("expected numbers EX,EY,EZ,TX,TY,TZ[,FOV]"))?;
    if !(v.len() == 6 || v.len() == 7) || v.iter().any(|x| !x.is_finite()) {
        return Err(bad(
            "expected 6 or 7 finite numbers EX,EY,EZ,TX,TY,TZ[,FOV]",
        ));
    }
    let (eye, target) = (Point::new(v[0], v[1], v[2]), Point::new(v[3], v[4], v[5]));
    let fov = v.get(6).copied().unwrap_or(45.0);
    if eye == target || !(fov > 0.0 && fov < 180.0) {
        return Err(bad("the eye must differ from the target and 0 < FOV < 180"));
    }
    let dir = (target - eye).normalize();
    let up = if dir.cross(&Vector::y()).norm() < 1e-6 {
        Vector::z()
    } else {
        Vector::y()
    };
    let reach = (eye - bounds.center()).norm() + (bounds.maxs - bounds.mins).norm();
    Ok(Camera::look_at(
        &eye,
        &target,
        &up,
        fov.to_radians(),
        reach * 1e-4,
        reach,
        w,
        h,
    ))
}
