// FCL 0.7's broad phase and exact mesh–mesh narrow phase on a scene of many objects: which object
// pairs touch, and in how many triangle pairs, at the scene's poses and after each frame of moves;
// or (`--mode distance`) which object pair is the closest, and how far apart.
//
//   fcl_scene SCENE.json [--frames FRAMES.json] [--bv obbrss|obb] [--manager dynamic|dynamic_array|
//             sap|ssap|interval|naive] [--mode pairs|all|distance] [--brute] [--out result.json]
//
// SCENE.json {"objects":[{"name","mesh" (relative to SCENE.json),"pose":{"translation","rotation"}}],
// "allow":[[a,b],..]} (world poses; "allow": pairs never checked). FRAMES.json
// {"frames":[{name: pose, ..}, ..]}: each frame's new absolute poses of the objects that move.
//
// Objects that use the same mesh file share one tree. Frame 0 is the scene's poses; each later
// frame sets the moved objects' transforms, updates the manager with them and queries again.
// `build_ms`: trees, objects and the manager's setup (files are read before); `query_total_ms`:
// every query, updates included, after 10 untimed runs of frame 0's query. The manager (default:
// FCL's dynamic AABB tree) reports candidate pairs; each is tested by fcl::collide. `--mode pairs`
// (default) asks for no contact points, so each intersecting triangle pair is one contact;
// `--mode all` asks for contact points (FCL's `enable_contact`) and counts distinct triangle pairs
// among them. `--mode distance` runs the manager's self-distance query instead, with FCL's default
// distance callback (fcl::DefaultDistanceFunction, as python-fcl and trimesh use it; nearest points
// asked for), which keeps the least distance over the candidate pairs and prunes each pair's
// traversal with it; OBBRSS trees only (FCL 0.7 has no mesh distance for OBB trees). `--brute`
// tests every pair of objects without a broad phase (the reference).
#include "fcl_common.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

namespace anchors {

struct Touch {
  int a, b;           // object indices, a < b
  std::size_t pairs;  // distinct intersecting triangle pairs
};

struct Scene {
  std::vector<std::string> names;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
  std::unordered_map<std::string, int> index;
  std::set<std::pair<int, int>> allowed;

  int index_of(const std::string& name, const std::string& where) const {
    const auto it = index.find(name);
    if (it == index.end()) fail(where + ": no object named '" + name + "'");
    return it->second;
  }
  bool is_allowed(int a, int b) const { return allowed.count({std::min(a, b), std::max(a, b)}) > 0; }
};

// The directory part of `path`, with its trailing '/', or "" for a bare file name.
inline std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

struct SceneFile {
  Json json;
  std::map<std::string, Mesh> meshes;  // by path
};

// The scene's JSON and every mesh it names, read before the clock starts.
inline SceneFile read_scene(const std::string& path) {
  SceneFile file{read_json(path), {}};
  if (!file.json.contains("objects") || !file.json["objects"].is_array()) fail(path + ": no \"objects\" list");
  for (const Json& o : file.json["objects"]) {
    const std::string mesh = directory_of(path) + o.at("mesh").get<std::string>();
    if (!file.meshes.count(mesh)) file.meshes.emplace(mesh, read_obj(mesh));
  }
  return file;
}

inline Scene build_scene(const SceneFile& file, const std::string& path, const std::string& bv) {
  std::map<std::string, FclGeometry> trees;
  for (const auto& [mesh_path, mesh] : file.meshes) trees[mesh_path] = fcl_tree(bv, mesh);
  Scene scene;
  for (const Json& o : file.json["objects"]) {
    const std::string name = o.at("name").get<std::string>();
    if (scene.index.count(name)) fail(path + ": two objects named '" + name + "'");
    const auto tree = trees.at(directory_of(path) + o.at("mesh").get<std::string>());
    auto object = std::make_unique<fcl::CollisionObjectd>(tree, fcl_transform(pose_from_json(o.at("pose"), name)));
    object->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(scene.objects.size())));
    scene.index[name] = static_cast<int>(scene.objects.size());
    scene.names.push_back(name);
    scene.objects.push_back(std::move(object));
  }
  for (const Json& pair : file.json.value("allow", Json::array())) {
    const int a = scene.index_of(pair.at(0).get<std::string>(), path + " allow");
    const int b = scene.index_of(pair.at(1).get<std::string>(), path + " allow");
    scene.allowed.insert({std::min(a, b), std::max(a, b)});
  }
  return scene;
}

