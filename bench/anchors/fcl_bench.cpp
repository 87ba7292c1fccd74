// FCL 0.7 (Pan, Chitta & Manocha, "FCL: A general purpose library for collision and proximity
// queries", ICRA 2012) on the inputs of `obbtree collide` and of obbtree's distance queries.
//
//   fcl_bench collide A.obj B.obj poses.json --bv obb|obbrss|aabb|kios|kdop18 --mode bool|all [--out results.json]
//   fcl_bench distance A.obj B.obj poses.json --bv rss|obbrss|kios|aabb [--margin D] [--out results.json]
//
// Collision asks for no contact points (enable_contact = false), so FCL records one contact per
// intersecting triangle pair: `bool` stops at the first (num_max_contacts = 1), `all` collects
// every one. FCL has no margin query: `--margin D` times the distance and compares it with D.
// FCL 0.7 has no mesh distance for OBB and k-DOP trees (prints "supported":false, exits 3).
#include "fcl_common.hpp"
#include "mesh_bench.hpp"

namespace anchors {

struct Fcl {
  static constexpr const char* name = "fcl";
  using Geometry = FclGeometry;

  static std::vector<std::string> collide_volumes() { return {"obb", "obbrss", "aabb", "kios", "kdop18"}; }
  static std::vector<std::string> distance_volumes() { return {"rss", "obbrss", "kios", "aabb"}; }
  static std::vector<std::string> missing_distance_volumes() { return {"obb", "kdop18"}; }

  static Geometry build(const std::string& bv, const Mesh& mesh) { return fcl_tree(bv, mesh); }

  static std::vector<TrianglePair> collide(const Geometry& a, const Geometry& b, const Pose& pose, bool all) {
    const fcl::CollisionRequestd request(all ? std::numeric_limits<std::size_t>::max() : 1, false);
    fcl::CollisionResultd result;
    fcl::collide(a.get(), fcl::Transform3d::Identity(), b.get(), fcl_transform(pose), request, result);
    std::vector<TrianglePair> pairs(result.numContacts());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto& c = result.getContact(k);
      pairs[k] = {static_cast<int>(c.b1), static_cast<int>(c.b2)};
    }
    return pairs;
  }

  static DistanceAnswer distance(const Geometry& a, const Geometry& b, const Pose& pose) {
    const fcl::DistanceRequestd request(true);
    fcl::DistanceResultd result;
    fcl::distance(a.get(), fcl::Transform3d::Identity(), b.get(), fcl_transform(pose), request, result);
    const auto& p = result.nearest_points;
    return DistanceAnswer{result.min_distance,
                          {static_cast<int>(result.b1), static_cast<int>(result.b2)},
                          {p[0].x(), p[0].y(), p[0].z()},
                          {p[1].x(), p[1].y(), p[1].z()}};
  }

  static MarginAnswer within(const Geometry& a, const Geometry& b, const Pose& pose, double margin) {
    const double d = distance(a, b, pose).distance;
    return MarginAnswer{d <= margin, d};
  }
};

}  // namespace anchors

int main(int argc, char** argv) { return anchors::run_mesh_bench<anchors::Fcl>(argc, argv); }
