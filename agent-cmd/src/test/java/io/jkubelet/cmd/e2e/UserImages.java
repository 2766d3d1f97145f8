package io.jkubelet.cmd.e2e;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Images whose configuration names a user (a Dockerfile's {@code USER}), made locally from {@code jkubelet/busybox:1.0}
 * (whose {@code /etc/passwd} has root and nobody) with {@code docker commit --change 'USER ...'}, and copied into
 * containerd's {@code k8s.io} namespace for a node on containerd ({@code docker save | ctr images import}, as
 * {@code jk_ensure_containerd_images} copies the base images). Made once; kept, as the base images are.
 */
final class UserImages {
    /** {@code USER 1000}: a numeric non-root user. */
    static final String NUMERIC = "jkubelet/busybox-user:1000";
    /** {@code USER nobody}: a user by name, which the kubelet cannot verify. */
    static final String NAMED = "jkubelet/busybox-user:nobody";

    private UserImages() {}

    static synchronized void ensureOnDocker() {
        make(NUMERIC, "1000");
        make(NAMED, "nobody");
    }

    private static void make(String image, String user) {
        if (Docker.run("image", "inspect", image).exitCode() == 0) {
            return;
        }
        String source = Docker.run("create", AgentTestBase.IMAGE, "true").out();
        try {
            Docker.Result commit = Docker.run("commit", "--change", "USER " + user, source, image);
            if (commit.exitCode() != 0) {
                throw new IllegalStateException("docker commit of " + image + " failed: " + commit.out());
            }
        } finally {
            Docker.run("rm", "-f", source);
        }
    }

    /** The images on containerd too, named as the CRI lists them ({@code docker.io/...}). */
    static synchronized void ensureOnContainerd() throws Exception {
        ensureOnDocker();
        if (ContainerdTestBase.ctr("images", "ls", "-q", "name==docker.io/" + NUMERIC).contains(NUMERIC)
                && ContainerdTestBase.ctr("images", "ls", "-q", "name==docker.io/" + NAMED).contains(NAMED)) {
            return;
        }
        Path tarball = Files.createTempFile("jk-user-images", ".tar");
        try {
            Docker.Result save = Docker.run("save", "-o", tarball.toString(), NUMERIC, NAMED);
            if (save.exitCode() != 0) {
                throw new IllegalStateException("docker save failed: " + save.out());
            }
            String imported = ContainerdTestBase.ctr("images", "import", tarball.toString());
            if (!ContainerdTestBase.ctr("images", "ls", "-q", "name==docker.io/" + NUMERIC).contains(NUMERIC)) {
                throw new IllegalStateException("ctr images import gave no " + NUMERIC + ": " + imported);
            }
        } finally {
            Files.deleteIfExists(tarball);
        }
    }
}
