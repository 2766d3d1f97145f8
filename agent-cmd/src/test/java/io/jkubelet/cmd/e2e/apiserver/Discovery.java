package io.jkubelet.cmd.e2e.apiserver;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The discovery documents a real apiserver serves and kubectl reads before any request ({@code /version},
 * {@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/<group>/<version>}): fabric8's CRUD mode answers them
 * with empty lists, and kubectl then says "the server doesn't have a resource type".
 */
final class Discovery {
    private Discovery() {}

    private record Resource(String name, String kind, boolean namespaced, String verbs, String shortNames) {}

    private static final String CRUD = "create,delete,deletecollection,get,list,patch,update,watch";
    private static final List<Resource> CORE_V1 = List.of(
            new Resource("pods", "Pod", true, CRUD, "po"),
            new Resource("pods/status", "Pod", true, "get,patch,update", ""),
            new Resource("pods/eviction", "Eviction", true, "create", ""),
            new Resource("pods/binding", "Binding", true, "create", ""),
            new Resource("pods/log", "Pod", true, "get", ""),
            new Resource("pods/exec", "PodExecOptions", true, "create,get", ""),
            new Resource("nodes", "Node", false, CRUD, "no"),
            new Resource("nodes/status", "Node", false, "get,patch,update", ""),
            new Resource("nodes/proxy", "NodeProxyOptions", false, "create,delete,get,patch,update", ""),
            new Resource("events", "Event", true, CRUD, "ev"),
            new Resource("namespaces", "Namespace", false, "create,delete,get,list,patch,update,watch", "ns"),
            new Resource("configmaps", "ConfigMap", true, CRUD, "cm"),
            new Resource("secrets", "Secret", true, CRUD, ""),
            new Resource("serviceaccounts", "ServiceAccount", true, CRUD, "sa"),
            new Resource("serviceaccounts/token", "TokenRequest", true, "create", ""),
            new Resource("services", "Service", true, CRUD, "svc"),
            new Resource("persistentvolumeclaims", "PersistentVolumeClaim", true, CRUD, "pvc"),
            new Resource("persistentvolumes", "PersistentVolume", false, CRUD, "pv"));

    private record Group(String name, String version, List<Resource> resources) {}

    private static final List<Group> GROUPS = List.of(
            new Group("coordination.k8s.io", "v1", List.of(new Resource("leases", "Lease", true, CRUD, ""))),
            new Group("events.k8s.io", "v1", List.of(new Resource("events", "Event", true, CRUD, "ev"))),
            new Group("storage.k8s.io", "v1", List.of(new Resource("csidrivers", "CSIDriver", false, CRUD, ""),
                    new Resource("csinodes", "CSINode", false, CRUD, ""))),
            new Group("authentication.k8s.io", "v1", List.of(new Resource("tokenreviews", "TokenReview", false, "create", ""))),
            new Group("authorization.k8s.io", "v1", List.of(
                    new Resource("subjectaccessreviews", "SubjectAccessReview", false, "create", ""))),
            new Group("certificates.k8s.io", "v1", List.of(
                    new Resource("certificatesigningrequests", "CertificateSigningRequest", false, CRUD, "csr"))));

    /** The discovery document for {@code path} (no query), if it is one. */
    static Optional<String> document(String path, String serverAddress) {
        return switch (path) {
            case "/version", "/version/" -> Optional.of("""
                    {"major":"1","minor":"32","gitVersion":"v1.32.0-jkubelet-mock","gitCommit":"mock","gitTreeState":"clean",\
                    "buildDate":"2026-01-01T00:00:00Z","goVersion":"go1.23","compiler":"gc","platform":"linux/amd64"}""");
            case "/api", "/api/" -> Optional.of("""
                    {"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"%s"}]}"""
                    .formatted(serverAddress));
            case "/api/v1", "/api/v1/" -> Optional.of(resourceList("v1", CORE_V1));
            case "/apis", "/apis/" -> Optional.of(groupList());
            default -> GROUPS.stream()
                    .filter(g -> path.equals("/apis/" + g.name()) || path.equals("/apis/" + g.name() + "/")
                            || path.equals("/apis/" + g.name() + "/" + g.version()))
                    .findFirst()
                    .map(g -> path.endsWith(g.version()) ? resourceList(g.name() + "/" + g.version(), g.resources()) : group(g));
        };
    }

    private static String resourceList(String groupVersion, List<Resource> resources) {
        return "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"" + groupVersion + "\",\"resources\":["
                + resources.stream().map(Discovery::resource).collect(Collectors.joining(",")) + "]}";
    }

    private static String resource(Resource r) {
        String singular = r.name().contains("/") ? "" : r.kind().toLowerCase();
        String shortNames = r.shortNames().isEmpty() ? "" : ",\"shortNames\":[\"" + r.shortNames() + "\"]";
        return "{\"name\":\"" + r.name() + "\",\"singularName\":\"" + singular + "\",\"namespaced\":" + r.namespaced()
                + ",\"kind\":\"" + r.kind() + "\",\"verbs\":[" + quoted(r.verbs()) + "]" + shortNames + "}";
    }

    private static String group(Group g) {
        String gv = g.name() + "/" + g.version();
        return "{\"name\":\"" + g.name() + "\",\"versions\":[{\"groupVersion\":\"" + gv + "\",\"version\":\"" + g.version()
                + "\"}],\"preferredVersion\":{\"groupVersion\":\"" + gv + "\",\"version\":\"" + g.version() + "\"}}";
    }

    private static String groupList() {
        return "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
                + GROUPS.stream().map(Discovery::group).collect(Collectors.joining(",")) + "]}";
    }

    private static String quoted(String csv) {
        return List.of(csv.split(",")).stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(","));
    }
}
