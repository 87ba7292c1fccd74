"""Drop-in backends for trimesh: exact answers behind trimesh's own interfaces.

* :class:`CollisionManager` has the constructor, methods and return values of
  ``trimesh.collision.CollisionManager`` (which needs python-fcl): change one import.
* :class:`RayMeshIntersector` has the interface of trimesh's ray intersectors
  (``trimesh.ray.ray_triangle`` and ``ray_pyembree``); attach it to a mesh with
  ``mesh.ray = RayMeshIntersector(mesh)``.
* :class:`ProximityQuery` has the interface of ``trimesh.proximity.ProximityQuery``:
  ``on_surface``, ``vertex`` and ``signed_distance`` (positive inside, trimesh's convention).

Neither imports trimesh: anything with ``vertices`` and ``faces`` arrays (and, for contact
normals, ``face_normals``) is a mesh here.

Where the answers differ from trimesh's, these are the exact ones: touching triangles
intersect, and a ray through a shared edge or vertex hits.
"""

import collections
import hashlib
import itertools
import math

import numpy as np

from ._obbtree import (
    Mesh,
    Model,
    Scene,
    SceneError,
    _check_pose,
    any_hits,
    cast_rays,
    cast_rays_all,
    closest_points,
    contains_points,
    distance,
    signed_distance,
)

__all__ = [
    "CollisionManager",
    "ContactData",
    "DistanceData",
    "ProximityQuery",
    "RayMeshIntersector",
]

#: The name trimesh gives the external object of ``in_collision_single`` in contact data.
EXTERNAL = "__external"

def _content_key(mesh, vertices, faces):
    """A key that changes when the mesh's arrays do: trimesh's own content hash (cached by
    trimesh, so cheap) when the mesh type has one, else a digest of the arrays."""
    if type(mesh).__hash__ not in (None, object.__hash__):
        return (id(mesh), hash(mesh))
    digest = hashlib.blake2b(vertices.tobytes(), digest_size=16)
    digest.update(faces.tobytes())
    return (vertices.shape, faces.shape, digest.hexdigest())


def _model_of(mesh, bv, cache, limit=None):
    """The obbtree model of ``mesh``, built once per mesh content and kept in ``cache`` (at most
    ``limit`` entries, the oldest dropped first)."""
    if isinstance(mesh, Model):
        return mesh
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    faces = np.asarray(mesh.faces)
    key = _content_key(mesh, vertices, faces)
    model = cache.get(key)
    if model is None:
        model = Model(Mesh(vertices, faces), bv=bv)
        if limit is not None and len(cache) >= limit:
            del cache[next(iter(cache))]
        cache[key] = model
    return model


def _face_normals(mesh):
    """Unit normals of the faces of ``mesh`` (zero for zero-area faces), in its own frame."""
    if isinstance(mesh, Model):
        mesh = mesh.mesh
    normals = getattr(mesh, "face_normals", None)
    if normals is not None:
        return np.asarray(normals, dtype=np.float64)
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    triangles = vertices[np.asarray(mesh.faces)]
    cross = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(cross, axis=1)
    return np.divide(cross, length[:, None], out=np.zeros_like(cross), where=length[:, None] > 0)


