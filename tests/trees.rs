//! Every bundled mesh, every volume type, every split rule: the tree invariants (every node's
//! volume contains every vertex below it, every triangle in exactly one leaf, depth bound), the
//! parallel build equal to the serial one, and a save/load round trip.

mod common;
#[path = "../crates/tree/tests/common/mod.rs"]
#[allow(clippy::duplicate_mod)] // both helper modules include the one case knob
mod tree_common;

use common::{asset, BUNDLED};
use obbtree::bv::{Aabb, Kdop18, Obb, Sphere, TriMesh};
use obbtree::load::load_mesh;
use obbtree::tree::{BuildOptions, Bvh, SplitRule, TreeVolume};
use serde::{de::DeserializeOwned, Serialize};
use tree_common::{check_tree, tolerance};

fn check_all_rules<V>(name: &str, mesh: &TriMesh)
where
    V: TreeVolume + Serialize + DeserializeOwned + PartialEq,
{
    for split in [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah] {
        let options = |parallel| BuildOptions::<V> {
            split,
            parallel,
            ..Default::default()
        };
        let serial = Bvh::<V>::build(mesh, &options(false)).unwrap();
        check_tree(&serial, mesh, tolerance(mesh));
        let parallel = Bvh::<V>::build(mesh, &options(true)).unwrap();
        assert!(
            serial == parallel,
            "{name} {} {split:?}: parallel differs",
            V::NAME
        );
        let loaded = Bvh::<V>::from_bytes(&serial.to_bytes(), mesh).unwrap();
        assert!(
            loaded == serial,
            "{name} {} {split:?}: round trip differs",
            V::NAME
        );
    }
}

#[test]
fn every_bundled_mesh_every_volume_every_rule() {
    for bundled in &BUNDLED {
        let mesh = load_mesh(&asset(bundled.name)).unwrap();
        check_all_rules::<Obb>(bundled.name, &mesh);
        check_all_rules::<Aabb>(bundled.name, &mesh);
        check_all_rules::<Kdop18>(bundled.name, &mesh);
        check_all_rules::<Sphere>(bundled.name, &mesh);
    }
}
