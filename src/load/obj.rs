//! Wavefront OBJ, read by hand so that the mesh is the file's: every `v` becomes a vertex in
//! file order (unreferenced ones included), every `f` a face in file order. The format is the
//! polygonal subset of Wavefront Technologies, *Object Files (.obj)*, Appendix B1 of the
//! Advanced Visualizer documentation (format release 3.0):
//!
//! ```text
//! # a comment (anywhere on a line)
//! v x y z [w]        # a vertex; w (or MeshLab's colour r g b) is ignored
//! f a b c ...        # a face: a, a/t, a/t/n or a//n per corner; 1-based, negative counts back
//! ```
//!
//! A line ending in `\` continues on the next. Statements that bound no surface (`vt`, `vn`,
//! `vp`, `p`, `l`, the grouping and display statements `o`, `g`, `s`, `mg`, `usemtl`, `mtllib`,
//! ..., and the free-form curve statements) are accepted and ignored; texture and normal indices
//! are not read. Free-form surfaces (`surf`) and any other statement are errors. A face index may
//! refer to a vertex defined later in the file.

use super::{
    coordinate, fan, integer, no_faces, quoted, refers_past_the_end, too_large, LoadError,
    Location, Parsed,
};
use obbtree_bv::Point;
use std::borrow::Cow;
use std::path::Path;

/// Statements that bound no surface, read past: attributes (`vt`, `vn`, `vp`), points and lines,
/// grouping and display statements, and the free-form curve statements.
#[rustfmt::skip]
const IGNORED: &[&[u8]] = &[
    b"vt", b"vn", b"vp", b"p", b"l", b"o", b"g", b"s", b"mg", b"usemtl", b"mtllib", b"lod",
    b"bevel", b"c_interp", b"d_interp", b"shadow_obj", b"trace_obj", b"maplib", b"usemap",
    b"cstype", b"deg", b"bmat", b"step", b"curv", b"curv2", b"parm", b"trim", b"hole", b"scrv",
    b"sp", b"end", b"con", b"ctech", b"stech", b"call", b"csh",
];

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let mut mesh = Builder::default();
    for (line, statement) in Statements::new(bytes) {
        mesh.statement(line, &statement)
            .map_err(|message| syntax(path, line, message))?;
    }
    mesh.finish(path)
}

fn syntax(path: &Path, line: usize, message: String) -> LoadError {
    LoadError::Syntax {
        path: path.into(),
        at: Location::Line(line),
        message,
    }
}

/// The mesh as read so far.
#[derive(Default)]
struct Builder {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
    /// The current face's corners (0-based), reused from face to face.
    corners: Vec<u32>,
    /// Face indices past the vertices read so far, `(line, 1-based index)`: checked at the end.
    forward: Vec<(usize, u64)>,
}

impl Builder {
    /// Reads one statement (comment already removed) from `line`.
    fn statement(&mut self, line: usize, statement: &[u8]) -> Result<(), String> {
        let mut words = statement
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        match words.next() {
            None => Ok(()),
            Some(b"v") => self.vertex(words, statement),
            Some(b"f") => self.face(line, words),
            Some(b"surf") => Err(
                "free-form surfaces (surf) are not read; export the mesh as polygons (f)".into(),
            ),
            Some(keyword) if IGNORED.contains(&keyword) => Ok(()),
            Some(keyword) => Err(format!(
                "{} is not an OBJ statement; expected v, f, vt, vn, l, p, o, g, s, usemtl, \
                 mtllib or a # comment (is this a text OBJ file?)",
                quoted(keyword)
            )),
        }
    }

