"""``obbtree.__version__`` is the version of the installed package (the crate's)."""

import importlib.metadata
import pathlib
import re

import obbtree

WORKSPACE = pathlib.Path(__file__).resolve().parents[2] / "Cargo.toml"


def test_version_is_the_installed_packages_and_the_crates():
    assert obbtree.__version__ == importlib.metadata.version("obbtree")
    workspace = re.search(r'\[workspace\.package\][^\[]*?\nversion = "([^"]+)"', WORKSPACE.read_text())
    assert obbtree.__version__ == workspace.group(1)
    assert obbtree._obbtree.__version__ == obbtree.__version__
