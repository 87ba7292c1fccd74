//! PLY through `ply-rs-bw` (ascii, binary little and big endian). Needs a `vertex` element with
//! `float` or `double` properties `x`, `y`, `z`, and a `face` element with an integer list
//! property `vertex_indices` (or `vertex_index`); other elements and properties are read past
//! and ignored. The whole payload must match the header's counts exactly: a file that ends early
//! is [`LoadError::Truncated`], one with data left over is [`LoadError::TrailingData`]. Vertices
//! are the `vertex` elements in file order; a face with fewer than three corners, a negative
//! index or one past the declared vertex count, and a NaN or infinite coordinate are errors
//! naming the line (ascii) or the element (binary).

use super::{fan, line_at, no_faces, refers_past_the_end, LoadError, Location, Parsed};
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
    check_magic(bytes, path)?;
    let parser = Parser::<Record>::new();
    let mut reader = Reader::new(bytes);
    let header = parser
        .read_header(&mut reader)
        .map_err(|e| header_error(path, format!("header: {e}")))?;
    check_header(header.elements.get("vertex"), header.elements.get("face"))
        .map_err(|message| header_error(path, message))?;
    let vertex_count = header.elements.get("vertex").map_or(0, |v| v.count);
    let mut body = Body::new(bytes, reader.into_inner(), header.encoding, path)?;
    let (mut vertices, mut triangles) = (Vec::new(), Vec::new());
    for (_, element) in &header.elements {
        for index in 0..element.count {
            let (record, line) = body.read(&parser, element, index)?;
            let added = match element.name.as_str() {
                "vertex" => {
                    check_finite(&record.xyz).map(|()| vertices.push(Point::from(record.xyz)))
                }
                "face" => {
                    check_face(&record, vertex_count).map(|()| fan(&record.corners, &mut triangles))
                }
                _ => Ok(()),
            };
            added.map_err(|message| body.syntax(element, index, line, &message))?;
        }
    }
    if triangles.is_empty() {
        return Err(no_faces(path, "no faces: the header declares 0 faces"));
    }
    body.check_end()?;
    Ok((vertices, triangles))
}

fn check_magic(bytes: &[u8], path: &Path) -> Result<(), LoadError> {
    if bytes.starts_with(b"ply\n") || bytes.starts_with(b"ply\r\n") {
        return Ok(());
    }
    Err(LoadError::BadMagic {
        path: path.into(),
        format: "PLY",
        magic: "ply",
    })
}

fn header_error(path: &Path, message: String) -> LoadError {
    LoadError::Header {
        path: path.into(),
        message,
    }
}

/// The data after the header, read element by element: ascii as numbered lines, binary as
/// bytes. Ascii errors point at the line (and say which element), binary ones at the element.
struct Body<'a> {
    bytes: &'a [u8],
    payload: &'a [u8],
    /// Ascii only: the payload's lines, numbered from the end of the header.
    lines: Option<std::iter::Zip<std::str::Lines<'a>, std::ops::RangeFrom<usize>>>,
    encoding: Encoding,
    path: &'a Path,
}

impl<'a> Body<'a> {
    fn new(
        bytes: &'a [u8],
        payload: &'a [u8],
        encoding: Encoding,
        path: &'a Path,
    ) -> Result<Self, LoadError> {
        let header_lines = line_at(bytes, bytes.len() - payload.len()) - 1;
        let lines = match encoding {
            Encoding::Ascii => {
                let text = std::str::from_utf8(payload).map_err(|e| LoadError::Syntax {
                    path: path.into(),
                    at: Location::Line(line_at(
                        bytes,
                        bytes.len() - payload.len() + e.valid_up_to(),
                    )),
                    message: "ascii PLY data is not valid UTF-8 text".into(),
                })?;
                Some(text.lines().zip(header_lines + 1..))
            }
            _ => None,
        };
        Ok(Self {
            bytes,
            payload,
            lines,
            encoding,
            path,
        })
    }

