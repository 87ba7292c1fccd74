//! Object File Format (OFF), read by hand (no well-kept crate exists). The layout:
//!
//! ```text
//! OFF                      # keyword; the counts may also follow it on the same line
//! 8 6 0                    # vertices, faces, edges (the edge count is optional and unused)
//! x y z [...]              # one vertex per line; extra columns (colour, normal) are ignored
//! n i0 i1 ... i(n-1) [...] # one face per line: corner count, 0-based indices, optional colour
//! ```
//!
//! `#` starts a comment; blank lines are skipped. The keyword may carry the `ST`, `C` and `N`
//! prefixes (texture, colour, normal columns). Binary OFF and 4D/nD OFF are refused. Vertices
//! are the file's, in file order; a face with fewer than three corners, an index that is
//! negative, past the vertex count or not an integer, and a NaN or infinite coordinate are errors
//! naming the line.

use super::{
    coordinate, fan, integer, no_faces, quoted, refers_past_the_end, too_large, LoadError,
    Location, Parsed,
};
use obbtree_bv::Point;
use std::path::Path;
use std::str::{FromStr, SplitWhitespace};

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        syntax(
            path,
            super::line_at(bytes, e.valid_up_to()),
            "not valid UTF-8 text (is this a text OFF file?)".into(),
        )
    })?;
    let mut lines = OffLines {
        lines: content_lines(text),
        path,
    };
    let (vertex_count, face_count) = lines.header()?;
    // Each vertex takes at least 6 bytes and each face 8, so the file size bounds honest counts.
    let mut vertices = Vec::with_capacity(vertex_count.min(bytes.len() / 6));
    for index in 0..vertex_count {
        vertices.push(lines.vertex(index, vertex_count)?);
    }
    let mut triangles = Vec::with_capacity(face_count.min(bytes.len() / 8));
    let mut corners = Vec::new();
    for index in 0..face_count {
        lines.face(index, face_count, vertex_count, &mut corners)?;
        fan(&corners, &mut triangles);
    }
    if triangles.is_empty() {
        return Err(no_faces(path, "no faces: the header declares 0 faces"));
    }
    lines.check_end()?;
    Ok((vertices, triangles))
}

fn syntax(path: &Path, line: usize, message: String) -> LoadError {
    LoadError::Syntax {
        path: path.into(),
        at: Location::Line(line),
        message,
    }
}

/// The file's lines that hold something ([`content_lines`]), read as header, vertices and faces.
struct OffLines<'a, I: Iterator<Item = (usize, &'a str)>> {
    lines: I,
    path: &'a Path,
}

/// The lines of `text` that hold something, numbered from 1, comments removed.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
}

