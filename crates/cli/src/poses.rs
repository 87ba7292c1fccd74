//! Pose files: `{"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}, …]}`, the pose of mesh B
//! in mesh A's frame, `rotation` a rotation vector (axis × angle in radians). Other keys (such as
//! `meta`) are ignored. Numbers are parsed exactly (serde_json's `float_roundtrip`), and
//! [`Pose::new`] turns each entry into the matrix form every tool that follows this contract
//! uses.
//!
//! Accepted values: finite; translation components `0` or of magnitude in
//! [[`obbtree::bv::MIN_NONZERO_COORDINATE`], [`obbtree::bv::MAX_COORDINATE`]] (the mesh rule, so
//! the exact predicates on placed triangles neither overflow nor underflow because of the
//! translation); rotation-vector components at most `MAX_COORDINATE`. Anything else is refused
//! naming the pose and the component ([`PoseFileError`]).

use obbtree::Pose;
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
pub enum PoseFileError {
    /// The file cannot be read.
    #[error("cannot read poses file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the expected JSON.
    #[error("malformed poses file {path}: {reason} (expected {{\"poses\":[{{\"translation\":[x,y,z],\"rotation\":[rx,ry,rz]}}, ...]}})")]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong: the shape of the JSON, or what serde_json says, with line and column.
        reason: String,
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
    /// A component is beyond [`obbtree::bv::MAX_COORDINATE`]: for the translation, the exact
    /// predicates on the placed triangles could overflow; for the rotation vector, its length
    /// (the angle) could overflow and make the rotation matrix NaN.
    #[error(
        "pose {index}: {field}[{component}] is {value:e}, beyond the supported magnitude {max:e}"
    )]
    OutOfRange {
        /// Index of the pose (0-based).
        index: usize,
        /// `translation` or `rotation`.
        field: &'static str,
        /// 0, 1 or 2.
        component: usize,
        /// The value.
        value: f64,
        /// The largest supported magnitude.
        max: f64,
    },
    /// A translation component is non-zero but below
    /// [`obbtree::bv::MIN_NONZERO_COORDINATE`], the same rule as for mesh coordinates: placed
    /// vertices that small could make the exact predicates underflow.
    #[error(
        "pose {index}: translation[{component}] is {value:e}, below the smallest supported \
         non-zero magnitude {min:e} (use 0)"
    )]
    TooSmall {
        /// Index of the pose (0-based).
        index: usize,
        /// 0, 1 or 2.
        component: usize,
        /// The value.
        value: f64,
        /// The smallest supported non-zero magnitude.
        min: f64,
    },
    /// The pose library refused the pose.
    #[error("pose {index}: {source}")]
    Invalid {
        /// Index of the pose (0-based).
        index: usize,
        /// Why.
        source: obbtree::PoseError,
    },
    /// A `--pose` string is not six numbers.
    #[error("--pose needs six numbers \"tx ty tz rx ry rz\", got {0:?}")]
    BadString(String),
}

impl PoseEntry {
    /// The pose, or an error naming the pose `index` and the first non-finite or out-of-range
    /// (beyond [`obbtree::bv::MAX_COORDINATE`]) number.
    pub fn to_pose(&self, index: usize) -> Result<Pose, PoseFileError> {
        for (field, v) in [
            ("translation", self.translation),
            ("rotation", self.rotation),
        ] {
            if let Some(component) = v.iter().position(|x| !x.is_finite()) {
                return Err(PoseFileError::NonFinite {
                    index,
                    field,
                    component,
                    value: v[component],
                });
            }
        }
        let max = obbtree::bv::MAX_COORDINATE;
        for (field, v) in [
            ("translation", self.translation),
            ("rotation", self.rotation),
        ] {
            if let Some(component) = v.iter().position(|x| x.abs() > max) {
                return Err(PoseFileError::OutOfRange {
                    index,
                    field,
                    component,
                    value: v[component],
                    max,
                });
            }
        }
        let min = obbtree::bv::MIN_NONZERO_COORDINATE;
        let tiny = |x: &f64| *x != 0.0 && x.abs() < min;
        if let Some(component) = self.translation.iter().position(tiny) {
            return Err(PoseFileError::TooSmall {
                index,
                component,
                value: self.translation[component],
                min,
            });
        }
        Pose::new(self.translation, self.rotation)
            .map_err(|source| PoseFileError::Invalid { index, source })
    }

