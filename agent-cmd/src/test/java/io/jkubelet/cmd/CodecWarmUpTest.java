package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The pod codec's warm-up, which {@link Main} begins before it reads the flags. */
class CodecWarmUpTest {

    @Test
    void theBuiltInPodDecodesDefaultsValidatesAndHashes() throws Exception {
        StartupStep<Void> warmUp = CodecWarmUp.begin(new String[] {"--pod-manifest-path", "/etc/kubernetes/manifests"});

        // A failure would be the step's (KubeletApp logs it): the built-in pod must be one the codec accepts.
        assertThat(warmUp.await()).isNull();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        warmUp.whenFinished(failure::complete);
        assertThat(failure).isCompletedWithValue(null);
    }

    @Test
    void onlyAskingForTheVersionOrTheUsageStartsNoWarmUp() {
        for (String arg : new String[] {"--version", "--version=raw", "--help", "-h"}) {
            long before = warmUpThreads();
            StartupStep<Void> warmUp = CodecWarmUp.begin(new String[] {arg});

            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            warmUp.whenFinished(failure::complete);
            assertThat(failure).as(arg + ": finished at once, without failure").isCompletedWithValue(null);
            assertThat(warmUpThreads()).as(arg).isEqualTo(before);
        }
    }

    private static long warmUpThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("startup-codec")).count();
    }
}
