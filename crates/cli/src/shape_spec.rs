//! Primitive shapes as the program reads and writes them: in JSON (scene objects, robot
//! reports) `{"sphere":{"radius":r}}`, `{"box":{"size":[x,y,z]}}`,
//! `{"capsule":{"radius":r,"length":l}}`, `{"cylinder":{"radius":r,"length":l}}`,
//! `{"convex":{"mesh":"path"}}`, `{"halfspace":{"normal":[…],"offset":d}}`; on the command line
//! in place of a mesh path `sphere:R`, `capsule:R:L`, `box:X:Y:Z`, `cylinder:R:L`,
//! `convex:PATH`.

use super::Error;
use obbtree::load::load_mesh;
use obbtree::tree::TreeVolume;
use obbtree::{Model, ModelOptions, Shape, TriMesh};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A shape as written, before it is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// A ball about the origin.
    Sphere {
        /// Its radius.
        radius: f64,
    },
    /// A box of full sizes, centred.
    Box {
        /// Full sizes along x, y, z.
        size: [f64; 3],
    },
    /// A capsule along z, centred.
    Capsule {
        /// Its radius.
        radius: f64,
        /// The length of its segment.
        length: f64,
    },
    /// A cylinder along z, centred.
    Cylinder {
        /// Its radius.
        radius: f64,
        /// Its length.
        length: f64,
    },
    /// The convex hull of a mesh file's vertices.
    Convex {
        /// The mesh file (relative to the file that names it).
        mesh: PathBuf,
    },
    /// `{p : normal·p <= offset}`.
    Halfspace {
        /// The outward normal.
        normal: [f64; 3],
        /// The offset.
        offset: f64,
    },
}

impl ShapeSpec {
    /// The spec of a shape read from elsewhere (a robot's primitive); `None` for a convex hull,
    /// which has no file to name.
    pub fn of(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => ShapeSpec::Sphere { radius: s.radius() },
            Shape::Capsule(c) => ShapeSpec::Capsule {
                radius: c.radius(),
                length: c.length(),
            },
            Shape::Cylinder(c) => ShapeSpec::Cylinder {
                radius: c.radius(),
                length: c.length(),
            },
            Shape::Cuboid(b) => ShapeSpec::Box {
                size: b.sizes().into(),
            },
            Shape::Halfspace(h) => ShapeSpec::Halfspace {
                normal: h.normal().into(),
                offset: h.offset(),
            },
            Shape::Convex(_) => return None,
        })
    }

    /// The checked shape; a convex mesh is read relative to `dir`. The error says what is
    /// wrong with which value.
    pub fn shape(&self, dir: &Path) -> Result<Shape, String> {
        let shape = match self {
            ShapeSpec::Sphere { radius } => Shape::sphere(*radius),
            ShapeSpec::Box { size } => Shape::cuboid(*size),
            ShapeSpec::Capsule { radius, length } => Shape::capsule(*radius, *length),
            ShapeSpec::Cylinder { radius, length } => Shape::cylinder(*radius, *length),
            ShapeSpec::Convex { mesh } => {
                let path = dir.join(mesh);
                let mesh = load_mesh(&path).map_err(|e| e.to_string())?;
                Shape::convex(mesh.vertices())
            }
            ShapeSpec::Halfspace { normal, offset } => Shape::halfspace(*normal, *offset),
        };
        shape.map_err(|e| e.to_string())
    }

    /// A command-line shape (`sphere:R`, `capsule:R:L`, `box:X:Y:Z`, `cylinder:R:L`,
    /// `convex:PATH`), or `None` when `arg` does not start with one of those names (a mesh
    /// path).
    pub fn parse_arg(arg: &str) -> Option<Result<Self, String>> {
        let (name, rest) = arg.split_once(':')?;
        let numbers = |count: usize| -> Result<Vec<f64>, String> {
            let values: Vec<&str> = rest.split(':').collect();
            if values.len() != count {
                return Err(format!(
                    "{arg:?}: {name} takes {count} number(s) after \"{name}:\", separated by ':'"
                ));
            }
            values
                .iter()
                .map(|v| {
                    v.parse::<f64>()
                        .map_err(|_| format!("{arg:?}: {v:?} is not a number"))
                })
                .collect()
        };
        Some(match name {
            "sphere" => numbers(1).map(|v| ShapeSpec::Sphere { radius: v[0] }),
            "capsule" => numbers(2).map(|v| ShapeSpec::Capsule {
                radius: v[0],
                length: v[1],
            }),
            "cylinder" => numbers(2).map(|v| ShapeSpec::Cylinder {
                radius: v[0],
                length: v[1],
            }),
            "box" => numbers(3).map(|v| ShapeSpec::Box {
                size: [v[0], v[1], v[2]],
            }),
            "convex" => Ok(ShapeSpec::Convex {
                mesh: PathBuf::from(rest),
            }),
            _ => return None,
        })
    }
}

