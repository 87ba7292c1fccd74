//! Pose files: `{"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, …]}`, the pose of mesh B
//! in mesh A's frame, `rotation` a rotation vector (axis × angle in radians). Other keys (such as
//! `meta`) are ignored. Numbers are parsed exactly (serde_json's `float_roundtrip`), and
//! [`obbtree_query::collide::pose_from_rotation_vector`] turns each entry into the matrix form
//! every tool that follows this contract uses.

use obbtree_query::collide::{pose_from_rotation_vector, Pose};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One pose as written in the file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoseEntry {
    /// `t` of `p ↦ R·p + t`.
    pub translation: [f64; 3],
    /// Rotation vector of `R` (axis × angle, radians).
    pub rotation: [f64; 3],
}

#[derive(Deserialize)]
struct PosesFile {
    poses: Vec<PoseEntry>,
}

/// Why a pose file or pose string is unusable.
#[derive(Debug, thiserror::Error)]
pub enum PoseError {
    /// The file cannot be read.
    #[error("cannot read poses file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the expected JSON.
    #[error("malformed poses file {path}: {source} (expected {{\"poses\":[{{\"translation\":[x,y,z],\"rotation\":[rx,ry,rz]}}, ...]}})")]
    Json {
        /// The file.
        path: PathBuf,
        /// What serde_json says, with line and column.
        source: serde_json::Error,
    },
    /// A number of a pose is NaN or infinite.
    #[error("pose {index}: {field}[{component}] is {value}, not a finite number")]
    NonFinite {
        /// Index of the pose (0-based).
        index: usize,
        /// `translation` or `rotation`.
        field: &'static str,
        /// 0, 1 or 2.
        component: usize,
        /// The value.
        value: f64,
    },
    /// A translation component is beyond [`obbtree_bv::MAX_COORDINATE`], where the exact
    /// predicates on the placed triangles could overflow.
    #[error("pose {index}: translation[{component}] is {value:e}, beyond the supported magnitude {max:e}")]
    OutOfRange {
        /// Index of the pose (0-based).
        index: usize,
        /// 0, 1 or 2.
        component: usize,
        /// The value.
        value: f64,
        /// The largest supported magnitude.
        max: f64,
    },
    /// A `--pose` string is not six numbers.
    #[error("--pose needs six numbers \"tx ty tz rx ry rz\", got {0:?}")]
    BadString(String),
}

impl PoseEntry {
    /// The pose, or an error naming the pose `index` and the first non-finite (or, for the
    /// translation, out-of-range) number.
    pub fn to_pose(&self, index: usize) -> Result<Pose, PoseError> {
        for (field, v) in [
            ("translation", self.translation),
            ("rotation", self.rotation),
        ] {
            if let Some(component) = v.iter().position(|x| !x.is_finite()) {
                return Err(PoseError::NonFinite {
                    index,
                    field,
                    component,
                    value: v[component],
                });
            }
        }
        let max = obbtree_bv::MAX_COORDINATE;
        if let Some(component) = self.translation.iter().position(|x| x.abs() > max) {
            let value = self.translation[component];
            return Err(PoseError::OutOfRange {
                index,
                component,
                value,
                max,
            });
        }
        Ok(pose_from_rotation_vector(self.translation, self.rotation))
    }

    /// Parses `"tx ty tz rx ry rz"` (whitespace or commas between the numbers).
    pub fn parse(s: &str) -> Result<Self, PoseError> {
        let v: Vec<f64> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| PoseError::BadString(s.to_owned()))?;
        match v[..] {
            [tx, ty, tz, rx, ry, rz] => Ok(Self {
                translation: [tx, ty, tz],
                rotation: [rx, ry, rz],
            }),
            _ => Err(PoseError::BadString(s.to_owned())),
        }
    }
}

/// Reads a pose file (see the module docs).
pub fn load_poses(path: &Path) -> Result<Vec<Pose>, PoseError> {
    let text = std::fs::read_to_string(path).map_err(|source| PoseError::Read {
        path: path.to_owned(),
        source,
    })?;
    let file: PosesFile = serde_json::from_str(&text).map_err(|source| PoseError::Json {
        path: path.to_owned(),
        source,
    })?;
    file.poses
        .iter()
        .enumerate()
        .map(|(i, p)| p.to_pose(i))
        .collect()
}
