//! Reading triangle meshes from OBJ, STL (ascii and binary), PLY (ascii and binary), OFF and
//! COLLADA (`.dae`) files, each also gzip-compressed (`.gz`).
//!
//! [`load_mesh`] picks the format from the file name, reads the whole file, and either returns a
//! validated [`TriMesh`] or a [`LoadError`] naming the file and, where it applies, the line or
//! element at fault, and saying what is wrong and what would be right. A malformed file never
//! panics and never yields a partial mesh: a face with fewer than three corners, a vertex index
//! that is out of range, negative (OFF, PLY), zero (OBJ), too large for `u32` or not an integer,
//! and a NaN or infinite coordinate are errors, never skipped.
//!
//! Order guarantees, so that vertex and triangle ids match what other tools report:
//!
//! - **Triangles**: triangle `t` comes from the file's faces in file order. Polygons are
//!   triangulated by fan, `(v0, v1, v2), (v0, v2, v3), ...`, so a face with `n` corners becomes
//!   `n - 2` consecutive triangles; with triangle-only files (every bundled mesh) triangle `t`
//!   *is* face `t`.
//! - **Vertices of OBJ, PLY and OFF**: exactly the file's vertices, in file order, unreferenced
//!   ones included: vertex `i` is the `i`-th `v` line of an OBJ file (OBJ index `i + 1`) and
//!   the `i`-th vertex element of a PLY or OFF file.
//! - **Vertices of STL**: STL stores no shared vertices, only three corners per facet; corners
//!   with bit-identical coordinates (after `-0.0 == 0.0`) become one vertex, numbered in order of
//!   first appearance (facet 0's corners first). Vertex `i` is the `i`-th distinct corner.
//!
//! - **COLLADA**: every geometry instance of the file's scene, in metres in the file's root
//!   frame (the unit and node transforms applied; see `collada.rs` for what is read and
//!   refused). Instances in document order, each geometry's vertices as mesh-loader gives them:
//!   three per triangle, not shared.
//!
//! Degenerate triangles are kept (see [`TriMesh::degenerate_triangles`]).

pub(crate) mod collada;
mod obj;
mod off;
mod ply;
mod stl;

use obbtree_bv::{MeshError, Point, TriMesh};
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where in a file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A 1-based line of a text file.
    Line(usize),
    /// The `index`-th (0-based) element of a kind, for binary files: `facet 12`, `vertex 3`.
    Element {
        /// The element kind (`facet`, `vertex`, `face`, ...).
        kind: String,
        /// Its 0-based position among the elements of that kind.
        index: usize,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(line) => write!(f, "line {line}"),
            Location::Element { kind, index } => write!(f, "{kind} {index}"),
        }
    }
}

/// Why a file could not be loaded as a mesh. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (missing, no permission, ...).
    #[error("{}: cannot read the file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// The path names a directory.
    #[error("{}: is a directory, not a mesh file", path.display())]
    IsDirectory {
        /// The directory.
        path: PathBuf,
    },
    /// The file name does not end in a known extension.
    #[error("{}: unknown mesh format; use a file ending in .obj, .stl, .ply, .off or .dae (optionally followed by .gz)", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// A `.gz` file is not valid gzip data.
    #[error("{}: not valid gzip data: {source}", path.display())]
    Gzip {
        /// The file.
        path: PathBuf,
        /// The decoder's reason.
        source: io::Error,
    },
    /// The file (after decompression) has no bytes at all.
    #[error("{}: the file is empty", path.display())]
    EmptyFile {
        /// The file.
        path: PathBuf,
    },
    /// The file does not start with its format's magic word.
    #[error("{}: it does not start with {magic:?}, as every {format} file does (is the file name's extension right?)", path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
        /// The format the extension promised.
        format: &'static str,
        /// The expected first word.
        magic: &'static str,
    },
    /// The header is malformed or asks for something this loader does not read.
    #[error("{}: {message}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// An element or line could not be parsed.
    #[error("{}: {at}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The line or element at fault.
        at: Location,
        /// What is wrong with it.
        message: String,
    },
    /// The file ends before all declared elements were read.
    #[error("{}: the file ends before {element} {index}, but its header declares {expected} of them (is it cut short?)", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The element kind being read (`facet`, `vertex`, `face`, ...).
        element: String,
        /// 0-based index of the first missing element.
        index: usize,
        /// How many the header declares.
        expected: usize,
    },
    /// More data follows the elements the header declares (a wrong count in the header).
    #[error("{}: {at}: data after the last declared element; do the header's counts match the file?", path.display())]
    TrailingData {
        /// The file.
        path: PathBuf,
        /// Where the unexpected data starts.
        at: Location,
    },
    /// The file is well formed but holds no face, so there is no surface to query.
    #[error("{}: {message}", path.display())]
    NoFaces {
        /// The file.
        path: PathBuf,
        /// What the format needs, e.g. "no faces: an OBJ mesh needs at least one `f` line".
        message: String,
    },
    /// The file parsed, but its vertices and triangles do not form a valid mesh: a coordinate
    /// outside the supported range, or more vertices than `u32` indices reach (the loaders
    /// report bad indices, non-finite coordinates and missing faces themselves, with the line).
    /// Vertex numbers are as loaded (see the order guarantees above), triangle numbers in file
    /// face order.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The validation failure.
        source: MeshError,
    },
}

