//! MoveIt's SRDF files, for the one thing a collision checker needs from them: the link pairs
//! never checked (`<disable_collisions link1=… link2=… reason=…/>`), read with `roxmltree`.
//! Every other element (groups, end effectors, virtual joints, …) is left alone.

use std::path::{Path, PathBuf};

/// Why an SRDF file could not be used. Every variant names the SRDF file.
#[derive(Debug, thiserror::Error)]
pub enum SrdfError {
    /// The file could not be read.
    #[error("{}: cannot read the file: {source}", path.display())]
    Io {
        /// The SRDF file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file is not well-formed XML, its root is not `<robot>`, or a `<disable_collisions>`
    /// lacks a link.
    #[error("{}: line {line}: {message}", path.display())]
    Syntax {
        /// The SRDF file.
        path: PathBuf,
        /// The 1-based line at fault.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// A `<disable_collisions>` names a link the robot does not have.
    #[error("{}: line {line}: <disable_collisions> names link {link:?}, which the robot does not have", path.display())]
    UnknownLink {
        /// The SRDF file.
        path: PathBuf,
        /// The 1-based line of the element.
        line: u32,
        /// The unknown link.
        link: String,
    },
}

/// One `<disable_collisions>` element: a link pair never checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisabledCollision {
    /// The first link.
    pub link1: String,
    /// The second link.
    pub link2: String,
    /// The `reason` attribute (`Adjacent`, `Never`, …), empty when absent.
    pub reason: String,
    /// The 1-based line of the element, for messages.
    pub line: u32,
}

/// What a robot scene takes from an SRDF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Srdf {
    /// The SRDF file.
    pub path: PathBuf,
    /// The `<disable_collisions>` elements, in file order.
    pub disabled: Vec<DisabledCollision>,
}

impl Srdf {
    /// Reads the `<disable_collisions>` elements of an SRDF file. Link names are checked
    /// against a robot when the pairs are allowed ([`RobotScene::allow_srdf`](super::RobotScene::allow_srdf)).
    pub fn from_file(path: impl AsRef<Path>) -> Result<Srdf, SrdfError> {
        let path = path.as_ref().to_path_buf();
        let text = std::fs::read_to_string(&path).map_err(|source| SrdfError::Io {
            path: path.clone(),
            source,
        })?;
        let disabled = disabled_pairs(&text).map_err(|(line, message)| SrdfError::Syntax {
            path: path.clone(),
            line,
            message,
        })?;
        Ok(Srdf { path, disabled })
    }

    /// The error for a `<disable_collisions>` naming `link`, which the robot does not have.
    pub(super) fn unknown_link(&self, pair: &DisabledCollision, link: &str) -> SrdfError {
        SrdfError::UnknownLink {
            path: self.path.clone(),
            line: pair.line,
            link: link.to_string(),
        }
    }
}

/// The `<disable_collisions>` children of the `<robot>` root of `text`, or the line and reason
/// of the first fault.
fn disabled_pairs(text: &str) -> Result<Vec<DisabledCollision>, (u32, String)> {
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| (e.pos().row, format!("not a valid XML file: {e}")))?;
    let line = |n: roxmltree::Node| doc.text_pos_at(n.range().start).row;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        let message = format!(
            "the root element is <{}>, not <robot>",
            root.tag_name().name()
        );
        return Err((line(root), message));
    }
    root.children()
        .filter(|c| c.is_element() && c.tag_name().name() == "disable_collisions")
        .map(|c| {
            let link = |name: &str| {
                c.attribute(name)
                    .map(str::to_string)
                    .ok_or_else(|| (line(c), format!("<disable_collisions> has no {name}")))
            };
            Ok(DisabledCollision {
                link1: link("link1")?,
                link2: link("link2")?,
                reason: c.attribute("reason").unwrap_or_default().to_string(),
                line: line(c),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_pairs_in_file_order_with_lines() {
        let text = "<robot name=\"r\">\n<group name=\"g\"/>\n\
            <disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\"/>\n\
            <disable_collisions link1=\"c\" link2=\"a\"/>\n</robot>";
        let got = disabled_pairs(text).unwrap();
        let pair = |a: &str, b: &str, reason: &str, line| DisabledCollision {
            link1: a.into(),
            link2: b.into(),
            reason: reason.into(),
            line,
        };
        assert_eq!(got, [pair("a", "b", "Adjacent", 3), pair("c", "a", "", 4)]);
        let e = disabled_pairs("<robot>\n<disable_collisions link1=\"a\"/></robot>").unwrap_err();
        assert_eq!(e, (2, "<disable_collisions> has no link2".to_string()));
        assert_eq!(
            disabled_pairs("<urdf/>").unwrap_err().1,
            "the root element is <urdf>, not <robot>"
        );
        assert!(disabled_pairs("<robot>")
            .unwrap_err()
            .1
            .starts_with("not a valid XML file"));
    }
}
