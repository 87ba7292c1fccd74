//! Damaged saved trees are refused, for every volume type: every truncation, every single-bit
//! flip, random multi-byte damage, and forged files (a damaged payload with a recomputed, valid
//! checksum), which must be refused or load as a consistent tree (never panic, never an
//! inconsistent tree that a traversal could trip on). The AABB case of the first two is also in
//! `crates/tree/tests/serialize.rs`; here every volume type goes through the same checks.

#[path = "../fuzz/src/lib.rs"]
mod targets;

use obbtree::bv::{Aabb, Kdop18, Obb, Sphere};
use obbtree::tree::{BuildOptions, Bvh, LoadError, TreeVolume};
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
            matches!(err, LoadError::NotATreeFile | LoadError::Corrupted(_)),
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
    // Forged: the payload damaged and resealed. The structure check is what stands between such
    // a file and the traversal code. (Damaged volume coordinates pass it: volumes are not checked
    // against the mesh on loading.)
    let payload = &bytes[HEADER..bytes.len() - TRAILER];
    for at in 0..payload.len() {
        for value in [0x00, 0xff, payload[at] ^ 0x01, payload[at] ^ 0x80] {
            let mut forged = payload.to_vec();
            forged[at] = value;
            if let Ok(tree) = Bvh::<V>::from_bytes(&seal(&forged), mesh) {
                check_tree(&tree, mesh, None);
            }
        }
    }
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
        Err(LoadError::WrongVolume { .. })
    ));
    assert!(matches!(
        Bvh::<Kdop18>::from_bytes(&saved::<Sphere>(), mesh),
        Err(LoadError::WrongVolume { .. })
    ));
}