    /// Element `index` of `element`, and its line (0 for binary).
    fn read(
        &mut self,
        parser: &Parser<Record>,
        element: &ElementDef,
        index: usize,
    ) -> Result<(Record, usize), LoadError> {
        if let Some(lines) = self.lines.as_mut() {
            let (text, line) = lines.next().ok_or_else(|| self.truncated(element, index))?;
            let record = parser
                .read_ascii_element(text, element)
                .map_err(|_| self.syntax(element, index, line, &ascii_fault(text, element)))?;
            return Ok((record, line));
        }
        let read = if self.encoding == Encoding::BinaryBigEndian {
            parser.read_big_endian_element(&mut self.payload, element)
        } else {
            parser.read_little_endian_element(&mut self.payload, element)
        };
        let record = read.map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => self.truncated(element, index),
            _ => self.syntax(element, index, 0, &e),
        })?;
        Ok((record, 0))
    }

    fn truncated(&self, element: &ElementDef, index: usize) -> LoadError {
        LoadError::Truncated {
            path: self.path.into(),
            element: element.name.clone(),
            index,
            expected: element.count,
        }
    }

    fn syntax(
        &self,
        element: &ElementDef,
        index: usize,
        line: usize,
        message: &dyn std::fmt::Display,
    ) -> LoadError {
        let message = message
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let (at, message) = match self.encoding {
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
            path: self.path.into(),
            at,
            message,
        }
    }

    /// An error if anything but blank lines (ascii) or nothing (binary) follows the elements.
    fn check_end(self) -> Result<(), LoadError> {
        let trailing = match self.lines {
            Some(mut lines) => lines
                .find(|(text, _)| !text.trim().is_empty())
                .map(|(_, line)| Location::Line(line)),
            None => (!self.payload.is_empty()).then(|| Location::Element {
                kind: "byte".into(),
                index: self.bytes.len() - self.payload.len(),
            }),
        };
        match trailing {
            Some(at) => Err(LoadError::TrailingData {
                path: self.path.into(),
                at,
            }),
            None => Ok(()),
        }
    }
}

/// An error naming a NaN or infinite coordinate of a vertex.
fn check_finite(xyz: &[f64; 3]) -> Result<(), String> {
    match xyz.iter().find(|c| !c.is_finite()) {
        Some(c) => Err(format!(
            "a coordinate is {}; coordinates must be finite numbers",
            if c.is_nan() { "NaN" } else { "infinite" }
        )),
        None => Ok(()),
    }
}

/// An error naming what is wrong with a face of a mesh of `vertex_count` vertices (the messages
/// follow the face's name, `face 3: ...`).
fn check_face(face: &Record, vertex_count: usize) -> Result<(), String> {
    if face.negative_index {
        return Err("a vertex index is negative; PLY indices count from 0".into());
    }
    if face.corners.len() < 3 {
        return Err(format!(
            "{} corners, but a face needs at least 3",
            face.corners.len()
        ));
    }
    match face
        .corners
        .iter()
        .enumerate()
        .find(|(_, &i)| i as usize >= vertex_count)
    {
        Some((k, &i)) => Err(format!(
            "corner {k} {}",
            refers_past_the_end(i, vertex_count)
        )),
        None => Ok(()),
    }
}

/// Why the ascii line `text` is not an `element` (ply-rs's parse error names grammar rules):
/// a value that is not a finite number, or values that do not match the header's properties.
fn ascii_fault(text: &str, element: &ElementDef) -> String {
    for word in text.split_whitespace() {
        match word.parse::<f64>() {
            Ok(value) if value.is_finite() => {}
            Ok(_) => {
                return format!(
                    "{word:?}: ascii PLY has no NaN or infinity; values must be finite numbers"
                )
            }
            Err(_) => return format!("{word:?} is not a number"),
        }
    }
    let properties: Vec<String> = element
        .properties
        .iter()
        .map(|(name, p)| format!("{name} ({})", type_name(&p.data_type)))
        .collect();
    format!(
        "{:?} does not match the header's properties: {}",
        text.trim(),
        properties.join(", ")
    )
}

/// A property type as the PLY header writes it: `float`, `list uchar int`.
fn type_name(data_type: &PropertyType) -> String {
    let scalar = |t: &ScalarType| match t {
        ScalarType::Char => "char",
        ScalarType::UChar => "uchar",
        ScalarType::Short => "short",
        ScalarType::UShort => "ushort",
        ScalarType::Int => "int",
        ScalarType::UInt => "uint",
        ScalarType::Float => "float",
        ScalarType::Double => "double",
    };
    match data_type {
        PropertyType::Scalar(t) => scalar(t).into(),
        PropertyType::List(count, item) => format!("list {} {}", scalar(count), scalar(item)),
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
                    "vertex property \"{axis}\" is {}; obbtree reads float or double",
                    type_name(other)
                ))
            }
            None => {
                return Err(format!(
                    "the vertex element has no \"{axis}\" property; obbtree reads x, y and z"
                ))
            }
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
        None => Err(
            "the face element has no \"vertex_indices\" (or \"vertex_index\") list property".into(),
        ),
    }
}
