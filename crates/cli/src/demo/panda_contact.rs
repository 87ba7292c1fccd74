//! The demo's real robot: the Franka Emika Panda of example-robot-data 6.0.0 (`assets/panda/`,
//! its URDF read untouched through a package directory), made of its collision geometry (nine
//! meshes, and four boxes on each finger) with its SRDF's disabled pairs never checked. From
//! the SRDF's default pose it turns about its first joint (`assets/scenes/panda_configs.json`)
//! over a table towards a post (`assets/scenes/panda_post.json`); the first configuration in
//! contact is found and drawn as the KUKA's is ([`RobotPath`]).

use super::robot_path::RobotPath;
use crate::collide::counted;
use crate::Error;
use obbtree::urdf::{Geometry, Robot, Srdf, UrdfOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The package directory under the assets folder: `package://example-robot-data/…` is
/// `panda/example-robot-data/…`.
const PACKAGE_DIR: &str = "panda";
/// The robot's folder in that package directory.
const DESCRIPTION: &str = "panda/example-robot-data/robots/panda_description";

/// Prints what the panda is made of, checks its path, prints its first contact and writes
/// `panda_contact.png` into `out_dir` (its path is returned).
pub(crate) fn contact_picture(
    assets: &Path,
    quick: bool,
    out_dir: &Path,
    out: &mut impl Write,
) -> Result<PathBuf, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::Message(e.to_string());
    let options = UrdfOptions {
        package_dirs: vec![assets.join(PACKAGE_DIR)],
        geometry: Geometry::Collision,
    };
    let description = assets.join(DESCRIPTION);
    let robot = Robot::from_file_with(description.join("urdf/panda.urdf"), &options)
        .map_err(|e| fail(&e))?;
    let srdf = Srdf::from_file(description.join("srdf/panda.srdf")).map_err(|e| fail(&e))?;
    let meshes: usize = robot.links.iter().map(|l| l.meshes.len()).sum();
    let boxes: usize = robot.links.iter().map(|l| l.shapes.len()).sum();
    writeln!(
        out,
        "robot: the panda (example-robot-data 6.0.0) is {} and {} of collision geometry; \
         its SRDF never checks {}",
        counted(meshes, "mesh", "meshes"),
        counted(boxes, "box", "boxes"),
        counted(srdf.disabled.len(), "link pair", "link pairs")
    )?;
    RobotPath {
        name: "the panda",
        robot,
        srdf: Some(srdf),
        cell: "scenes/panda_post.json",
        configs: "scenes/panda_configs.json",
        picture: "panda_contact.png",
    }
    .first_contact_picture(assets, quick, out_dir, out)
}
