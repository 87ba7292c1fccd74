//! `obbtree ccd A B --motions MOTIONS.json [--tolerance D] [--json]`: the first contact of two
//! models, B following each motion of the file (`crate::motions`) with A at the identity.

use super::report::emit;
use super::Error;
use crate::collide::spinner;
use crate::motions::load_motions;
use crate::shape_spec::Input;
use obbtree::{collide_motion, Model, ModelOptions, Motion, MotionRequest, MotionResult, Pose};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The JSON report (an interface: other tools compare against it).
#[derive(Serialize)]
struct Report {
    build_ms: f64,
    query_total_ms: f64,
    results: Vec<MotionAnswer>,
}

#[derive(Serialize)]
struct MotionAnswer {
    hit: bool,
    toi: Option<[f64; 2]>,
    pair: Option<[u32; 2]>,
    #[serde(skip)]
    exact: bool,
}

/// Reads the models and the motions, answers every motion and reports.
pub fn run(
    a: Option<&Path>,
    b: Option<&Path>,
    motions: &Path,
    tolerance: Option<f64>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Error> {
    let (Some(a), Some(b)) = (a, b) else {
        return Err(Error::Message(
            "--motions needs the two models A and B".into(),
        ));
    };
    let request = request(tolerance)?;
    let motions = load_motions(motions).map_err(|e| Error::Message(e.to_string()))?;
    let inputs = [Input::read(a)?, Input::read(b)?];
    let building = spinner(json, "building the trees");
    let start = Instant::now();
    let [ma, mb] = inputs.map(|input| input.model(&ModelOptions::default()));
    let (ma, mb): (Model, Model) = (ma?, mb?);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    building.finish_and_clear();
    let (results, query_total_ms) = timed(&ma, &mb, &motions, &request)?;
    let report = Report {
        build_ms,
        query_total_ms,
        results: results.iter().map(answer).collect(),
    };
    emit(None, json, &report, out, |out| summary(out, &report))
}

/// The request, `--tolerance` checked.
fn request(tolerance: Option<f64>) -> Result<MotionRequest, Error> {
    match tolerance {
        None => Ok(MotionRequest::default()),
        Some(d) if d.is_finite() && d >= 0.0 => Ok(MotionRequest::default().with_tolerance(d)),
        Some(d) => Err(Error::Message(format!(
            "--tolerance {d}: expected a non-negative finite distance"
        ))),
    }
}

/// Every motion's answer, and the time of all (ms) after [`super::WARM_UP_QUERIES`] untimed
/// ones; an error names the motion.
fn timed(
    a: &Model,
    b: &Model,
    motions: &[Motion],
    request: &MotionRequest,
) -> Result<(Vec<MotionResult>, f64), Error> {
    let query = |(i, m): (usize, &Motion)| {
        collide_motion(a, &Pose::identity(), b, m, request)
            .map_err(|e| Error::Message(format!("motion {i}: {e}")))
    };
    for warm in motions.iter().enumerate().take(super::WARM_UP_QUERIES) {
        std::hint::black_box(query(warm)?);
    }
    let start = Instant::now();
    let results = motions
        .iter()
        .enumerate()
        .map(query)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((results, start.elapsed().as_secs_f64() * 1e3))
}

fn answer(r: &MotionResult) -> MotionAnswer {
    MotionAnswer {
        hit: r.hit,
        toi: r.toi,
        pair: r.pair,
        exact: r.exact,
    }
}

fn summary(out: &mut impl Write, report: &Report) -> Result<(), Error> {
    let n = report.results.len();
    let hits = report.results.iter().filter(|r| r.hit).count();
    let exact = report.results.iter().filter(|r| r.exact).count();
    let per = 1e3 * report.query_total_ms / n.max(1) as f64;
    writeln!(out, "motions: {n}")?;
    writeln!(out, "hits: {hits} (decided exactly: {exact} of {n})")?;
    writeln!(out, "build time: {:.3} ms", report.build_ms)?;
    writeln!(
        out,
        "query time: {:.3} ms ({per:.1} µs per motion)",
        report.query_total_ms
    )?;
    Ok(())
}
