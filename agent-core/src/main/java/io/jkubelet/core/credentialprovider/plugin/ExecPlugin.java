package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.ExecEnvVar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one credential provider plugin for one image, as upstream's {@code execPlugin}:
 * {@code <binDir>/<name> <args...>} with the kubelet's environment plus the provider's {@code env} (which wins over a
 * variable of the same name), the {@code CredentialProviderRequest} on its stdin, its stdout read as the
 * {@code CredentialProviderResponse}. A plugin that has not ended within {@link #TIMEOUT} is killed with what it
 * started. Errors are upstream's words, which name the plugin and the image and end with the plugin's stderr.
 * Thread-safe: every call runs its own process.
 */
final class ExecPlugin implements PluginProvider.Plugin {
    /** Upstream's catch-all timeout of an exec plugin. */
    static final Duration TIMEOUT = Duration.ofMinutes(1);
    /** A response is a few hundred bytes; more than this is no response (upstream reads without a limit). */
    static final int STDOUT_LIMIT = 4 << 20;
    /** What of the plugin's stderr an error quotes. */
    static final int STDERR_LIMIT = 4 << 10;
    private static final Pattern START_ERROR = Pattern.compile("error(?:=|: )\\d+(?:, | \\()([^)]+)");

    /** The plugin failed; the message is upstream's. */
    static final class ExecException extends Exception {
        ExecException(String message) {
            super(message);
        }
    }

    private final String name;
    private final Path binary;
    private final String apiVersion;
    private final List<String> args;
    private final List<ExecEnvVar> env;
    private final Duration timeout;

    ExecPlugin(String name, Path binDir, String apiVersion, List<String> args, List<ExecEnvVar> env, Duration timeout) {
        this.name = name;
        this.binary = binDir.resolve(name);
        this.apiVersion = apiVersion;
        this.args = List.copyOf(args);
        this.env = List.copyOf(env);
        this.timeout = timeout;
    }

    @Override
    public CredentialProviderResponse exec(String image) throws ExecException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        // The kubelet's own environment (upstream's issue 102750: plugins need PATH, HOME, proxies), the provider's
        // variables over it.
        env.forEach(v -> builder.environment().put(v.name(), v.value()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw failed(image, startError(e), "");
        }
        FutureTask<byte[]> stdout = drain(process.getInputStream(), STDOUT_LIMIT + 1);
        FutureTask<byte[]> stderr = drain(process.getErrorStream(), STDERR_LIMIT);
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(CredentialProviderApi.request(apiVersion, image));
        } catch (IOException e) {
            // A plugin that ends without reading its stdin is not an error, as with Go's exec.
        }
        boolean ended;
        try {
            ended = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            kill(process);
            throw e;
        }
        if (!ended) {
            kill(process);
            throw failed(image, "context deadline exceeded", text(stderr, process));
        }
        byte[] out = output(stdout, process);
        String err = text(stderr, process);
        if (process.exitValue() != 0) {
            throw failed(image, "exit status " + process.exitValue(), err);
        }
        if (out.length > STDOUT_LIMIT) {
            throw failed(image, "its stdout is longer than " + STDOUT_LIMIT + " bytes", err);
        }
        try {
            return CredentialProviderApi.response(out, apiVersion);
        } catch (CredentialProviderApi.ResponseException e) {
            throw new ExecException(e.getMessage());
        }
    }

    private ExecException failed(String image, String why, String stderr) {
        return new ExecException("error execing credential provider plugin " + name + " for image " + image + ": "
                + why + ": " + stderr);
    }

    /** As Go's {@code exec} says it: {@code fork/exec /path: permission denied}. */
    private String startError(IOException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        // "error=13, Permission denied" (fork) or "Exec failed, error: 13 (Permission denied)" (posix_spawn).
        Matcher errno = START_ERROR.matcher(message);
        String reason = errno.find() ? errno.group(1).trim().toLowerCase(Locale.ROOT) : message;
        return "fork/exec " + binary + ": " + reason;
    }

    /** Kills the plugin and what it started, so that nothing it left holds the kubelet's pipes. */
    private static void kill(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.waitFor();
    }

    private static FutureTask<byte[]> drain(InputStream stream, int keep) {
        FutureTask<byte[]> task = new FutureTask<>(() -> {
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try (stream) {
                for (int n; (n = stream.read(buffer)) >= 0; ) {
                    kept.write(buffer, 0, Math.max(0, Math.min(n, keep - kept.size())));
                }
            }
            return kept.toByteArray();
        });
        Thread.ofVirtual().name("credential-provider-output").start(task);
        return task;
    }

    /**
     * What the plugin wrote, once it ended. A process it left running in the background may still hold the pipe:
     * that is not waited for beyond a moment, and its descendants are killed.
     */
    private static byte[] output(FutureTask<byte[]> stream, Process process) throws InterruptedException {
        try {
            return stream.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            try {
                return stream.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException again) {
                stream.cancel(true);
                return new byte[0];
            }
        } catch (ExecutionException e) {
            return new byte[0];
        }
    }

    private static String text(FutureTask<byte[]> stderr, Process process) throws InterruptedException {
        return new String(output(stderr, process), StandardCharsets.UTF_8).stripTrailing();
    }
}
