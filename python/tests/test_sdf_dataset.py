"""The SDF training-set recipe (examples/sdf_dataset.py) on a folder of two meshes (the closed
bunny and the open teapot), here and on a two-process LocalCluster: the same files either way,
the sdf values equal to signed_distance in the normalized frame, the signs of the closed mesh
equal to containment, mostly near-surface points, and the grid."""

import importlib.util
import pathlib
import shutil

import numpy as np
import pytest

import obbtree

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "sdf_dataset.py"
ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


def load_example():
    spec = importlib.util.spec_from_file_location("sdf_dataset", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def mesh_dir(tmp_path):
    folder = tmp_path / "meshes"
    folder.mkdir()
    for name in ("bunny.obj", "teapot.obj"):
        shutil.copy(ASSETS / name, folder / name)
    return folder


def test_the_recipe_writes_signed_distances_of_its_samples(mesh_dir, tmp_path):
    example = load_example()
    summary = example.run(mesh_dir, tmp_path / "out", count=4000, seed=1, grid=8)
    assert [s[0] for s in summary] == ["bunny", "teapot"]
    for name in ("bunny", "teapot"):
        data = np.load(tmp_path / "out" / f"{name}.npz")
        points, sdf = data["points"], data["sdf"]
        mesh = obbtree.Mesh.load(str(mesh_dir / f"{name}.obj"))
        vertices = (np.asarray(mesh.vertices) - data["center"]) / data["scale"]
        model = obbtree.Model(obbtree.Mesh(vertices, mesh.faces))
        np.testing.assert_array_equal(sdf, obbtree.signed_distance(model, points))
        assert len(points) >= 3990 and np.abs(vertices).max() <= 1.0
        assert (np.abs(sdf) < 0.05).mean() > 0.8  # mostly near the surface
        assert data["grid"].shape == (8, 8, 8)
        if mesh.is_closed:
            np.testing.assert_array_equal(sdf <= 0, obbtree.contains_points(model, points))
        assert (sdf < 0).any() and (sdf > 0).any()


def test_the_dask_variant_writes_the_same_files(mesh_dir, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    example = load_example()
    example.run(mesh_dir, tmp_path / "here", count=2000, seed=3)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        example.run(mesh_dir, tmp_path / "there", count=2000, seed=3, client=client)
    for name in ("bunny", "teapot"):
        here, there = np.load(tmp_path / "here" / f"{name}.npz"), np.load(tmp_path / "there" / f"{name}.npz")
        for key in ("points", "sdf"):
            np.testing.assert_array_equal(here[key], there[key])
