//! STL, ascii or binary, read by hand (the layout is fixed and small; reading it here gives every
//! error its line or facet). STL lists every facet's three corners separately; corners with
//! bit-identical coordinates (after `-0.0 == 0.0`) become one vertex, numbered in order of first
//! appearance, so that the mesh's connectivity (closedness) can be seen. Coordinates are `f32`,
//! the format's only precision; facet normals are read past (they may even be NaN).
//!
//! Binary or ascii is decided by the layout, not by the first word: a file whose size is exactly
//! `84 + 50 * count` (the count stored at byte 80) is binary even when its free-form 80-byte
//! header starts with `solid` (many exporters write that); otherwise a file starting with
//! `solid` and having `facet` or `endsolid` in its first 1 KiB is ascii, and anything else is a
//! binary file of the wrong size (truncated or with a wrong count).
//!
//! Ascii STL is read one statement per line, the layout every exporter writes:
//!
//! ```text
//! solid [name]
//! facet normal nx ny nz
//! outer loop
//! vertex x y z          (three times)
//! endloop
//! endfacet              (then the next facet, or)
//! endsolid [name]       (then the end of the file or the next solid)
//! ```

use super::{coordinate, no_faces, quoted, LoadError, Location, Parsed};
use obbtree_bv::Point;
use std::collections::HashMap;
use std::path::Path;

const HEADER: usize = 84;
const FACET: usize = 50;

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let declared = bytes
        .get(80..HEADER)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize);
    let binary_size = declared.map(|n| n.saturating_mul(FACET).saturating_add(HEADER));
    if binary_size == Some(bytes.len()) {
        return binary(&bytes[HEADER..], path);
    }
    if looks_ascii(bytes) {
        return ascii(bytes, path);
    }
    Err(match (declared, binary_size) {
        (Some(expected), Some(size)) if bytes.len() < size => LoadError::Truncated {
            path: path.into(),
            element: "facet".into(),
            index: (bytes.len() - HEADER) / FACET,
            expected,
        },
        (Some(expected), _) => LoadError::TrailingData {
            path: path.into(),
            at: Location::Element {
                kind: "facet".into(),
                index: expected,
            },
        },
        (None, _) => LoadError::Header {
            path: path.into(),
            message: format!(
                "{} bytes is too short for a binary STL header (84 bytes), and it is not ascii STL (\"solid\" ... \"facet\")",
                bytes.len()
            ),
        },
    })
}

fn looks_ascii(bytes: &[u8]) -> bool {
    let start = &bytes[..bytes.len().min(1024)];
    let has = |word: &[u8]| start.windows(word.len()).any(|w| w == word);
    bytes.starts_with(b"solid") && (has(b"facet") || has(b"endsolid"))
}

/// Facets of 50 bytes each: normal (3 f32), three corners (3 f32 each), 2 attribute bytes.
fn binary(facets: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let mut mesh = Merged::default();
    for (index, facet) in facets.chunks_exact(FACET).enumerate() {
        let mut corners = [[0f32; 3]; 3];
        for (k, c) in corners.iter_mut().flatten().enumerate() {
            let at = 12 + 4 * k;
            *c = f32::from_le_bytes([facet[at], facet[at + 1], facet[at + 2], facet[at + 3]]);
        }
        check_finite(&corners).map_err(|message| LoadError::Syntax {
            path: path.into(),
            at: Location::Element {
                kind: "facet".into(),
                index,
            },
            message,
        })?;
        mesh.push(corners);
    }
    mesh.finish(path, "no facets: the binary STL header declares 0 facets")
}

/// An error naming the first non-finite corner coordinate (binary STL).
fn check_finite(corners: &[[f32; 3]; 3]) -> Result<(), String> {
    let bad = corners.iter().enumerate().find_map(|(k, corner)| {
        let c = corner.iter().find(|c| !c.is_finite())?;
        Some((k, if c.is_nan() { "NaN" } else { "infinite" }))
    });
    match bad {
        Some((k, what)) => Err(format!(
            "corner {k} has a coordinate that is {what}; coordinates must be finite numbers"
        )),
        None => Ok(()),
    }
}

