//! STL through `stl_io`, ascii or binary. STL lists every facet's three corners separately;
//! corners with bit-identical coordinates (after `-0.0 == 0.0`) become one vertex, so that the
//! mesh's connectivity (closedness) can be seen.
//!
//! Binary or ascii is decided by the layout, not by the first word: a file whose size is exactly
//! `84 + 50 * count` (the count stored at byte 80) is binary even when its free-form 80-byte
//! header starts with `solid` (many exporters write that); otherwise a file starting with
//! `solid` and having `facet` or `endsolid` in its first 1 KiB is ascii, and anything else is a
//! binary file of the wrong size (truncated or with a wrong count).

use super::{LoadError, Location, Parsed};
use obbtree_bv::Point;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;

const HEADER: usize = 84;
const FACET: usize = 50;

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let declared = bytes
        .get(80..HEADER)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize);
    let binary_size = declared.map(|n| n.saturating_mul(FACET).saturating_add(HEADER));
    let input: Cow<[u8]> = if binary_size == Some(bytes.len()) {
        if bytes.starts_with(b"solid") {
            // The header carries no data; blank it so that stl_io's ascii probe is not fooled.
            let mut copy = bytes.to_vec();
            copy[..5].fill(b' ');
            Cow::Owned(copy)
        } else {
            Cow::Borrowed(bytes)
        }
    } else if looks_ascii(bytes) {
        Cow::Borrowed(bytes)
    } else {
        return Err(match (declared, binary_size) {
            (Some(expected), Some(size)) if bytes.len() < size => LoadError::Truncated {
                path: path.into(),
                element: "facet".into(),
                index: (bytes.len() - HEADER) / FACET,
                expected,
            },
            (Some(expected), _) => LoadError::TrailingData {
                path: path.into(),
                at: Location::Element { kind: "facet".into(), index: expected },
            },
            (None, _) => LoadError::Header {
                path: path.into(),
                message: format!(
                    "{} bytes is too short for a binary STL header (84 bytes), and it is not ascii STL (\"solid\" ... \"facet\")",
                    bytes.len()
                ),
            },
        });
    };
    let mut cursor = Cursor::new(input.as_ref());
    let facets = stl_io::create_stl_reader(&mut cursor).map_err(|e| LoadError::Header {
        path: path.into(),
        message: e.to_string(),
    })?;
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut ids: HashMap<[u32; 3], u32> = HashMap::new();
    for (index, facet) in facets.enumerate() {
        let facet = facet.map_err(|e| LoadError::Syntax {
            path: path.into(),
            at: Location::Element {
                kind: "facet".into(),
                index,
            },
            message: e.to_string(),
        })?;
        triangles.push(facet.vertices.map(|v| {
            let [x, y, z] = v.0.map(|c| c + 0.0); // maps -0.0 to 0.0
            *ids.entry([x, y, z].map(f32::to_bits)).or_insert_with(|| {
                vertices.push(Point::new(x.into(), y.into(), z.into()));
                u32::try_from(vertices.len() - 1).unwrap_or(u32::MAX)
            })
        }));
    }
    Ok((vertices, triangles))
}

fn looks_ascii(bytes: &[u8]) -> bool {
    let start = &bytes[..bytes.len().min(1024)];
    let has = |word: &[u8]| start.windows(word.len()).any(|w| w == word);
    bytes.starts_with(b"solid") && (has(b"facet") || has(b"endsolid"))
}