class ContactData:
    """One intersecting triangle pair, as ``trimesh.collision.ContactData`` describes it.

    ``names`` is the set of the two objects' names; ``index(name)`` the triangle of that object.
    ``point`` is a point of the two triangles' intersection (world frame; NaN when the triangles
    are coplanar and meet in an area rather than a segment). ``normal`` is the unit normal of the
    first object's triangle in the world frame. ``depth`` is NaN: the exact test decides
    intersection, it does not measure penetration (FCL's depth for a triangle pair is an
    estimate of its own).
    """

    # A manager makes one per intersecting triangle pair, often hundreds of thousands per query:
    # each holds its two names and faces, and a row of the arrays of points and normals shared
    # by the contacts of its object pair.
    __slots__ = ("_names", "_faces", "_points", "_normals", "_row")

    def __init__(self, names, indices, point, normal):
        self._names = tuple(names)
        self._faces = tuple(indices)
        self._points, self._normals, self._row = (point,), (normal,), 0

    @classmethod
    def _of_pairs(cls, names, pairs, points, normals):
        """The contacts of one object pair: ``pairs`` (p, 2) faces, ``points`` and ``normals``
        (p, 3) arrays of their rows."""
        made = []
        new = cls.__new__
        for row, faces in enumerate(zip(pairs[:, 0].tolist(), pairs[:, 1].tolist())):
            contact = new(cls)
            contact._names, contact._faces, contact._row = names, faces, row
            contact._points, contact._normals = points, normals
            made.append(contact)
        return made

    @property
    def names(self):
        """The set of the two objects' names."""
        return set(self._names)

    @property
    def normal(self):
        """The unit normal of the first object's triangle, (3,) float."""
        return self._normals[self._row]

    @property
    def point(self):
        """A point of the intersection, (3,) float."""
        return self._points[self._row]

    @property
    def depth(self):
        """NaN: penetration depth is not measured (see the class documentation)."""
        return math.nan

    def index(self, name):
        """The index of the face of object ``name`` in this contact."""
        if name == self._names[0]:
            return self._faces[0]
        if name == self._names[1]:
            return self._faces[1]
        raise KeyError(name)

    def __repr__(self):
        faces = dict(zip(self._names, self._faces))
        return f"ContactData({faces!r}, point={self.point!r})"


class _Object:
    """An object queried against a manager: the user's name and mesh, its model and pose."""

    def __init__(self, name, mesh, model, transform):
        self.name = name
        self.mesh = mesh
        self.model = model
        self._transform = transform
        self._normals = None

    @property
    def transform(self):
        """The pose, ``(4, 4)``."""
        return self._transform

    def world_normals(self, faces):
        """The unit normals of ``faces`` ((p,) indices) in the world frame, (p, 3)."""
        if self._normals is None:
            self._normals = _face_normals(self.mesh)
        return self._normals[faces] @ self.transform[:3, :3].T


class _SceneObject(_Object):
    """An object of a manager: its pose is the one its scene holds (``set_transform`` hands the
    caller's matrix to the scene alone, which copies it)."""

    def __init__(self, name, mesh, model, scene, key):
        super().__init__(name, mesh, model, None)
        self._scene = scene
        self._key = key

    @property
    def transform(self):
        """The pose, ``(4, 4)``, as the scene holds it."""
        return self._scene.pose(self._key)


def _transform(transform):
    if transform is None:
        return np.eye(4)
    return np.array(transform, dtype=np.float64)


class _TransformNamed:
    """Renames the scene's ``pose`` argument to trimesh's ``transform`` in its errors."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, ValueError):
            _raise_renamed(error)
        return False


def _raise_renamed(error):
    """Raises the scene's ``ValueError`` ``error`` (an ``obbtree.Error``) again, of the same
    class, about ``transform`` if it was about ``pose``."""
    if str(error).startswith("pose: "):
        raise type(error)("transform: " + str(error)[len("pose: "):]) from None
    raise error


_TRANSFORM_NAMED = _TransformNamed()


def _returns(result, names, contacts, return_names, return_data):
    """trimesh's return convention: the bool, then the names and the data if asked."""
    if return_names and return_data:
        return result, names, contacts
    if return_names:
        return result, names
    if return_data:
        return result, contacts
    return result


