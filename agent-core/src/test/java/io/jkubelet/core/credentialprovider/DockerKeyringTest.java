package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerKeyringTest {
    private static RegistryAuth auth(String user) {
        return new RegistryAuth(user, "pw", "x", null);
    }

    private static String users(java.util.List<RegistryAuth> l) {
        return String.join(",", l.stream().map(RegistryAuth::username).toList());
    }

    @Test
    void hostPortAndPathPrefixMatchAsUpstream() {
        Map<String, RegistryAuth> e = new LinkedHashMap<>();
        e.put("https://quay.io", auth("quay"));
        e.put("quay.io/coreos", auth("coreos"));
        e.put("localhost:5000", auth("local"));
        e.put("*.example.com", auth("glob"));
        DockerKeyring k = DockerKeyring.EMPTY.with(e);

        // The more specific path first, then the host.
        assertThat(users(k.lookup("quay.io/coreos/etcd:v3"))).isEqualTo("coreos,quay");
        assertThat(users(k.lookup("quay.io/other/app"))).isEqualTo("quay");
        assertThat(users(k.lookup("localhost:5000/app@sha256:" + "a".repeat(64)))).isEqualTo("local");
        assertThat(k.lookup("localhost:5001/app")).isEmpty();
        assertThat(k.lookup("localhost/app")).isEmpty();
        assertThat(users(k.lookup("registry.example.com/team/app:1"))).isEqualTo("glob");
        assertThat(k.lookup("a.b.example.com/app")).isEmpty();
        assertThat(k.lookup("busybox")).isEmpty();
    }

    @Test
    void dockerHubImagesGetIndexDockerIoCredentials() {
        DockerKeyring k = DockerKeyring.EMPTY.with(Map.of("https://index.docker.io/v1/", auth("hub")));
        assertThat(users(k.lookup("busybox:1.36"))).isEqualTo("hub");
        assertThat(users(k.lookup("myorg/app"))).isEqualTo("hub");
        assertThat(users(k.lookup("docker.io/myorg/app"))).isEqualTo("hub");
        assertThat(k.lookup("ghcr.io/myorg/app")).isEmpty();
    }

    @Test
    void parsesDockerConfigJsonAndDockercfgWithAuthField() throws Exception {
        String auth = Base64.getEncoder().encodeToString("alice:open:sesame".getBytes(StandardCharsets.UTF_8));
        var json = DockerKeyring.parseDockerConfigJson(("{\"auths\":{\"localhost:5000\":{\"auth\":\"" + auth + "\"},"
                + "\"reg.io\":{\"username\":\"bob\",\"password\":\"pw\"}}}").getBytes(StandardCharsets.UTF_8));
        assertThat(json.get("localhost:5000")).isEqualTo(new RegistryAuth("alice", "open:sesame", "localhost:5000", null));
        assertThat(json.get("reg.io")).isEqualTo(new RegistryAuth("bob", "pw", "reg.io", null));
        var cfg = DockerKeyring.parseDockercfg("{\"reg.io\":{\"username\":\"carol\",\"password\":\"x\"}}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(cfg.get("reg.io").username()).isEqualTo("carol");
        assertThatThrownBy(() -> DockerKeyring.parseDockercfg("{\"r\":{\"auth\":\"bm9jb2xvbg==\"}}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("registry r: \"auth\" must be base64 of user:password");
    }

    @Test
    void aUnionGivesItsOwnMatchesFirstThenThoseOfTheKeyringAfterIt() {
        DockerKeyring pod = DockerKeyring.EMPTY.with(Map.of("localhost:5000", auth("secret")));
        DockerKeyring node = DockerKeyring.EMPTY.with(Map.of("localhost:5000/team", auth("node-team"),
                "localhost:5000", auth("node")));

        // Upstream UnionDockerKeyring: every match of the pod's secrets, even a less specific one, before the node's.
        assertThat(users(pod.union(node).lookup("localhost:5000/team/app:1"))).isEqualTo("secret,node-team,node");
        assertThat(users(pod.union(node).lookup("localhost:5000/other"))).isEqualTo("secret,node");
        assertThat(users(DockerKeyring.EMPTY.union(node).lookup("localhost:5000/x"))).isEqualTo("node");
        assertThat(users(pod.union(DockerKeyring.EMPTY).lookup("localhost:5000/x"))).isEqualTo("secret");
        assertThat(users(pod.union(node).with(Map.of("localhost:5000/team", auth("added"))).lookup("localhost:5000/team/a")))
                .isEqualTo("added,secret,node-team,node");
    }

    @Test
    void aDocumentThatIsNoJsonObjectIsNoDockerConfig() {
        for (String doc : new String[] {"", "  ", "[]", "\"auths\"", "null"}) {
            assertThatThrownBy(() -> DockerKeyring.parseDockerConfigJson(doc.getBytes(StandardCharsets.UTF_8)))
                    .as("%s", doc).hasMessage("a docker config must be a JSON object");
            assertThatThrownBy(() -> DockerKeyring.parseDockercfg(doc.getBytes(StandardCharsets.UTF_8)))
                    .as("%s", doc).hasMessage("a docker config must be a JSON object");
        }
    }
}
