//! COLLADA (`.dae`): the geometry read by the `mesh-loader` crate, placed by this module.
//!
//! Vertex `p` of a `<geometry>` instanced by an `<instance_geometry>` under the nodes
//! `N1 ⊃ … ⊃ Nk` of the visual scene that the file's `<scene>` names lands at
//! `unit · N1 ⋯ Nk · p`: metres (`<asset><unit meter=…>`, 1 when absent) in the file's root
//! frame. A node's transform is its `<matrix>` (row-major), `<translate>`, `<rotate>` (axis,
//! then degrees) and `<scale>` elements composed in document order, in f64. A geometry
//! instanced twice is there twice; one never instanced is left out. A file without a
//! `<scene>` gives every geometry once, unplaced but scaled to metres. `<up_axis>` is not
//! applied: vertices keep the file's own axes, as URDF tools expect. `<instance_node>`,
//! `<lookat>` and `<skew>` are refused, never skipped.
//!
//! mesh-loader 0.1.13 triangulates `<triangles>`, `<polylist>`, `<polygons>` and the strips
//! and fans, but it applies the unit before the node transforms (node translations stay in file
//! units) and places one instance per geometry. So it is handed the file without its
//! `<library_visual_scenes>` and `<scene>`, which makes it return each geometry as written,
//! and this module does the placing.

use super::{no_faces, LoadError, Location, Parsed};
use nalgebra::{Matrix4, Point3, Rotation3, Unit, Vector3};
use obbtree_bv::Point;
use std::path::Path;

/// The vertices (metres, root frame) and triangles of every geometry instance in `bytes`.
pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Parsed, LoadError> {
    let header = |message: String| LoadError::Header {
        path: path.into(),
        message,
    };
    let text = std::str::from_utf8(bytes)
        .map_err(|e| header(format!("not UTF-8 text (COLLADA files are XML): {e}")))?;
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| header(format!("not a valid XML file: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "COLLADA" {
        return Err(header(format!(
            "the root element is <{}>, not <COLLADA>",
            root.tag_name().name()
        )));
    }
    let unit = unit(root).map_err(|e| syntax(path, &doc, e))?;
    let instances = instances(root).map_err(|e| syntax(path, &doc, e))?;
    let geometry = geometry_only(text, root);
    let scene = std::panic::catch_unwind(|| mesh_loader::collada::from_str(&geometry))
        .map_err(|_| header("mesh-loader could not read the geometry (it panicked)".into()))?
        .map_err(|e| header(format!("mesh-loader could not read the geometry: {e}")))?;
    let instances = match instances {
        Some(list) => list,
        None => scene
            .meshes
            .iter()
            .map(|m| (m.name.clone(), Matrix4::identity(), root))
            .collect(),
    };
    let (mut vertices, mut triangles) = (Vec::new(), Vec::new());
    for (id, transform, at) in instances {
        let mesh = scene.meshes.iter().find(|m| m.name == id).ok_or_else(|| {
            let message = format!(
                "<instance_geometry> names geometry {id:?}, which the file does not define"
            );
            syntax(path, &doc, (at, message))
        })?;
        let first =
            u32::try_from(vertices.len()).map_err(|_| header("more than 2^32 vertices".into()))?;
        let place = unit * transform;
        vertices.extend(mesh.vertices.iter().map(|&[x, y, z]| -> Point {
            place.transform_point(&Point3::new(x.into(), y.into(), z.into()))
        }));
        triangles.extend(mesh.faces.iter().map(|f| f.map(|i| first + i)));
    }
    if triangles.is_empty() {
        return Err(no_faces(
            path,
            "no faces: a COLLADA mesh needs an instanced <geometry> with <triangles>, <polylist> or <polygons>",
        ));
    }
    Ok((vertices, triangles))
}

/// A problem at an element: the element, and what is wrong.
type Fault<'a> = (roxmltree::Node<'a, 'a>, String);

/// A [`LoadError::Syntax`] at the line of the element at fault.
fn syntax(path: &Path, doc: &roxmltree::Document, (at, message): Fault) -> LoadError {
    LoadError::Syntax {
        path: path.into(),
        at: Location::Line(doc.text_pos_at(at.range().start).row as usize),
        message,
    }
}

/// The child elements of `node` named `name`.
fn children<'a>(
    node: roxmltree::Node<'a, 'a>,
    name: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'a>> + 'a {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

/// The scaling to metres of `<asset><unit meter=…>` (1 without one).
fn unit<'a>(root: roxmltree::Node<'a, 'a>) -> Result<Matrix4<f64>, Fault<'a>> {
    let Some(unit) = children(root, "asset")
        .flat_map(|a| children(a, "unit"))
        .next()
    else {
        return Ok(Matrix4::identity());
    };
    let meter = unit.attribute("meter").unwrap_or("1");
    match meter.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 => Ok(Matrix4::new_scaling(m)),
        _ => Err((
            unit,
            format!("<unit meter={meter:?}> is not a positive number"),
        )),
    }
}

/// Every `<instance_geometry>` of the visual scene that `<scene>` names: the geometry id, its
/// node chain's transform, and the element; `None` when the file has no `<scene>`.
#[allow(clippy::type_complexity)]
fn instances<'a>(
    root: roxmltree::Node<'a, 'a>,
) -> Result<Option<Vec<(String, Matrix4<f64>, roxmltree::Node<'a, 'a>)>>, Fault<'a>> {
    let Some(named) = children(root, "scene")
        .flat_map(|s| children(s, "instance_visual_scene"))
        .next()
    else {
        return Ok(None);
    };
    let url = named.attribute("url").unwrap_or_default();
    let id = url.strip_prefix('#').unwrap_or(url);
    let scene = children(root, "library_visual_scenes")
        .flat_map(|l| children(l, "visual_scene"))
        .find(|v| v.attribute("id") == Some(id))
        .ok_or_else(|| {
            (
                named,
                format!("<instance_visual_scene> names {url:?}, which the file does not define"),
            )
        })?;
    let mut out = Vec::new();
    place(scene, Matrix4::identity(), &mut out)?;
    Ok(Some(out))
}

