package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.volume.PodDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** The {@code /etc/hosts} the kubelet writes for each pod that has its own network (upstream {@code ensureHostsFile}). */
final class EtcHostsFile {
    private static final Logger log = LoggerFactory.getLogger(EtcHostsFile.class);

    private final PodDirs dirs;
    private final String clusterDomain;

    EtcHostsFile(PodDirs dirs, String clusterDomain) {
        this.dirs = dirs;
        this.clusterDomain = clusterDomain;
    }

    /** The kubelet-managed /etc/hosts, or null for a host-network pod (it keeps the node's file). */
    Path ensure(Pod pod, String podIp) {
        if (PodSpecs.hostNetwork(pod)) {
            return null;
        }
        Path f = dirs.etcHosts(pod.getMetadata().getUid());
        StringBuilder sb = new StringBuilder("# Kubernetes-managed hosts file.\n")
                .append("127.0.0.1\tlocalhost\n")
                .append("::1\tlocalhost ip6-localhost ip6-loopback\n")
                .append("fe00::0\tip6-localnet\n")
                .append("fe00::0\tip6-mcastprefix\n")
                .append("fe00::1\tip6-allnodes\n")
                .append("fe00::2\tip6-allrouters\n");
        if (podIp != null) {
            String host = ContainerConfigFactory.hostname(pod);
            String sub = pod.getSpec().getSubdomain();
            if (sub != null && !sub.isEmpty()) {
                String fqdn = host + "." + sub + "." + pod.getMetadata().getNamespace() + ".svc." + clusterDomain;
                sb.append(podIp).append('\t').append(fqdn).append('\t').append(host).append('\n');
            } else {
                sb.append(podIp).append('\t').append(host).append('\n');
            }
        }
        if (pod.getSpec().getHostAliases() != null && !pod.getSpec().getHostAliases().isEmpty()) {
            sb.append("\n# Entries added by HostAliases.\n");
            for (var ha : pod.getSpec().getHostAliases()) {
                sb.append(ha.getIp()).append('\t').append(String.join("\t", ha.getHostnames())).append('\n');
            }
        }
        try {
            Files.createDirectories(f.getParent());
            Path tmp = f.resolveSibling("etc-hosts.tmp");
            Files.writeString(tmp, sb.toString());
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("Failed to write hosts file for pod {}: {}", PodSpecs.format(pod), e.getMessage());
            return null;
        }
        return f;
    }
}
