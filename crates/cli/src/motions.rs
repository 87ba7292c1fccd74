//! Motion files: `{"motions":[{"start":POSE, "end":POSE}, …]}`, each POSE in the pose-file
//! format (`{"translation":[x,y,z],"rotation":[rx,ry,rz]}`, [`crate::poses`]): the pose of B in
//! A's frame at `t = 0` and at `t = 1`, followed as an [`obbtree::Motion`]. Every pose is
//! checked as a pose file's is, and an error names the motion and which end.
//!
//! ```
//! use std::path::Path;
//! let text = r#"{"motions":[{"start":{"translation":[0,0,-2],"rotation":[0,0,0]},
//!                            "end":{"translation":[0,0,2],"rotation":[0,0,1]}}]}"#;
//! let motions = obbtree_cli::motions::motions_from_str(text, Path::new("m.json")).unwrap();
//! assert_eq!(motions[0].end().translation().z, 2.0);
//! let bad = text.replace("[0,0,2]", "[0,0,1e200]");
//! let err = obbtree_cli::motions::motions_from_str(&bad, Path::new("m.json")).unwrap_err();
//! assert!(err.to_string().starts_with("m.json: motion 0, end: "), "{err}");
//! ```

use crate::poses::{PoseEntry, PoseFileError};
use obbtree::Motion;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct MotionEntry {
    start: PoseEntry,
    end: PoseEntry,
}

#[derive(Deserialize)]
struct MotionsFile {
    motions: Vec<MotionEntry>,
}

/// Why a motion file is unusable.
#[derive(Debug, thiserror::Error)]
pub enum MotionFileError {
    /// The file cannot be read.
    #[error("cannot read motions file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the expected JSON.
    #[error("malformed motions file {path}: {reason} (expected {{\"motions\":[{{\"start\":{{\"translation\":[x,y,z],\"rotation\":[rx,ry,rz]}}, \"end\":{{...}}}}, ...]}})")]
    Json {
        /// The file.
        path: PathBuf,
        /// What serde_json says, with line and column.
        reason: String,
    },
    /// A pose of a motion is refused.
    #[error("{path}: motion {index}, {end}: {}", pose_reason(source, *index))]
    Pose {
        /// The file.
        path: PathBuf,
        /// Index of the motion (0-based).
        index: usize,
        /// `start` or `end`.
        end: &'static str,
        /// Why (the pose rules of [`crate::poses`]).
        source: PoseFileError,
    },
}

/// What is wrong with a pose of motion `index`: the pose error's text without its own
/// "pose `index`: " prefix, which the motion's name replaces.
fn pose_reason(source: &PoseFileError, index: usize) -> String {
    let text = source.to_string();
    match text.strip_prefix(&format!("pose {index}: ")) {
        Some(reason) => reason.to_owned(),
        None => text,
    }
}

/// Reads a motion file (see the module docs).
pub fn load_motions(path: &Path) -> Result<Vec<Motion>, MotionFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| MotionFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    motions_from_str(&text, path)
}

/// Parses the text of a motion file (`path` only names it in errors).
pub fn motions_from_str(text: &str, path: &Path) -> Result<Vec<Motion>, MotionFileError> {
    let file: MotionsFile = serde_json::from_str(text).map_err(|e| MotionFileError::Json {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    file.motions
        .iter()
        .enumerate()
        .map(|(index, m)| {
            let pose = |entry: &PoseEntry, end| {
                entry
                    .to_pose(index)
                    .map_err(|source| MotionFileError::Pose {
                        path: path.to_owned(),
                        index,
                        end,
                        source,
                    })
            };
            Ok(Motion::new(pose(&m.start, "start")?, pose(&m.end, "end")?))
        })
        .collect()
}
