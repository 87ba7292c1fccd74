"""Drop-in backends for trimesh: exact answers behind trimesh's own interfaces.

* :class:`CollisionManager` has the constructor, methods and return values of
  ``trimesh.collision.CollisionManager`` (which needs python-fcl): change one import.
* :class:`RayMeshIntersector` has the interface of trimesh's ray intersectors
  (``trimesh.ray.ray_triangle`` and ``ray_pyembree``); attach it to a mesh with
  ``mesh.ray = RayMeshIntersector(mesh)``.

Neither imports trimesh: anything with ``vertices`` and ``faces`` arrays (and, for contact
normals, ``face_normals``) is a mesh here.

Where the answers differ from trimesh's, these are the exact ones: touching triangles
intersect, and a ray through a shared edge or vertex hits.
"""

import hashlib
import itertools
import math

import numpy as np

from ._obbtree import Mesh, Model, Scene, any_hit, cast_rays, cast_rays_all, contains

__all__ = ["CollisionManager", "ContactData", "RayMeshIntersector"]

#: The name trimesh gives the external object of ``in_collision_single`` in contact data.
EXTERNAL = "__external"

_DISTANCE_MISSING = (
    "obbtree.trimesh.CollisionManager.{} needs obbtree's distance queries, which this build "
    "does not include yet; use trimesh.collision.CollisionManager (python-fcl) for distances"
)


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

    def __init__(self, names, indices, point, normal):
        self.names = set(names)
        self._inds = dict(zip(names, indices))
        self._point = point
        self._normal = normal

    @property
    def normal(self):
        """The unit normal of the first object's triangle, (3,) float."""
        return self._normal

    @property
    def point(self):
        """A point of the intersection, (3,) float."""
        return self._point

    @property
    def depth(self):
        """NaN: penetration depth is not measured (see the class documentation)."""
        return math.nan

    def index(self, name):
        """The index of the face of object ``name`` in this contact."""
        return self._inds[name]

    def __repr__(self):
        return f"ContactData({self._inds!r}, point={self._point!r})"


class _Object:
    """An object of a manager: the user's name and mesh, its model and pose."""

    def __init__(self, name, mesh, model, transform):
        self.name = name
        self.mesh = mesh
        self.model = model
        self.transform = transform
        self._normals = None

    def world_normal(self, face):
        if self._normals is None:
            self._normals = _face_normals(self.mesh)
        return self.transform[:3, :3] @ self._normals[face]


def _transform(transform):
    if transform is None:
        return np.eye(4)
    return np.array(transform, dtype=np.float64)


class _TransformNamed:
    """Renames the scene's ``pose`` argument to trimesh's ``transform`` in its errors."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is ValueError and str(error).startswith("pose: "):
            raise ValueError("transform: " + str(error)[len("pose: "):]) from None
        return False


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
        with _TransformNamed():
            self._scene.insert(key, model, transform)
        if name in self._objs:
            self.remove_object(name)
        self._objs[name] = _Object(name, mesh, model, transform)
        self._key_of[name] = key
        self._name_of[key] = name
        return model

    def remove_object(self, name):
        """Delete the object ``name``; ``ValueError`` if there is none."""
        if name not in self._objs:
            raise ValueError(f"{name} not in collision manager!")
        key = self._key_of.pop(name)
        self._scene.remove(key)
        del self._name_of[key]
        model = self._objs.pop(name).model
        if all(o.model is not model for o in self._objs.values()):
            self._models = {k: m for k, m in self._models.items() if m is not model}

    def set_transform(self, name, transform):
        """Move the object ``name`` to ``transform`` ((4,4)); ``ValueError`` if there is none."""
        if name not in self._objs:
            raise ValueError(f"{name} not in collision manager!")
        transform = _transform(transform)
        with _TransformNamed():
            self._scene.set_pose(self._key_of[name], transform)
        self._objs[name].transform = transform

    def in_collision_single(self, mesh, transform=None, return_names=False, return_data=False):
        """Does ``mesh`` at ``transform`` touch any object of the manager?

        Returns ``is_collision`` and, if asked, the set of names touched and a list of
        ContactData (one per intersecting triangle pair; ``"__external"`` names ``mesh``).
        """
        transform = _transform(transform)
        model = _model_of(mesh, self._bv, self._external, limit=8)
        mode = "all" if return_data else "first"
        with _TransformNamed():
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
        found = self._scene.collide_scene(other_manager._scene, mode=mode, contacts=return_data)
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
        return [
            ContactData((a.name, b.name), (i, j), point, a.world_normal(i))
            for (i, j), point in zip(pairs.tolist(), points)
        ]

    def min_distance_single(self, mesh, transform=None, return_name=False, return_data=False):
        """Not available yet: raises NotImplementedError."""
        raise NotImplementedError(_DISTANCE_MISSING.format("min_distance_single"))

    def min_distance_internal(self, name=None, return_names=False, return_data=False):
        """Not available yet: raises NotImplementedError."""
        raise NotImplementedError(_DISTANCE_MISSING.format("min_distance_internal"))

    def min_distance_other(self, other_manager, return_names=False, return_data=False):
        """Not available yet: raises NotImplementedError."""
        raise NotImplementedError(_DISTANCE_MISSING.format("min_distance_other"))


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
        return any_hit(self.model, ray_origins, ray_directions)

    def contains_points(self, points):
        """Whether each point is inside the closed mesh, ``(n,)`` bool (exact; points on the
        surface count as inside)."""
        return contains(self.model, points)


def _first_of_equal_hits(ray, t):
    """Of hits sorted by ray then ``t``, the positions of those not at the same ``t`` (within
    rounding) as the previous hit of their ray: one location per crossing of an edge or vertex.
    """
    if len(ray) == 0:
        return np.zeros(0, dtype=bool)
    same_ray = np.concatenate([[False], ray[1:] == ray[:-1]])
    close = np.concatenate([[False], np.abs(t[1:] - t[:-1]) <= 1e-12 * np.maximum(1.0, np.abs(t[1:]))])
    return ~(same_ray & close)