    /// `v x y z`, optionally followed by `w` or a colour `r g b` (ignored, but numbers).
    fn vertex<'a>(
        &mut self,
        mut words: impl Iterator<Item = &'a [u8]>,
        statement: &[u8],
    ) -> Result<(), String> {
        let missing = || {
            format!(
                "a vertex needs three coordinates x y z, found {}",
                quoted(statement.trim_ascii())
            )
        };
        let number = |word| coordinate::<f64>(word).map_err(|e| format!("vertex {e}"));
        let mut xyz = [0.0; 3];
        for c in &mut xyz {
            *c = number(words.next().ok_or_else(missing)?)?;
        }
        let extra = words.try_fold(0, |n, word| number(word).map(|_| n + 1))?;
        if extra > 4 {
            return Err(format!(
                "a vertex has {} numbers; expected x y z, optionally followed by w or by a colour r g b",
                3 + extra
            ));
        }
        self.vertices.push(Point::from(xyz));
        Ok(())
    }

    /// `f` and its corners, fan-triangulated.
    fn face<'a>(
        &mut self,
        line: usize,
        corners: impl Iterator<Item = &'a [u8]>,
    ) -> Result<(), String> {
        self.corners.clear();
        for corner in corners {
            let index = self.corner(line, corner)?;
            self.corners.push(index);
        }
        if self.corners.len() < 3 {
            return Err(format!(
                "a face has {} vertices; it needs at least 3 (a line is `l`)",
                self.corners.len()
            ));
        }
        fan(&self.corners, &mut self.triangles);
        Ok(())
    }

    /// The 0-based vertex of one face corner `a`, `a/t`, `a/t/n` or `a//n`.
    fn corner(&mut self, line: usize, corner: &[u8]) -> Result<u32, String> {
        let mut parts = corner.split(|&b| b == b'/');
        let token = parts.next().unwrap_or_default();
        let (negative, magnitude) = match integer(token) {
            Some(parsed) if parts.count() <= 2 => parsed,
            _ => {
                return Err(format!(
                    "face corner {} is not a vertex index; expected v, v/vt, v/vt/vn or v//vn \
                     with v a whole number",
                    quoted(corner)
                ))
            }
        };
        let shown = String::from_utf8_lossy(token);
        let count = self.vertices.len() as u64;
        if magnitude == 0 {
            return Err(format!(
                "face index {shown} is invalid: OBJ indices start at 1 (negative ones count back \
                 from the last vertex)"
            ));
        }
        if magnitude > u64::from(u32::MAX) {
            return Err(too_large("face index", token));
        }
        if negative {
            if magnitude > count {
                return Err(format!(
                    "face index {shown} counts back past the first vertex: only {count} vertices \
                     come before this line"
                ));
            }
            return Ok((count - magnitude) as u32);
        }
        if magnitude > count {
            self.forward.push((line, magnitude));
        }
        Ok((magnitude - 1) as u32)
    }

    /// Checks the forward references and that there is a surface.
    fn finish(self, path: &Path) -> Result<Parsed, LoadError> {
        let count = self.vertices.len();
        if let Some(&(line, index)) = self.forward.iter().find(|(_, i)| *i > count as u64) {
            let message = format!("face index {index} {}", refers_past_the_end(index, count));
            return Err(syntax(path, line, message));
        }
        if self.triangles.is_empty() {
            return Err(no_faces(
                path,
                "no faces: an OBJ mesh needs at least one `f` line with three or more vertices",
            ));
        }
        Ok((self.vertices, self.triangles))
    }
}

/// The statements of an OBJ file: its lines with comments cut off and `\`-continued lines
/// joined, each with the (1-based) number of its first line.
struct Statements<'a> {
    rest: &'a [u8],
    line: usize,
}

impl<'a> Statements<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            rest: bytes,
            line: 0,
        }
    }

    /// The next physical line without its comment and trailing white space.
    fn next_line(&mut self) -> &'a [u8] {
        let (line, rest) = match self.rest.iter().position(|&b| b == b'\n') {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = rest;
        self.line += 1;
        let code = match line.iter().position(|&b| b == b'#') {
            Some(comment) => &line[..comment],
            None => line,
        };
        code.trim_ascii_end()
    }
}

impl<'a> Iterator for Statements<'a> {
    type Item = (usize, Cow<'a, [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let first = self.line + 1;
        let mut line = self.next_line();
        let Some(mut head) = line.strip_suffix(b"\\") else {
            return Some((first, Cow::Borrowed(line)));
        };
        let mut joined = Vec::new();
        while !self.rest.is_empty() {
            joined.extend_from_slice(head);
            joined.push(b' ');
            line = self.next_line();
            match line.strip_suffix(b"\\") {
                Some(more) => head = more,
                None => {
                    joined.extend_from_slice(line);
                    return Some((first, Cow::Owned(joined)));
                }
            }
        }
        joined.extend_from_slice(head);
        Some((first, Cow::Owned(joined)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statements(text: &str) -> Vec<(usize, String)> {
        Statements::new(text.as_bytes())
            .map(|(line, s)| (line, String::from_utf8(s.into_owned()).unwrap()))
            .collect()
    }

    #[test]
    fn statements_join_continued_lines_and_drop_comments() {
        assert_eq!(
            statements("v 1 \\\n 2 3 # c\r\n# only\nf 1 2\\\n 3\\"),
            vec![
                (1, "v 1   2 3".into()),
                (3, "".into()),
                (4, "f 1 2  3".into())
            ]
        );
        assert_eq!(
            statements("a\n\nb"),
            vec![(1, "a".into()), (2, "".into()), (3, "b".into())]
        );
    }
}
