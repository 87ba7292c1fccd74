"""The examples in the docstrings (of the extension's classes and functions, of the package and
of obbtree.trimesh) run and give what they show."""

import doctest

import pytest

import obbtree
import obbtree.trimesh


@pytest.mark.parametrize("module", [obbtree, obbtree._obbtree, obbtree.trimesh])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
