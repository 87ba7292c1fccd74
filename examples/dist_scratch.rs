//! Scratch: distance counters (not committed).
use obbtree::bv::Obb;
use obbtree::load::load_mesh;
use obbtree::{counters, distance, DistanceRequest, Model, Pose};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = load_mesh(std::path::Path::new(&args[1])).unwrap();
    let b = load_mesh(std::path::Path::new(&args[2])).unwrap();
    let poses = obbtree_cli::poses::load_poses(std::path::Path::new(&args[3])).unwrap();
    let hints = args.get(4).is_some_and(|s| s == "hints");
    let selfhint = args.get(4).is_some_and(|s| s == "selfhint");
    let (ma, mb) = (Model::<Obb>::new(a).unwrap(), Model::<Obb>::new(b).unwrap());
    let t = Instant::now();
    ma.prepare_distance();
    mb.prepare_distance();
    eprintln!("index {:.1} ms, memory {} B/tri (nodes {})", t.elapsed().as_secs_f64() * 1e3,
        (ma.memory_bytes()) as f64 / ma.mesh().triangles().len() as f64, ma.tree().nodes().len());
    let id = Pose::identity();
    for p in poses.iter().take(10) { distance(&ma, &id, &mb, p, &DistanceRequest::default()).unwrap(); }
    for c in [&counters::NODE_PAIRS, &counters::BOUNDS, &counters::LEAF_PAIRS, &counters::TRI_PAIRS, &counters::TRI_BOX] { c.store(0, Relaxed); }
    for c in &counters::KINDS { c.store(0, Relaxed); }
    for c in &counters::LEVELS { c.store(0, Relaxed); }
    let own: Vec<Option<[u32; 2]>> = poses.iter().map(|p| selfhint.then(|| distance(&ma, &id, &mb, p, &DistanceRequest::default()).unwrap().pair)).collect();
    for c in [&counters::NODE_PAIRS, &counters::BOUNDS, &counters::LEAF_PAIRS, &counters::TRI_PAIRS, &counters::TRI_BOX] { c.store(0, Relaxed); }
    for c in &counters::KINDS { c.store(0, Relaxed); }
    for c in &counters::LEVELS { c.store(0, Relaxed); }
    let t = Instant::now();
    let mut hint = None;
    let mut per: Vec<(f64, usize, f64)> = Vec::new();
    let reps: usize = std::env::var("REPS").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    for _ in 0..reps {
    for (k, p) in poses.iter().enumerate() {
        if selfhint { hint = own[k]; }
        let before = counters::NODE_PAIRS.load(Relaxed);
        let tq = Instant::now();
        let r = distance(&ma, &id, &mb, p, &DistanceRequest::default().with_hint(hint)).unwrap();
        per.push((tq.elapsed().as_secs_f64() * 1e6, counters::NODE_PAIRS.load(Relaxed) - before, r.distance));
        if hints { hint = Some(r.pair); }
    }
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let n = (poses.len() * reps) as f64;
    println!("{:.1} ms; per query: node pairs {:.0}, bounds {:.0}, leaf pairs {:.0}, tri box {:.0}, tri pairs {:.0}", ms,
        counters::NODE_PAIRS.load(Relaxed) as f64 / n, counters::BOUNDS.load(Relaxed) as f64 / n,
        counters::LEAF_PAIRS.load(Relaxed) as f64 / n, counters::TRI_BOX.load(Relaxed) as f64 / n, counters::TRI_PAIRS.load(Relaxed) as f64 / n);
    per.sort_by(|a, b| a.0.total_cmp(&b.0));
    let m = per.len();
    println!("per query us: min {:.0} p25 {:.0} median {:.0} p75 {:.0} p90 {:.0} max {:.0}; top 5: {:?}", per[0].0, per[m/4].0, per[m/2].0, per[3*m/4].0, per[9*m/10].0, per[m-1].0, &per[m-5..]);
    println!("levels (log2 tris a+b): {:?}", counters::LEVELS.iter().map(|k| (k.load(Relaxed) as f64 / n).round()).collect::<Vec<_>>());
    println!("kinds (int-int, int-leaf, leaf-int, leaf-leaf): {:?}", counters::KINDS.iter().map(|k| k.load(Relaxed) as f64 / n).collect::<Vec<_>>());
}
