package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.PseudoFiles;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code failSwapOn} (upstream {@code NewContainerManager}): the kubelet does not run where swap is on, since
 * memory limits and eviction thresholds then no longer mean what they say.
 */
public final class SwapCheck {
    private SwapCheck() {}

    /**
     * Fails when {@code procSwaps} lists a swap device beside its header line; a missing file means no swap.
     *
     * @throws IllegalStateException with upstream's message, which names the flag to set instead
     * @throws IOException when the file exists but cannot be read
     */
    public static void failIfSwapOn(Path procSwaps) throws IOException {
        String text;
        try {
            text = PseudoFiles.read(procSwaps).strip();
        } catch (NoSuchFileException e) {
            return;
        }
        List<String> lines = Arrays.asList(text.split("\n"));
        if (lines.size() > 1) {
            throw new IllegalStateException("running with swap on is not supported, please disable swap! or set "
                    + "--fail-swap-on flag to false. " + procSwaps + " contained: [" + String.join(" ", lines) + "]");
        }
    }
}
