package io.jkubelet.cmd.e2e.apiserver;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class StrategicMergePatchTest {
    static JsonNode json(String s) {
        return ApiserverDispatcher.JSON.readTree(s);
    }

    @Test
    void listsWithAMergeKeyMergeByElementOthersAreReplaced() {
        JsonNode pod = json("""
                {"metadata":{"finalizers":["a"],"labels":{"x":"1","y":"2"}},
                 "status":{"containerStatuses":[{"name":"a","ready":false},{"name":"b","ready":false}],
                           "podIPs":[{"ip":"10.0.0.1"}],"conditions":[{"type":"Ready","status":"False"}]},
                 "spec":{"containers":[{"name":"a","args":["1","2"]}]}}""");
        JsonNode patched = StrategicMergePatch.apply(pod, json("""
                {"metadata":{"finalizers":["b"],"labels":{"y":null}},
                 "status":{"containerStatuses":[{"name":"b","ready":true}],
                           "conditions":[{"type":"Ready","$patch":"delete"}]},
                 "spec":{"containers":[{"name":"a","args":["3"]}]}}"""));
        assertThat(patched.path("status").path("containerStatuses").toString())
                .isEqualTo("[{\"name\":\"a\",\"ready\":false},{\"name\":\"b\",\"ready\":true}]");
        assertThat(patched.path("status").path("conditions").size()).isZero();
        assertThat(patched.path("status").path("podIPs").toString()).isEqualTo("[{\"ip\":\"10.0.0.1\"}]");
        assertThat(patched.path("metadata").path("finalizers").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(patched.path("metadata").path("labels").toString()).isEqualTo("{\"x\":\"1\"}");
        assertThat(patched.path("spec").path("containers").get(0).path("args").toString()).isEqualTo("[\"3\"]");
    }

    @Test
    void mergePatchReplacesLists() {
        JsonNode merged = StrategicMergePatch.applyMergePatch(json("{\"a\":[1,2],\"b\":{\"c\":1,\"d\":2}}"),
                json("{\"a\":[3],\"b\":{\"c\":null}}"));
        assertThat(merged.toString()).isEqualTo("{\"a\":[3],\"b\":{\"d\":2}}");
    }
}