/// Appends the geometry instances under `node` (a `<visual_scene>` or `<node>` whose frame is
/// `parent` in the root frame) to `out`.
fn place<'a>(
    node: roxmltree::Node<'a, 'a>,
    parent: Matrix4<f64>,
    out: &mut Vec<(String, Matrix4<f64>, roxmltree::Node<'a, 'a>)>,
) -> Result<(), Fault<'a>> {
    let mut frame = parent;
    for child in node.children().filter(|c| c.is_element()) {
        match child.tag_name().name() {
            "matrix" | "translate" | "rotate" | "scale" => frame *= transform(child)?,
            "node" => place(child, frame, out)?,
            "instance_geometry" => {
                let url = child.attribute("url").unwrap_or_default();
                out.push((
                    url.strip_prefix('#').unwrap_or(url).to_string(),
                    frame,
                    child,
                ));
            }
            refused @ ("instance_node" | "lookat" | "skew") => {
                return Err((child, format!("<{refused}> is not supported")));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The transform of one `<matrix>`, `<translate>`, `<rotate>` or `<scale>` element.
fn transform<'a>(element: roxmltree::Node<'a, 'a>) -> Result<Matrix4<f64>, Fault<'a>> {
    let name = element.tag_name().name();
    let numbers: Vec<f64> = element
        .text()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| (element, format!("<{name}>: {e}")))?;
    let count = match name {
        "matrix" => 16,
        "rotate" => 4,
        _ => 3,
    };
    if numbers.len() != count || !numbers.iter().all(|x| x.is_finite()) {
        return Err((
            element,
            format!("<{name}> needs {count} finite numbers, not {numbers:?}"),
        ));
    }
    let v = Vector3::new(numbers[0], numbers[1], numbers[2]);
    Ok(match name {
        "matrix" => {
            let m = Matrix4::from_row_slice(&numbers);
            if m.row(3) != Matrix4::<f64>::identity().row(3) {
                return Err((element, "<matrix>: the last row must be 0 0 0 1".into()));
            }
            m
        }
        "translate" => Matrix4::new_translation(&v),
        "scale" => Matrix4::new_nonuniform_scaling(&v),
        _ => {
            let axis = Unit::try_new(v, 0.0)
                .ok_or_else(|| (element, "<rotate>: the axis is zero".to_string()))?;
            Rotation3::from_axis_angle(&axis, numbers[3].to_radians()).to_homogeneous()
        }
    })
}

/// `text` without the root's `<library_visual_scenes>` and `<scene>` elements.
fn geometry_only(text: &str, root: roxmltree::Node) -> String {
    let cut = root
        .children()
        .filter(|c| matches!(c.tag_name().name(), "library_visual_scenes" | "scene"))
        .map(|c| c.range())
        .collect();
    text_without(text, cut)
}

/// `text` with the byte ranges `cut` (disjoint, each on character boundaries, as an XML
/// parser's node ranges are) left out.
pub(crate) fn text_without(text: &str, mut cut: Vec<std::ops::Range<usize>>) -> String {
    cut.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for r in cut {
        out.push_str(&text[from..r.start]);
        from = r.end;
    }
    out.push_str(&text[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate_is_degrees_about_the_axis() {
        let doc = roxmltree::Document::parse("<rotate>0 0 2 90</rotate>").unwrap();
        let m = transform(doc.root_element()).unwrap();
        let p = m.transform_point(&Point3::new(1.0, 0.0, 0.0));
        assert!((p - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-15, "{p}");
    }
}