/// What a command-line geometry argument names: a mesh file, loaded, or a primitive shape.
pub enum Input {
    /// A mesh file's mesh.
    Mesh(TriMesh),
    /// A shape (see [`ShapeSpec::parse_arg`]).
    Shape(Shape),
}

impl Input {
    /// The shape `arg` names, or else the mesh file `arg`, loaded; errors name the argument.
    pub fn read(arg: &Path) -> Result<Self, Error> {
        match arg.to_str().and_then(ShapeSpec::parse_arg) {
            Some(spec) => spec
                .and_then(|spec| spec.shape(Path::new("")))
                .map(Input::Shape)
                .map_err(Error::Message),
            None => Ok(Input::Mesh(load_mesh(arg)?)),
        }
    }

    /// The number of triangles (0 for a shape).
    pub fn triangles(&self) -> usize {
        match self {
            Input::Mesh(mesh) => mesh.triangles().len(),
            Input::Shape(_) => 0,
        }
    }

    /// The model: the mesh's tree built by `options`, or the shape.
    pub fn model<V: TreeVolume>(self, options: &ModelOptions<V>) -> Result<Model<V>, Error> {
        match self {
            Input::Mesh(mesh) => Model::build(mesh, options)
                .map_err(|e| Error::Message(format!("cannot build the tree: {e}"))),
            Input::Shape(shape) => Ok(Model::from_shape(shape)),
        }
    }
}

/// `make(a)` and `make(b)`, the first error if either fails. With more than one thread in
/// rayon's pool the two run at once (each build also splits its own work there), so two models
/// take little more than the time of one on two cores; with one thread they run one after the
/// other on this thread, where the second build reuses the memory the first gave back.
pub fn both<T: Send, E: Send>(
    a: Input,
    b: Input,
    make: impl Fn(Input) -> Result<T, E> + Sync,
) -> Result<(T, T), E> {
    if rayon::current_num_threads() == 1 {
        return Ok((make(a)?, make(b)?));
    }
    let (a, b) = rayon::join(|| make(a), || make(b));
    Ok((a?, b?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_name_the_shape_and_its_numbers() {
        assert_eq!(
            ShapeSpec::parse_arg("box:1:2:3"),
            Some(Ok(ShapeSpec::Box {
                size: [1.0, 2.0, 3.0]
            }))
        );
        assert_eq!(
            ShapeSpec::parse_arg("capsule:0.5:2"),
            Some(Ok(ShapeSpec::Capsule {
                radius: 0.5,
                length: 2.0
            }))
        );
        assert_eq!(ShapeSpec::parse_arg("meshes/part.stl"), None);
        assert_eq!(ShapeSpec::parse_arg("c:/part.stl"), None);
        let wrong = ShapeSpec::parse_arg("sphere:1:2").unwrap().unwrap_err();
        assert!(wrong.contains("sphere takes 1 number"), "{wrong}");
        let nan = ShapeSpec::parse_arg("sphere:x").unwrap().unwrap_err();
        assert!(nan.contains("\"x\" is not a number"), "{nan}");
    }

    #[test]
    fn json_is_one_key_per_shape() {
        let spec: ShapeSpec = serde_json::from_str(r#"{"sphere":{"radius":2}}"#).unwrap();
        assert_eq!(spec, ShapeSpec::Sphere { radius: 2.0 });
        let text = serde_json::to_string(&ShapeSpec::Box {
            size: [1.0, 2.0, 3.0],
        })
        .unwrap();
        assert_eq!(text, r#"{"box":{"size":[1.0,2.0,3.0]}}"#);
        assert!(serde_json::from_str::<ShapeSpec>(r#"{"sphere":{"r":2}}"#).is_err());
        let bad = ShapeSpec::Sphere { radius: -1.0 }
            .shape(Path::new(""))
            .unwrap_err();
        assert!(bad.contains("radius"), "{bad}");
    }
}
