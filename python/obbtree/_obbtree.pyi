"""Type stubs of the native extension ``obbtree._obbtree`` (re-exported by ``obbtree``)."""

from os import PathLike
from typing import Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import deprecated

_Path = Union[str, "PathLike[str]"]
_Mode = Literal["first", "all"]
_Volume = Literal["obb", "aabb", "sphere", "kdop6", "kdop14", "kdop18", "kdop26"]
_Pose = Optional[ArrayLike]

VOLUMES: List[str]
__version__: str

class Error(ValueError):
    """The base of every exception obbtree raises for bad input or a refused query; the
    message starts with the argument's name. Raised itself for the volume type (an unknown
    ``bv``, models of different volume types)."""

class MeshError(Error):
    """A mesh refused (vertices, faces), or a model that cannot be built over it."""

class PoseError(Error):
    """A pose argument refused (shape, dtype, not a finite rigid motion)."""

class LoadError(Error, OSError):
    """A mesh file, tree file or tree bytes that cannot be read as one, or a URDF or SRDF file
    that cannot be used."""

class QueryError(Error):
    """A query refused its other arguments (rays, points, max_t, margins, tolerances, hints,
    modes, frusta) or a placement outside the range of exact answers."""

class SceneError(Error):
    """A scene operation refused (unknown or duplicate name, counts, limits)."""

class CameraError(Error):
    """A camera refused, or a pixel outside its image."""

class RobotError(Error):
    """A robot refused joint values (count, finite, limits), a name that is neither a link nor
    a fixture, or a path's resolution."""

class Mesh:
    """A validated triangle mesh: ``(n, 3)`` float64 vertices, ``(m, 3)`` integer faces."""

    def __init__(self, vertices: ArrayLike, faces: ArrayLike) -> None: ...
    @staticmethod
    def load(path: _Path) -> "Mesh": ...
    @property
    def vertices(self) -> NDArray[np.float64]: ...
    @property
    def faces(self) -> NDArray[np.int64]: ...
    @property
    def triangle_count(self) -> int: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def is_closed(self) -> bool: ...

class Model:
    """A mesh with its bounding-volume hierarchy (pickles with its tree), or a primitive
    solid: collision, distance, margins, rays (a shape is hit on its surface) and culling take
    both, as does point containment; self-collision needs a mesh."""

    def __init__(self, mesh: Mesh, bv: _Volume = "obb") -> None: ...
    @staticmethod
    def sphere(radius: float, bv: _Volume = "obb") -> "Model": ...
    @staticmethod
    def capsule(radius: float, length: float, bv: _Volume = "obb") -> "Model": ...
    @staticmethod
    def cylinder(radius: float, length: float, bv: _Volume = "obb") -> "Model": ...
    @staticmethod
    def box(size: ArrayLike, bv: _Volume = "obb") -> "Model": ...
    @staticmethod
    def convex(points: ArrayLike, bv: _Volume = "obb") -> "Model": ...
    @staticmethod
    def halfspace(normal: ArrayLike, offset: float, bv: _Volume = "obb") -> "Model": ...
    def save(self, path: _Path) -> None: ...
    @staticmethod
    def load(path: _Path, mesh: Mesh) -> "Model": ...
    @staticmethod
    def from_tree_bytes(mesh: Mesh, tree: bytes) -> "Model": ...
    def tree_bytes(self) -> bytes: ...
    def prepare_rays(self) -> None: ...
    @property
    def bv(self) -> str: ...
    @property
    def mesh(self) -> Mesh: ...
    @property
    def is_closed(self) -> bool: ...
    @property
    def memory_bytes(self) -> int: ...

