//! The volume types a program chooses among at run time, listed once.
//!
//! [`volume_kinds!`](crate::volume_kinds) holds the one list (variant, type, stable name). From
//! it come [`VolumeKind`], the runtime choice, and [`with_volume!`](crate::with_volume), the one
//! way to turn a `VolumeKind` into the type generic code is instantiated with. The program, the
//! Python bindings, the fuzz targets and the tests all dispatch through these, so a new volume
//! type is its trait impls plus one line of the list.
//!
//! ```
//! use obbtree_tree::{with_volume, TreeVolume, VolumeKind};
//!
//! let names: Vec<&str> = VolumeKind::ALL
//!     .iter()
//!     .map(|&kind| with_volume!(kind, |V| <V as TreeVolume>::NAME))
//!     .collect();
//! assert_eq!(names, ["obb", "aabb", "sphere", "kdop6", "kdop14", "kdop18", "kdop26"]);
//! assert_eq!(VolumeKind::from_name("kdop18"), Some(VolumeKind::Kdop18));
//! ```

/// Calls the macro named in brackets with the list of runtime volume kinds, after the tokens
/// that follow the brackets: `volume_kinds!([callback] args…)` expands to
/// `callback! { args… Variant(Type) = "name", … }`. The one list of the volume types that
/// programs choose by name; each name is the type's [`TreeVolume::NAME`](crate::TreeVolume::NAME).
#[macro_export]
macro_rules! volume_kinds {
    ([$($callback:tt)+] $($args:tt)*) => {
        $($callback)+! {
            $($args)*
            Obb($crate::__private::Obb) = "obb",
            Aabb($crate::__private::Aabb) = "aabb",
            Sphere($crate::__private::Sphere) = "sphere",
            Kdop6($crate::__private::Kdop6) = "kdop6",
            Kdop14($crate::__private::Kdop14) = "kdop14",
            Kdop18($crate::__private::Kdop18) = "kdop18",
            Kdop26($crate::__private::Kdop26) = "kdop26",
        }
    };
}

/// Runs `$body` with the type alias `$V` naming the volume type of `$kind` (a [`VolumeKind`]):
/// `with_volume!(kind, |V| Bvh::<V>::build(&mesh, &BuildOptions::default()).map(|t| t.len()))`.
/// Every arm must have the same type.
#[macro_export]
macro_rules! with_volume {
    ($kind:expr, |$V:ident| $body:expr) => {
        $crate::volume_kinds!([$crate::__with_volume_arms]($kind)($V)($body))
    };
}

/// The arms of [`with_volume!`](crate::with_volume), one per kind of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_volume_arms {
    (($kind:expr) ($V:ident) ($body:expr) $($variant:ident($volume:ty) = $name:literal,)+) => {
        match $kind {
            $($crate::VolumeKind::$variant => {
                #[allow(dead_code)]
                type $V = $volume;
                $body
            })+
        }
    };
}

/// Declares [`VolumeKind`] from the list.
macro_rules! declare_volume_kind {
    ($($variant:ident($volume:ty) = $name:literal,)+) => {
        /// A volume type chosen at run time (by name in the program, in Python, in tree files):
        /// dispatch on it with [`with_volume!`](crate::with_volume).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum VolumeKind {
            $(#[doc = concat!("`", $name, "`: [`", stringify!($variant), "`](obbtree_bv::", stringify!($variant), ").")]
            $variant,)+
        }

        impl VolumeKind {
            /// Every kind, in the list's order.
            pub const ALL: [VolumeKind; [$($name),+].len()] = [$(VolumeKind::$variant),+];

            /// The stable name (`"obb"`, `"kdop18"`, …): the type's
            /// [`TreeVolume::NAME`](crate::TreeVolume::NAME).
            pub fn name(self) -> &'static str {
                match self {
                    $(VolumeKind::$variant => $name,)+
                }
            }

            /// The kind named `name`, if any.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($name => Some(VolumeKind::$variant),)+
                    _ => None,
                }
            }

        }
    };
}

volume_kinds!([declare_volume_kind]);

impl std::fmt::Display for VolumeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The volume types, for the registry's macros (which expand in other crates).
#[doc(hidden)]
pub mod __private {
    pub use obbtree_bv::{Aabb, Kdop14, Kdop18, Kdop26, Kdop6, Obb, Sphere};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TreeVolume;

    /// Each kind's name is its type's `TreeVolume::NAME`, and names go both ways.
    #[test]
    fn names_are_the_types_names() {
        for kind in VolumeKind::ALL {
            assert_eq!(kind.name(), with_volume!(kind, |V| <V as TreeVolume>::NAME));
            assert_eq!(VolumeKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(VolumeKind::from_name("rss"), None);
        assert_eq!(VolumeKind::from_name("OBB"), None);
    }
}
