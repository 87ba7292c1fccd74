//! Every query of the CCD sample set of Wang et al. 2021 (`tests/data/ccd`, 1,835 vertex–face
//! and 3,049 edge–edge queries with exact ground truth) answered as its ground truth says, and
//! every time of impact an enclosure at most `10⁻¹²` wide.

use obbtree_bv::ccd::{edge_edge, vertex_face, TimeOfImpact};
use obbtree_bv::Point;
use std::path::{Path, PathBuf};

/// One query: the four points at `t = 0`, at `t = 1`, and the ground truth.
type Query = ([Point; 4], [Point; 4], bool);

/// The sets' files of one kind (`vertex-face` or `edge-edge`).
fn files(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ccd");
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.join(format!("{kind}.csv")))
        .collect();
    sets.sort();
    sets
}

/// `numerator / denominator`, the denominator a power of two, as the double it is.
fn value(numerator: &str, denominator: &str) -> f64 {
    let (n, d): (i128, u128) = (numerator.parse().unwrap(), denominator.parse().unwrap());
    assert!(d.is_power_of_two() && n.unsigned_abs() < 1 << 60);
    n as f64 / d as f64
}

/// The queries of one file.
fn queries(path: &Path) -> Vec<Query> {
    let text = std::fs::read_to_string(path).unwrap();
    let rows: Vec<(Point, bool)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let c: Vec<&str> = line.split(',').map(str::trim).collect();
            let point = Point::new(value(c[0], c[1]), value(c[2], c[3]), value(c[4], c[5]));
            (point, c[6] == "1")
        })
        .collect();
    rows.chunks(8)
        .map(|q| {
            let at = |i: usize| std::array::from_fn(|k| q[i + k].0);
            (at(0), at(4), q[0].1)
        })
        .collect()
}

/// Runs `ccd` on every query of `kind` and asserts the ground truth; returns (queries, hits).
fn check(kind: &str, ccd: fn([Point; 4], [Point; 4]) -> Option<TimeOfImpact>) -> (usize, usize) {
    let (mut total, mut hits, mut wrong) = (0, 0, Vec::new());
    for path in files(kind) {
        for (i, (start, end, truth)) in queries(&path).into_iter().enumerate() {
            let toi = ccd(start, end);
            if let Some(t) = toi {
                assert!(0.0 <= t.lo && t.lo <= t.hi && t.hi <= 1.0 && t.hi - t.lo <= 1e-12);
            }
            total += 1;
            hits += usize::from(toi.is_some());
            if toi.is_some() != truth {
                wrong.push(format!(
                    "{} query {i}: truth {truth}, got {toi:?}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} mismatches:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    (total, hits)
}

#[test]
fn vertex_face_queries_match_the_ground_truth() {
    assert_eq!(check("vertex-face", vertex_face), (1835, 121));
}

#[test]
fn edge_edge_queries_match_the_ground_truth() {
    assert_eq!(check("edge-edge", edge_edge), (3049, 104));
}