/// Vertices and triangles as parsed, before validation.
type Parsed = (Vec<Point>, Vec<[u32; 3]>);

#[derive(Clone, Copy)]
enum Format {
    Obj,
    Stl,
    Ply,
    Off,
    Collada,
}

/// Reads the mesh in `path`, choosing the format from the extension (`.obj`, `.stl`, `.ply`,
/// `.off`, `.dae`, case-insensitive, each optionally followed by `.gz`).
///
/// Triangles come in file face order, polygons fan-triangulated (see the [module docs](self)).
pub fn load_mesh(path: &Path) -> Result<TriMesh, LoadError> {
    if path.is_dir() {
        return Err(LoadError::IsDirectory { path: path.into() });
    }
    // An unknown extension is reported without reading the file.
    if format_of(path).is_none() {
        return Err(LoadError::UnknownFormat { path: path.into() });
    }
    let raw = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.into(),
        source,
    })?;
    load_mesh_bytes(&raw, path)
}

/// Parses a mesh file's contents `raw` already in memory, exactly as [`load_mesh`] parses the
/// file `path`: the name chooses the format (and gzip) and is the file named in errors; nothing
/// is read from disk.
pub fn load_mesh_bytes(raw: &[u8], path: &Path) -> Result<TriMesh, LoadError> {
    let (format, gzipped) =
        format_of(path).ok_or_else(|| LoadError::UnknownFormat { path: path.into() })?;
    let decompressed;
    let bytes = if gzipped {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(raw)
            .read_to_end(&mut out)
            .map_err(|source| LoadError::Gzip {
                path: path.into(),
                source,
            })?;
        decompressed = out;
        decompressed.as_slice()
    } else {
        raw
    };
    if bytes.is_empty() {
        return Err(LoadError::EmptyFile { path: path.into() });
    }
    let (vertices, triangles) = match format {
        Format::Obj => obj::parse(bytes, path)?,
        Format::Stl => stl::parse(bytes, path)?,
        Format::Ply => ply::parse(bytes, path)?,
        Format::Off => off::parse(bytes, path)?,
        Format::Collada => collada::parse(bytes, path)?,
    };
    TriMesh::new(vertices, triangles).map_err(|source| LoadError::Invalid {
        path: path.into(),
        source,
    })
}

fn format_of(path: &Path) -> Option<(Format, bool)> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let (stem, gzipped) = match name.strip_suffix(".gz") {
        Some(stem) => (stem, true),
        None => (name.as_str(), false),
    };
    let format = match Path::new(stem).extension()?.to_str()? {
        "obj" => Format::Obj,
        "stl" => Format::Stl,
        "ply" => Format::Ply,
        "off" => Format::Off,
        "dae" => Format::Collada,
        _ => return None,
    };
    Some((format, gzipped))
}

/// Appends the fan triangulation `(p0, p1, p2), (p0, p2, p3), ...` of `polygon` (at least three
/// corners) to `out`.
fn fan(polygon: &[u32], out: &mut Vec<[u32; 3]>) {
    out.extend(polygon.windows(2).skip(1).map(|w| [polygon[0], w[0], w[1]]));
}

