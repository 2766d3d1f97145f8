package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * How a container runs on the host (the Engine API's {@code HostConfig}): the fields the kubelet sets when it creates
 * sandboxes and containers and reads back. {@link Builder} sets them one by one, as the adapter decides them.
 *
 * @param binds {@code host:container[:options]}, options being {@code ro}, {@code Z}/{@code z} and the propagation
 * @param portBindings {@code "80/tcp"} to the host ports bound to it
 * @param devices host device nodes given to the container
 * @param cpusetCpus the CPUs the container may run on ({@code 0-1,3}), the CPU manager's
 * @param cpusetMems the NUMA nodes the container's memory comes from ({@code 0-1}), the memory manager's
 */
public record HostConfig(List<String> binds, LogConfig logConfig, String networkMode,
                         Map<String, List<PortBinding>> portBindings, RestartPolicy restartPolicy,
                         List<String> capAdd, List<String> capDrop, List<String> dns, List<String> dnsOptions,
                         List<String> dnsSearch, List<String> groupAdd, String ipcMode, Integer oomScoreAdj,
                         String pidMode, Boolean privileged, Boolean readonlyRootfs, List<String> securityOpt,
                         @JsonProperty("UTSMode") String utsMode, Map<String, String> sysctls, String cgroupParent,
                         Long cpuShares, Long memory, Long memorySwap, Long cpuQuota, Long cpuPeriod,
                         Boolean autoRemove, List<DeviceMapping> devices, String cpusetCpus,
                         String cpusetMems) {

    /**
     * A host device node in the container ({@code DeviceMapping}).
     *
     * @param cgroupPermissions the device cgroup's permissions, some of {@code r}, {@code w}, {@code m}
     */
    public record DeviceMapping(String pathOnHost, String pathInContainer, String cgroupPermissions) {}

    /** {@code LogConfig}: the driver ({@code json-file}) and its options ({@code max-size}, {@code max-file}). */
    public record LogConfig(String type, Map<String, String> config) {}

    /** A host port bound to a container port; an empty host IP means all addresses. */
    public record PortBinding(@JsonProperty("HostIp") String hostIp, @JsonProperty("HostPort") String hostPort) {}

    /** {@code RestartPolicy}: the kubelet restarts containers itself, so its containers have {@code no}. */
    public record RestartPolicy(String name, Integer maximumRetryCount) {
        public static RestartPolicy no() {
            return new RestartPolicy("no", 0);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Sets the fields one at a time; those left unset are not sent. */
    public static final class Builder {
        private List<String> binds;
        private LogConfig logConfig;
        private String networkMode;
        private Map<String, List<PortBinding>> portBindings;
        private RestartPolicy restartPolicy;
        private List<String> capAdd;
        private List<String> capDrop;
        private List<String> dns;
        private List<String> dnsOptions;
        private List<String> dnsSearch;
        private List<String> groupAdd;
        private String ipcMode;
        private Integer oomScoreAdj;
        private String pidMode;
        private Boolean privileged;
        private Boolean readonlyRootfs;
        private List<String> securityOpt;
        private String utsMode;
        private Map<String, String> sysctls;
        private String cgroupParent;
        private Long cpuShares;
        private Long memory;
        private Long memorySwap;
        private Long cpuQuota;
        private Long cpuPeriod;
        private Boolean autoRemove;
        private List<DeviceMapping> devices;
        private String cpusetCpus;
        private String cpusetMems;

        public Builder binds(List<String> v) { binds = v; return this; }
        public Builder logConfig(LogConfig v) { logConfig = v; return this; }
        public Builder networkMode(String v) { networkMode = v; return this; }
        public Builder portBindings(Map<String, List<PortBinding>> v) { portBindings = v; return this; }
        public Builder restartPolicy(RestartPolicy v) { restartPolicy = v; return this; }
        public Builder capAdd(List<String> v) { capAdd = v; return this; }
        public Builder capDrop(List<String> v) { capDrop = v; return this; }
        public Builder dns(List<String> v) { dns = v; return this; }
        public Builder dnsOptions(List<String> v) { dnsOptions = v; return this; }
        public Builder dnsSearch(List<String> v) { dnsSearch = v; return this; }
        public Builder groupAdd(List<String> v) { groupAdd = v; return this; }
        public Builder ipcMode(String v) { ipcMode = v; return this; }
        public Builder oomScoreAdj(Integer v) { oomScoreAdj = v; return this; }
        public Builder pidMode(String v) { pidMode = v; return this; }
        public Builder privileged(Boolean v) { privileged = v; return this; }
        public Builder readonlyRootfs(Boolean v) { readonlyRootfs = v; return this; }
        public Builder securityOpt(List<String> v) { securityOpt = v; return this; }
        public Builder utsMode(String v) { utsMode = v; return this; }
        public Builder sysctls(Map<String, String> v) { sysctls = v; return this; }
        public Builder cgroupParent(String v) { cgroupParent = v; return this; }
        public Builder cpuShares(Long v) { cpuShares = v; return this; }
        public Builder memory(Long v) { memory = v; return this; }
        public Builder memorySwap(Long v) { memorySwap = v; return this; }
        public Builder cpuQuota(Long v) { cpuQuota = v; return this; }
        public Builder cpuPeriod(Long v) { cpuPeriod = v; return this; }
        public Builder autoRemove(Boolean v) { autoRemove = v; return this; }
        public Builder devices(List<DeviceMapping> v) { devices = v; return this; }
        public Builder cpusetCpus(String v) { cpusetCpus = v; return this; }
        public Builder cpusetMems(String v) { cpusetMems = v; return this; }

        public HostConfig build() {
            return new HostConfig(binds, logConfig, networkMode, portBindings, restartPolicy, capAdd, capDrop, dns,
                    dnsOptions, dnsSearch, groupAdd, ipcMode, oomScoreAdj, pidMode, privileged, readonlyRootfs,
                    securityOpt, utsMode, sysctls, cgroupParent, cpuShares, memory, memorySwap, cpuQuota, cpuPeriod,
                    autoRemove, devices, cpusetCpus, cpusetMems);
        }
    }
}
