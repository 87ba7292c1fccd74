// coal 3.0.3 (the continuation of HPP-FCL, itself a fork of FCL; Pan, Chitta & Manocha, ICRA
// 2012) on the inputs of `obbtree collide` and of obbtree's distance queries.
//
//   coal_bench collide A.obj B.obj poses.json --bv obb|obbrss|aabb|kios --mode bool|all [--out results.json]
//   coal_bench distance A.obj B.obj poses.json --bv rss|obbrss|kios [--margin D] [--out results.json]
//
// Collision asks for no contact data (NO_REQUEST): coal's leaf test computes the distance of two
// triangles and records a contact when it is at most `collision_distance_threshold` (1e-12 by
// default), one per triangle pair; `bool` stops at the first. `--margin D` is coal's own margin
// query: `collide` with `security_margin = D`, true when the distance is at most D (+ 1e-12).
// coal 3.0.3's k-DOP mesh–mesh test does not cull, so k-DOP trees are left out.
#include "mesh_bench.hpp"

#include <coal/BVH/BVH_model.h>
#include <coal/collision.h>
#include <coal/distance.h>

#include <memory>

namespace anchors {

struct Coal {
  static constexpr const char* name = "coal";
  using Geometry = std::shared_ptr<coal::CollisionGeometry>;

  static std::vector<std::string> collide_volumes() { return {"obb", "obbrss", "aabb", "kios"}; }
  static std::vector<std::string> distance_volumes() { return {"rss", "obbrss", "kios"}; }
  static std::vector<std::string> missing_distance_volumes() { return {}; }

  // coal's tree of `mesh` with its default splitter and fit.
  template <class BV>
  static Geometry tree(const Mesh& mesh) {
    std::vector<coal::Vec3s> points;
    points.reserve(mesh.vertices.size());
    for (const Vec3& v : mesh.vertices) points.emplace_back(v[0], v[1], v[2]);
    std::vector<coal::Triangle> triangles;
    triangles.reserve(mesh.triangles.size());
    for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
    auto model = std::make_shared<coal::BVHModel<BV>>();
    model->beginModel(static_cast<unsigned>(triangles.size()), static_cast<unsigned>(points.size()));
    model->addSubModel(points, triangles);
    model->endModel();
    return model;
  }

  static Geometry build(const std::string& bv, const Mesh& mesh) {
    if (bv == "obb") return tree<coal::OBB>(mesh);
    if (bv == "obbrss") return tree<coal::OBBRSS>(mesh);
    if (bv == "rss") return tree<coal::RSS>(mesh);
    if (bv == "aabb") return tree<coal::AABB>(mesh);
    if (bv == "kios") return tree<coal::kIOS>(mesh);
    fail("coal_bench: no tree for --bv " + bv);
  }

  static coal::Transform3s transform(const Pose& pose) {
    coal::Matrix3s r;
    coal::Vec3s t;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) r(i, j) = pose.rotation[i][j];
      t(i) = pose.translation[i];
    }
    return coal::Transform3s(r, t);
  }

  static std::vector<TrianglePair> collide(const Geometry& a, const Geometry& b, const Pose& pose, bool all) {
    const coal::CollisionRequest request(coal::NO_REQUEST, all ? std::numeric_limits<std::size_t>::max() : 1);
    coal::CollisionResult result;
    coal::collide(a.get(), coal::Transform3s::Identity(), b.get(), transform(pose), request, result);
    std::vector<TrianglePair> pairs(result.numContacts());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto& c = result.getContact(k);
      pairs[k] = {static_cast<int>(c.b1), static_cast<int>(c.b2)};
    }
    return pairs;
  }

  static DistanceAnswer distance(const Geometry& a, const Geometry& b, const Pose& pose) {
    const coal::DistanceRequest request(true);
    coal::DistanceResult result;
    coal::distance(a.get(), coal::Transform3s::Identity(), b.get(), transform(pose), request, result);
    const auto& p = result.nearest_points;
    return DistanceAnswer{result.min_distance,
                          {static_cast<int>(result.b1), static_cast<int>(result.b2)},
                          {p[0].x(), p[0].y(), p[0].z()},
                          {p[1].x(), p[1].y(), p[1].z()}};
  }

  static MarginAnswer within(const Geometry& a, const Geometry& b, const Pose& pose, double margin) {
    coal::CollisionRequest request(coal::NO_REQUEST, 1);
    request.security_margin = margin;
    coal::CollisionResult result;
    coal::collide(a.get(), coal::Transform3s::Identity(), b.get(), transform(pose), request, result);
    return MarginAnswer{result.isCollision(), std::nullopt};
  }
};

}  // namespace anchors

int main(int argc, char** argv) { return anchors::run_mesh_bench<anchors::Coal>(argc, argv); }
