package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.apis.config.KubeletConfiguration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code reservedSystemCPUs} (upstream's {@code server.go}): the listed CPUs, which must be online, are reserved for
 * the system in place of any {@code cpu} of {@code kubeReserved} and {@code systemReserved}: {@code systemReserved}'s
 * {@code cpu} becomes their number and {@code kubeReserved}'s goes, so node allocatable has that many CPUs fewer. With
 * the static CPU manager these very CPUs are the ones kept from exclusive containers. Pure.
 */
final class ReservedCpus {
    private ReservedCpus() {}

    /**
     * The configuration with the reservation made, or as it is when no CPUs are listed.
     *
     * @throws FlagsException with upstream's message when a listed CPU is not online
     */
    static KubeletConfiguration apply(KubeletConfiguration config, CpuSet online) throws FlagsException {
        if (config.reservedSystemCPUs().isEmpty()) {
            return config;
        }
        CpuSet reserved = CpuSet.parse(config.reservedSystemCPUs()); // validated already
        if (reserved.size() == 0) {
            return config;
        }
        if (!reserved.isSubsetOf(online)) {
            throw new FlagsException("reserved-cpus: " + config.reservedSystemCPUs() + " is not a subset of online-cpus: "
                    + online);
        }
        Map<String, String> kube = config.kubeReserved() == null ? null : new LinkedHashMap<>(config.kubeReserved());
        if (kube != null) {
            kube.remove("cpu");
        }
        Map<String, String> system = config.systemReserved() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(config.systemReserved());
        system.put("cpu", Integer.toString(reserved.size()));
        return KubeletConfiguration.builder().from(config).kubeReserved(kube).systemReserved(system).build();
    }

    /** The machine's online CPUs ({@code /sys/devices/system/cpu/online}), else as many as the JVM sees. */
    static CpuSet online() {
        try {
            return CpuSet.parse(Files.readString(Path.of("/sys/devices/system/cpu/online")).strip());
        } catch (IOException | IllegalArgumentException e) {
            return CpuSet.parse("0-" + (Runtime.getRuntime().availableProcessors() - 1));
        }
    }
}