inline int object_index(const fcl::CollisionObjectd* o) {
  return static_cast<int>(reinterpret_cast<std::intptr_t>(o->getUserData()));
}

// One query of the whole scene: the touching object pairs found so far.
struct Query {
  const Scene* scene;
  bool contact_points;
  std::vector<Touch> touches;
};

// The narrow phase of one candidate pair; records it when some triangle pairs intersect.
inline void test_pair(Query& q, fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2) {
  const int a = object_index(o1), b = object_index(o2);
  if (q.scene->is_allowed(a, b)) return;
  const fcl::CollisionRequestd request(std::numeric_limits<std::size_t>::max(), q.contact_points);
  fcl::CollisionResultd result;
  fcl::collide(o1, o2, request, result);
  std::size_t pairs = result.numContacts();
  if (q.contact_points) {
    std::set<std::pair<int, int>> distinct;
    for (std::size_t k = 0; k < result.numContacts(); ++k) {
      distinct.insert({result.getContact(k).b1, result.getContact(k).b2});
    }
    pairs = distinct.size();
  }
  if (pairs > 0) q.touches.push_back(Touch{std::min(a, b), std::max(a, b), pairs});
}

inline bool on_candidate(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  test_pair(*static_cast<Query*>(data), o1, o2);
  return false;  // never stop: every touching pair is wanted
}

inline std::unique_ptr<fcl::BroadPhaseCollisionManagerd> make_manager(const std::string& name) {
  if (name == "dynamic") return std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
  if (name == "dynamic_array") return std::make_unique<fcl::DynamicAABBTreeCollisionManager_Arrayd>();
  if (name == "sap") return std::make_unique<fcl::SaPCollisionManagerd>();
  if (name == "ssap") return std::make_unique<fcl::SSaPCollisionManagerd>();
  if (name == "interval") return std::make_unique<fcl::IntervalTreeCollisionManagerd>();
  if (name == "naive") return std::make_unique<fcl::NaiveCollisionManagerd>();
  fail("--manager must be dynamic|dynamic_array|sap|ssap|interval|naive, not '" + name + "'");
}

// The closest object pair found so far by a self-distance query, beside FCL's own data.
struct Closest {
  const Scene* scene = nullptr;
  fcl::DefaultDistanceData<double> fcl;  // the request and FCL's running least distance
  int a = -1, b = -1;                    // the objects of that distance, a < b; -1: none yet
};

// FCL's default distance callback on one candidate pair, noting the pair's objects whenever the
// least distance drops (FCL's result names the trees only, which objects share); allowed pairs
// are skipped.
inline bool on_distance_candidate(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data,
                                  double& dist) {
  Closest& c = *static_cast<Closest*>(data);
  const int a = object_index(o1), b = object_index(o2);
  if (c.scene->is_allowed(a, b)) {
    dist = c.fcl.result.min_distance;
    return false;
  }
  const double before = c.fcl.result.min_distance;
  const bool stop = fcl::DefaultDistanceFunction(o1, o2, &c.fcl, dist);
  if (c.fcl.result.min_distance < before) std::tie(c.a, c.b) = std::minmax(a, b);
  return stop;
}

// Queries the scene through the manager, or with `brute`, every pair of objects.
class Collider {
 public:
  Collider(Scene& scene, const std::string& manager, bool brute, bool contact_points)
      : scene_(scene), brute_(brute), contact_points_(contact_points) {
    if (brute_) return;
    manager_ = make_manager(manager);
    std::vector<fcl::CollisionObjectd*> all;
    for (auto& o : scene_.objects) all.push_back(o.get());
    manager_->registerObjects(all);
    manager_->setup();
  }