class CollisionManager:
    """A mesh-mesh collision manager with the interface of trimesh's, answered exactly.

    ``bv`` (not in trimesh's constructor, optional) is the bounding volume of the models.

    >>> import trimesh
    >>> from obbtree.trimesh import CollisionManager
    >>> manager = CollisionManager()
    >>> _ = manager.add_object("a", trimesh.creation.box())
    >>> manager.in_collision_single(trimesh.creation.box(), return_names=True)
    (True, {'a'})
    >>> away = np.eye(4); away[0, 3] = 3.0
    >>> manager.min_distance_single(trimesh.creation.box(), away, return_name=True)
    (2.0, 'a')

    Distances are between surfaces, as FCL measures the meshes trimesh gives it as BVH models:
    0 where they touch or cross. (trimesh gives convex meshes to FCL as solids, whose signed
    distance is negative when they overlap; here it is 0.)
    """

    _keys = itertools.count()

    def __init__(self, bv="obb"):
        self._bv = bv
        self._scene = Scene(bv)
        # {name: _Object}, and the scene's key of each name (names may be any hashable).
        self._objs = {}
        self._key_of = {}
        self._name_of = {}
        # Models by mesh content: of the objects (shared by objects of one mesh), and of the
        # last few meshes queried against the manager.
        self._models = {}
        self._external = {}

    def add_object(self, name, mesh, transform=None):
        """Add ``mesh`` (a trimesh.Trimesh, or an ``obbtree.Model``) at ``transform`` ((4,4),
        default identity) as ``name``, replacing an object of that name. Returns its model.
        """
        transform = _transform(transform)
        model = _model_of(mesh, self._bv, self._models)
        key = f"{next(self._keys)}"
        # Inserted before the old object goes: a refused transform leaves the manager as it was.
        with _TRANSFORM_NAMED:
            self._scene.insert(key, model, transform)
        if name in self._objs:
            self.remove_object(name)
        self._objs[name] = _SceneObject(name, mesh, model, self._scene, key)
        self._key_of[name] = key
        self._name_of[key] = name
        return model

    def remove_object(self, name):
        """Delete the object ``name``; ``ValueError`` (``obbtree.SceneError``) if there is none."""
        if name not in self._objs:
            raise SceneError(f"{name} not in collision manager!")
        key = self._key_of.pop(name)
        self._scene.remove(key)
        del self._name_of[key]
        model = self._objs.pop(name).model
        if all(o.model is not model for o in self._objs.values()):
            self._models = {k: m for k, m in self._models.items() if m is not model}

    def set_transform(self, name, transform):
        """Move the object ``name`` to ``transform`` ((4,4)); ``ValueError`` (``obbtree.SceneError``)
        if there is none."""
        key = self._key_of.get(name)
        if key is None:
            raise SceneError(f"{name} not in collision manager!")
        try:
            self._scene.set_pose(key, transform)
        except ValueError as error:
            _raise_renamed(error)

    def in_collision_single(self, mesh, transform=None, return_names=False, return_data=False):
        """Does ``mesh`` at ``transform`` touch any object of the manager?

        Returns ``is_collision`` and, if asked, the set of names touched and a list of
        ContactData (one per intersecting triangle pair; ``"__external"`` names ``mesh``).
        """
        transform = _transform(transform)
        model = _model_of(mesh, self._bv, self._external, limit=8)
        mode = "all" if return_data else "first"
        with _TRANSFORM_NAMED:
            found = self._scene.collide_with(model, transform, mode=mode, contacts=return_data)
        names = {self._name_of[key] for key, *_ in found}
        contacts = []
        if return_data:
            external = _Object(EXTERNAL, mesh, model, transform)
            for key, pairs, points in found:
                contacts += self._pair_data(external, self._objs[self._name_of[key]], pairs, points)
        return _returns(bool(found), names, contacts, return_names, return_data)

    def in_collision_internal(self, return_names=False, return_data=False):
        """Does any pair of the manager's objects touch?

        Returns ``is_collision`` and, if asked, the set of name pairs (each sorted) and a list of
        ContactData (one per intersecting triangle pair).
        """
        mode = "all" if return_data else "first"
        found = self._scene.collide_all(mode=mode, contacts=return_data)
        names, contacts = set(), []
        for key_a, key_b, pairs, *points in found:
            a, b = self._objs[self._name_of[key_a]], self._objs[self._name_of[key_b]]
            names.add(tuple(sorted((a.name, b.name))))
            if return_data:
                contacts += self._pair_data(a, b, pairs, points[0])
        return _returns(bool(found), names, contacts, return_names, return_data)

    def in_collision_other(self, other_manager, return_names=False, return_data=False):
        """Does any object of this manager touch any object of ``other_manager``?

        Returns ``is_collision`` and, if asked, the set of ``(name here, name there)`` pairs and
        a list of ContactData.
        """
        mode = "all" if return_data else "first"
        found = self._scene.collide_scenes(other_manager._scene, mode=mode, contacts=return_data)
        names, contacts = set(), []
        for key_a, key_b, pairs, *points in found:
            a = self._objs[self._name_of[key_a]]
            b = other_manager._objs[other_manager._name_of[key_b]]
            names.add((a.name, b.name))
            if return_data:
                contacts += self._pair_data(a, b, pairs, points[0])
        return _returns(bool(found), names, contacts, return_names, return_data)

    @staticmethod
    def _pair_data(a, b, pairs, points):
        """ContactData of each intersecting pair ``[triangle of a, triangle of b]``."""
        normals = a.world_normals(pairs[:, 0])
        return ContactData._of_pairs((a.name, b.name), pairs, points, normals)

    def min_distance_single(self, mesh, transform=None, return_name=False, return_data=False):
        """The distance from ``mesh`` at ``transform`` to the nearest object of the manager.

        Returns ``distance`` and, if asked, the name of the nearest object and a DistanceData
        (``"__external"`` names ``mesh``). The distance is between surfaces, exactly 0 where
        they touch or cross.
        """
        transform = _transform(transform)
        _check_pose(transform, "transform")
        model = _model_of(mesh, self._bv, self._external, limit=8)
        found = self._scene.min_distance_to(model, transform)
        if found is not None:
            # The scene answers with the model first; trimesh names the object first.
            key, d, (face_model, face_object), point_model, point_object = found
            obj = self._objs[self._name_of[key]]
            external = _Object(EXTERNAL, mesh, model, transform)
            found = (obj, external, _Closest(d, (face_object, face_model), point_object, point_model))
        distance, names, data = _distance_returns(found)
        name = None if names is None else names[0]
        return _returns(distance, name, data, return_name, return_data)

    def min_distance_internal(self, name=None, return_names=False, return_data=False):
        """The distance between the two nearest objects of the manager or, given ``name``,
        between that object and the nearest other one.

        Returns ``distance`` and, if asked, the sorted pair of names and a DistanceData.
        """
        if name is not None and name not in self._objs:
            raise SceneError(f"{name} not in collision manager!")
        if name is None:
            found = self._scene_closest()
        else:
            found = self._scene_pair(self._scene.min_distance_from(self._key_of[name]))
        distance, names, data = _distance_returns(found)
        if names is not None:
            names = tuple(sorted(names))
        return _returns(distance, names, data, return_names, return_data)

    def _scene_closest(self):
        """The nearest pair of objects by the scene's own search (``Scene.min_distance``, which
        keeps what it learnt for the next call): ``(a, b, result)`` or None."""
        return self._scene_pair(self._scene.min_distance())

    def _scene_pair(self, found, other_manager=None):
        """``(a, b, result)`` of a pair the scene found (``a`` of this manager, ``b`` of
        ``other_manager`` or this one), or None."""
        if found is None:
            return None
        key_a, key_b, distance, pair, point_a, point_b = found
        other = self if other_manager is None else other_manager
        a = self._objs[self._name_of[key_a]]
        b = other._objs[other._name_of[key_b]]
        return a, b, _Closest(distance, pair, point_a, point_b)

    def min_distance_other(self, other_manager, return_names=False, return_data=False):
        """The distance between the nearest pair of objects, one of this manager and one of
        ``other_manager``.

        Returns ``distance`` and, if asked, ``(name here, name there)`` and a DistanceData.
        """
        found = self._scene_pair(
            self._scene.min_distance_scenes(other_manager._scene), other_manager
        )
        distance, names, data = _distance_returns(found)
        return _returns(distance, names, data, return_names, return_data)


