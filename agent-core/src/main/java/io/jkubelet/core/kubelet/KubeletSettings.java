package io.jkubelet.core.kubelet;

import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.images.ImagePullLimits;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.kuberuntime.NodeContext;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The part of the configuration the pod life cycle needs, decoupled from how it was given.
 *
 * @param syncFrequency {@code syncFrequency}: how often a healthy pod is synced again
 * @param relistPeriod the PLEG's safety-net relist period
 * @param gc how dead containers and unused images are collected
 * @param maxPods {@code maxPods}
 * @param imagePulls how many pulls run at once and how often
 * @param nodeCredentials where the node's own registry credentials ({@code config.json}, {@code .dockercfg}) are looked for
 * @param kubeletVersion the version the kubelet reports, e.g. {@code v1.30.0}; probes and hooks send it in
 *     their {@code User-Agent}
 * @param sources the static pod directory and manifest URL
 * @param memoryCapacity the machine's memory in bytes: Burstable containers' OOM scores are scaled by it
 * @param cpuCfsQuota {@code cpuCFSQuota}: containers' CPU limits become CFS quotas
 * @param cpuCfsQuotaPeriod {@code cpuCFSQuotaPeriod}, the CFS period of those quotas
 * @param eviction the eviction thresholds and their periods ({@code evictionHard}, {@code evictionSoft}, ...)
 * @param featureGates the feature gates ({@code featureGates}, {@code --feature-gates}) of the pod life cycle
 * @param volumeStatsAggPeriod {@code volumeStatsAggPeriod}: how often pods' volume usage is measured; zero or less
 *     disables volume stats
 * @param security {@code seccompDefault} and {@code allowedUnsafeSysctls}
 */
public record KubeletSettings(NodeContext node, Path rootDir, Duration syncFrequency, Duration relistPeriod,
                              GcSettings gc, int maxPods, ImagePullLimits imagePulls,
                              DockerConfigFiles.SearchPaths nodeCredentials, String kubeletVersion,
                              PodSourceSettings sources, long memoryCapacity, boolean cpuCfsQuota,
                              Duration cpuCfsQuotaPeriod, EvictionConfig eviction,
                              FeatureGates featureGates,
                              Duration volumeStatsAggPeriod,
                              SecuritySettings security) {}
