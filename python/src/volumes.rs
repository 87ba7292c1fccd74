//! The volume types the bindings offer, chosen by name at run time: [`AnyModel`] and
//! [`AnyScene`] hold a typed model or scene of each; [`with_model!`], [`with_models!`],
//! [`with_scene!`] and [`with_scene_model!`] run the engine's generic code on whichever type
//! they hold, over the registry's list of volume kinds (`obbtree::tree::volume_kinds!`).

use crate::errors::{mesh_error, value_error};
use obbtree::tree::{Bvh, TreeFileError};
use obbtree::{Model as TypedModel, Scene, Shape, TriMesh};
use pyo3::prelude::*;
use std::sync::Arc;

/// Declares [`AnyModel`] and [`AnyScene`] over the volume types given as
/// `Variant(Type) = "name"`, with the by-name constructors and the dispatch macros.
macro_rules! volumes {
    ($($variant:ident($volume:ty) = $name:literal),+ $(,)?) => {
        /// A model of any volume type the bindings offer.
        #[derive(Clone)]
        pub enum AnyModel {
            $(#[doc = $name] $variant(TypedModel<$volume>),)+
        }

        /// The volume names, in the order of [`AnyModel`].
        pub const VOLUME_NAMES: &[&str] = &[$($name),+];

        impl AnyModel {
            /// The volume type's name (`"obb"`, ...).
            pub fn volume(&self) -> &'static str {
                match self {
                    $(AnyModel::$variant(_) => $name,)+
                }
            }

            /// Builds the hierarchy of volume type `name` over `mesh`.
            pub fn build(mesh: Arc<TriMesh>, name: &str) -> PyResult<Self> {
                let built = match name {
                    $($name => TypedModel::<$volume>::new(mesh).map(AnyModel::$variant),)+
                    _ => return Err(unknown_volume(name)),
                };
                built.map_err(|e| mesh_error("mesh", e))
            }

            /// A primitive solid as a model of volume type `name` (the type two-model queries
            /// match with the other model's).
            pub fn from_shape(shape: Shape, name: &str) -> PyResult<Self> {
                match name {
                    $($name => Ok(AnyModel::$variant(TypedModel::<$volume>::from_shape(shape))),)+
                    _ => Err(unknown_volume(name)),
                }
            }

            /// The model of the tree in `bytes` (a tree file's contents) over `mesh`, of the
            /// volume type the bytes name.
            pub fn from_tree_bytes(
                bytes: &[u8],
                mesh: Arc<TriMesh>,
                name: &str,
            ) -> Result<Self, TreeFileError> {
                Ok(match name {
                    $($name => AnyModel::$variant(
                        TypedModel::from_tree(Arc::clone(&mesh), Bvh::<$volume>::from_bytes(bytes, &mesh)?)
                            .map_err(TreeFileError::WrongMesh)?,
                    ),)+
                    other => return Err(TreeFileError::WrongVolume {
                        expected: "a volume type these bindings offer",
                        found: other.to_string(),
                    }),
                })
            }
        }

        /// Runs `$body` with `$m` bound to the typed model inside `$any` (an `&AnyModel`).
        macro_rules! with_model {
            ($any:expr, |$m:ident| $body:expr) => {
                match $any {
                    $(crate::volumes::AnyModel::$variant($m) => $body,)+
                }
            };
        }

        /// Runs `$body` with `$a`, `$b` bound to two typed models of one volume type; a
        /// `ValueError` when their types differ.
        macro_rules! with_models {
            ($x:expr, $y:expr, |$a:ident, $b:ident| $body:expr) => {
                match ($x, $y) {
                    $((crate::volumes::AnyModel::$variant($a), crate::volumes::AnyModel::$variant($b)) => $body,)+
                    (x, y) => Err(crate::volumes::mixed_volumes(x, y)),
                }
            };
        }
        $(impl From<TypedModel<$volume>> for AnyModel {
            fn from(model: TypedModel<$volume>) -> Self {
                AnyModel::$variant(model)
            }
        })+

        /// A scene of any volume type the bindings offer.
        pub enum AnyScene {
            $(#[doc = $name] $variant(Scene<$volume>),)+
        }

        impl AnyScene {
            /// An empty scene of volume type `name`.
            pub fn new(name: &str) -> PyResult<Self> {
                match name {
                    $($name => Ok(AnyScene::$variant(Scene::new())),)+
                    _ => Err(unknown_volume(name)),
                }
            }

            /// The volume type's name.
            pub fn volume(&self) -> &'static str {
                match self {
                    $(AnyScene::$variant(_) => $name,)+
                }
            }
        }

        /// Runs `$body` with `$s` bound to the typed scene inside `$any`.
        macro_rules! with_scene {
            ($any:expr, |$s:ident| $body:expr) => {
                match $any {
                    $(crate::volumes::AnyScene::$variant($s) => $body,)+
                }
            };
        }

        /// Runs `$body` with `$s` bound to the typed scene and `$m` to the typed model of the
        /// same volume type; a `ValueError` when the types differ.
        macro_rules! with_scene_model {
            ($scene:expr, $model:expr, |$s:ident, $m:ident| $body:expr) => {
                match ($scene, $model) {
                    $((crate::volumes::AnyScene::$variant($s), crate::volumes::AnyModel::$variant($m)) => $body,)+
                    (s, m) => Err(crate::volumes::scene_mismatch(s.volume(), m.volume())),
                }
            };
        }

        /// Runs `$body` with `$s`, `$t` bound to two typed scenes of one volume type.
        macro_rules! with_scenes {
            ($x:expr, $y:expr, |$s:ident, $t:ident| $body:expr) => {
                match ($x, $y) {
                    $((crate::volumes::AnyScene::$variant($s), crate::volumes::AnyScene::$variant($t)) => $body,)+
                    (s, t) => Err(crate::volumes::scene_mismatch(s.volume(), t.volume())),
                }
            };
        }
    };
}