/// Where the ascii reader is in the grammar: the statement it expects next.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    Solid,
    FacetOrEndsolid,
    OuterLoop,
    Vertex(usize),
    Endloop,
    Endfacet,
    SolidOrEnd,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::Solid => "`solid`",
            Expect::FacetOrEndsolid => "`facet normal nx ny nz` or `endsolid`",
            Expect::OuterLoop => "`outer loop`",
            Expect::Vertex(_) => "`vertex x y z`",
            Expect::Endloop => "`endloop`",
            Expect::Endfacet => "`endfacet`",
            Expect::SolidOrEnd => "`solid` or the end of the file",
        }
    }
}

fn ascii(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let syntax = |line: usize, message: String| LoadError::Syntax {
        path: path.into(),
        at: Location::Line(line),
        message,
    };
    let mut mesh = Merged::default();
    let mut expect = Expect::Solid;
    let mut corners = [[0f32; 3]; 3];
    let mut last_line = 1;
    let mut words = Vec::new();
    for (index, text) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        words.clear();
        words.extend(
            text.split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty()),
        );
        if words.is_empty() {
            continue;
        }
        last_line = line;
        let unexpected = || {
            syntax(
                line,
                format!(
                    "expected {}, found {}",
                    expect.describe(),
                    quoted(text.trim_ascii())
                ),
            )
        };
        expect = match (expect, words.as_slice()) {
            (Expect::Solid | Expect::SolidOrEnd, [b"solid", ..]) => Expect::FacetOrEndsolid,
            (Expect::FacetOrEndsolid, [b"facet", b"normal", normal @ ..]) => {
                if normal.len() != 3 || !normal.iter().all(|n| is_number(n)) {
                    return Err(unexpected());
                }
                Expect::OuterLoop
            }
            (Expect::FacetOrEndsolid, [b"endsolid", ..]) => Expect::SolidOrEnd,
            (Expect::OuterLoop, [b"outer", b"loop"]) => Expect::Vertex(0),
            (Expect::Vertex(k), [b"vertex", xyz @ ..]) => {
                if xyz.len() != 3 {
                    return Err(unexpected());
                }
                for (c, word) in corners[k].iter_mut().zip(xyz) {
                    *c = coordinate::<f32>(word)
                        .map_err(|message| syntax(line, format!("vertex {message}")))?;
                }
                if k < 2 {
                    Expect::Vertex(k + 1)
                } else {
                    Expect::Endloop
                }
            }
            (Expect::Endloop, [b"endloop"]) => Expect::Endfacet,
            (Expect::Endfacet, [b"endfacet"]) => {
                mesh.push(corners);
                Expect::FacetOrEndsolid
            }
            _ => return Err(unexpected()),
        };
    }
    if expect != Expect::SolidOrEnd {
        return Err(syntax(
            last_line,
            format!(
                "the file ends here, but {} should follow (is it cut short?)",
                expect.describe()
            ),
        ));
    }
    mesh.finish(
        path,
        "no facets: an ascii STL needs at least one `facet normal ... endfacet`",
    )
}

/// Whether `word` is a number (any `f32`, NaN included: normals are not used).
fn is_number(word: &[u8]) -> bool {
    std::str::from_utf8(word).is_ok_and(|w| w.parse::<f32>().is_ok())
}

/// Vertices merged by bit-identical coordinates, numbered in order of first appearance.
#[derive(Default)]
struct Merged {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
    ids: HashMap<[u32; 3], u32>,
}

impl Merged {
    fn push(&mut self, corners: [[f32; 3]; 3]) {
        let triangle = corners.map(|corner| {
            let [x, y, z] = corner.map(|c| c + 0.0); // maps -0.0 to 0.0
            *self
                .ids
                .entry([x, y, z].map(f32::to_bits))
                .or_insert_with(|| {
                    self.vertices.push(Point::new(x.into(), y.into(), z.into()));
                    u32::try_from(self.vertices.len() - 1).unwrap_or(u32::MAX)
                })
        });
        self.triangles.push(triangle);
    }

    fn finish(self, path: &Path, no_facets: &str) -> Result<Parsed, LoadError> {
        if self.triangles.is_empty() {
            return Err(no_faces(path, no_facets));
        }
        Ok((self.vertices, self.triangles))
    }
}