  std::vector<Touch> collide() const {
    Query q{&scene_, contact_points_, {}};
    if (brute_) {
      every_pair([&](fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2) {
        test_pair(q, o1, o2);
        return false;  // every pair
      });
    } else {
      manager_->collide(&q, on_candidate);
    }
    return q.touches;
  }

  // The closest admitted object pair (a = b = -1 when there is none).
  Closest distance() const {
    Closest c;
    c.scene = &scene_;
    c.fcl.request.enable_nearest_points = true;
    if (brute_) {
      double dist = 0.0;
      every_pair([&](fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2) {
        return on_distance_candidate(o1, o2, &c, dist);
      });
    } else {
      manager_->distance(&c, on_distance_candidate);
    }
    return c;
  }

  // Sets the poses of one frame and tells the manager which objects moved.
  // Calls `visit(o1, o2)` on every pair of objects, in index order, until it returns true.
  template <class Visit>
  void every_pair(Visit&& visit) const {
    for (std::size_t i = 0; i < scene_.objects.size(); ++i) {
      for (std::size_t j = i + 1; j < scene_.objects.size(); ++j) {
        if (visit(scene_.objects[i].get(), scene_.objects[j].get())) return;
      }
    }
  }

  void move(const Json& frame, const std::string& where) {
    std::vector<fcl::CollisionObjectd*> moved;
    for (const auto& [name, pose] : frame.items()) {
      fcl::CollisionObjectd* o = scene_.objects[scene_.index_of(name, where)].get();
      o->setTransform(fcl_transform(pose_from_json(pose, where + " " + name)));
      o->computeAABB();
      moved.push_back(o);
    }
    if (!brute_ && !moved.empty()) manager_->update(moved);
  }

 private:
  Scene& scene_;
  bool brute_;
  bool contact_points_;
  std::unique_ptr<fcl::BroadPhaseCollisionManagerd> manager_;
};

inline std::size_t triangle_pairs(const std::vector<Touch>& touches) {
  std::size_t n = 0;
  for (const Touch& t : touches) n += t.pairs;
  return n;
}

// {"a","b","pairs"} per touching pair, a < b by name, sorted by (a, b).
inline Report contacts_json(const Scene& scene, const std::vector<Touch>& touches) {
  std::vector<std::tuple<std::string, std::string, std::size_t>> rows;
  for (const Touch& t : touches) {
    const std::string &x = scene.names[t.a], &y = scene.names[t.b];
    rows.emplace_back(std::min(x, y), std::max(x, y), t.pairs);
  }
  std::sort(rows.begin(), rows.end());
  Report out = Report::array();
  for (const auto& [a, b, pairs] : rows) out.push_back(Report{{"a", a}, {"b", b}, {"pairs", pairs}});
  return out;
}

// {"a","b","distance"} of the closest pair, a < b by name, or null when no pair is admitted.
inline Report closest_json(const Scene& scene, const Closest& c) {
  if (c.a < 0) return nullptr;
  const auto [a, b] = std::minmax(scene.names[c.a], scene.names[c.b]);
  return Report{{"a", a}, {"b", b}, {"distance", c.fcl.result.min_distance}};
}

// What every run reads, builds and reports alike.
struct Run {
  std::string bv, manager, mode;
  SceneFile file;
  Json frames;
  double build_ms = 0.0;

  Report line(const Scene& scene, const LoopTimes& times) const {
    return Report{{"engine", "fcl"},
                  {"command", "scene"},
                  {"bv", bv},
                  {"manager", manager},
                  {"mode", mode},
                  {"objects", scene.objects.size()},
                  {"meshes", file.meshes.size()},
                  {"frames", frames.size()},
                  {"build_ms", build_ms},
                  {"query_total_ms", times.total_ms},
                  {"query_median_us", times.median_us()}};
  }
  Report out(const Scene& scene, const LoopTimes& times) const {
    return Report{
        {"objects", scene.objects.size()}, {"build_ms", build_ms}, {"query_total_ms", times.total_ms}};
  }
};

