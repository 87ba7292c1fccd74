//! Wavefront OBJ through `tobj`: every object and group in file order, polygons fanned, point
//! (`p`) and line (`l`) elements skipped (they bound no surface), materials not read.

use super::{fan, line_at, LoadError, Location, Parsed};
use obbtree_bv::Point;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// A byte slice reader that remembers how far tobj has read, so that its errors get a line.
struct Tracked<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (&self.data[self.pos..]).read(buf)?;
        self.pos += n;
        Ok(n)
    }
}

impl BufRead for Tracked<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos += amount;
    }
}

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = Tracked {
        data: bytes,
        pos: 0,
    };
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Ok(Default::default())).map_err(|e| {
            // tobj fails on the line it just consumed, or (for index errors) at the end of the
            // object, i.e. on the next `o`/`g` line or at the end of the file.
            let message = match e {
                tobj::LoadError::FaceVertexOutOfBounds => {
                    format!("{e} (in the object that ends here)")
                }
                _ => e.to_string(),
            };
            LoadError::Syntax {
                path: path.into(),
                at: Location::Line(line_at(bytes, reader.pos.saturating_sub(1))),
                message,
            }
        })?;
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for model in &models {
        let mesh = &model.mesh;
        let base = u32::try_from(vertices.len()).unwrap_or(u32::MAX);
        vertices.extend(
            mesh.positions
                .chunks_exact(3)
                .map(|p| Point::new(p[0], p[1], p[2])),
        );
        let shifted: Vec<u32> = mesh
            .indices
            .iter()
            .map(|&i| base.saturating_add(i))
            .collect();
        if mesh.face_arities.is_empty() {
            triangles.extend(shifted.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
        } else {
            let mut start = 0;
            for &arity in &mesh.face_arities {
                let end = start + arity as usize;
                fan(&shifted[start..end], &mut triangles);
                start = end;
            }
        }
    }
    Ok((vertices, triangles))
}
