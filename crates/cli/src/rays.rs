//! Ray files: `{"rays":[{"origin":[x,y,z],"dir":[dx,dy,dz]}, …]}`, rays in the mesh's frame
//! (`dir` need not be unit length; hit parameters are in units of it). Other keys are ignored.
//! Numbers are parsed exactly (serde_json's `float_roundtrip`); every ray is checked here, at the
//! boundary, with the same rule as the pick queries ([`obbtree::QueryError::InvalidRay`]): finite
//! origin and direction, non-zero direction.

use obbtree::bv::{Point, Ray, Vector};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct RaysFile {
    rays: Vec<RayEntry>,
}

#[derive(Deserialize)]
struct RayEntry {
    origin: [f64; 3],
    dir: [f64; 3],
}

/// Why a rays file is unusable.
#[derive(Debug, thiserror::Error)]
pub enum RaysError {
    /// The file cannot be read.
    #[error("{path}: cannot read the rays file: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the expected JSON.
    #[error("{path}: not a rays file: {reason} (expected {{\"rays\":[{{\"origin\":[x,y,z],\"dir\":[dx,dy,dz]}}, ...]}})")]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong: the shape of the JSON, or what serde_json says, with line and column.
        reason: String,
    },
    /// A ray has a non-finite number or a zero direction.
    #[error("{path}: ray {index}: {problem}")]
    InvalidRay {
        /// The file.
        path: PathBuf,
        /// Index of the ray (0-based).
        index: usize,
        /// What is wrong, e.g. `dir[1] is NaN` or `dir is zero`.
        problem: String,
    },
}

/// Parses the text of a rays file (`path` only names it in errors).
pub fn rays_from_str(text: &str, path: &Path) -> Result<Vec<Ray>, RaysError> {
    let file: RaysFile = serde_json::from_str(text).map_err(|source| RaysError::Json {
        path: path.to_owned(),
        reason: crate::json_shape::explain(text, "rays", &["origin", "dir"])
            .unwrap_or_else(|| source.to_string()),
    })?;
    file.rays
        .iter()
        .enumerate()
        .map(|(index, r)| {
            let invalid = |problem: String| RaysError::InvalidRay {
                path: path.to_owned(),
                index,
                problem,
            };
            for (field, v) in [("origin", r.origin), ("dir", r.dir)] {
                if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                    return Err(invalid(format!("{field}[{i}] is {}, not finite", v[i])));
                }
            }
            let max = obbtree::bv::MAX_COORDINATE;
            if let Some(i) = r.origin.iter().position(|x| x.abs() > max) {
                return Err(invalid(format!(
                    "origin[{i}] is {:e}, beyond the supported magnitude {max:e}",
                    r.origin[i]
                )));
            }
            if r.dir == [0.0; 3] {
                return Err(invalid("dir is zero".into()));
            }
            Ok(Ray::new(Point::from(r.origin), Vector::from(r.dir)))
        })
        .collect()
}

/// Reads a rays file (see the module docs).
pub fn load_rays(path: &Path) -> Result<Vec<Ray>, RaysError> {
    let text = std::fs::read_to_string(path).map_err(|source| RaysError::Read {
        path: path.to_owned(),
        source,
    })?;
    rays_from_str(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        rays_from_str(text, Path::new("r.json"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn rays_are_checked_at_the_boundary() {
        let rays = rays_from_str(
            r#"{"rays":[{"origin":[1,2,3],"dir":[0,0,-1e-300]}],"meta":1}"#,
            Path::new("r.json"),
        )
        .unwrap();
        assert_eq!(
            rays,
            [Ray::new(
                Point::new(1., 2., 3.),
                Vector::new(0., 0., -1e-300)
            )]
        );
        assert_eq!(
            err(
                r#"{"rays":[{"origin":[0,0,0],"dir":[1,0,0]},{"origin":[0,0,0],"dir":[0,-0.0,0]}]}"#
            ),
            "r.json: ray 1: dir is zero"
        );
        assert!(err(r#"{"rays":[{"origin":[1e999,0,0],"dir":[1,0,0]}]}"#)
            .starts_with("r.json: not a rays file"));
        assert!(err(r#"{"rays":[{"origin":[0,0],"dir":[1,0,0]}]}"#)
            .starts_with("r.json: not a rays file"));
        assert!(load_rays(Path::new("/nonexistent/r.json"))
            .unwrap_err()
            .to_string()
            .contains("cannot read"));
    }
}