// Frame 0's query, then each frame's moves and query, under the clock (after the warm-up, which
// repeats frame 0's query only: a frame's moves are applied once, in order).
template <class Query>
auto time_frames(Collider& collider, const Json& frames, Query&& query) {
  for (std::size_t k = 0; k < kWarmUpQueries; ++k) (void)query();
  return time_queries(
      frames.size() + 1,
      [&](std::size_t k) {
        if (k > 0) collider.move(frames[k - 1], "frame " + std::to_string(k - 1));
        return query();
      },
      0);
}

void report_contacts(const Run& run, const Scene& scene, Collider& collider, const Args& args) {
  auto [times, touches] = time_frames(collider, run.frames, [&] { return collider.collide(); });
  std::size_t pairs_total = 0, touching_total = 0;
  Report per_frame = Report::array();
  for (std::size_t k = 0; k < touches.size(); ++k) {
    pairs_total += triangle_pairs(touches[k]);
    touching_total += touches[k].size();
    if (k > 0) per_frame.push_back(Report{{"contacts", contacts_json(scene, touches[k])}});
  }
  Report line = run.line(scene, times);
  line["contact_pairs_total"] = pairs_total;
  line["touching_object_pairs_total"] = touching_total;
  line["frame0_contact_pairs"] = triangle_pairs(touches[0]);
  line["frame0_touching_object_pairs"] = touches[0].size();
  print_line(line);
  if (!args.has("--out")) return;
  Report out = run.out(scene, times);
  out["contacts"] = contacts_json(scene, touches[0]);
  out["frames"] = std::move(per_frame);
  write_json_file(args.get("--out", ""), out);
}

void report_distance(const Run& run, const Scene& scene, Collider& collider, const Args& args) {
  auto [times, closest] = time_frames(collider, run.frames, [&] { return collider.distance(); });
  double least = std::numeric_limits<double>::infinity();
  Report per_frame = Report::array();
  for (std::size_t k = 0; k < closest.size(); ++k) {
    if (closest[k].a >= 0) least = std::min(least, closest[k].fcl.result.min_distance);
    if (k > 0) per_frame.push_back(Report{{"closest", closest_json(scene, closest[k])}});
  }
  Report line = run.line(scene, times);
  line["min_distance"] = std::isfinite(least) ? Report(least) : Report(nullptr);
  line["frame0_closest"] = closest_json(scene, closest[0]);
  print_line(line);
  if (!args.has("--out")) return;
  Report out = run.out(scene, times);
  out["closest"] = closest_json(scene, closest[0]);
  out["frames"] = std::move(per_frame);
  write_json_file(args.get("--out", ""), out);
}

int run_scene(const Args& args) {
  args.only({"--frames", "--bv", "--manager", "--mode", "--brute", "--out"});
  const auto& p = args.positional();
  if (p.size() != 1) {
    fail("usage: fcl_scene SCENE.json [--frames FRAMES.json] [--bv obbrss|obb] [--manager dynamic] "
         "[--mode pairs|all|distance] [--brute] [--out result.json]");
  }
  Run run;
  run.bv = args.get("--bv", "obbrss");
  require_one_of(run.bv, {"obbrss", "obb"}, "--bv");
  run.mode = args.get("--mode", "pairs");
  require_one_of(run.mode, {"pairs", "all", "distance"}, "--mode");
  if (run.mode == "distance" && run.bv != "obbrss") {
    fail("--mode distance: FCL 0.7 has no mesh distance for OBB trees (use --bv obbrss)");
  }
  const bool brute = args.has("--brute");
  run.manager = brute ? "brute" : args.get("--manager", "dynamic");
  run.file = read_scene(p[0]);
  run.frames = args.has("--frames") ? read_json(args.get("--frames", "")).at("frames") : Json::array();

  const Clock::time_point start = Clock::now();
  Scene scene = build_scene(run.file, p[0], run.bv);
  Collider collider(scene, run.manager, brute, run.mode == "all");
  run.build_ms = milliseconds(Clock::now() - start);

  if (run.mode == "distance") {
    report_distance(run, scene, collider, args);
  } else {
    report_contacts(run, scene, collider, args);
  }
  return 0;
}

}  // namespace anchors

int main(int argc, char** argv) { return anchors::run_scene(anchors::Args(argc, argv, {"--brute"})); }
