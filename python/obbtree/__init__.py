"""obbtree: exact triangle-mesh collision, distance and ray casting, NumPy arrays in and out.

>>> import numpy as np, obbtree
>>> square = obbtree.Mesh(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float),
...                       np.array([[0, 1, 2], [0, 2, 3]]))
>>> model = obbtree.Model(square)
>>> upright = np.array([[1, 0, 0, 0.5], [0, 0, -1, 0], [0, 1, 0, -0.5], [0, 0, 0, 1]], float)
>>> obbtree.collide(model, None, model, upright)[0]
True

Bad input raises :class:`obbtree.Error` (a ``ValueError``) or one of its subclasses,
:class:`MeshError`, :class:`PoseError`, :class:`LoadError`, :class:`QueryError`,
:class:`SceneError`, :class:`CameraError`, :class:`RobotError`; the message starts with the
argument's name.

Drop-in backends for trimesh are in :mod:`obbtree.trimesh`.
"""

from ._obbtree import (
    VOLUMES,
    __version__,
    Camera,
    CameraError,
    Culled,
    DistanceResult,
    DistanceTracker,
    Error,
    LoadError,
    Mesh,
    MeshError,
    Model,
    MotionResult,
    PathCheck,
    PoseError,
    QueryError,
    Robot,
    RobotError,
    Scene,
    SceneError,
    any_hit,
    any_hits,
    cast_rays,
    cast_rays_all,
    ccd_edge_edge,
    ccd_vertex_face,
    closest_points,
    collide,
    cull,
    collide_many,
    collide_motion,
    contains,
    contains_points,
    distance,
    distance_many,
    pick_pixel,
    proximity_pairs,
    self_collide,
    signed_distance,
    within_margin,
)

__all__ = [
    "VOLUMES",
    "Camera",
    "CameraError",
    "Culled",
    "DistanceResult",
    "DistanceTracker",
    "Error",
    "LoadError",
    "Mesh",
    "MeshError",
    "Model",
    "MotionResult",
    "PathCheck",
    "PoseError",
    "QueryError",
    "Robot",
    "RobotError",
    "Scene",
    "SceneError",
    "any_hit",
    "any_hits",
    "cast_rays",
    "cast_rays_all",
    "ccd_edge_edge",
    "ccd_vertex_face",
    "closest_points",
    "collide",
    "cull",
    "collide_many",
    "collide_motion",
    "contains",
    "contains_points",
    "distance",
    "distance_many",
    "pick_pixel",
    "proximity_pairs",
    "self_collide",
    "signed_distance",
    "within_margin",
]