class DistanceResult:
    """The answer of :func:`distance`; unpacks as
    ``(distance, pair, point_a, point_b, lower, upper)``.

    >>> d, pair, point_a, point_b, lower, upper = obbtree.distance(a, None, b, pose_b)
    """

    @property
    def distance(self) -> float: ...
    @property
    def pair(self) -> Tuple[int, int]: ...
    @property
    def point_a(self) -> NDArray[np.float64]: ...
    @property
    def point_b(self) -> NDArray[np.float64]: ...
    @property
    def lower(self) -> float: ...
    @property
    def upper(self) -> float: ...
    @property
    def intersects(self) -> bool: ...
    @property
    def contained(
        self,
    ) -> Optional[
        Literal["surfaces_intersect", "open_mesh", "disjoint", "overlapping", "a_in_b", "b_in_a"]
    ]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Union[float, Tuple[int, int], NDArray[np.float64]]: ...
    def __iter__(self) -> Iterator[Union[float, Tuple[int, int], NDArray[np.float64]]]: ...

class DistanceTracker:
    """:func:`distance` along a sequence of nearby poses of one pair of models, each call
    starting where the last one stopped (same answers and guarantee, less work).

    >>> tracker = obbtree.DistanceTracker()
    >>> tracker.distance(tri, None, tri, above).distance
    0.5
    """

    def __init__(self) -> None: ...
    def distance(
        self, a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, rel_err: float = 0.0,
        abs_err: float = 0.0, solids: bool = False,
    ) -> DistanceResult: ...
    def forget(self) -> None: ...

class MotionResult:
    """The answer of :func:`collide_motion`; unpacks as
    ``(hit, toi, pair, exact, tolerance)``. ``toi`` and ``pair`` are ``None`` for a miss.

    >>> hit, toi, pair, exact, tolerance = obbtree.collide_motion(wall, None, cube, start, end)
    """

    @property
    def hit(self) -> bool: ...
    @property
    def toi(self) -> Optional[Tuple[float, float]]: ...
    @property
    def pair(self) -> Optional[Tuple[int, int]]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def tolerance(self) -> float: ...
    def __len__(self) -> int: ...
    def __getitem__(
        self, index: int
    ) -> Union[bool, float, Optional[Tuple[float, float]], Optional[Tuple[int, int]]]: ...
    def __iter__(
        self,
    ) -> Iterator[Union[bool, float, Optional[Tuple[float, float]], Optional[Tuple[int, int]]]]: ...

