//! Save/load round trip, and refusal of the wrong mesh, the wrong volume type, other versions and
//! damaged or truncated bytes.

mod common;

use common::*;
use obbtree_bv::{Aabb, Kdop18, Obb, Sphere, TriMesh};
use obbtree_tree::{Bvh, SplitRule, TreeFileError, TreeVolume, FORMAT_VERSION};
use proptest::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

fn built<V: TreeVolume>(mesh: &TriMesh) -> Bvh<V> {
    Bvh::build(mesh, &options(2, SplitRule::default(), true)).unwrap()
}

/// The same mesh with one coordinate moved by one ulp.
fn nudged(mesh: &TriMesh) -> TriMesh {
    let mut vertices = mesh.vertices().to_vec();
    vertices[0].x = f64::from_bits(vertices[0].x.to_bits() + 1);
    TriMesh::new(vertices, mesh.triangles().to_vec()).unwrap()
}

fn round_trip<V>(mesh: &TriMesh)
where
    V: TreeVolume + Serialize + DeserializeOwned + PartialEq,
{
    let bvh = built::<V>(mesh);
    let bytes = bvh.to_bytes();
    let loaded = Bvh::<V>::from_bytes(&bytes, mesh).unwrap();
    assert!(loaded == bvh);
    assert_eq!(loaded.to_bytes(), bytes);
    assert!(matches!(
        Bvh::<V>::from_bytes(&bytes, &nudged(mesh)),
        Err(TreeFileError::WrongMesh(_))
    ));
}

macro_rules! volume_tests {
    ($module:ident, $V:ty) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn round_trip_and_wrong_mesh(seed: u64, n in 1usize..300) {
                    round_trip::<$V>(&soup(seed, n, 1.0, 0.0));
                }
            }
        }
    };
}

for_each_volume!(volume_tests);

#[test]
fn save_and_load_a_file() {
    let mesh = soup(3, 1000, 1.0, 0.0);
    let bvh = built::<Aabb>(&mesh);
    let path = std::env::temp_dir().join(format!("obbtree-tree-test-{}.bvh", std::process::id()));
    bvh.save(&path).unwrap();
    let loaded = Bvh::<Aabb>::load(&path, &mesh);
    std::fs::remove_file(&path).unwrap();
    assert!(loaded.unwrap() == bvh);
    assert!(matches!(
        Bvh::<Aabb>::load("/nonexistent/tree.bvh", &mesh),
        Err(TreeFileError::Io(_))
    ));
}

#[test]
fn another_mesh_is_refused_with_a_clear_error() {
    let bvh = built::<Aabb>(&soup(4, 100, 1.0, 0.0));
    let other = soup(5, 100, 1.0, 0.0);
    let err = Bvh::<Aabb>::from_bytes(&bvh.to_bytes(), &other).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("built for another mesh"), "{message}");
    // Same vertices, one triangle's indices rotated: same geometry, other topology.
    let mesh = soup(6, 50, 1.0, 0.0);
    let mut triangles = mesh.triangles().to_vec();
    triangles[10].rotate_left(1);
    let rotated = TriMesh::new(mesh.vertices().to_vec(), triangles).unwrap();
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(&built::<Aabb>(&mesh).to_bytes(), &rotated),
        Err(TreeFileError::WrongMesh(_))
    ));
}

/// Every truncation and every single-byte change of a small file is refused (never accepted,
/// never a panic).
#[test]
fn every_truncation_and_byte_flip_is_refused() {
    let mesh = soup(8, 40, 1.0, 0.0);
    let bytes = built::<Aabb>(&mesh).to_bytes();
    for len in 0..bytes.len() {
        assert!(
            Bvh::<Aabb>::from_bytes(&bytes[..len], &mesh).is_err(),
            "truncated to {len}"
        );
    }
    for at in 0..bytes.len() {
        for bit in 0..8 {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << bit;
            let err = Bvh::<Aabb>::from_bytes(&damaged, &mesh).unwrap_err();
            let expected = match at {
                0..=7 => matches!(err, TreeFileError::NotATreeFile),
                8..=11 => matches!(err, TreeFileError::UnsupportedVersion { .. }),
                _ => matches!(err, TreeFileError::Corrupted(_)),
            };
            assert!(expected, "byte {at} bit {bit}: {err}");
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(&longer, &mesh),
        Err(TreeFileError::Corrupted(_))
    ));
}

#[test]
fn other_versions_are_refused() {
    let mesh = soup(9, 10, 1.0, 0.0);
    let mut bytes = built::<Aabb>(&mesh).to_bytes();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = Bvh::<Aabb>::from_bytes(&bytes, &mesh).unwrap_err();
    assert!(
        err.to_string().contains("version 2 is not supported"),
        "{err}"
    );
}

#[test]
fn garbage_is_not_a_tree_file() {
    let mesh = soup(10, 10, 1.0, 0.0);
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(b"ply\nformat ascii 1.0\n", &mesh),
        Err(TreeFileError::NotATreeFile)
    ));
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(&[], &mesh),
        Err(TreeFileError::NotATreeFile)
    ));
}

#[test]
fn another_volume_type_is_refused() {
    let mesh = soup(12, 100, 1.0, 0.0);
    let bytes = built::<Obb>(&mesh).to_bytes();
    assert!(Bvh::<Obb>::from_bytes(&bytes, &mesh).is_ok());
    let err = Bvh::<Aabb>::from_bytes(&bytes, &mesh).unwrap_err();
    assert!(
        matches!(&err, TreeFileError::WrongVolume { expected: "aabb", found } if found == "obb"),
        "{err}"
    );
    assert!(matches!(
        Bvh::<Kdop18>::from_bytes(&bytes, &mesh),
        Err(TreeFileError::WrongVolume { .. })
    ));
    assert!(matches!(
        Bvh::<Sphere>::from_bytes(&bytes, &mesh),
        Err(TreeFileError::WrongVolume { .. })
    ));
}
