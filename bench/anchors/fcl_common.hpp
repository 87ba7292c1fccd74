// FCL 0.7 pieces shared by fcl_bench and fcl_scene: a tree of a mesh and the transform of a pose.
#pragma once

#include "common.hpp"

#include <fcl/fcl.h>

#include <memory>

namespace anchors {

using FclGeometry = std::shared_ptr<fcl::CollisionGeometryd>;

// FCL's tree of `mesh` with its default splitter and fit.
template <class BV>
FclGeometry fcl_tree(const Mesh& mesh) {
  std::vector<fcl::Vector3d> points;
  points.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) points.emplace_back(v[0], v[1], v[2]);
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size()));
  model->addSubModel(points, triangles);
  model->endModel();
  return model;
}

// The tree of bounding volume `bv`: obb, obbrss, rss, aabb, kios or kdop18.
inline FclGeometry fcl_tree(const std::string& bv, const Mesh& mesh) {
  if (bv == "obb") return fcl_tree<fcl::OBBd>(mesh);
  if (bv == "obbrss") return fcl_tree<fcl::OBBRSSd>(mesh);
  if (bv == "rss") return fcl_tree<fcl::RSSd>(mesh);
  if (bv == "aabb") return fcl_tree<fcl::AABBd>(mesh);
  if (bv == "kios") return fcl_tree<fcl::kIOSd>(mesh);
  if (bv == "kdop18") return fcl_tree<fcl::KDOP<double, 18>>(mesh);
  fail("no FCL tree for --bv " + bv);
}

inline fcl::Transform3d fcl_transform(const Pose& pose) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) tf.linear()(i, j) = pose.rotation[i][j];
    tf.translation()(i) = pose.translation[i];
  }
  return tf;
}

}  // namespace anchors
