//! `obbtree compare A B [--poses POSES.json | --random N] [--mode first|all] [--json]`: the same
//! collision queries through obbtree and parry3d-f64 in one process; agreement (every differing
//! pair judged by the exact triangle–triangle predicate) and speed. With `--distance`, the mesh
//! distance instead ([`super::compare_distance`]); with `--rays RAYS.json MESH`, picking
//! ([`super::compare_rays`]).

use super::{Error, ModeArg};
use crate::poses::load_poses;
use obbtree::bv::intersect::tri_tri_exact;
use obbtree::bv::{Obb, TriMesh, Triangle};
use obbtree::load::load_mesh;
use obbtree::{collide, CollisionRequest, Mode, Model, Pose};
use obbtree_compare as parry;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Run the same queries through obbtree and parry3d-f64 in one process: collision of A and B
/// over poses, their distance (with --distance), or (with --rays) picking on MESH; report
/// agreement and speed.
///
/// Each pair or ray on which the two disagree is re-checked exactly (obbtree's exact
/// triangle–triangle predicate on B's vertices placed in f64; for rays, exact rational
/// orientation tests on both triangles) and labelled with whose answer is wrong.
#[derive(Debug, clap::Args)]
#[command(
    override_usage = "obbtree compare A B [--poses POSES.json | --random N] [--mode first|all | --distance] [--json]\n       obbtree compare --rays RAYS.json MESH [--json]",
    after_help = "Examples:\n  obbtree compare assets/bunny.obj assets/bunny.obj --random 200        # collision, random poses\n  obbtree compare A.obj B.obj --poses poses.json --mode first --json    # collision, given poses\n  obbtree compare --rays rays.json assets/bunny.obj                     # picking"
)]
pub struct Args {
    /// Mesh A (.obj, .stl, .ply, .off, .dae, each optionally .gz); with --rays, the MESH to pick on.
    #[arg(value_name = "A|MESH")]
    a: PathBuf,
    /// Mesh B, placed by each pose in A's frame (not with --rays).
    #[arg(value_name = "B", required_unless_present = "rays")]
    b: Option<PathBuf>,
    /// Compare picking instead of collision: rays in MESH's frame, as for `obbtree pick`:
    /// {"rays":[{"origin":[x,y,z],"dir":[dx,dy,dz]}, ...]}.
    #[arg(long, value_name = "RAYS.json", conflicts_with_all = ["b", "poses", "random", "mode", "seed"])]
    rays: Option<PathBuf>,
    /// JSON file {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, ...]}.
    #[arg(long, value_name = "POSES.json", conflicts_with = "random")]
    poses: Option<PathBuf>,
    /// N random poses, B's centre in A's box (the default: 100).
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// Seed of the random poses.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Compare the distance between the meshes instead of collision: a pose where the two
    /// differ beyond parry's tolerance is checked exactly (obbtree's pair, and every pair within
    /// parry's distance) and the wrong answer named.
    #[arg(long, conflicts_with_all = ["rays", "mode"])]
    distance: bool,
    /// `first`: compare yes/no answers; `all`: compare every intersecting pair.
    #[arg(long, value_enum, default_value_t = ModeArg::All)]
    mode: ModeArg,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    poses: usize,
    mode: ModeArg,
    agreeing_poses: usize,
    differences: Vec<Difference>,
    build_ms: Speed,
    query_median_us: Speed,
}

/// One timing of both libraries.
#[derive(Clone, Serialize)]
pub(super) struct Speed {
    obbtree: f64,
    parry: f64,
    /// parry / obbtree: above 1, obbtree is faster.
    ratio: f64,
}

impl Speed {
    pub(super) fn new(obbtree: f64, parry: f64) -> Self {
        Self {
            obbtree,
            parry,
            ratio: parry / obbtree.max(f64::MIN_POSITIVE),
        }
    }
}

