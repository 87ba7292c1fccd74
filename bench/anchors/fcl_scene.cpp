// FCL 0.7's broad phase and exact mesh–mesh narrow phase on a scene of many objects: which object
// pairs touch, and in how many triangle pairs, at the scene's poses and after each frame of moves.
//
//   fcl_scene SCENE.json [--frames FRAMES.json] [--bv obbrss|obb] [--manager dynamic|dynamic_array|
//             sap|ssap|interval|naive] [--mode pairs|all] [--brute] [--out result.json]
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
// among them. `--brute` tests every pair of objects without a broad phase (the reference).
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
      for (std::size_t i = 0; i < scene_.objects.size(); ++i) {
        for (std::size_t j = i + 1; j < scene_.objects.size(); ++j) {
          test_pair(q, scene_.objects[i].get(), scene_.objects[j].get());
        }
      }
    } else {
      manager_->collide(&q, on_candidate);
    }
    return q.touches;
  }

  // Sets the poses of one frame and tells the manager which objects moved.
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

int run_scene(const Args& args) {
  args.only({"--frames", "--bv", "--manager", "--mode", "--brute", "--out"});
  const auto& p = args.positional();
  if (p.size() != 1) {
    fail("usage: fcl_scene SCENE.json [--frames FRAMES.json] [--bv obbrss|obb] [--manager dynamic] "
         "[--mode pairs|all] [--brute] [--out result.json]");
  }
  const std::string bv = args.get("--bv", "obbrss");
  require_one_of(bv, {"obbrss", "obb"}, "--bv");
  const std::string mode = args.get("--mode", "pairs");
  require_one_of(mode, {"pairs", "all"}, "--mode");
  const bool brute = args.has("--brute");
  const std::string manager = brute ? "brute" : args.get("--manager", "dynamic");
  const SceneFile file = read_scene(p[0]);
  const Json frames = args.has("--frames") ? read_json(args.get("--frames", "")).at("frames") : Json::array();

  const Clock::time_point start = Clock::now();
  Scene scene = build_scene(file, p[0], bv);
  Collider collider(scene, manager, brute, mode == "all");
  const double build_ms = milliseconds(Clock::now() - start);

  // The warm-up repeats frame 0's query only: a frame's moves are applied once, in order.
  for (std::size_t k = 0; k < kWarmUpQueries; ++k) (void)collider.collide();
  auto [times, touches] = time_queries(
      frames.size() + 1,
      [&](std::size_t k) {
        if (k > 0) collider.move(frames[k - 1], "frame " + std::to_string(k - 1));
        return collider.collide();
      },
      0);

  std::size_t pairs_total = 0, touching_total = 0;
  Report per_frame = Report::array();
  for (std::size_t k = 0; k < touches.size(); ++k) {
    pairs_total += triangle_pairs(touches[k]);
    touching_total += touches[k].size();
    if (k > 0) per_frame.push_back(Report{{"contacts", contacts_json(scene, touches[k])}});
  }
  print_line(Report{{"engine", "fcl"},
                    {"command", "scene"},
                    {"bv", bv},
                    {"manager", manager},
                    {"mode", mode},
                    {"objects", scene.objects.size()},
                    {"meshes", file.meshes.size()},
                    {"frames", frames.size()},
                    {"build_ms", build_ms},
                    {"query_total_ms", times.total_ms},
                    {"query_median_us", times.median_us()},
                    {"contact_pairs_total", pairs_total},
                    {"touching_object_pairs_total", touching_total},
                    {"frame0_contact_pairs", triangle_pairs(touches[0])},
                    {"frame0_touching_object_pairs", touches[0].size()}});
  if (args.has("--out")) {
    write_json_file(args.get("--out", ""), Report{{"objects", scene.objects.size()},
                                                  {"build_ms", build_ms},
                                                  {"query_total_ms", times.total_ms},
                                                  {"contacts", contacts_json(scene, touches[0])},
                                                  {"frames", std::move(per_frame)}});
  }
  return 0;
}

}  // namespace anchors

int main(int argc, char** argv) { return anchors::run_scene(anchors::Args(argc, argv, {"--brute"})); }
