package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pod codec's warm-up, which {@link Main} begins before it reads the flags. */
class CodecWarmUpTest {

    @Test
    void theBuiltInPodDecodesDefaultsValidatesAndHashes() throws Exception {
        CompletableFuture<Void> warmUp = CodecWarmUp.begin(new String[] {"--pod-manifest-path", "/etc/kubernetes/manifests"});

        // A failure would be the future's (KubeletApp logs it): the built-in pod must be one the codec accepts.
        assertThat(warmUp.get(Duration.ofMinutes(1).toSeconds(), TimeUnit.SECONDS)).isNull();
        assertThat(warmUp).isCompletedWithValue(null);
    }

    @Test
    void onlyAskingForTheVersionOrTheUsageStartsNoWarmUp() {
        for (String arg : new String[] {"--version", "--version=raw", "--help", "-h"}) {
            long before = warmUpThreads();
            CompletableFuture<Void> warmUp = CodecWarmUp.begin(new String[] {arg});

            assertThat(warmUp).as(arg).isCompletedWithValue(null);
            assertThat(warmUpThreads()).as(arg).isEqualTo(before);
        }
    }

    private static long warmUpThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("startup-codec")).count();
    }
}
