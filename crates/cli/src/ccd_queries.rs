//! The query files of the continuous-collision benchmark of Wang et al. 2021 (`obbtree ccd
//! --vertex-face FILE.csv | --edge-edge FILE.csv`): each query is 8 rows of 7 integers, x, y and
//! z as numerator/denominator pairs (denominators powers of two) and the ground truth (`0` or
//! `1`) in column 7; the rows are the four points at `t = 0`, then at `t = 1`.
//!
//! ```
//! use std::path::Path;
//! let row = |x: i32| format!("{x},1,0,1,1,4,1\n");
//! let text: String = (0..8).map(row).collect();
//! let queries = obbtree_cli::ccd_queries::queries_from_str(&text, Path::new("q.csv")).unwrap();
//! assert_eq!((queries.len(), queries[0].end[0].x, queries[0].start[0].z), (1, 4.0, 0.25));
//! let bad = obbtree_cli::ccd_queries::queries_from_str("1,3,0,1,0,1,0\n", Path::new("q.csv"));
//! assert!(bad.unwrap_err().to_string().contains("q.csv:1"));
//! ```

use obbtree::Point;
use std::path::{Path, PathBuf};

/// One query: the four points at `t = 0` and at `t = 1`, and the file's ground truth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdQuery {
    /// `v, f0, f1, f2` (vertex–face) or `a0, a1, b0, b1` (edge–edge) at `t = 0`.
    pub start: [Point; 4],
    /// The same points at `t = 1`.
    pub end: [Point; 4],
    /// Column 7: whether the primitives meet.
    pub truth: bool,
}

/// What is wrong with a query file, naming the file and (for its content) the line.
#[derive(Debug, thiserror::Error)]
pub enum CcdFileError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not 7 integers as the format says.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The rows do not make whole queries.
    #[error("{path}:{line}: the last query has {left} of its 8 rows ({rows} rows in all, not a multiple of 8)")]
    Rows {
        /// The file.
        path: PathBuf,
        /// The line of the incomplete query's first row.
        line: usize,
        /// How many rows that query has.
        left: usize,
        /// How many rows the file has.
        rows: usize,
    },
}

/// The queries of the file at `path`.
pub fn read_queries(path: &Path) -> Result<Vec<CcdQuery>, CcdFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| CcdFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    queries_from_str(&text, path)
}

/// The queries in `text`, read from `path` (for the error messages). Blank lines are skipped.
pub fn queries_from_str(text: &str, path: &Path) -> Result<Vec<CcdQuery>, CcdFileError> {
    let rows = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let reason = |reason| CcdFileError::Line {
                path: path.to_owned(),
                line: i + 1,
                reason,
            };
            row(l).map(|r| (i + 1, r)).map_err(reason)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let left = rows.len() % 8;
    if left != 0 {
        return Err(CcdFileError::Rows {
            path: path.to_owned(),
            line: rows[rows.len() - left].0,
            left,
            rows: rows.len(),
        });
    }
    Ok(rows.chunks(8).map(query).collect())
}

/// One query from its 8 numbered rows.
fn query(rows: &[(usize, (Point, bool))]) -> CcdQuery {
    let points = |first: usize| std::array::from_fn(|k| rows[first + k].1 .0);
    CcdQuery {
        start: points(0),
        end: points(4),
        truth: rows[0].1 .1,
    }
}

/// One row: a point and the ground truth.
fn row(line: &str) -> Result<(Point, bool), String> {
    let cells: Vec<&str> = line.split(',').map(str::trim).collect();
    if cells.len() != 7 {
        return Err(format!("{} columns, expected 7", cells.len()));
    }
    let coordinate = |k: usize| fraction(cells[2 * k], cells[2 * k + 1]);
    let point = Point::new(coordinate(0)?, coordinate(1)?, coordinate(2)?);
    let truth = match cells[6] {
        "0" => false,
        "1" => true,
        other => return Err(format!("ground truth {other:?} is not 0 or 1")),
    };
    Ok((point, truth))
}

/// `numerator / denominator` as the double it is exactly; an error unless the denominator is
/// a positive power of two and the value a double.
fn fraction(numerator: &str, denominator: &str) -> Result<f64, String> {
    let integer = |s: &str| {
        s.parse::<i128>()
            .map_err(|_| format!("{s:?} is not an integer"))
    };
    let (n, d) = (integer(numerator)?, integer(denominator)?);
    if d <= 0 || !d.unsigned_abs().is_power_of_two() {
        return Err(format!("denominator {d} is not a positive power of two"));
    }
    let exponent = n.trailing_zeros().min(127) as i32 - d.trailing_zeros() as i32;
    let odd = if n == 0 { 0 } else { n >> n.trailing_zeros() };
    let value = scaled(odd as f64, exponent);
    if odd.unsigned_abs() >= 1 << f64::MANTISSA_DIGITS || scaled(value, -exponent) != odd as f64 {
        return Err(format!("{numerator}/{denominator} is not exactly a double"));
    }
    Ok(value)
}

/// `x · 2^exponent`, in two steps so that each factor is a normal double.
fn scaled(x: f64, exponent: i32) -> f64 {
    let half = exponent / 2;
    x * 2f64.powi(half) * 2f64.powi(exponent - half)
}
