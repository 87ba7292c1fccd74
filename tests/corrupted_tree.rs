//! Damaged saved trees are refused, for every volume type: every truncation, every single-bit
//! flip, random multi-byte damage, and forged files (a damaged payload with a recomputed, valid
//! checksum), which must be refused or load as a consistent tree (never panic, never an
//! inconsistent tree that a traversal could trip on), and forged volumes (a root volume shrunk in
//! the file, checksum recomputed), refused by the volume check on loading. The AABB case of the first two is also in
//! `crates/tree/tests/serialize.rs`; here every volume type goes through the same checks.

#[path = "../fuzz/src/lib.rs"]
mod targets;

use obbtree::bv::{Aabb, Kdop18, Obb, Sphere};
use obbtree::tree::{BuildOptions, Bvh, TreeFileError, TreeVolume};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{de::DeserializeOwned, Serialize};
use targets::{check_tree, seal, tree_mesh};

const HEADER: usize = 20;
const TRAILER: usize = 8;

fn saved<V: TreeVolume + Serialize + DeserializeOwned>() -> Vec<u8> {
    let options = BuildOptions::<V> {
        leaf_size: 2,
        ..Default::default()
    };
    Bvh::<V>::build(tree_mesh(), &options).unwrap().to_bytes()
}

fn refused<V: TreeVolume + Serialize + DeserializeOwned>() {
    let mesh = tree_mesh();
    let bytes = saved::<V>();
    assert!(Bvh::<V>::from_bytes(&bytes, mesh).is_ok());
    for len in 0..bytes.len() {
        let err = Bvh::<V>::from_bytes(&bytes[..len], mesh).unwrap_err();
        assert!(
            matches!(
                err,
                TreeFileError::NotATreeFile | TreeFileError::Corrupted(_)
            ),
            "{} truncated to {len}: {err}",
            V::NAME
        );
    }
    for at in 0..bytes.len() {
        for bit in 0..8 {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << bit;
            assert!(
                Bvh::<V>::from_bytes(&damaged, mesh).is_err(),
                "{} byte {at} bit {bit} accepted",
                V::NAME
            );
        }
    }
    let mut rng = Pcg64::seed_from_u64(6);
    for _ in 0..2000 {
        let mut damaged = bytes.clone();
        for _ in 0..rng.gen_range(2..8) {
            let at = rng.gen_range(0..damaged.len());
            damaged[at] = rng.gen();
        }
        if damaged != bytes {
            assert!(Bvh::<V>::from_bytes(&damaged, mesh).is_err());
        }
    }
    // Forged: the payload damaged and resealed. The structure and volume checks are what stand
    // between such a file and the traversal code: whatever loads is consistent and every volume
    // contains its triangles exactly (a widened volume may pass: it is still correct).
    let payload = &bytes[HEADER..bytes.len() - TRAILER];
    for at in 0..payload.len() {
        for value in [0x00, 0xff, payload[at] ^ 0x01, payload[at] ^ 0x80] {
            let mut forged = payload.to_vec();
            forged[at] = value;
            if let Ok(tree) = Bvh::<V>::from_bytes(&seal(&forged), mesh) {
                check_tree(&tree, mesh, Some(0.0));
            }
        }
    }
}

/// A saved tree whose root volume was shrunk by editing the file's bytes (one `f64` of the
/// root's volume, found by its bit pattern, halved) and whose checksum was recomputed as
/// `serialize.rs` does (`seal`): the checksum passes, the volume check refuses it, naming the
/// node.
fn forged<V: TreeVolume + Serialize + DeserializeOwned>(field: impl Fn(&V) -> f64) {
    let mesh = tree_mesh();
    let bytes = saved::<V>();
    let tree = Bvh::<V>::from_bytes(&bytes, mesh).unwrap();
    let value = field(tree.root().bv());
    let mut payload = bytes[HEADER..bytes.len() - TRAILER].to_vec();
    let at = payload
        .windows(8)
        .position(|w| w == value.to_le_bytes())
        .unwrap();
    payload[at..at + 8].copy_from_slice(&(value * 0.5).to_le_bytes());
    let forged = seal(&payload);
    let mut tampered = forged.clone();
    tampered[HEADER + at] ^= 1; // without resealing: the checksum catches it
    assert!(matches!(
        Bvh::<V>::from_bytes(&tampered, mesh),
        Err(TreeFileError::Corrupted(e)) if e.contains("checksum")
    ));
    let err = Bvh::<V>::from_bytes(&forged, mesh).unwrap_err();
    assert!(
        matches!(&err, TreeFileError::Corrupted(e) if e.contains("volume of node 0 does not contain")),
        "{}: {err}",
        V::NAME
    );
}

#[test]
fn forged_volumes_are_refused() {
    forged::<Aabb>(|b| b.maxs.x);
    forged::<Obb>(|b| b.half_extents.x);
    forged::<Sphere>(|b| b.radius);
    forged::<Kdop18>(|b| b.max[0]);
}

#[test]
fn aabb_tree() {
    refused::<Aabb>();
}

#[test]
fn obb_tree() {
    refused::<Obb>();
}

#[test]
fn sphere_tree() {
    refused::<Sphere>();
}

#[test]
fn kdop18_tree() {
    refused::<Kdop18>();
}

/// A file of one volume type is never read as another.
#[test]
fn other_volume_types_are_refused() {
    let mesh = tree_mesh();
    let obb = saved::<Obb>();
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(&obb, mesh),
        Err(TreeFileError::WrongVolume { .. })
    ));
    assert!(matches!(
        Bvh::<Kdop18>::from_bytes(&saved::<Sphere>(), mesh),
        Err(TreeFileError::WrongVolume { .. })
    ));
}
