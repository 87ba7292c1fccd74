//! `obbtree ccd --vertex-face FILE.csv | --edge-edge FILE.csv`: exact continuous collision of the
//! primitive pairs of a query file (the benchmark format of Wang et al. 2021), with the time of
//! impact of each hit and the count of disagreements with the file's ground truth; and
//! `obbtree ccd A B --motions MOTIONS.json`: continuous collision of two models, B following
//! each motion (`crate::motions`).

use super::report::emit;
use super::Error;
use crate::ccd_queries::{read_queries, CcdQuery};
use obbtree::bv::ccd::{edge_edge_within, vertex_face_within, Separation, TimeOfImpact};
use obbtree::Point;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Continuous collision over t in [0, 1]: of vertex–face or edge–edge pairs moving linearly
/// (exact, touching counts, the earliest contact time within an interval [lo, hi] at most 1e-12
/// wide), or of two models, B following rigid motions (linear translation, constant angular
/// velocity): exact for two meshes that only translate, otherwise never missing a contact and
/// reporting one only where the models come within the tolerance of each other.
#[derive(Debug, clap::Args)]
#[command(
    group(clap::ArgGroup::new("queries").required(true).args(["vertex_face", "edge_edge", "motions"])),
    after_help = "Examples:\n  obbtree ccd --vertex-face queries.csv\n  obbtree ccd --edge-edge queries.csv --json\n  obbtree ccd assets/bunny.obj box:0.1:0.1:0.1 --motions motions.json --json"
)]
pub struct Args {
    /// Model A (a mesh file or a primitive solid, as for `collide`), with --motions.
    #[arg(value_name = "A", requires = "motions")]
    a: Option<PathBuf>,
    /// Model B, which moves, with --motions.
    #[arg(value_name = "B", requires = "a")]
    b: Option<PathBuf>,
    /// JSON file {"motions":[{"start":POSE, "end":POSE}, ...]}, POSE as in a poses file
    /// ({"translation":[x,y,z],"rotation":[rx,ry,rz]}): B's pose in A's frame at t = 0 and 1.
    #[arg(long, value_name = "MOTIONS.json", requires = "b", conflicts_with_all = ["vertex_face", "edge_edge", "min_separation"])]
    motions: Option<PathBuf>,
    /// With --motions: the distance tolerance of rotating motions and shapes (default 1e-9 of
    /// the larger model's size).
    #[arg(
        long,
        value_name = "D",
        requires = "motions",
        allow_hyphen_values = true
    )]
    tolerance: Option<f64>,
    /// Vertex–face queries: per query 8 rows "x_num,x_den,y_num,y_den,z_num,z_den,truth",
    /// v f0 f1 f2 at t = 0 then at t = 1 (denominators powers of two).
    #[arg(long, value_name = "FILE.csv")]
    vertex_face: Option<PathBuf>,
    /// Edge–edge queries in the same format: a0 a1 b0 b1 at t = 0 then at t = 1.
    #[arg(long, value_name = "FILE.csv")]
    edge_edge: Option<PathBuf>,
    /// Contact when the distance is at most D (exact for the f64 value D; default 0, touching).
    /// The ground truth of column 7 is for D = 0: with D > 0 the summary counts the
    /// ground-truth contacts not reported, which must be none.
    #[arg(
        long,
        value_name = "D",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    min_separation: f64,
    /// Print one JSON object {"queries", "query_total_ms", "results": [{"hit", "toi"}]}.
    #[arg(long)]
    json: bool,
}

/// The JSON report (an interface: other tools compare against it).
#[derive(Serialize)]
struct Report {
    queries: usize,
    query_total_ms: f64,
    results: Vec<QueryResult>,
}

#[derive(Serialize)]
struct QueryResult {
    hit: bool,
    toi: Option<[f64; 2]>,
}

/// The query function of one primitive pair.
type Ccd = fn([Point; 4], [Point; 4], Separation) -> Option<TimeOfImpact>;

/// Reads the file, answers every query and reports.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Error> {
    if let Some(motions) = &args.motions {
        return crate::ccd_motions::run(
            args.a.as_deref(),
            args.b.as_deref(),
            motions,
            args.tolerance,
            args.json,
            out,
        );
    }
    let separation = Separation::new(args.min_separation).ok_or_else(|| {
        Error::Message(format!(
            "--min-separation {}: expected a finite distance of at least 0",
            args.min_separation
        ))
    })?;
    let (path, kind, ccd): (&Path, &str, Ccd) = match (&args.vertex_face, &args.edge_edge) {
        (Some(path), _) => (path, "vertex-face", vertex_face_within),
        (_, Some(path)) => (path, "edge-edge", edge_edge_within),
        (None, None) => unreachable!("clap requires one of --vertex-face, --edge-edge, --motions"),
    };
    let queries = read_queries(path).map_err(|e| Error::Message(e.to_string()))?;
    let (tois, ms) = timed(&queries, |s, e| ccd(s, e, separation));
    let report = Report {
        queries: queries.len(),
        query_total_ms: ms,
        results: tois.iter().map(|t| result(*t)).collect(),
    };
    emit(None, args.json, &report, out, |out| {
        summary(out, kind, separation, &queries, &tois, ms)
    })
}

/// Every query's answer, and the time of all, in milliseconds, after
/// [`super::WARM_UP_QUERIES`] untimed ones.
fn timed(
    queries: &[CcdQuery],
    ccd: impl Fn([Point; 4], [Point; 4]) -> Option<TimeOfImpact>,
) -> (Vec<Option<TimeOfImpact>>, f64) {
    let run = |q: &CcdQuery| ccd(q.start, q.end);
    queries.iter().take(super::WARM_UP_QUERIES).for_each(|q| {
        std::hint::black_box(run(q));
    });
    let start = Instant::now();
    let tois: Vec<_> = queries.iter().map(run).collect();
    (tois, start.elapsed().as_secs_f64() * 1e3)
}

fn result(toi: Option<TimeOfImpact>) -> QueryResult {
    QueryResult {
        hit: toi.is_some(),
        toi: toi.map(|t| [t.lo, t.hi]),
    }
}

/// The counts, and the comparison with the ground truth: every answer with no separation,
/// the contacts only with one (a contact is within any distance `d > 0`).
fn summary(
    out: &mut impl Write,
    kind: &str,
    separation: Separation,
    queries: &[CcdQuery],
    tois: &[Option<TimeOfImpact>],
    ms: f64,
) -> Result<(), Error> {
    let hits = tois.iter().filter(|t| t.is_some()).count();
    let against_truth = queries.iter().zip(tois);
    let per_query = 1e3 * ms / queries.len().max(1) as f64;
    writeln!(out, "{kind} queries: {}", queries.len())?;
    if separation == Separation::ZERO {
        writeln!(out, "hits: {hits}")?;
        let disagreements = against_truth
            .filter(|(q, t)| q.truth != t.is_some())
            .count();
        writeln!(
            out,
            "disagreements with the ground truth (column 7): {disagreements}"
        )?;
    } else {
        writeln!(out, "hits within {}: {hits}", separation.get())?;
        let unreported = against_truth
            .filter(|(q, t)| q.truth && t.is_none())
            .count();
        writeln!(
            out,
            "contacts of the ground truth (column 7) not reported: {unreported}"
        )?;
    }
    writeln!(out, "query time: {ms:.3} ms ({per_query:.3} µs per query)")?;
    Ok(())
}
