package io.jkubelet.docker.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/** {@code GET /containers/{id}/stats?stream=false} (the Engine API's {@code StatsJSON}), the fields kept. */
public record ContainerStats(@JsonProperty("read") String read, @JsonProperty("pids_stats") PidsStats pidsStats,
                             @JsonProperty("cpu_stats") CpuStats cpuStats,
                             @JsonProperty("memory_stats") MemoryStats memoryStats) {

    public record PidsStats(@JsonProperty("current") Long current) {}

    public record CpuStats(@JsonProperty("cpu_usage") CpuUsage cpuUsage,
                           @JsonProperty("system_cpu_usage") Long systemCpuUsage,
                           @JsonProperty("online_cpus") Integer onlineCpus) {}

    /** Nanoseconds of CPU time. */
    public record CpuUsage(@JsonProperty("total_usage") Long totalUsage) {}

    public record MemoryStats(@JsonProperty("usage") Long usage, @JsonProperty("limit") Long limit,
                              @JsonProperty("stats") Map<String, Long> stats) {}
}
