package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class NodeKeyringTest {
    @TempDir Path root;

    @Test
    void theFilesAreReadOnceAndAgainOnlyAfterFiveMinutes() {
        FakeClock clock = new FakeClock();
        AtomicInteger reads = new AtomicInteger();
        NodeKeyring keyring = new NodeKeyring(() -> {
            reads.incrementAndGet();
            return Map.of("localhost:5001", new RegistryAuth("u" + reads.get(), "pw", "localhost:5001", null));
        }, clock);

        assertThat(keyring.get().lookup("localhost:5001/app")).extracting(RegistryAuth::username).containsExactly("u1");
        clock.advance(NodeKeyring.LIFETIME.minusSeconds(1));
        assertThat(keyring.get().lookup("localhost:5001/app")).extracting(RegistryAuth::username).containsExactly("u1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(keyring.get().lookup("localhost:5001/app")).extracting(RegistryAuth::username).containsExactly("u2");
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFileWrittenWhileTheKubeletRunsIsUsedOnceTheCacheExpires() throws Exception {
        FakeClock clock = new FakeClock();
        NodeKeyring keyring = NodeKeyring.of(new DockerConfigFiles.SearchPaths(List.of(root), List.of()), clock);
        assertThat(keyring.get().lookup("localhost:5001/app")).isEmpty();

        Files.writeString(root.resolve("config.json"),
                "{\"auths\":{\"localhost:5001\":{\"username\":\"node\",\"password\":\"pw\"}}}");
        assertThat(keyring.get().lookup("localhost:5001/app")).isEmpty();
        clock.advance(NodeKeyring.LIFETIME);
        assertThat(keyring.get().lookup("localhost:5001/app")).containsExactly(
                new RegistryAuth("node", "pw", "localhost:5001", null));
    }
}