// The registry's one list of runtime volume kinds.
obbtree::tree::volume_kinds!([volumes]);

// Makes the macros, defined by `volumes!`, reachable by path from the other modules (clippy
// takes the re-export of a textually scoped macro for a redundant import).
#[allow(clippy::single_component_path_imports)]
pub(crate) use {with_model, with_models, with_scene, with_scene_model, with_scenes};

fn unknown_volume(name: &str) -> PyErr {
    value_error(
        "bv",
        format!("unknown bounding volume {name:?}; choose one of {VOLUME_NAMES:?}"),
    )
}

/// The error of a two-model query on models of different volume types.
pub fn mixed_volumes(a: &AnyModel, b: &AnyModel) -> PyErr {
    value_error(
        "b",
        format!(
            "the models have different bounding volumes ({} and {}); build both with the same bv",
            a.volume(),
            b.volume()
        ),
    )
}

impl AnyModel {
    /// The mesh, shared; a `ValueError` for a primitive shape.
    pub fn shared_mesh(&self) -> PyResult<Arc<TriMesh>> {
        with_model!(self, |m| m.as_mesh().map(|m| m.shared_mesh()))
            .ok_or_else(|| value_error("model", "a primitive shape has no mesh"))
    }

    /// The tree as the bytes of a tree file; a `ValueError` for a primitive shape.
    pub fn tree_bytes(&self) -> PyResult<Vec<u8>> {
        with_model!(self, |m| m.as_mesh().map(|m| m.tree().to_bytes()))
            .ok_or_else(|| value_error("model", "a primitive shape has no tree"))
    }
}

/// The error of a scene operation on a model (or another scene) of another volume type.
pub fn scene_mismatch(scene: &str, other: &str) -> PyErr {
    value_error(
        "model",
        format!("the scene holds {scene} models, not {other}; build the model with bv={scene:?}"),
    )
}