class Scene:
    """Named, posed models queried together (collisions and rays)."""

    def __init__(self, bv: _Volume = "obb") -> None: ...
    @property
    def bv(self) -> str: ...
    def insert(self, name: str, model: Model, pose: _Pose = None) -> None: ...
    def remove(self, name: str) -> None: ...
    def set_pose(self, name: str, pose: ArrayLike) -> None: ...
    def set_poses(self, names: Sequence[str], poses: ArrayLike) -> None: ...
    def pose(self, name: str) -> NDArray[np.float64]: ...
    def names(self) -> List[str]: ...
    def last_stats(self) -> Dict[str, int]: ...
    def allow(self, a: str, b: str) -> None: ...
    def __len__(self) -> int: ...
    def __contains__(self, name: str) -> bool: ...
    def collide_all(self, mode: _Mode = "all", contacts: bool = False) -> List[tuple]: ...
    def min_distance(
        self, limit: float = ...
    ) -> Optional[Tuple[str, str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def within_margin_all(
        self, margin: float
    ) -> List[Tuple[str, str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def min_distance_to(
        self, model: Model, pose: _Pose = None, limit: float = ...
    ) -> Optional[Tuple[str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def within_margin_of(
        self, model: Model, margin: float, pose: _Pose = None
    ) -> List[Tuple[str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def min_distance_from(
        self, name: str, limit: float = ...
    ) -> Optional[Tuple[str, str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def min_distance_scenes(
        self, other: "Scene", limit: float = ...
    ) -> Optional[Tuple[str, str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def within_margin_scenes(
        self, other: "Scene", margin: float
    ) -> List[Tuple[str, str, float, Tuple[int, int], NDArray[np.float64], NDArray[np.float64]]]: ...
    def collide_with(
        self, model: Model, pose: _Pose = None, mode: _Mode = "all", contacts: bool = False
    ) -> List[tuple]: ...
    def collide_scenes(
        self, other: "Scene", mode: _Mode = "all", contacts: bool = False
    ) -> List[tuple]: ...
    @deprecated("the former name of Scene.collide_scenes")
    def collide_scene(
        self, other: "Scene", mode: _Mode = "all", contacts: bool = False
    ) -> List[tuple]: ...
    def cast_ray(
        self, origin: ArrayLike, direction: ArrayLike, max_t: float = ...
    ) -> Optional[Tuple[str, int, float, NDArray[np.float64]]]: ...

_NamePair = Tuple[str, str]
_Closest = Tuple[str, str, float, NDArray[np.float64], NDArray[np.float64]]

class PathCheck:
    """What :meth:`Robot.check_path` found: the first configuration in collision, and with a
    margin the first within it and the smallest clearance; with ``continuous=True`` the first
    colliding segment and the bracket ``first_collision_t`` of its first contact."""

    @property
    def checked(self) -> int: ...
    @property
    def first_collision(self) -> Optional[int]: ...
    @property
    def configuration(self) -> Optional[NDArray[np.float64]]: ...
    @property
    def self_collisions(self) -> List[_NamePair]: ...
    @property
    def environment(self) -> List[_NamePair]: ...
    @property
    def first_within_margin(self) -> Optional[int]: ...
    @property
    def clearance(self) -> Optional[_Closest]: ...
    @property
    def clearance_index(self) -> Optional[int]: ...
    @property
    def clearance_configuration(self) -> Optional[NDArray[np.float64]]: ...
    @property
    def first_collision_t(self) -> Optional[Tuple[float, float]]: ...

class Robot:
    """A URDF robot's links posed by forward kinematics, checked for self-collision, against
    fixtures and against a Scene's objects at joint configurations (does not pickle).

    A configuration is the moving joints' values in the order of ``joints``, named by
    ``values``: one per revolute, continuous or prismatic joint, ``x, y, theta`` per planar
    joint, ``x, y, z, qx, qy, qz, qw`` per floating joint (pinocchio's free-flyer order)."""

    def __init__(
        self,
        urdf: _Path,
        package_dirs: Sequence[_Path] = (),
        srdf: Optional[_Path] = None,
        geometry: Literal["collision", "visual"] = "collision",
        check_limits: bool = True,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def joints(self) -> List[str]: ...
    @property
    def values(self) -> List[str]: ...
    @property
    def neutral(self) -> NDArray[np.float64]: ...
    @property
    def links(self) -> List[str]: ...
    @property
    def limits(self) -> NDArray[np.float64]: ...
    def link_poses(self, q: ArrayLike) -> NDArray[np.float64]: ...
    @property
    def pairs_checked(self) -> int: ...
    def add_fixture(self, name: str, model: Model, pose: _Pose = None) -> None: ...
    def allow(self, a: str, b: str) -> None: ...
    def collide(
        self, q: ArrayLike, scene: Optional[Scene] = None
    ) -> Tuple[List[_NamePair], List[_NamePair]]: ...
    def collide_self(self, q: ArrayLike) -> List[_NamePair]: ...
    def collide_scene(self, q: ArrayLike, scene: Scene) -> List[_NamePair]: ...
    def distance(self, q: ArrayLike, scene: Optional[Scene] = None) -> Optional[_Closest]: ...
    def check_path(
        self,
        path: ArrayLike,
        resolution: Optional[float] = None,
        margin: Optional[float] = None,
        scene: Optional[Scene] = None,
        continuous: bool = False,
        tolerance: Optional[float] = None,
    ) -> PathCheck: ...
    def collide_self_many(self, qs: ArrayLike) -> List[List[_NamePair]]: ...
    def collides_many(self, qs: ArrayLike, scene: Optional[Scene] = None) -> NDArray[np.bool_]: ...

class Camera:
    """A camera: view matrix (world to eye), projection matrix (eye to clip space, OpenGL's
    convention) and image size; pixel ``(0, 0)`` is the top-left one."""

    def __init__(self, view: ArrayLike, projection: ArrayLike, width: int, height: int) -> None: ...
    @staticmethod
    def look_at(
        eye: ArrayLike, target: ArrayLike, up: ArrayLike, fov_y: float, near: float, far: float,
        width: int, height: int,
    ) -> "Camera": ...
    @staticmethod
    def framing(bounds: ArrayLike, width: int, height: int) -> "Camera": ...
    @property
    def view(self) -> NDArray[np.float64]: ...
    @property
    def projection(self) -> NDArray[np.float64]: ...
    @property
    def view_projection(self) -> NDArray[np.float64]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def pixel_ray(self, x: int, y: int) -> Tuple[NDArray[np.float64], NDArray[np.float64]]: ...

class Culled:
    """The answer of :func:`cull`; unpacks as ``(inside, outside, intersecting)``, ascending
    int64 arrays of triangle indices."""

    @property
    def inside(self) -> NDArray[np.int64]: ...
    @property
    def outside(self) -> NDArray[np.int64]: ...
    @property
    def intersecting(self) -> NDArray[np.int64]: ...
    @property
    def nodes_tested(self) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> NDArray[np.int64]: ...
    def __iter__(self) -> Iterator[NDArray[np.int64]]: ...

def cull(model: Model, frustum: Union[Camera, ArrayLike], pose: _Pose = None) -> Culled:
    """The model's triangles by where they lie relative to ``frustum`` (a ``Camera``, a
    ``(4, 4)`` view-projection matrix or a ``(6, 4)`` array of planes ``(nx, ny, nz, d)``,
    inside where ``n·x + d <= 0``).

    >>> inside, outside, intersecting = obbtree.cull(model, camera)
    """

def pick_pixel(
    model: Model, camera: Camera, x: int, y: int, pose: _Pose = None
) -> Optional[Tuple[int, float, NDArray[np.float64]]]:
    """The first triangle under pixel ``(x, y)``: ``None`` or ``(triangle, t, point)``.

    >>> triangle, t, point = obbtree.pick_pixel(model, camera, 320, 240)
    """

@overload
def collide(
    a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, mode: _Mode = "all",
    contacts: Literal[False] = False,
) -> Tuple[bool, NDArray[np.int64]]: ...
@overload
def collide(
    a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, mode: _Mode = "all",
    contacts: Literal[True] = ...,
) -> Tuple[bool, NDArray[np.int64], NDArray[np.float64]]: ...
def collide_many(
    a: Model, pose_a: _Pose, b: Model, poses: ArrayLike, mode: _Mode = "all"
) -> Tuple[NDArray[np.bool_], NDArray[np.int64]]: ...
def collide_motion(
    a: Model, pose_a: _Pose, b: Model, start: _Pose, end: _Pose, *,
    tolerance: Optional[float] = None, time_tolerance: float = 1e-9,
) -> MotionResult:
    """The first time ``b``, moving from pose ``start`` (``t = 0``) to pose ``end``
    (``t = 1``), touches ``a`` at ``pose_a``: exact for two meshes under a pure translation,
    within ``tolerance`` otherwise (never a missed contact; no contact before ``toi[0]``).

    >>> result = obbtree.collide_motion(wall, None, cube, start, end)
    >>> result.hit, result.exact
    (True, True)
    """

def self_collide(model: Model, mode: _Mode = "all", pose: _Pose = None) -> Tuple[bool, NDArray[np.int64]]: ...
def contains_points(model: Model, points: ArrayLike, pose: _Pose = None) -> NDArray[np.bool_]: ...
def closest_points(
    model: Model, points: ArrayLike, pose: _Pose = None, *, max_distance: Optional[float] = None
) -> Tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.float64]]: ...
def signed_distance(
    model: Model, points: ArrayLike, pose: _Pose = None, *, max_distance: Optional[float] = None
) -> NDArray[np.float64]: ...
def winding_number(
    model: Model, points: ArrayLike, pose: _Pose = None, *, tolerance: float = 1e-4
) -> Tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def sdf_grid(
    model: Model, resolution: int, *, padding: float = 0.1, bounds: Optional[ArrayLike] = None
) -> Tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]: ...
@deprecated("the former name of contains_points")
def contains(model: Model, points: ArrayLike, pose: _Pose = None) -> NDArray[np.bool_]: ...
def cast_rays(
    model: Model, origins: ArrayLike, directions: ArrayLike, pose: _Pose = None,
    max_t: float = ...,
) -> Tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]: ...
def cast_rays_all(
    model: Model, origins: ArrayLike, directions: ArrayLike, pose: _Pose = None,
    max_t: float = ...,
) -> Tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]: ...
def ccd_vertex_face(
    start: ArrayLike, end: ArrayLike, *, min_separation: float = 0.0
) -> Tuple[NDArray[np.bool_], NDArray[np.float64]]: ...
def ccd_edge_edge(
    start: ArrayLike, end: ArrayLike, *, min_separation: float = 0.0
) -> Tuple[NDArray[np.bool_], NDArray[np.float64]]: ...
def any_hits(
    model: Model, origins: ArrayLike, directions: ArrayLike, pose: _Pose = None,
    max_t: float = ...,
) -> NDArray[np.bool_]: ...
@deprecated("the former name of any_hits")
def any_hit(
    model: Model, origins: ArrayLike, directions: ArrayLike, pose: _Pose = None,
    max_t: float = ...,
) -> NDArray[np.bool_]: ...
def distance(
    a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, rel_err: float = 0.0,
    abs_err: float = 0.0, hint: Optional[ArrayLike] = None, solids: bool = False,
) -> DistanceResult:
    """The distance between the posed meshes, the closest triangle pair and points, and a
    certified interval (exactly 0 when they intersect).

    >>> above = np.eye(4); above[2, 3] = 0.5
    >>> d, pair, point_a, point_b, lower, upper = obbtree.distance(tri, None, tri, above)
    >>> d, pair
    (0.5, (0, 0))
    >>> obbtree.distance(tri, None, tri, above, hint=pair, rel_err=0.01).distance
    0.5
    """

def within_margin(
    a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, margin: float
) -> Tuple[bool, NDArray[np.int64]]:
    """Whether the posed meshes are at most ``margin`` apart (exact), with a ``(p, 2)`` array of
    at most one witness pair.

    >>> obbtree.within_margin(tri, None, tri, above, 0.5)[0]
    True
    """

def proximity_pairs(
    a: Model, pose_a: _Pose, b: Model, pose_b: _Pose, margin: float
) -> NDArray[np.int64]:
    """Every triangle pair at most ``margin`` apart (exact), ``(p, 2)`` int64, sorted.

    >>> obbtree.proximity_pairs(tri, None, tri, above, 0.5).tolist()
    [[0, 0]]
    """

def distance_many(
    a: Model, pose_a: _Pose, b: Model, poses: ArrayLike, rel_err: float = 0.0,
    abs_err: float = 0.0, hint: Optional[ArrayLike] = None, solids: bool = False,
) -> Tuple[
    NDArray[np.float64], NDArray[np.int64], NDArray[np.float64], NDArray[np.float64],
    NDArray[np.float64], NDArray[np.float64],
]:
    """``distance`` at each of ``poses`` ``(k, 4, 4)``, in parallel without the GIL:
    ``(distances, pairs, points_a, points_b, lower, upper)``, one row per pose.

    >>> poses = np.stack([np.eye(4)] * 2); poses[:, 2, 3] = [0.0, 2.0]
    >>> obbtree.distance_many(tri, None, tri, poses)[0].tolist()
    [0.0, 2.0]
    """