    /// Parses `"tx ty tz rx ry rz"` (whitespace or commas between the numbers).
    pub fn parse(s: &str) -> Result<Self, PoseFileError> {
        let v: Vec<f64> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| PoseFileError::BadString(s.to_owned()))?;
        match v[..] {
            [tx, ty, tz, rx, ry, rz] => Ok(Self {
                translation: [tx, ty, tz],
                rotation: [rx, ry, rz],
            }),
            _ => Err(PoseFileError::BadString(s.to_owned())),
        }
    }
}

/// Reads a pose file (see the module docs).
pub fn load_poses(path: &Path) -> Result<Vec<Pose>, PoseFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| PoseFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    poses_from_str(&text, path)
}

/// Parses the text of a pose file (`path` only names it in errors).
pub fn poses_from_str(text: &str, path: &Path) -> Result<Vec<Pose>, PoseFileError> {
    let file: PosesFile = serde_json::from_str(text).map_err(|source| PoseFileError::Json {
        path: path.to_owned(),
        reason: crate::json_shape::explain(text, "poses", &["translation", "rotation"])
            .unwrap_or_else(|| source.to_string()),
    })?;
    file.poses
        .iter()
        .enumerate()
        .map(|(i, p)| p.to_pose(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `poses_json` fuzz target (`fuzz/corpus/poses_json/seed-huge-rotation`): a
    /// rotation vector of finite components whose length overflows gave a NaN rotation matrix.
    /// Now refused, naming the pose and the component; the limit itself gives a finite rotation.
    #[test]
    fn huge_rotation_vectors_are_refused() {
        let text = r#"{"poses":[{"translation":[0,0,0],"rotation":[0,0,1]},
            {"translation":[0,0,0],"rotation":[1e100,-1e100,1e100]},
            {"translation":[0,0,0],"rotation":[0,1e300,1e300]}]}"#;
        let err = poses_from_str(text, Path::new("p.json")).unwrap_err();
        assert!(
            matches!(
                err,
                PoseFileError::OutOfRange {
                    index: 2,
                    field: "rotation",
                    component: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().starts_with("pose 2: rotation[1] is 1e300"),
            "{err}"
        );
        let limit = PoseEntry {
            translation: [1e100, 0.0, -1e100],
            rotation: [1e100, -1e100, 1e100],
        };
        let pose = limit.to_pose(0).unwrap();
        assert!(pose.rotation().iter().all(|x| x.is_finite()));
    }

    /// Translations follow the mesh rule: 0 or at least `MIN_NONZERO_COORDINATE` in magnitude.
    #[test]
    fn tiny_translations_are_refused() {
        let entry = |t: f64| PoseEntry {
            translation: [0.0, t, 0.0],
            rotation: [0.0, 0.0, 1.0],
        };
        let err = entry(-1e-200).to_pose(3).unwrap_err();
        assert!(
            matches!(
                err,
                PoseFileError::TooSmall {
                    index: 3,
                    component: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err
            .to_string()
            .starts_with("pose 3: translation[1] is -1e-200"));
        for ok in [0.0, -0.0, 1e-70, -1e-70, 1e-3] {
            assert!(entry(ok).to_pose(0).is_ok(), "{ok:e}");
        }
    }

    #[test]
    fn non_finite_and_malformed_poses_name_the_element() {
        let entry = PoseEntry {
            translation: [0.0, f64::NAN, 0.0],
            rotation: [0.0; 3],
        };
        assert_eq!(
            entry.to_pose(4).unwrap_err().to_string(),
            "pose 4: translation[1] is NaN, not a finite number"
        );
        let err = poses_from_str(r#"{"poses":[{"translation":[0,0]}]}"#, Path::new("p.json"))
            .unwrap_err();
        assert!(
            err.to_string().contains("malformed poses file p.json"),
            "{err}"
        );
    }
}