/// A pair one library reports and the other does not, or a yes/no on which they differ.
#[derive(Serialize)]
struct Difference {
    pose: usize,
    pair: [u32; 2],
    reported_by: &'static str,
    exact_intersects: bool,
    verdict: String,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let b = match (&args.rays, &args.b) {
        (Some(rays), _) => return super::compare_rays::run(&args.a, rays, args.json, out),
        (None, Some(b)) => b,
        (None, None) => unreachable!("clap requires B without --rays"),
    };
    let both = Both::build(load_mesh(&args.a)?, load_mesh(b)?)?;
    let poses = match &args.poses {
        Some(path) => load_poses(path).map_err(|e| Error::Message(e.to_string()))?,
        None => random_poses(&both.a, &both.b, args.random.unwrap_or(100), args.seed)?,
    };
    if poses.is_empty() {
        return Err(Error::Message(
            "no poses to compare: give --random N with N > 0 or a non-empty --poses file".into(),
        ));
    }
    if args.distance {
        let built = super::compare_distance::Built {
            a: &both.a,
            b: &both.b,
            mesh_a: &both.mesh_a,
            mesh_b: &both.mesh_b,
            pa: &both.pa,
            pb: &both.pb,
            build_ms: both.build_ms.clone(),
        };
        return super::compare_distance::run(built, &poses, args.json, out);
    }
    let report = both.collide_poses(&poses, args.mode)?;
    if args.json {
        let text = serde_json::to_string(&report)?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    summary(&report, out)
}

/// Both meshes in both libraries, and the build times.
struct Both {
    a: Model<Obb>,
    b: Model<Obb>,
    mesh_a: Arc<TriMesh>,
    mesh_b: Arc<TriMesh>,
    pa: parry3d_f64::shape::TriMesh,
    pb: parry3d_f64::shape::TriMesh,
    build_ms: Speed,
}

impl Both {
    fn build(a: TriMesh, b: TriMesh) -> Result<Self, Error> {
        let start = Instant::now();
        let build = |m: Arc<TriMesh>| {
            Model::<Obb>::new(m).map_err(|e| Error::Message(format!("cannot build the tree: {e}")))
        };
        let (mesh_a, mesh_b) = (Arc::new(a), Arc::new(b));
        let (ma, mb) = (build(Arc::clone(&mesh_a))?, build(Arc::clone(&mesh_b))?);
        let ours_build = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let refused = |e: parry3d_f64::shape::TriMeshBuilderError| {
            Error::Message(format!("parry3d-f64 refuses the mesh: {e}"))
        };
        let (pa, pb) = (
            parry::trimesh(&mesh_a).map_err(refused)?,
            parry::trimesh(&mesh_b).map_err(refused)?,
        );
        let parry_build = start.elapsed().as_secs_f64() * 1e3;
        Ok(Self {
            a: ma,
            b: mb,
            mesh_a,
            mesh_b,
            pa,
            pb,
            build_ms: Speed::new(ours_build, parry_build),
        })
    }

    /// Every pose through both libraries, timed, each difference judged exactly.
    fn collide_poses(&self, poses: &[Pose], mode: ModeArg) -> Result<Report, Error> {
        let first = matches!(mode, ModeArg::First);
        let request = CollisionRequest::new(if first { Mode::First } else { Mode::All });
        let (mut ours_us, mut parry_us) = (Vec::new(), Vec::new());
        let mut differences = Vec::new();
        let mut agreeing = 0;
        for (index, pose) in poses.iter().enumerate() {
            let start = Instant::now();
            let ours = collide(&self.a, &Pose::identity(), &self.b, pose, &request)
                .map_err(|e| Error::Message(format!("pose {index}: {e}")))?;
            ours_us.push(start.elapsed().as_secs_f64() * 1e6);
            let start = Instant::now();
            let theirs = parry::pairs(&self.pa, &self.pb, &parry::pose(pose), first);
            parry_us.push(start.elapsed().as_secs_f64() * 1e6);
            let found = self.differences(index, pose, ours.pairs, theirs, first);
            agreeing += usize::from(found.is_empty());
            differences.extend(found);
        }
        Ok(Report {
            poses: poses.len(),
            mode,
            agreeing_poses: agreeing,
            differences,
            build_ms: self.build_ms.clone(),
            query_median_us: Speed::new(median(&mut ours_us), median(&mut parry_us)),
        })
    }

    /// Where the two answers at one pose differ: with `first`, the witness of the library that
    /// found contact when the other did not; otherwise every pair only one of them reports.
    fn differences(
        &self,
        index: usize,
        pose: &Pose,
        ours: Vec<[u32; 2]>,
        theirs: Vec<[u32; 2]>,
        first: bool,
    ) -> Vec<Difference> {
        let judge = |pair: [u32; 2], by: &'static str| self.judge(index, pose, pair, by);
        if first {
            return match (ours.first(), theirs.first()) {
                (Some(p), None) => vec![judge(*p, "obbtree")],
                (None, Some(p)) => vec![judge(*p, "parry")],
                _ => Vec::new(),
            };
        }
        let ours: BTreeSet<[u32; 2]> = ours.into_iter().collect();
        let theirs: BTreeSet<[u32; 2]> = theirs.into_iter().collect();
        let only_ours = ours.difference(&theirs).map(|p| judge(*p, "obbtree"));
        only_ours
            .chain(theirs.difference(&ours).map(|p| judge(*p, "parry")))
            .collect()
    }