/// A vertex coordinate written as `token` in a text file, as `T` (`f64`, or `f32` for STL):
/// an error saying what is wrong if it is not a number or not finite (`coordinate ...`).
fn coordinate<T: FromStr + Into<f64> + Copy>(token: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(token).unwrap_or_default();
    let value: T = text
        .parse()
        .map_err(|_| format!("coordinate {} is not a number", quoted(token)))?;
    let wide: f64 = value.into();
    if wide.is_finite() {
        return Ok(value);
    }
    let what = if wide.is_nan() {
        "is NaN".to_string()
    } else if text.to_ascii_lowercase().contains("inf") {
        "is infinite".to_string()
    } else {
        let (size, why) = match size_of::<T>() {
            4 => ("f32", " (the precision of STL)"),
            _ => ("f64", ""),
        };
        format!("{text} is too large for {size}{why}")
    };
    Err(format!(
        "coordinate {what}; coordinates must be finite numbers"
    ))
}

/// A vertex index as written, `[+-]digits`: whether it is negative and its magnitude (saturated
/// at `u64::MAX`), or `None` if `token` is not an integer.
fn integer(token: &[u8]) -> Option<(bool, u64)> {
    let (negative, digits) = match token.split_first()? {
        (b'-', rest) => (true, rest),
        (b'+', rest) => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude = digits.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    Some((negative, magnitude))
}

/// The message for a vertex index `token` (called `what`) that does not fit a `u32` mesh index.
fn too_large(what: &str, token: &[u8]) -> String {
    format!(
        "{what} {} is too large (at most {})",
        String::from_utf8_lossy(token),
        u32::MAX
    )
}

/// The message for a face corner `index` (as the file numbers vertices) with `count` vertices,
/// in the words of [`MeshError::IndexOutOfRange`].
fn refers_past_the_end(index: impl fmt::Display, count: usize) -> String {
    format!("refers to vertex {index}, but there are only {count} vertices")
}

/// `bytes` as a quoted string for a message, invalid UTF-8 and control characters escaped,
/// cut to 40 characters.
fn quoted(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut shown: String = text.chars().take(40).collect();
    if shown.len() < text.len() {
        shown.push_str("...");
    }
    format!("{shown:?}")
}

/// The error for a file with no face at all; `message` says what its format needs.
fn no_faces(path: &Path, message: &str) -> LoadError {
    LoadError::NoFaces {
        path: path.into(),
        message: message.into(),
    }
}

/// 1-based number of the line that contains byte `offset` of `text`.
fn line_at(text: &[u8], offset: usize) -> usize {
    1 + text[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fan_expands_in_order() {
        let mut out = Vec::new();
        fan(&[7, 8, 9], &mut out);
        fan(&[0, 1, 2, 3, 4], &mut out);
        assert_eq!(out, vec![[7, 8, 9], [0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn formats_from_names() {
        let f = |n: &str| format_of(Path::new(n)).map(|(f, gz)| (f as u8, gz));
        assert_eq!(f("a/b.OBJ"), Some((Format::Obj as u8, false)));
        assert_eq!(f("x.ply.gz"), Some((Format::Ply as u8, true)));
        assert_eq!(f("x.stl"), Some((Format::Stl as u8, false)));
        assert_eq!(f("x.off.GZ"), Some((Format::Off as u8, true)));
        assert_eq!(f("x.gz"), None);
        assert_eq!(f("x.DAE"), Some((Format::Collada as u8, false)));
        assert_eq!(f("x.3ds"), None);
        assert_eq!(f("obj"), None);
    }

    #[test]
    fn integers_keep_sign_and_saturate() {
        assert_eq!(integer(b"42"), Some((false, 42)));
        assert_eq!(integer(b"+7"), Some((false, 7)));
        assert_eq!(integer(b"-3"), Some((true, 3)));
        assert_eq!(integer(b"99999999999999999999999"), Some((false, u64::MAX)));
        for junk in [&b""[..], b"-", b"+", b"1.0", b"1e3", b"x", b"--1", b" 1"] {
            assert_eq!(integer(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn lines_are_one_based() {
        assert_eq!(line_at(b"a\nb\nc", 0), 1);
        assert_eq!(line_at(b"a\nb\nc", 2), 2);
        assert_eq!(line_at(b"a\nb\nc", 99), 3);
    }
}