impl<'a, I: Iterator<Item = (usize, &'a str)>> OffLines<'a, I> {
    fn syntax(&self, line: usize, message: String) -> LoadError {
        syntax(self.path, line, message)
    }

    fn next_or_truncated(
        &mut self,
        element: &str,
        index: usize,
        expected: usize,
    ) -> Result<(usize, &'a str), LoadError> {
        self.lines.next().ok_or_else(|| LoadError::Truncated {
            path: self.path.into(),
            element: element.into(),
            index,
            expected,
        })
    }

    /// The keyword line (`[ST][C][N]OFF`, ascii) and the vertex and face counts, which follow
    /// the keyword on its line or stand on the next one.
    fn header(&mut self) -> Result<(usize, usize), LoadError> {
        let bad_magic = || LoadError::BadMagic {
            path: self.path.into(),
            format: "OFF",
            magic: "OFF",
        };
        let (first_line, first) = self.lines.next().ok_or_else(bad_magic)?;
        let mut header = first.split_whitespace();
        let keyword = header.next().unwrap_or("");
        if !keyword.ends_with("OFF") {
            return Err(bad_magic());
        }
        let prefixes = keyword.trim_end_matches("OFF");
        let known = ["", "N", "C", "CN", "ST", "STN", "STC", "STCN"];
        if !known.contains(&prefixes) || header.clone().next() == Some("BINARY") {
            return Err(LoadError::Header {
                path: self.path.into(),
                message: format!("line {first_line}: \"{first}\" is not a 3D ascii OFF header; obbtree reads [ST][C][N]OFF"),
            });
        }
        let (count_line, mut counts) = if header.clone().next().is_some() {
            (first_line, header)
        } else {
            let (line, text) = self.lines.next().ok_or_else(|| {
                self.syntax(first_line, "the vertex and face counts are missing".into())
            })?;
            (line, text.split_whitespace())
        };
        match (number(&mut counts), number(&mut counts)) {
            (Some(v), Some(f)) => Ok((v, f)),
            _ => Err(self.syntax(
                count_line,
                "expected the vertex and face counts (\"V F [E]\")".into(),
            )),
        }
    }

    /// Vertex `index`: its first three columns.
    fn vertex(&mut self, index: usize, count: usize) -> Result<Point, LoadError> {
        let (line, text) = self.next_or_truncated("vertex", index, count)?;
        let mut columns = text.split_whitespace();
        let mut xyz = [0.0; 3];
        for c in &mut xyz {
            let column = columns.next().ok_or_else(|| {
                self.syntax(
                    line,
                    format!("vertex {index}: expected three coordinates, found \"{text}\""),
                )
            })?;
            *c = coordinate(column.as_bytes())
                .map_err(|message| self.syntax(line, format!("vertex {index}: {message}")))?;
        }
        Ok(Point::from(xyz))
    }

    /// Face `index`'s corners into `corners`: a count of at least 3, then that many indices.
    fn face(
        &mut self,
        index: usize,
        count: usize,
        vertex_count: usize,
        corners: &mut Vec<u32>,
    ) -> Result<(), LoadError> {
        let (line, text) = self.next_or_truncated("face", index, count)?;
        let mut columns = text.split_whitespace();
        let arity: usize = number(&mut columns).ok_or_else(|| {
            self.syntax(
                line,
                format!("face {index}: expected the corner count, found \"{text}\""),
            )
        })?;
        if arity < 3 {
            return Err(self.syntax(
                line,
                format!("face {index} has {arity} corners; a face needs at least 3"),
            ));
        }
        corners.clear();
        for _ in 0..arity {
            let column = columns.next().ok_or_else(|| {
                self.syntax(
                    line,
                    format!("face {index}: expected {arity} vertex indices, found \"{text}\""),
                )
            })?;
            corners.push(
                vertex_index(index, column.as_bytes(), vertex_count)
                    .map_err(|message| self.syntax(line, message))?,
            );
        }
        Ok(())
    }

    /// An error naming the first line left over after the declared faces.
    fn check_end(mut self) -> Result<(), LoadError> {
        match self.lines.next() {
            Some((line, _)) => Err(LoadError::TrailingData {
                path: self.path.into(),
                at: Location::Line(line),
            }),
            None => Ok(()),
        }
    }
}

/// Face `face`'s 0-based vertex index `token`, checked against the `count` vertices.
fn vertex_index(face: usize, token: &[u8], count: usize) -> Result<u32, String> {
    match integer(token) {
        None => Err(format!(
            "face {face}: vertex index {} is not a whole number",
            quoted(token)
        )),
        Some((true, _)) => Err(format!(
            "face {face}: vertex index {} is negative; OFF indices count from 0",
            String::from_utf8_lossy(token)
        )),
        Some((false, i)) if i > u64::from(u32::MAX) => {
            Err(format!("face {face}: {}", too_large("vertex index", token)))
        }
        Some((false, i)) if i >= count as u64 => {
            Err(format!("face {face} {}", refers_past_the_end(i, count)))
        }
        Some((false, i)) => Ok(i as u32),
    }
}

fn number<T: FromStr>(columns: &mut SplitWhitespace) -> Option<T> {
    columns.next()?.parse().ok()
}