    /// A pair reported `by` one library only, decided by the exact predicate.
    fn judge(&self, index: usize, pose: &Pose, pair: [u32; 2], by: &'static str) -> Difference {
        let (a, b) = (&self.mesh_a, &self.mesh_b);
        let tb = b.triangle(pair[1] as usize);
        let placed = Triangle::new(
            pose.transform_point(&tb.a),
            pose.transform_point(&tb.b),
            pose.transform_point(&tb.c),
        );
        let exact = tri_tri_exact::intersects(&a.triangle(pair[0] as usize), &placed);
        let (wrong, claim) = match (by, exact) {
            (_, false) => (by, "reports a pair the exact predicate calls disjoint"),
            ("obbtree", true) => (
                "parry",
                "misses a pair the exact predicate calls intersecting",
            ),
            _ => (
                "obbtree",
                "misses a pair the exact predicate calls intersecting",
            ),
        };
        Difference {
            pose: index,
            pair,
            reported_by: by,
            exact_intersects: exact,
            verdict: format!("{wrong}: {claim}"),
        }
    }
}

/// The readable report: agreement, speed, the first differences.
fn summary(report: &Report, out: &mut impl Write) -> Result<(), Error> {
    writeln!(
        out,
        "{} poses, mode {:?}: {} agree, {} differing pairs",
        report.poses,
        report.mode,
        report.agreeing_poses,
        report.differences.len()
    )?;
    speed_table(
        out,
        &[
            ("build (ms)", &report.build_ms),
            ("query median (µs)", &report.query_median_us),
        ],
    )?;
    list(out, &report.differences, 20, |d| {
        format!("pose {} pair {:?}: {}", d.pose, d.pair, d.verdict)
    })
}

/// The first `max` of `items`, one indented line each, then how many more `--json` lists.
pub(super) fn list<T>(
    out: &mut impl Write,
    items: &[T],
    max: usize,
    line: impl Fn(&T) -> String,
) -> Result<(), Error> {
    for item in items.iter().take(max) {
        writeln!(out, "  {}", line(item))?;
    }
    if items.len() > max {
        writeln!(out, "  … {} more (see --json)", items.len() - max)?;
    }
    Ok(())
}

/// The timings as a table: one row per `(name, speed)`, a column per library and the ratio.
pub(super) fn speed_table(out: &mut impl Write, rows: &[(&str, &Speed)]) -> Result<(), Error> {
    writeln!(
        out,
        "{}",
        console::style(format!(
            "{:<20} {:>12} {:>12} {:>14}",
            "", "obbtree", "parry3d-f64", "parry/obbtree"
        ))
        .bold()
    )?;
    for (name, s) in rows {
        writeln!(
            out,
            "{name:<20} {:>12.2} {:>12.2} {:>13.2}×",
            s.obbtree, s.parry, s.ratio
        )?;
    }
    Ok(())
}

/// The median (upper middle) of non-empty `v`.
pub(super) fn median(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `n` poses of B with random rotation and B's centre uniform in A's box grown by a tenth of B's diagonal.
fn random_poses(a: &Model<Obb>, b: &Model<Obb>, n: usize, seed: u64) -> Result<Vec<Pose>, Error> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let (ba, bb) = (a.bounds(), b.bounds());
    let cb = nalgebra::center(&bb.mins, &bb.maxs);
    let grow = 0.1 * (bb.maxs - bb.mins).norm();
    (0..n)
        .map(|_| {
            let rotation = [0; 3].map(|_| rng.gen_range(-1.8..1.8));
            let r = nalgebra::Rotation3::new(rotation.into());
            let target: [f64; 3] =
                std::array::from_fn(|k| rng.gen_range(ba.mins[k] - grow..=ba.maxs[k] + grow));
            let t = nalgebra::Vector3::from(target) - r * cb.coords;
            Pose::new(t, rotation).map_err(|e| Error::Message(format!("random pose: {e}")))
        })
        .collect()
}
