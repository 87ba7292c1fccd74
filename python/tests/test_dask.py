"""The dask example on a LocalCluster with a small count: the same answers as collide_many
here, with the models pickled to two worker processes."""

import importlib.util
import pathlib

import numpy as np
import pytest

import obbtree

distributed = pytest.importorskip("dask.distributed")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_poses.py"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_poses", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_on_a_local_cluster(bunny, teapot):
    example = load_example()
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    count, chunk, spread = 3000, 700, 8.0
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        touching = example.run(client, a, b, count, chunk=chunk, seed=4, spread=spread)
    expected = np.concatenate(
        [
            obbtree.collide_many(a, None, b, example.pose_chunk(4, k, size, spread), mode="first")[0]
            for k, size in enumerate(example.chunk_sizes(count, chunk))
        ]
    )
    assert touching.shape == (count,)
    np.testing.assert_array_equal(touching, expected)
    assert 0 < touching.sum() < count