class DistanceData:
    """The closest triangle pair of two objects, as ``trimesh.collision.DistanceData``
    describes it: ``names`` the set of their names, ``distance``, ``index(name)`` the closest
    triangle of that object and ``point(name)`` its closest point (world frame)."""

    def __init__(self, names, indices, points, distance):
        self.names = set(names)
        self._inds = dict(zip(names, indices))
        self._points = dict(zip(names, points))
        self._distance = distance

    @property
    def distance(self):
        """The distance between the two objects."""
        return self._distance

    def index(self, name):
        """The index of the closest face of object ``name``."""
        return self._inds[name]

    def point(self, name):
        """The closest point on object ``name``, (3,) float."""
        return self._points[name]

    def __repr__(self):
        return f"DistanceData({self._inds!r}, distance={self._distance!r})"


#: What FCL reports as the distance of a query with no pair of objects (its initial
#: ``min_distance``, the largest double), kept so that code written for trimesh sees the same.
NO_PAIR_DISTANCE = float(np.finfo(np.float64).max)


#: The fields of a distance result that ``_distance_returns`` reads.
_Closest = collections.namedtuple("_Closest", "distance pair point_a point_b")


def _distance_returns(found):
    """trimesh's distance, names and DistanceData of the nearest pair ``found`` (``(a, b,
    result)`` or None)."""
    if found is None:
        return NO_PAIR_DISTANCE, None, None
    a, b, result = found
    data = DistanceData(
        (a.name, b.name), result.pair, (result.point_a, result.point_b), result.distance
    )
    return result.distance, (a.name, b.name), data


