//! PLY through `ply-rs-bw` (ascii, binary little and big endian). Needs a `vertex` element with
//! `float` or `double` properties `x`, `y`, `z`, and a `face` element with an integer list
//! property `vertex_indices` (or `vertex_index`); other elements and properties are read past
//! and ignored. The whole payload must match the header's counts exactly: a file that ends early
//! is [`LoadError::Truncated`], one with data left over is [`LoadError::TrailingData`].

use super::{fan, line_at, LoadError, Location, Parsed};
use obbtree_bv::Point;
use ply_rs_bw::parser::{Parser, Reader};
use ply_rs_bw::ply::{
    ElementDef, Encoding, Property, PropertyAccess, PropertyAccessResult, PropertyType, ScalarType,
};
use std::io::ErrorKind;
use std::path::Path;

const INDEX_LISTS: [&str; 2] = ["vertex_indices", "vertex_index"];

/// One element of any kind; only the properties obbtree uses are kept.
#[derive(Default)]
struct Record {
    xyz: [f64; 3],
    corners: Vec<u32>,
    negative_index: bool,
}

impl Record {
    fn set_coordinate(&mut self, name: &str, value: f64) -> PropertyAccessResult {
        match name {
            "x" => self.xyz[0] = value,
            "y" => self.xyz[1] = value,
            "z" => self.xyz[2] = value,
            _ => return PropertyAccessResult::Ignored,
        }
        PropertyAccessResult::Set
    }
}

impl PropertyAccess for Record {
    fn new() -> Self {
        Self::default()
    }

    fn set_float(&mut self, name: &str, value: f32) -> PropertyAccessResult {
        self.set_coordinate(name, value.into())
    }

    fn set_double(&mut self, name: &str, value: f64) -> PropertyAccessResult {
        self.set_coordinate(name, value)
    }

    fn set_property(&mut self, name: &str, property: Property) -> PropertyAccessResult {
        if !INDEX_LISTS.contains(&name) {
            return PropertyAccessResult::Ignored;
        }
        match property.to_u32_list() {
            Some(corners) => self.corners = corners,
            None => self.negative_index = true, // the header check admits only integer lists
        }
        PropertyAccessResult::Set
    }
}

pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let header_error = |message: String| LoadError::Header {
        path: path.into(),
        message,
    };
    if !(bytes.starts_with(b"ply\n") || bytes.starts_with(b"ply\r\n")) {
        return Err(LoadError::BadMagic {
            path: path.into(),
            format: "PLY",
            magic: "ply",
        });
    }
    let parser = Parser::<Record>::new();
    let mut reader = Reader::new(bytes);
    let header = parser
        .read_header(&mut reader)
        .map_err(|e| header_error(format!("header: {e}")))?;
    let mut payload = reader.into_inner();
    let header_lines = line_at(bytes, bytes.len() - payload.len()) - 1;
    check_header(header.elements.get("vertex"), header.elements.get("face"))
        .map_err(header_error)?;

    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    // For ascii: the payload as lines, numbered from the end of the header.
    let mut lines = match header.encoding {
        Encoding::Ascii => Some(
            std::str::from_utf8(payload)
                .map_err(|e| LoadError::Syntax {
                    path: path.into(),
                    at: Location::Line(line_at(
                        bytes,
                        bytes.len() - payload.len() + e.valid_up_to(),
                    )),
                    message: "ascii PLY data is not valid UTF-8 text".into(),
                })?
                .lines()
                .zip(header_lines + 1..),
        ),
        _ => None,
    };
    for (_, element) in &header.elements {
        for index in 0..element.count {
            let truncated = || LoadError::Truncated {
                path: path.into(),
                element: element.name.clone(),
                index,
                expected: element.count,
            };
            // Ascii errors point at the line (and say which element), binary ones at the element.
            let mut line = 0;
            let syntax = |line: usize, message: &dyn std::fmt::Display| {
                let message = message
                    .to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                let (at, message) = match header.encoding {
                    Encoding::Ascii => (
                        Location::Line(line),
                        format!("{} {index}: {message}", element.name),
                    ),
                    _ => (
                        Location::Element {
                            kind: element.name.clone(),
                            index,
                        },
                        message,
                    ),
                };
                LoadError::Syntax {
                    path: path.into(),
                    at,
                    message,
                }
            };
            let record = match (header.encoding, lines.as_mut()) {
                (Encoding::Ascii, Some(lines)) => {
                    let (text, at) = lines.next().ok_or_else(truncated)?;
                    line = at;
                    parser
                        .read_ascii_element(text, element)
                        .map_err(|e| syntax(line, &e))?
                }
                (encoding, _) => {
                    let read = if encoding == Encoding::BinaryBigEndian {
                        parser.read_big_endian_element(&mut payload, element)
                    } else {
                        parser.read_little_endian_element(&mut payload, element)
                    };
                    read.map_err(|e| {
                        if e.kind() == ErrorKind::UnexpectedEof {
                            truncated()
                        } else {
                            syntax(line, &e)
                        }
                    })?
                }
            };
            match element.name.as_str() {
                "vertex" => vertices.push(Point::from(record.xyz)),
                "face" if record.negative_index => {
                    return Err(syntax(line, &"negative vertex index"))
                }
                "face" if record.corners.len() < 3 => {
                    let message =
                        format!("{} corners; a face needs at least 3", record.corners.len());
                    return Err(syntax(line, &message));
                }
                "face" => fan(&record.corners, &mut triangles),
                _ => {}
            }
        }
    }
    let trailing = match header.encoding {
        Encoding::Ascii => lines
            .and_then(|mut l| l.find(|(text, _)| !text.trim().is_empty()))
            .map(|(_, line)| Location::Line(line)),
        _ => (!payload.is_empty()).then(|| Location::Element {
            kind: "byte".into(),
            index: bytes.len() - payload.len(),
        }),
    };
    match trailing {
        Some(at) => Err(LoadError::TrailingData {
            path: path.into(),
            at,
        }),
        None => Ok((vertices, triangles)),
    }
}

/// Checks that the header declares what a mesh needs, in types [`Record`] reads.
fn check_header(vertex: Option<&ElementDef>, face: Option<&ElementDef>) -> Result<(), String> {
    let vertex = vertex.ok_or("the header declares no \"vertex\" element")?;
    for axis in ["x", "y", "z"] {
        match vertex.properties.get(axis).map(|p| &p.data_type) {
            Some(PropertyType::Scalar(ScalarType::Float | ScalarType::Double)) => {}
            Some(other) => {
                return Err(format!(
                    "vertex property \"{axis}\" is {other:?}; obbtree reads float or double"
                ))
            }
            None => return Err(format!("the vertex element has no \"{axis}\" property")),
        }
    }
    let face = face.ok_or("the header declares no \"face\" element")?;
    let list = INDEX_LISTS
        .iter()
        .find_map(|name| face.properties.get(*name));
    match list.map(|p| &p.data_type) {
        Some(PropertyType::List(_, ScalarType::Float | ScalarType::Double))
        | Some(PropertyType::Scalar(_)) => {
            Err("the face's vertex_indices property must be a list of integers".into())
        }
        Some(PropertyType::List(..)) => Ok(()),
        None => Err("the face element has no \"vertex_indices\" list".into()),
    }
}
