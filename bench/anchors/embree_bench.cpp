// Embree 3.13 (Wald, Woop, Benthin, Johnson & Ernst, "Embree: a kernel framework for efficient CPU
// ray tracing", ACM TOG 2014) on the inputs of `obbtree pick --rays`.
//
//   embree_bench ray MESH.obj rays.json [--out hits.json]
//
// One thread (device "threads=1"), default build quality, one rtcIntersect1 per ray: the first
// hit along origin + t dir, t >= 0. Embree works in single precision: the mesh and the rays are
// rounded to float. EMBREE_ROBUST=1 sets RTC_SCENE_FLAG_ROBUST (watertight traversal and
// intersection, slower). `query_total_ms` is one plain loop over every ray after 10 untimed warm-up
// rays; `query_median_us` comes from a second pass that times each ray on its own (so it includes
// the clock's own cost).
#include "common.hpp"

#include <embree3/rtcore.h>

#include <limits>

namespace anchors {

struct Hit {
  bool hit = false;
  unsigned triangle = 0;
  double t = 0.0;
};

class EmbreeScene {
 public:
  EmbreeScene(const Mesh& mesh, bool robust) : device_(rtcNewDevice("threads=1")) {
    if (!device_) fail("embree_bench: rtcNewDevice failed");
    scene_ = rtcNewScene(device_);
    if (robust) rtcSetSceneFlags(scene_, RTC_SCENE_FLAG_ROBUST);
    RTCGeometry geometry = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    auto* points = static_cast<float*>(rtcSetNewGeometryBuffer(
        geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), mesh.vertices.size()));
    for (std::size_t k = 0; k < mesh.vertices.size(); ++k) {
      for (int c = 0; c < 3; ++c) points[3 * k + c] = static_cast<float>(mesh.vertices[k][c]);
    }
    auto* corners = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
        geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), mesh.triangles.size()));
    for (std::size_t k = 0; k < mesh.triangles.size(); ++k) {
      for (int c = 0; c < 3; ++c) corners[3 * k + c] = static_cast<unsigned>(mesh.triangles[k][c]);
    }
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene_, geometry);
    rtcReleaseGeometry(geometry);
    rtcCommitScene(scene_);
  }
  ~EmbreeScene() {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }
  EmbreeScene(const EmbreeScene&) = delete;
  EmbreeScene& operator=(const EmbreeScene&) = delete;

  Hit first_hit(const Ray& ray) const {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit query;
    query.ray.org_x = static_cast<float>(ray.origin[0]);
    query.ray.org_y = static_cast<float>(ray.origin[1]);
    query.ray.org_z = static_cast<float>(ray.origin[2]);
    query.ray.dir_x = static_cast<float>(ray.dir[0]);
    query.ray.dir_y = static_cast<float>(ray.dir[1]);
    query.ray.dir_z = static_cast<float>(ray.dir[2]);
    query.ray.tnear = 0.0f;
    query.ray.tfar = std::numeric_limits<float>::infinity();
    query.ray.time = 0.0f;
    query.ray.mask = ~0u;
    query.ray.id = 0;
    query.ray.flags = 0;
    query.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    query.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene_, &context, &query);
    if (query.hit.geomID == RTC_INVALID_GEOMETRY_ID) return Hit{};
    return Hit{true, query.hit.primID, static_cast<double>(query.ray.tfar)};
  }

 private:
  RTCDevice device_;
  RTCScene scene_;
};

int run_rays(const Args& args) {
  args.only({"--out"});
  const auto& p = args.positional();
  if (p.size() != 3 || p[0] != "ray") fail("usage: embree_bench ray MESH.obj rays.json [--out hits.json]");
  const Mesh mesh = read_obj(p[1]);
  const std::vector<Ray> rays = read_rays(p[2]);
  const char* robust_env = std::getenv("EMBREE_ROBUST");
  const bool robust = robust_env && std::string(robust_env) == "1";

  const Clock::time_point start = Clock::now();
  const EmbreeScene scene(mesh, robust);
  const double build_ms = milliseconds(Clock::now() - start);

  for (std::size_t i = 0; i < std::min(rays.size(), kWarmUpQueries); ++i) (void)scene.first_hit(rays[i]);
  std::vector<Hit> hits(rays.size());
  const Clock::time_point loop = Clock::now();
  for (std::size_t i = 0; i < rays.size(); ++i) hits[i] = scene.first_hit(rays[i]);
  const double total_ms = milliseconds(Clock::now() - loop);
  const auto per_ray = time_queries(rays.size(), [&](std::size_t i) { return scene.first_hit(rays[i]); });

  std::size_t hit_count = 0;
  Report per_ray_hits = Report::array();
  for (const Hit& h : hits) {
    hit_count += h.hit;
    per_ray_hits.push_back(Report{{"hit", h.hit},
                                  {"triangle", h.hit ? static_cast<long long>(h.triangle) : -1LL},
                                  {"t", h.hit ? Report(h.t) : Report(nullptr)}});
  }
  print_line(Report{{"engine", "embree"},
                    {"command", "ray"},
                    {"robust", robust},
                    {"rays", rays.size()},
                    {"tris", mesh.triangles.size()},
                    {"build_ms", build_ms},
                    {"query_total_ms", total_ms},
                    {"query_median_us", per_ray.first.median_us()},
                    {"total_ms", total_ms},
                    {"per_ray_ns", rays.empty() ? 0.0 : total_ms * 1e6 / static_cast<double>(rays.size())},
                    {"hits", hit_count}});
  if (args.has("--out")) {
    write_json_file(args.get("--out", ""), Report{{"engine", "embree"},
                                                  {"robust", robust},
                                                  {"tris", mesh.triangles.size()},
                                                  {"build_ms", build_ms},
                                                  {"query_total_ms", total_ms},
                                                  {"hits", std::move(per_ray_hits)}});
  }
  return 0;
}

}  // namespace anchors

int main(int argc, char** argv) { return anchors::run_rays(anchors::Args(argc, argv, {})); }