class RayMeshIntersector:
    """Exact ray queries on a mesh, with the interface of trimesh's ray intersectors.

    Attach it to a trimesh.Trimesh so that ``mesh.ray`` (and ``mesh.contains``) use it:

    >>> import trimesh
    >>> from obbtree.trimesh import RayMeshIntersector
    >>> mesh = trimesh.creation.box()
    >>> mesh.ray = RayMeshIntersector(mesh)
    >>> mesh.ray.intersects_any([[0, 0, -5]], [[0, 0, 1]]).tolist()
    [True]

    Directions need not be unit; a zero or non-finite direction is refused (``ValueError``)
    rather than reported as a miss. Rays are cast in parallel, in chunks (bounded memory).
    """

    def __init__(self, mesh, bv="obb"):
        self.mesh = mesh
        self._bv = bv
        self._models = {}

    @property
    def model(self):
        """The obbtree model of the mesh as it is now (rebuilt only when the mesh changed)."""
        return _model_of(self.mesh, self._bv, self._models, limit=1)

    def intersects_id(
        self,
        ray_origins,
        ray_directions,
        return_locations=False,
        multiple_hits=True,
        **kwargs,
    ):
        """Triangles hit by each ray: ``(index_tri, index_ray)`` and, with
        ``return_locations``, the ``(h, 3)`` hit points. With ``multiple_hits`` every hit along
        each ray (with ``return_locations``, a hit through a shared edge or vertex is reported
        once, as trimesh does); otherwise the first hit only.
        """
        if multiple_hits:
            ray, tri, t, points = cast_rays_all(self.model, ray_origins, ray_directions)
            if return_locations:
                keep = _first_of_equal_hits(ray, t)
                ray, tri, points = ray[keep], tri[keep], points[keep]
        else:
            hit, first, t, points = cast_rays(self.model, ray_origins, ray_directions)
            ray = np.flatnonzero(hit)
            tri, points = first[ray], points[ray]
        if return_locations:
            return tri, ray, points
        return tri, ray

    def intersects_location(self, ray_origins, ray_directions, multiple_hits=True, **kwargs):
        """``(locations, index_ray, index_tri)`` of the hits (see ``intersects_id``)."""
        tri, ray, points = self.intersects_id(
            ray_origins, ray_directions, return_locations=True, multiple_hits=multiple_hits
        )
        return points, ray, tri

    def intersects_first(self, ray_origins, ray_directions, **kwargs):
        """The first triangle each ray hits, ``(n,)`` int64, -1 for a miss (ties: lowest index)."""
        return cast_rays(self.model, ray_origins, ray_directions)[1]

    def intersects_any(self, ray_origins, ray_directions, **kwargs):
        """Whether each ray hits the mesh, ``(n,)`` bool."""
        return any_hits(self.model, ray_origins, ray_directions)

    def contains_points(self, points):
        """Whether each point is inside the closed mesh, ``(n,)`` bool (exact; points on the
        surface count as inside)."""
        return contains_points(self.model, points)


