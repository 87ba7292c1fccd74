"""Shared fixtures: the bundled meshes, as obbtree meshes and as trimesh meshes over the very
same arrays (so that both libraries index the same triangles)."""

import math
import os
import pathlib

import numpy as np
import pytest

import obbtree

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


def load(name):
    return obbtree.Mesh.load(ASSETS / name)


def as_trimesh(mesh):
    import trimesh

    return trimesh.Trimesh(vertices=mesh.vertices, faces=mesh.faces, process=False)


def rotation(axis, quarter_turns):
    """A rotation by a multiple of 90° about a coordinate axis: entries 0 and ±1, exact in
    float32 too (trimesh rounds manager transforms to float32)."""
    c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][quarter_turns % 4]
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(4)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def scaled_cases(count):
    """`count` scaled by OBBTREE_PROPTEST_CASES (docs/testing.md: the one knob; 256 is the CI
    run)."""
    knob = os.environ.get("OBBTREE_PROPTEST_CASES")
    if knob is None:
        return count
    if not knob.isdigit() or int(knob) == 0:
        raise ValueError(f"OBBTREE_PROPTEST_CASES={knob!r}: not a positive integer")
    return max(1, math.ceil(count * int(knob) / 256))


def translation(x, y, z):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


@pytest.fixture(scope="session")
def bunny():
    return load("bunny.obj")


@pytest.fixture(scope="session")
def teapot():
    return load("teapot.obj")


@pytest.fixture(scope="session")
def kuka():
    return [load(f"kuka_iiwa/link_{i}.obj") for i in range(8)]