def _first_of_equal_hits(ray, t):
    """Of hits sorted by ray then ``t``, the positions of those not at the same ``t`` (within
    rounding) as the previous hit of their ray: one location per crossing of an edge or vertex.
    """
    if len(ray) == 0:
        return np.zeros(0, dtype=bool)
    same_ray = np.concatenate([[False], ray[1:] == ray[:-1]])
    close = np.concatenate([[False], np.abs(t[1:] - t[:-1]) <= 1e-12 * np.maximum(1.0, np.abs(t[1:]))])
    return ~(same_ray & close)


class ProximityQuery:
    """Closest points and signed distances on a mesh, with the interface of
    ``trimesh.proximity.ProximityQuery``:

    >>> import trimesh
    >>> from obbtree.trimesh import ProximityQuery
    >>> box = trimesh.creation.box()
    >>> closest, distance, triangle = ProximityQuery(box).on_surface([[0, 0, 2]])
    >>> closest.tolist(), distance.tolist()
    ([[0.0, 0.0, 0.5]], [1.5])
    >>> ProximityQuery(box).signed_distance([[0, 0, 0.25]]).tolist()
    [0.25]

    Distances are within ``1e-12 (d + L)`` of the exact ones (``L`` the largest coordinate) and
    exactly 0 on the surface. Signs are exact containment on a closed mesh; on an open one they
    come from the generalized winding number against 1/2 with a rigorous bound, and a point the
    bound cannot decide gets NaN (where trimesh guesses). Following trimesh,
    ``signed_distance`` is positive inside.
    """

    def __init__(self, mesh, bv="obb"):
        self.mesh = mesh
        self._bv = bv
        self._models = {}
        self._vertex_models = {}

    @property
    def model(self):
        """The obbtree model of the mesh as it is now (rebuilt only when the mesh changed)."""
        return _model_of(self.mesh, self._bv, self._models, limit=1)

    def on_surface(self, points):
        """``(closest, distance, triangle_id)``: each point's closest point on the surface
        ``(n, 3)``, its distance ``(n,)`` and the triangle it lies on ``(n,)``."""
        distance_, triangle, closest = closest_points(self.model, points)
        return closest, distance_, triangle

    def vertex(self, points):
        """``(distance, vertex_id)``: each point's nearest vertex of the mesh, exactly (the
        vertices as a mesh of one-point triangles, one per vertex, so the closest triangle is
        the nearest vertex)."""
        vertices = np.asarray(self.mesh.vertices, dtype=np.float64)
        key = (vertices.shape, hashlib.blake2b(vertices.tobytes(), digest_size=16).hexdigest())
        model = self._vertex_models.get(key)
        if model is None:
            corners = np.repeat(np.arange(len(vertices))[:, None], 3, axis=1)
            model = Model(Mesh(vertices, corners), bv=self._bv)
            self._vertex_models = {key: model}
        distance_, vertex_id, _ = closest_points(model, points)
        return distance_, vertex_id

    def signed_distance(self, points):
        """Each point's distance to the surface ``(n,)``, positive inside (trimesh's convention;
        ``obbtree.signed_distance`` is negative inside); NaN where an open mesh's side cannot be
        decided."""
        return -signed_distance(self.model, points)
