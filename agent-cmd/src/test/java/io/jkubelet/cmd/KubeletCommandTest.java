package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.core.apis.config.KubeletConfigCodec;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.images.ImageGCPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeletCommandTest {

    private static final String HEAD = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";

    @TempDir
    Path dir;

    // --- flag syntax -------------------------------------------------------------------------

    static List<Arguments> flagForms() {
        return List.of(
                form("--flag=value", List.of("--port=11250"), KubeletConfiguration::port, 11250),
                form("--flag value", List.of("--port", "11250"), KubeletConfiguration::port, 11250),
                form("negative value after a space", List.of("--oom-score-adj", "-500"),
                        KubeletConfiguration::oomScoreAdj, -500),
                form("last occurrence wins", List.of("--port=1", "--port=2"), KubeletConfiguration::port, 2),
                form("boolean alone is true", List.of("--fail-swap-on=false", "--fail-swap-on"),
                        KubeletConfiguration::failSwapOn, true),
                form("boolean =false", List.of("--register-node=false"), KubeletConfiguration::registerNode, false),
                form("boolean =0", List.of("--serialize-image-pulls=0"),
                        KubeletConfiguration::serializeImagePulls, false),
                form("boolean followed by another flag", List.of("--enable-debugging-handlers", "--port=5"),
                        KubeletConfiguration::enableDebuggingHandlers, true),
                form("hex int like Go", List.of("--max-pods=0x20"), KubeletConfiguration::maxPods, 32),
                form("duration", List.of("--sync-frequency=1h30m"), KubeletConfiguration::syncFrequency,
                        Duration.ofMinutes(90)),
                form("-v shorthand", List.of("-v", "4"), c -> c.logging().verbosity(), 4L),
                form("-v attached", List.of("-v6"), c -> c.logging().verbosity(), 6L),
                form("--v", List.of("--v=2"), c -> c.logging().verbosity(), 2L),
                form("--logging-format", List.of("--logging-format=json"), c -> c.logging().format(), "json"),
                form("--log-flush-frequency", List.of("--log-flush-frequency=250ms"),
                        c -> c.logging().flushFrequency().duration(), Duration.ofMillis(250)),
                form("--vmodule: pattern=N lists, repeatable, a trailing comma ignored",
                        List.of("--vmodule=GenericPleg=5,io.jkubelet.core.status.*=4,", "--vmodule", "Kubelet=2"),
                        c -> c.logging().vmodule().stream().map(i -> i.filePattern() + "=" + i.verbosity()).toList(),
                        List.of("GenericPleg=5", "io.jkubelet.core.status.*=4", "Kubelet=2")),
                form("empty string value", List.of("--resolv-conf="), KubeletConfiguration::resolvConf, ""),
                form("list flag: commas and repetition", List.of("--cluster-dns=10.0.0.10,10.0.0.11",
                        "--cluster-dns", "10.0.0.12"), KubeletConfiguration::clusterDNS,
                        List.of("10.0.0.10", "10.0.0.11", "10.0.0.12")),
                form("map flag replaces the default map, then accumulates",
                        List.of("--eviction-hard=memory.available<1Gi", "--eviction-hard=nodefs.available<5%"),
                        KubeletConfiguration::evictionHard,
                        Map.of("memory.available", "1Gi", "nodefs.available", "5%")),
                form("header values accumulate", List.of("--manifest-url-header=a:hello,b:again",
                        "--manifest-url-header", "b:beautiful"), KubeletConfiguration::staticPodURLHeader,
                        Map.of("a", List.of("hello"), "b", List.of("again", "beautiful"))),
                form("minimum image TTL", List.of("--minimum-image-ttl-duration=5m"),
                        KubeletConfiguration::imageMinimumGCAge, Duration.ofMinutes(5)),
                form("@ is not an argument file", List.of("--pod-manifest-path=@pods"),
                        KubeletConfiguration::staticPodPath, "@pods"));
    }

    private static Arguments form(String name, List<String> args, Function<KubeletConfiguration, Object> field,
            Object expected) {
        return Arguments.of(name, args, field, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flagForms")
    void acceptsPflagForms(String name, List<String> args, Function<KubeletConfiguration, Object> field,
            Object expected) throws FlagsException {
        assertThat(field.apply(run(args).config())).isEqualTo(expected);
    }

    static List<Arguments> badCommandLines() {
        return List.of(
                bad(List.of("--bogus=1"), "unknown flag: --bogus"),
                bad(List.of("--bogus"), "unknown flag: --bogus"),
                bad(List.of("-x"), "unknown shorthand flag: 'x' in -x"),
                bad(List.of("-port=1"), "unknown shorthand flag: 'p' in -port=1"),
                bad(List.of("run"), "unknown command \"run\" for \"jkubelet\""),
                bad(List.of("--", "x"), "unknown command \"x\" for \"jkubelet\""),
                bad(List.of("--port"), "flag needs an argument: --port"),
                bad(List.of("-v"), "flag needs an argument: 'v' in -v"),
                bad(List.of("--port=abc"), "invalid argument \"abc\" for \"--port\" flag: strconv.ParseInt: parsing "
                        + "\"abc\": invalid syntax"),
                bad(List.of("--port=99999999999"), "invalid argument \"99999999999\" for \"--port\" flag: "
                        + "strconv.ParseInt: parsing \"99999999999\": value out of range"),
                bad(List.of("--v=-1"), "invalid argument \"-1\" for \"-v, --v\" flag: strconv.ParseUint: parsing "
                        + "\"-1\": invalid syntax"),
                bad(List.of("--fail-swap-on=yes"), "invalid argument \"yes\" for \"--fail-swap-on\" flag: "
                        + "strconv.ParseBool: parsing \"yes\": invalid syntax"),
                bad(List.of("--sync-frequency=10"), "invalid argument \"10\" for \"--sync-frequency\" flag: time: "
                        + "missing unit in duration \"10\""),
                bad(List.of("--file-check-frequency=soon"), "invalid argument \"soon\" for "
                        + "\"--file-check-frequency\" flag: time: invalid duration \"soon\""),
                bad(List.of("--address=localhost"), "invalid argument \"localhost\" for \"--address\" flag: "
                        + "\"localhost\" is not a valid IP address"),
                bad(List.of("--healthz-bind-address=1.2.3.256"), "invalid argument \"1.2.3.256\" for "
                        + "\"--healthz-bind-address\" flag: \"1.2.3.256\" is not a valid IP address"),
                bad(List.of("--eviction-hard=memory.available=1Gi"), "invalid argument \"memory.available=1Gi\" "
                        + "for \"--eviction-hard\" flag: malformed pair, expect string<string"),
                bad(List.of("--eviction-soft=memory.available>1Gi"), "invalid argument \"memory.available>1Gi\" "
                        + "for \"--eviction-soft\" flag: malformed pair, expect string<string"),
                bad(List.of("--eviction-soft-grace-period=memory.available<1m"), "invalid argument "
                        + "\"memory.available<1m\" for \"--eviction-soft-grace-period\" flag: malformed pair, "
                        + "expect string=string"),
                bad(List.of("--eviction-hard=memory.free<1Gi"), "evictionHard (--eviction-hard): unsupported "
                        + "eviction signal memory.free"),
                bad(List.of("--eviction-hard=nodefs.available<-10%"), "evictionHard (--eviction-hard): eviction "
                        + "percentage threshold nodefs.available must be >= 0%: -10%"),
                bad(List.of("--eviction-soft=memory.available<1Gi"), "evictionSoftGracePeriod "
                        + "(--eviction-soft-grace-period): grace period must be specified for the soft eviction "
                        + "threshold memory.available"),
                bad(List.of("--eviction-minimum-reclaim=imagefs.available=-1Gi"), "evictionMinimumReclaim "
                        + "(--eviction-minimum-reclaim): negative eviction minimum reclaim specified for "
                        + "imagefs.available"),
                bad(List.of("--eviction-pressure-transition-period=0s"), "invalid configuration: "
                        + "evictionPressureTransitionPeriod (--eviction-pressure-transition-period) 0s must be greater "
                        + "than 0"),
                bad(List.of("--manifest-url-header=x"), "invalid argument \"x\" for \"--manifest-url-header\" "
                        + "flag: malformed pair, expect string:string"),
                bad(List.of("--logging-format=xml"), "logging.format: Invalid value: \"xml\": Unsupported log format"),
                bad(List.of("--vmodule=pleg"), "invalid argument \"pleg\" for \"--vmodule\" flag: \"pleg\" does not have "
                        + "the pattern=N format"),
                bad(List.of("--vmodule=pleg=-1"), "invalid argument \"pleg=-1\" for \"--vmodule\" flag: parsing "
                        + "verbosity in \"pleg=-1\": strconv.ParseUint: parsing \"-1\": invalid syntax"),
                bad(List.of("--logging-format=json", "--vmodule=pleg=4"),
                        "logging.vmodule: Forbidden: Only supported for text log format"),
                bad(List.of("--log-json-split-stream"), "logging.options.json.splitStream: Forbidden: Feature "
                        + "LoggingAlphaOptions is disabled"),
                bad(List.of("--log-text-info-buffer-size=lots"), "invalid argument \"lots\" for "
                        + "\"--log-text-info-buffer-size\" flag: quantities must match the regular expression "
                        + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                bad(List.of("--node-labels=node-role.kubernetes.io/worker=,team=a,x.k8s.io/y=z"), "failed to validate "
                        + "kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: "
                        + "[node-role.kubernetes.io/worker x.k8s.io/y]\n--node-labels in the 'kubernetes.io' namespace "
                        + "must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the "
                        + "specifically allowed set (beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, "
                        + "beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region, "
                        + "failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, "
                        + "kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, "
                        + "topology.kubernetes.io/zone)"),
                bad(List.of("--node-labels=team=a b"), "failed to validate kubelet flags: invalid node labels: 'a b' - "
                        + "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                        + "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                        + "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
                bad(List.of("--node-ip=0.0.0.0,::"), "invalid argument \"0.0.0.0,::\" for \"--node-ip\" flag: dual-stack "
                        + "node IP cannot include '0.0.0.0' or '::'"),
                bad(List.of("--node-labels=a"), "invalid argument \"a\" for \"--node-labels\" flag: malformed "
                        + "pair, expect string=string"),
                bad(List.of("--node-ip=node1"), "invalid argument \"node1\" for \"--node-ip\" flag: \"node1\" is "
                        + "not a valid IP address"),
                bad(List.of("--node-ip=10.0.0.1,10.0.0.2"), "invalid argument \"10.0.0.1,10.0.0.2\" for "
                        + "\"--node-ip\" flag: must contain either a single IP or a dual-stack pair of IPs"),
                bad(List.of("--maximum-dead-containers=x"), "invalid argument \"x\" for \"--maximum-dead-containers\" "
                        + "flag: strconv.ParseInt: parsing \"x\": invalid syntax"),
                bad(List.of("--minimum-container-ttl-duration=-1s"), "invalid minimum garbage collection age: -1s"),
                bad(List.of("--version=maybe"), "invalid argument \"maybe\" for \"--version\" flag: "
                        + "strconv.ParseBool: parsing \"maybe\": invalid syntax"),
                bad(List.of("--port=70000"), "invalid configuration: port (--port) 70000 must be between 1 and "
                        + "65535, inclusive"),
                bad(List.of("--read-only-port=-1"), "invalid configuration: readOnlyPort (--read-only-port) -1 must "
                        + "be between 0 and 65535, inclusive"),
                bad(List.of("--oom-score-adj=-1001"), "invalid configuration: oomScoreAdj (--oom-score-adj) -1001 "
                        + "must be between -1000 and 1000, inclusive"),
                bad(List.of("--image-gc-low-threshold=90"), "invalid configuration: imageGCLowThresholdPercent "
                        + "(--image-gc-low-threshold) 90 must be less than imageGCHighThresholdPercent "
                        + "(--image-gc-high-threshold) 85"),
                bad(List.of("--sync-frequency=0s"), "invalid configuration: syncFrequency (--sync-frequency) 0s "
                        + "must be greater than 0"),
                bad(List.of("--authorization-mode=RBAC"), "invalid configuration: authorization.mode "
                        + "(--authorization-mode) \"RBAC\" must be one of \"AlwaysAllow\" or \"Webhook\""),
                bad(List.of("--container-runtime-endpoint="), "invalid configuration: the containerRuntimeEndpoint "
                        + "was not specified or empty"),
                bad(List.of("--max-pods=-1", "--event-qps=-1"), "[invalid configuration: eventRecordQPS "
                        + "(--event-qps) -1 must not be a negative number, invalid configuration: maxPods (--max-pods) "
                        + "-1 must not be a negative number]"));
    }

    private static Arguments bad(List<String> args, String message) {
        return Arguments.of(String.join(" ", args), args, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void everyBadInputIsOneClearError(String name, List<String> args, String message) {
        assertThatThrownBy(() -> KubeletCommand.parse(args.toArray(String[]::new)))
                .isInstanceOf(FlagsException.class)
                .hasMessage(message);
    }

    // --- precedence ----------------------------------------------------------------------------

    @Test
    void withoutConfigTheFlagDefaultsApplyIncludingTheLegacyOnes() throws FlagsException {
        KubeletConfiguration config = run(List.of()).config();

        assertThat(config.authentication().anonymous().enabled()).isTrue();
        assertThat(config.authentication().webhook().enabled()).isFalse();
        assertThat(config.authorization().mode()).isEqualTo("AlwaysAllow");
        assertThat(config.readOnlyPort()).isEqualTo(10255);
        assertThat(config.port()).isEqualTo(10250);
        assertThat(config.containerRuntimeEndpoint()).isEqualTo("unix:///var/run/docker.sock");
    }

    @Test
    void withConfigTheFileAndTheV1beta1DefaultsApplyNotTheFlagDefaults() throws Exception {
        Path file = write("kubelet.yaml", HEAD + "port: 11250\nmaxPods: 20\n");

        KubeletConfiguration config = run(List.of("--config", file.toString())).config();

        assertThat(config.port()).isEqualTo(11250);
        assertThat(config.maxPods()).isEqualTo(20);
        // v1beta1 defaults, not the flag defaults:
        assertThat(config.authentication().anonymous().enabled()).isFalse();
        assertThat(config.authentication().webhook().enabled()).isTrue();
        assertThat(config.authorization().mode()).isEqualTo("Webhook");
        assertThat(config.readOnlyPort()).isZero();
    }

    @Test
    void flagsGivenExplicitlyOverrideTheFile() throws Exception {
        Path file = write("kubelet.yaml", HEAD + """
                port: 11250
                maxPods: 20
                readOnlyPort: 10255
                authentication:
                  anonymous:
                    enabled: true
                evictionHard:
                  memory.available: 500Mi
                  nodefs.available: 20%
                clusterDNS: [10.96.0.10]
                logging:
                  verbosity: 1
                """);

        KubeletConfiguration config = run(List.of("--config=" + file, "--port=12250", "--anonymous-auth=false",
                "--read-only-port=0", "--eviction-hard=memory.available<1Gi", "--cluster-dns=10.0.0.53",
                "-v=3")).config();

        assertThat(config.port()).isEqualTo(12250);
        assertThat(config.maxPods()).as("not on the command line: the file's value").isEqualTo(20);
        assertThat(config.authentication().anonymous().enabled()).isFalse();
        assertThat(config.readOnlyPort()).isZero();
        assertThat(config.evictionHard()).as("a map flag replaces the file's map")
                .containsExactly(Map.entry("memory.available", "1Gi"));
        assertThat(config.clusterDNS()).containsExactly("10.0.0.53");
        assertThat(config.logging().verbosity()).isEqualTo(3);
    }

    @Test
    void dropInsAreMergedOverTheFileAndFlagsWinOverBoth() throws Exception {
        Path file = write("kubelet.yaml", HEAD + "port: 11250\nmaxPods: 20\nclusterDomain: file.local\n");
        Path dropIns = Files.createDirectories(dir.resolve("kubelet.conf.d"));
        Files.writeString(dropIns.resolve("10-node.conf"), HEAD + "port: 11251\nmaxPods: 21\nclusterDNS: [10.0.0.10]\n");

        KubeletConfiguration config = run(List.of("--config=" + file, "--config-dir", dropIns.toString(),
                "--port=12250")).config();

        assertThat(config.port()).as("the flag wins over the drop-in").isEqualTo(12250);
        assertThat(config.maxPods()).as("the drop-in wins over the file").isEqualTo(21);
        assertThat(config.clusterDomain()).as("the file's, where no drop-in sets it").isEqualTo("file.local");
        assertThat(config.clusterDNS()).containsExactly("10.0.0.10");

        KubeletConfiguration withoutFile = run(List.of("--config-dir=" + dropIns)).config();
        assertThat(withoutFile.maxPods()).isEqualTo(21);
        assertThat(withoutFile.readOnlyPort()).as("over the flag defaults without --config").isEqualTo(10255);
    }

    @Test
    void aBadDropInIsNamedAndWhatIsMergedIsValidated() throws Exception {
        Path dropIns = Files.createDirectories(dir.resolve("kubelet.conf.d"));
        Files.writeString(dropIns.resolve("10-node.conf"), HEAD + "maxPod: 21\n");
        assertThatThrownBy(() -> run(List.of("--config-dir=" + dropIns)))
                .isInstanceOf(FlagsException.class)
                .hasMessageContaining("kubelet dropin directory \"" + dropIns + "\"")
                .hasMessageContaining("path: " + dropIns.resolve("10-node.conf"))
                .hasMessageContaining("unknown field \"maxPod\"");

        Files.writeString(dropIns.resolve("10-node.conf"), HEAD + "port: 70000\n");
        assertThatThrownBy(() -> run(List.of("--config-dir=" + dropIns)))
                .hasMessageContaining("port (--port) 70000 must be between 1 and 65535");
    }

    @Test
    void featureGatesOfTheFlagAreMergedOverTheFilesPerKeyAndWin() throws Exception {
        Path file = write("gates.yaml", HEAD + "featureGates: {SidecarContainers: false, KubeletTracing: false}\n");

        KubeletConfiguration config = run(List.of("--config=" + file,
                "--feature-gates=SidecarContainers=true, CustomCPUCFSQuotaPeriod=true", "--feature-gates",
                "NodeSwap=false")).config();

        assertThat(config.featureGates()).containsExactlyInAnyOrderEntriesOf(Map.of("SidecarContainers", true,
                "KubeletTracing", false, "CustomCPUCFSQuotaPeriod", true, "NodeSwap", false));
    }

    @Test
    void aBadFeatureGateStopsTheStartInUpstreamsWords() throws Exception {
        assertThatThrownBy(() -> run(List.of("--feature-gates=NoSuchGate=true")))
                .hasMessage("failed to set feature gates from initial flags-based config: unrecognized feature gate: "
                        + "NoSuchGate");
        Path file = write("locked.yaml", HEAD + "featureGates: {CPUManager: false}\n");
        assertThatThrownBy(() -> run(List.of("--config=" + file)))
                .hasMessage("failed to set feature gates from initial flags-based config: cannot set feature gate "
                        + "CPUManager to false, feature is locked to true");
        assertThatThrownBy(() -> run(List.of("--feature-gates=InPlacePodVerticalScaling=true")))
                .hasMessageContaining("cannot set feature gate InPlacePodVerticalScaling to true: jkubelet does not "
                        + "implement it");
        assertThatThrownBy(() -> run(List.of("--feature-gates=SidecarContainers")))
                .hasMessage("invalid argument \"SidecarContainers\" for \"--feature-gates\" flag: missing bool value "
                        + "for SidecarContainers");
        assertThatThrownBy(() -> run(List.of("--feature-gates=SidecarContainers=maybe")))
                .hasMessage("invalid argument \"SidecarContainers=maybe\" for \"--feature-gates\" flag: invalid value "
                        + "of SidecarContainers=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
    }

    @Test
    void aGaFeatureGateSetWarnsOnceAsUpstream() throws Exception {
        KubeletInvocation.Run run = (KubeletInvocation.Run) KubeletCommand.parse(new String[] {
                "--feature-gates=PodHostIPs=true,SidecarContainers=false"});
        assertThat(run.warnings()).filteredOn(w -> w.startsWith("Setting"))
                .containsExactly("Setting GA feature gate PodHostIPs=true. It will be removed in a future release.");
    }

    @ParameterizedTest(name = "--{0}")
    @MethodSource("configFlagNames")
    void everyConfigFlagWarnsOnceAsUpstreamUnlessUpstreamKeepsItUndeprecated(String name) throws Exception {
        List<String> args = new java.util.ArrayList<>(companions(name));
        // runonce=true is refused by validation, as upstream refuses it; enforcements must not repeat.
        String value = name.equals("runonce") ? "false" : ACCEPTED_VALUES.getOrDefault(name, SAMPLE_VALUES.get(name));
        if (value.equals(NONE_ACCEPTED)) {
            assertThatThrownBy(() -> KubeletCommand.parse(new String[] {"--" + name + "=" + SAMPLE_VALUES.get(name)}))
                    .hasMessageContaining("(--" + name + ")");
            return;
        }
        args.add("--" + name + "=" + value);
        if (!name.equals("enforce-node-allocatable")) {
            args.add("--" + name + "=" + value);
        }
        KubeletInvocation.Run run = (KubeletInvocation.Run) KubeletCommand.parse(args.toArray(String[]::new));

        String warning = "Flag --" + name + " has been deprecated, This parameter should be set via the config file "
                + "specified by the Kubelet's --config flag. See "
                + "https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";
        // component-base's logging flags are not deprecated upstream either.
        if (Set.of("v", "vmodule", "log-flush-frequency", "logging-format", "log-text-split-stream",
                "log-text-info-buffer-size", "log-json-split-stream", "log-json-info-buffer-size", "provider-id",
                "seccomp-default").contains(name)) {
            assertThat(run.warnings()).doesNotContain(warning);
        } else {
            assertThat(run.warnings()).filteredOn(warning::equals).hasSize(1);
        }
    }

    @Test
    void theTlsAndReservationFlagsApplyTheirValues() throws Exception {
        KubeletConfiguration config = run(List.of("--tls-cert-file=/etc/k.crt", "--tls-private-key-file=/etc/k.key",
                "--tls-cipher-suites=TLS_AES_128_GCM_SHA256", "--tls-cipher-suites", "TLS_AES_256_GCM_SHA384",
                "--tls-min-version=VersionTLS13", "--system-reserved=memory=1Gi", "--kube-reserved=cpu=500m",
                "--register-with-taints=dedicated=infra:NoSchedule,gpu:NoExecute", "--rotate-certificates",
                "--seccomp-default")).config();

        assertThat(config.tlsCertFile()).isEqualTo("/etc/k.crt");
        assertThat(config.tlsPrivateKeyFile()).isEqualTo("/etc/k.key");
        assertThat(config.tlsCipherSuites()).containsExactly("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384");
        assertThat(config.tlsMinVersion()).isEqualTo("VersionTLS13");
        assertThat(config.systemReserved()).containsExactly(Map.entry("memory", "1Gi"));
        assertThat(config.kubeReserved()).containsExactly(Map.entry("cpu", "500m"));
        assertThat(config.registerWithTaints()).extracting(t -> t.key() + "=" + t.value() + ":" + t.effect())
                .containsExactly("dedicated=infra:NoSchedule", "gpu=:NoExecute");
        assertThat(config.rotateCertificates()).isTrue();
        assertThat(config.seccompDefault()).isTrue();
    }

    @Test
    void theNewFlagTypesRefuseBadValuesInUpstreamsWords() {
        assertThatThrownBy(() -> run(List.of("--register-with-taints=a=b:Sometimes")))
                .hasMessage("invalid argument \"a=b:Sometimes\" for \"--register-with-taints\" flag: invalid taint "
                        + "effect: Sometimes, unsupported taint effect");
        assertThatThrownBy(() -> run(List.of("--register-with-taints=a:b:NoSchedule")))
                .hasMessageEndingWith("invalid taint spec: a:b:NoSchedule");
        assertThatThrownBy(() -> run(List.of("--reserved-memory=0:cpu=1")))
                .hasMessageEndingWith("memory type conversion error, unknown type: \"cpu\"");
        assertThatThrownBy(() -> run(List.of("--reserved-memory=x:memory=1Gi")))
                .hasMessageEndingWith("failed to convert the NUMA node ID, exptected integer, got x");
        assertThatThrownBy(() -> run(List.of("--cpu-manager-policy-options=full-pcpus-only")))
                .hasMessageEndingWith("malformed pair, expect string=string");
    }

    @Test
    void theMergedResultIsWhatIsValidated() throws Exception {
        Path file = write("kubelet.yaml", HEAD + "maxPods: -1\n");

        assertThatThrownBy(() -> run(List.of("--config", file.toString())))
                .hasMessage("invalid configuration: maxPods (--max-pods) -1 must not be a negative number");
        assertThat(run(List.of("--config", file.toString(), "--max-pods=10")).config().maxPods()).isEqualTo(10);
        Path good = write("good.yaml", HEAD + "port: 11250\n");
        assertThatThrownBy(() -> run(List.of("--config", good.toString(), "--port=0")))
                .hasMessage("invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive");
    }

    @Test
    void relativePathsInTheFileAreResolvedButFlagPathsAreNot() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("etc"));
        Path file = write("etc/kubelet.yaml", HEAD + "staticPodPath: manifests\ntlsCertFile: kubelet.crt\n");

        KubeletConfiguration config = run(List.of("--config", file.toString(), "--tls-cert-file=rel.crt")).config();

        assertThat(config.staticPodPath()).isEqualTo(sub.resolve("manifests").toString());
        assertThat(config.tlsCertFile()).isEqualTo("rel.crt");
    }

    static List<Arguments> badConfigFiles() {
        return List.of(
                Arguments.of("wrong apiVersion", "apiVersion: v1\nkind: KubeletConfiguration\n",
                        "apiVersion \"v1\" is not supported: expected kubelet.config.k8s.io/v1beta1"),
                Arguments.of("wrong kind", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Kubelet\n",
                        "kind \"Kubelet\" is not supported: expected KubeletConfiguration"),
                Arguments.of("unknown field", HEAD + "podManifestPath: /etc/pods\n",
                        "line 3, column 18: unknown field \"podManifestPath\""),
                Arguments.of("wrong type", HEAD + "registerNode: \"yes\"\n",
                        "line 3, column 15: field \"registerNode\": cannot unmarshal string \"yes\" into bool"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigFiles")
    void badConfigFilesAreNamed(String name, String content, String detail) throws IOException {
        Path file = write("bad.yaml", content);

        assertThatThrownBy(() -> run(List.of("--config=" + file)))
                .isInstanceOf(FlagsException.class)
                .hasMessage("failed to load kubelet config file, path: " + file + ", error: " + detail);
    }

    @Test
    void aMissingConfigFileIsNamed() {
        Path missing = dir.resolve("missing.yaml");

        assertThatThrownBy(() -> run(List.of("--config", missing.toString())))
                .hasMessage("failed to load kubelet config file, path: " + missing + ", error: open " + missing
                        + ": no such file or directory");
    }

    @Test
    void aBadFlagIsReportedBeforeABadFile() {
        assertThatThrownBy(() -> run(List.of("--config", dir.resolve("missing.yaml").toString(), "--port=x")))
                .hasMessageStartingWith("invalid argument \"x\" for \"--port\" flag");
    }

    // --- every config flag sets its field --------------------------------------------------------

    /** A valid, non-default value for every flag that sets a configuration field. */
    private static final Map<String, String> SAMPLE_VALUES = Map.ofEntries(
            Map.entry("pod-manifest-path", "/etc/kubernetes/manifests"),
            Map.entry("manifest-url", "http://127.0.0.1:8080/pods"),
            Map.entry("logging-format", "json"),
            Map.entry("log-flush-frequency", "2s"),
            Map.entry("vmodule", "GenericPleg=5"),
            Map.entry("log-text-split-stream", "true"),
            Map.entry("log-text-info-buffer-size", "1Mi"),
            Map.entry("log-json-split-stream", "true"),
            Map.entry("log-json-info-buffer-size", "64Ki"),
            Map.entry("manifest-url-header", "X-Token:abc"),
            Map.entry("file-check-frequency", "5s"),
            Map.entry("http-check-frequency", "7s"),
            Map.entry("sync-frequency", "30s"),
            Map.entry("address", "127.0.0.1"),
            Map.entry("port", "11250"),
            Map.entry("read-only-port", "0"),
            Map.entry("healthz-port", "11248"),
            Map.entry("healthz-bind-address", "0.0.0.0"),
            Map.entry("max-pods", "50"),
            Map.entry("container-runtime-endpoint", "unix:///run/docker-alt.sock"),
            Map.entry("pod-logs-dir", "/tmp/pods"),
            Map.entry("oom-score-adj", "-500"),
            Map.entry("cgroup-driver", "systemd"),
            Map.entry("cgroups-per-qos", "false"),
            Map.entry("cgroup-root", "/jk"),
            Map.entry("kube-reserved", "cpu=200m,memory=500Mi"),
            Map.entry("system-reserved", "cpu=100m,pid=1000"),
            Map.entry("kube-reserved-cgroup", "/kube-reserved"),
            Map.entry("system-reserved-cgroup", "/system-reserved"),
            Map.entry("enforce-node-allocatable", "none"),
            Map.entry("pod-max-pids", "4096"),
            Map.entry("cpu-cfs-quota", "false"),
            Map.entry("cpu-cfs-quota-period", "50ms"),
            Map.entry("cluster-dns", "10.96.0.10"),
            Map.entry("cluster-domain", "cluster.local"),
            Map.entry("resolv-conf", "/run/resolv.conf"),
            Map.entry("runtime-request-timeout", "30s"),
            Map.entry("serialize-image-pulls", "false"),
            Map.entry("register-node", "false"),
            Map.entry("node-status-update-frequency", "4s"),
            Map.entry("image-gc-high-threshold", "90"),
            Map.entry("image-gc-low-threshold", "70"),
            Map.entry("minimum-image-ttl-duration", "5m"),
            Map.entry("eviction-hard", "memory.available<1Gi"),
            Map.entry("eviction-soft", "memory.available<2Gi"),
            Map.entry("eviction-soft-grace-period", "memory.available=1m30s"),
            Map.entry("eviction-max-pod-grace-period", "60"),
            Map.entry("eviction-minimum-reclaim", "imagefs.available=2Gi"),
            Map.entry("eviction-pressure-transition-period", "30s"),
            Map.entry("fail-swap-on", "false"),
            Map.entry("kube-api-qps", "5"),
            Map.entry("kube-api-burst", "10"),
            Map.entry("event-qps", "0"),
            Map.entry("event-burst", "1"),
            Map.entry("enable-debugging-handlers", "false"),
            Map.entry("tls-cert-file", "/etc/kubelet.crt"),
            Map.entry("tls-private-key-file", "/etc/kubelet.key"),
            Map.entry("anonymous-auth", "false"),
            Map.entry("authorization-mode", "Webhook"),
            Map.entry("client-ca-file", "/etc/ca.crt"),
            Map.entry("authentication-token-webhook", "true"),
            Map.entry("feature-gates", "SidecarContainers=false"),
            Map.entry("enable-server", "false"),
            Map.entry("authentication-token-webhook-cache-ttl", "1m"),
            Map.entry("authorization-webhook-cache-authorized-ttl", "1m"),
            Map.entry("authorization-webhook-cache-unauthorized-ttl", "1m"),
            Map.entry("rotate-server-certificates", "true"),
            Map.entry("tls-cipher-suites", "TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384"),
            Map.entry("tls-min-version", "VersionTLS13"),
            Map.entry("rotate-certificates", "true"),
            Map.entry("contention-profiling", "true"),
            Map.entry("streaming-connection-idle-timeout", "5m"),
            Map.entry("registry-qps", "7"),
            Map.entry("registry-burst", "11"),
            Map.entry("image-service-endpoint", "unix:///run/images.sock"),
            Map.entry("volume-plugin-dir", "/opt/plugins"),
            Map.entry("volume-stats-agg-period", "2m"),
            Map.entry("kubelet-cgroups", "/kubelet.slice"),
            Map.entry("system-cgroups", "/system.slice"),
            Map.entry("provider-id", "aws:///i-1"),
            Map.entry("cpu-manager-policy", "static"),
            Map.entry("cpu-manager-policy-options", "full-pcpus-only=true"),
            Map.entry("cpu-manager-reconcile-period", "20s"),
            Map.entry("qos-reserved", "memory=50%"),
            Map.entry("topology-manager-policy", "restricted"),
            Map.entry("topology-manager-scope", "pod"),
            Map.entry("topology-manager-policy-options", "prefer-closest-numa-nodes=true"),
            Map.entry("reserved-cpus", "0-1"),
            Map.entry("memory-manager-policy", "Static"),
            Map.entry("reserved-memory", "0:memory=1Gi,hugepages-1M=2Gi"),
            Map.entry("hairpin-mode", "none"),
            Map.entry("pod-cidr", "10.1.0.0/24"),
            Map.entry("runonce", "true"),
            Map.entry("enable-controller-attach-detach", "false"),
            Map.entry("make-iptables-util-chains", "false"),
            Map.entry("iptables-masquerade-bit", "13"),
            Map.entry("iptables-drop-bit", "12"),
            Map.entry("container-log-max-size", "20Mi"),
            Map.entry("container-log-max-files", "3"),
            Map.entry("allowed-unsafe-sysctls", "net.core.somaxconn,kernel.msg*"),
            Map.entry("node-status-max-images", "-1"),
            Map.entry("kernel-memcg-notification", "true"),
            Map.entry("local-storage-capacity-isolation", "false"),
            Map.entry("max-open-files", "1024"),
            Map.entry("kube-api-content-type", "application/json"),
            Map.entry("pods-per-core", "10"),
            Map.entry("protect-kernel-defaults", "true"),
            Map.entry("register-with-taints", "dedicated=infra:NoSchedule,gpu:NoExecute"),
            Map.entry("seccomp-default", "true"),
            Map.entry("v", "5"));

    /**
     * The flags whose sample value jkubelet refuses at start (UnsupportedSettings), with the field the refusal names and
     * a value it accepts.
     */
    private static final String NONE_ACCEPTED = "(every value is refused)";
    private static final Map<String, Map.Entry<String, String>> REFUSED_SAMPLES = Map.of(
            "image-service-endpoint", Map.entry("imageServiceEndpoint", "unix:///var/run/docker.sock"),
            // Upstream's none policy (the default) takes no options.
            "cpu-manager-policy-options", Map.entry("cpuManagerPolicyOptions", NONE_ACCEPTED));
    private static final Map<String, String> ACCEPTED_VALUES = REFUSED_SAMPLES.entrySet().stream()
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().getValue()));

    static Stream<String> configFlagNames() {
        return ConfigFlags.ALL.stream().map(flag -> flag.spec().name());
    }

    /** What a sample value needs beside it to be valid (upstream's validation, not the flag, asks for it). */
    private List<String> companions(String name) throws IOException {
        return switch (name) {
            case "cgroups-per-qos" -> List.of("--enforce-node-allocatable=none");
            case "system-cgroups" -> List.of("--cgroup-root=/");
            case "eviction-soft" -> List.of("--eviction-soft-grace-period=memory.available=1m");
            case "log-text-split-stream", "log-text-info-buffer-size", "log-json-split-stream",
                    "log-json-info-buffer-size" -> List.of("--config=" + write("alpha.yaml", """
                    apiVersion: kubelet.config.k8s.io/v1beta1
                    kind: KubeletConfiguration
                    featureGates: {LoggingAlphaOptions: true}
                    """));
            case "cpu-cfs-quota-period" -> List.of("--config=" + write("gates.yaml", """
                    apiVersion: kubelet.config.k8s.io/v1beta1
                    kind: KubeletConfiguration
                    featureGates: {CustomCPUCFSQuotaPeriod: true}
                    """));
            default -> List.of();
        };
    }

    @ParameterizedTest(name = "--{0}")
    @MethodSource("configFlagNames")
    void everyConfigFlagChangesTheConfiguration(String name) throws Exception {
        assertThat(SAMPLE_VALUES).as("a sample value for --" + name).containsKey(name);
        if (name.equals("runonce")) {
            // The field is set: upstream's validation refuses it, as here.
            assertThatThrownBy(() -> run(List.of("--runonce=true")))
                    .hasMessageContaining("runOnce (--runOnce) true, Runonce mode has been deprecated");
            return;
        }
        if (REFUSED_SAMPLES.containsKey(name)) {
            // The field is set: jkubelet refuses the value at start, naming the field and the flag.
            assertThatThrownBy(() -> run(List.of("--" + name + "=" + SAMPLE_VALUES.get(name))))
                    .hasMessageContaining(REFUSED_SAMPLES.get(name).getKey() + " (--" + name + ")");
            return;
        }
        String baseline = KubeletConfigCodec.toJson(run(companions(name)).config());

        List<String> args = new java.util.ArrayList<>(companions(name));
        args.add("--" + name + "=" + SAMPLE_VALUES.get(name));
        String changed = KubeletConfigCodec.toJson(run(args).config());

        assertThat(changed).isNotEqualTo(baseline);
    }

    @Test
    void mapFlagsReplaceTheConfiguredMapAndThenAccumulate() throws Exception {
        Path config = write("reserved.yaml", """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                kubeReserved: {cpu: "1", memory: 1Gi}
                """);

        KubeletServer server = run(List.of("--config=" + config, "--kube-reserved=memory=2Gi",
                "--kube-reserved=pid=100", "--enforce-node-allocatable=pods", "--enforce-node-allocatable=kube-reserved",
                "--kube-reserved-cgroup=/kube.slice", "--pod-max-pids=0x100"));

        assertThat(server.config().kubeReserved()).containsExactly(Map.entry("memory", "2Gi"), Map.entry("pid", "100"));
        assertThat(server.config().enforceNodeAllocatable()).containsExactly("pods", "kube-reserved");
        assertThat(server.config().podPidsLimit()).isEqualTo(256L);
    }

    @Test
    void theEvictionSettingsBecomeTheEvictionManagersThresholds() throws Exception {
        EvictionConfig defaults = run(List.of()).eviction();
        assertThat(defaults.thresholds()).extracting(t -> t.signal().signalName()).containsExactly("memory.available",
                "nodefs.available", "nodefs.inodesFree", "imagefs.available", "allocatableMemory.available");
        assertThat(defaults.pressureTransitionPeriod()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.localStorageCapacityIsolation()).isTrue();

        EvictionConfig eviction = run(List.of("--eviction-hard=memory.available<500Mi",
                "--eviction-soft=memory.available<1Gi", "--eviction-soft-grace-period=memory.available=1m30s",
                "--eviction-minimum-reclaim=memory.available=200Mi", "--eviction-max-pod-grace-period=-1",
                "--eviction-pressure-transition-period=30s", "--enforce-node-allocatable=")).eviction();

        assertThat(eviction.thresholds()).extracting(t -> t.signal().signalName() + "<" + t.value() + " grace "
                + t.gracePeriod().toSeconds() + " reclaim " + t.minReclaim())
                .containsExactly("memory.available<500Mi grace 0 reclaim 200Mi", "memory.available<1Gi grace 90 reclaim 200Mi");
        assertThat(eviction.maxPodGracePeriodSeconds()).isEqualTo(-1);
        assertThat(eviction.pressureTransitionPeriod()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theFlagsListedInTheBriefAreAllThere() {
        assertThat(configFlagNames()).containsExactlyInAnyOrderElementsOf(SAMPLE_VALUES.keySet());
    }

    // --- node flags, help, version ---------------------------------------------------------------

    @Test
    void flagsThatStayFlagsHaveTheirDefaults() throws FlagsException {
        KubeletServer server = run(List.of());
        KubeletFlags flags = server.flags();

        assertThat(flags.kubeletConfigFile()).isEmpty();
        assertThat(flags.kubeconfig()).isEmpty();
        assertThat(flags.rootDirectory()).isEqualTo("/var/lib/kubelet");
        assertThat(flags.certDirectory()).isEqualTo("/var/lib/kubelet/pki");
        assertThat(flags.containerLogsDir()).isEqualTo("/var/log/containers");
        assertThat(flags.podInfraContainerImage()).isEqualTo("jkubelet/pause:3.9");
        assertThat(flags.nodeLabels()).isEmpty();
        assertThat(flags.nodeIps()).isEmpty();
        assertThat(flags.credentialProviders()).isEqualTo(CredentialProviderPlugins.Flags.NONE);
        assertThat(server.standalone()).isTrue();
    }

    @Test
    void flagsThatStayFlagsAreRead() throws FlagsException {
        KubeletServer server = run(List.of("--kubeconfig=/etc/kubernetes/kubelet.conf",
                "--bootstrap-kubeconfig", "/etc/kubernetes/bootstrap.conf", "--hostname-override=node-a",
                "--node-ip=10.0.0.5,fd00::5", "--root-dir=/tmp/kubelet", "--cert-dir=/tmp/pki",
                "--node-labels=zone=a,role=edge", "--node-labels", "tier=1", "--container-logs-dir=/tmp/containers",
                "--pod-infra-container-image=local/pause:1", "-v=2",
                "--image-credential-provider-config=/etc/kubernetes/credential-providers.yaml",
                "--image-credential-provider-bin-dir", "/usr/libexec/kubernetes/kubelet-plugins/credential-provider/exec"));
        KubeletFlags flags = server.flags();

        assertThat(server.standalone()).isFalse();
        assertThat(flags.kubeconfig()).isEqualTo("/etc/kubernetes/kubelet.conf");
        assertThat(flags.bootstrapKubeconfig()).isEqualTo("/etc/kubernetes/bootstrap.conf");
        assertThat(flags.hostnameOverride()).isEqualTo("node-a");
        assertThat(flags.nodeIps()).containsExactly("10.0.0.5", "fd00::5");
        assertThat(flags.rootDirectory()).isEqualTo("/tmp/kubelet");
        assertThat(flags.certDirectory()).isEqualTo("/tmp/pki");
        assertThat(flags.nodeLabels()).containsExactly(Map.entry("zone", "a"), Map.entry("role", "edge"),
                Map.entry("tier", "1"));
        assertThat(flags.containerLogsDir()).isEqualTo("/tmp/containers");
        assertThat(flags.podInfraContainerImage()).isEqualTo("local/pause:1");
        assertThat(flags.verbosity()).isEqualTo(2);
        // Checked when the kubelet is built, as upstream's runtime manager does (CredentialProviderPluginsTest).
        assertThat(flags.credentialProviders()).isEqualTo(new CredentialProviderPlugins.Flags(
                "/etc/kubernetes/credential-providers.yaml",
                "/usr/libexec/kubernetes/kubelet-plugins/credential-provider/exec"));
    }

    @Test
    void anUnknownConfigMapAndSecretStrategyEndsTheKubeletAsUpstreams() throws Exception {
        Path config = write("strategy.yaml", HEAD + "configMapAndSecretChangeDetectionStrategy: Poll\n");
        assertThatThrownBy(() -> run(List.of("--config=" + config))).isInstanceOf(FlagsException.class)
                .hasMessage("unknown configmap and secret manager mode: Poll");
        for (String strategy : List.of("Watch", "Cache", "Get")) {
            Path ok = write(strategy + ".yaml", HEAD + "configMapAndSecretChangeDetectionStrategy: " + strategy + "\n");
            assertThat(run(List.of("--config=" + ok)).changeDetectionStrategy().value())
                    .isEqualTo(strategy);
        }
    }

    @Test
    void nodeLabelsAThisKubeletMaySetAreAccepted() throws FlagsException {
        Map<String, String> labels = run(List.of("--node-labels=node.kubernetes.io/pool=gpu,kubernetes.io/hostname=n1,"
                + "topology.kubernetes.io/zone=z1,a.kubelet.kubernetes.io/b=c,example.com/team=ops,plain=")).flags().nodeLabels();
        assertThat(labels).containsOnlyKeys("node.kubernetes.io/pool", "kubernetes.io/hostname", "topology.kubernetes.io/zone",
                "a.kubelet.kubernetes.io/b", "example.com/team", "plain");
    }

    @Test
    void helpIsPrintedAndNamesEveryFlag() throws FlagsException {
        for (String help : List.of("--help", "-h", "--help=true")) {
            String usage = printed(help);
            assertThat(usage).startsWith("jkubelet - ").contains("Usage: jkubelet [flags]");
            configFlagNames().forEach(name -> assertThat(usage).contains("--" + name));
            assertThat(usage).contains("--kubeconfig", "--config", "--node-ip", "--root-dir", "--version",
                    "nodefs.available<10%");
        }
    }

    @ParameterizedTest(name = "--qos-reserved={0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "cpu=50%     | cannot reserve \"cpu\" resource",
        "memory=50   | failed to parse percentage \"50\" for \"memory\" resource: percentage expected, got '50'",
        "memory=150% | failed to parse percentage \"150%\" for \"memory\" resource: percentage must be between 0 and 100",
        "memory=half% | failed to parse percentage \"half%\" for \"memory\" resource: invalid number in percentage 'half%'"})
    void qosReservedIsParsedAsUpstreamParsesItAtStart(String value, String message) throws Exception {
        assertThat(run(List.of("--qos-reserved=memory=50%")).config().qosReserved()).containsEntry("memory", "50%");
        assertThatThrownBy(() -> run(List.of("--qos-reserved=" + value))).hasMessage(message);
    }

    @Test
    void theHelpOfEveryFlagJkubeletRefusesOrWarnsAboutSaysSo() {
        Set<String> notActedOn = Set.of("image-service-endpoint", "volume-plugin-dir", "kubelet-cgroups", "system-cgroups",
                "cpu-manager-policy-options", "qos-reserved",
                "topology-manager-policy-options", "memory-manager-policy", "reserved-memory", "pod-cidr",
                "make-iptables-util-chains", "kernel-memcg-notification", "max-open-files", "kube-api-content-type",
                "contention-profiling");
        Map<String, String> help = ConfigFlags.ALL.stream()
                .collect(java.util.stream.Collectors.toMap(f -> f.spec().name(), f -> f.spec().description()));

        assertThat(help).containsKeys(notActedOn.toArray(String[]::new));
        notActedOn.forEach(name -> assertThat(help.get(name)).as("--" + name + "'s help").contains("jkubelet"));
        String usage = KubeletCommand.usage().replaceAll("\\s+", " ");
        assertThat(usage).contains("with the 'none' policy jkubelet warns that they are not used");
    }

    @Test
    void withTheMemoryManagerGateOffItsPolicyAndReservedMemoryAreNamedAsUnused() throws FlagsException {
        String[] memoryManager = {"--memory-manager-policy=Static", "--reserved-memory=0:memory=100Mi"};
        KubeletInvocation.Run off = (KubeletInvocation.Run) KubeletCommand.parse(java.util.stream.Stream.concat(
                java.util.stream.Stream.of("--feature-gates=MemoryManager=false"), java.util.Arrays.stream(memoryManager))
                .toArray(String[]::new));
        assertThat(io.jkubelet.core.apis.config.FeatureGates.of(off.server().config())
                .enabled(io.jkubelet.core.apis.config.FeatureGates.MEMORY_MANAGER)).isFalse();
        UnsupportedSettings.Host host = new UnsupportedSettings.Host(1_048_576);
        assertThat(UnsupportedSettings.warnings(off.server().config(), true, host)).filteredOn(w -> w.startsWith("memoryManager"))
                .singleElement().asString().startsWith("memoryManagerPolicy (--memory-manager-policy) \"Static\" and "
                        + "reservedMemory (--reserved-memory) [").endsWith("]: not used; the MemoryManager feature gate is "
                        + "off, so no memory manager runs (as upstream)");
        KubeletInvocation.Run on = (KubeletInvocation.Run) KubeletCommand.parse(memoryManager);
        assertThat(UnsupportedSettings.warnings(on.server().config(), true, host)).noneMatch(w -> w.startsWith("memoryManager"));
    }

    @Test
    void theDeprecatedContainerGcFlagsSetThePolicyWarnAsPflagDoesAndAreMarkedInTheHelp() throws FlagsException {
        KubeletInvocation.Run run = (KubeletInvocation.Run) KubeletCommand.parse(new String[] {
                "--maximum-dead-containers=100", "--minimum-container-ttl-duration=1m",
                "--maximum-dead-containers-per-container", "2"});

        assertThat(run.server().flags().containerGcPolicy()).isEqualTo(new GCPolicy(Duration.ofMinutes(1), 2, 100));
        assertThat(run.warnings()).containsExactly(
                "Flag --minimum-container-ttl-duration has been deprecated, Use --eviction-hard or --eviction-soft "
                        + "instead. Will be removed in a future version.",
                "Flag --maximum-dead-containers-per-container has been deprecated, Use --eviction-hard or "
                        + "--eviction-soft instead. Will be removed in a future version.",
                "Flag --maximum-dead-containers has been deprecated, Use --eviction-hard or --eviction-soft instead. "
                        + "Will be removed in a future version.");
        KubeletInvocation.Run plain = (KubeletInvocation.Run) KubeletCommand.parse(new String[0]);
        assertThat(plain.server().flags().containerGcPolicy()).isEqualTo(GCPolicy.DEFAULT);
        assertThat(plain.warnings()).isEmpty();
        // As upstream's KubeletFlags.AddFlags un-hides deprecated flags, pflag's help marks them.
        assertThat(KubeletCommand.usage().replaceAll("\\s+", " ")).contains("--maximum-dead-containers=int32",
                "(DEPRECATED: Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.)");
    }

    @Test
    void theImageGcSettingsReachTheImageGcPolicy() throws Exception {
        KubeletServer server = run(List.of("--image-gc-high-threshold=90", "--image-gc-low-threshold=70",
                "--minimum-image-ttl-duration=5m"));
        assertThat(ConfigSettings.imageGcPolicy(server.config()))
                .isEqualTo(new ImageGCPolicy(90, 70, Duration.ofMinutes(5), Duration.ZERO));

        Path file = write("kubelet.yaml", HEAD + "imageMaximumGCAge: 1h\nimageGCHighThresholdPercent: 100\n");
        assertThat(ConfigSettings.imageGcPolicy(run(List.of("--config=" + file)).config()))
                .isEqualTo(new ImageGCPolicy(100, 80, Duration.ofMinutes(2), Duration.ofHours(1)));
        assertThat(ConfigSettings.imageGcPolicy(KubeletConfigurationDefaults.newDefaulted())).isEqualTo(ImageGCPolicy.DEFAULT);
    }

    @Test
    void helpWinsOverOtherwiseInvalidSettings() throws FlagsException {
        assertThat(printed("--port=70000", "--help")).contains("Usage: jkubelet [flags]");
    }

    @Test
    void helpFalseRuns() throws FlagsException {
        assertThat(KubeletCommand.parse(new String[] {"--help=false"})).isInstanceOf(KubeletInvocation.Run.class);
    }

    @Test
    void versionIsTheCompatibleKubernetesVersion() throws FlagsException {
        assertThat(KubeletVersion.compatVersion()).matches("v\\d+\\.\\d+\\.\\d+.*");
        assertThat(printed("--version")).isEqualTo("Kubernetes " + KubeletVersion.compatVersion() + "\n");
        assertThat(printed("--version=true")).isEqualTo("Kubernetes " + KubeletVersion.compatVersion() + "\n");
        assertThat(printed("--version=raw")).startsWith("{\"major\":\"1\",")
                .contains("\"gitVersion\":\"" + KubeletVersion.compatVersion() + "\"");
        assertThat(KubeletCommand.parse(new String[] {"--version=false"})).isInstanceOf(KubeletInvocation.Run.class);
    }

    @Test
    void theLegacyFlagDefaultsDifferFromV1beta1OnlyWhereUpstreamsDo() {
        KubeletConfiguration v1beta1 = KubeletConfigurationDefaults.newDefaulted();
        KubeletConfiguration.Builder legacy = KubeletConfiguration.builder().from(v1beta1);
        ConfigFlagDefaults.applyLegacyDefaults(legacy);

        legacy.authenticationBuilder().anonymousBuilder().enabled(false);
        legacy.authenticationBuilder().webhookBuilder().enabled(true);
        legacy.authorizationBuilder().mode("Webhook");
        legacy.readOnlyPort(0);
        assertThat(KubeletConfigCodec.toJson(legacy.build())).isEqualTo(KubeletConfigCodec.toJson(v1beta1));
    }

    @Test
    void cadvisorPortIsOffByDefaultOnLoopbackAndFollowsAnAddressGiven() throws FlagsException {
        KubeletFlags plain = run(List.of()).flags();
        assertThat(plain.cadvisorPort()).isZero();

        KubeletFlags local = run(List.of("--cadvisor-port=4194")).flags();
        assertThat(local.cadvisorPort()).isEqualTo(4194);
        assertThat(local.cadvisorAddress()).isEqualTo("127.0.0.1");

        KubeletFlags open = run(List.of("--cadvisor-port", "4194", "--address", "0.0.0.0")).flags();
        assertThat(open.cadvisorAddress()).isEqualTo("0.0.0.0");

        assertThatThrownBy(() -> run(List.of("--cadvisor-port=70000"))).isInstanceOf(FlagsException.class)
                .hasMessage("invalid argument \"70000\" for \"--cadvisor-port\" flag: must be between 0 and 65535, inclusive");
        assertThatThrownBy(() -> run(List.of("--cadvisor-port=x"))).isInstanceOf(FlagsException.class)
                .hasMessageStartingWith("invalid argument \"x\" for \"--cadvisor-port\" flag: strconv.ParseInt");
    }

    private static String printed(String... args) throws FlagsException {
        KubeletInvocation invocation = KubeletCommand.parse(args);
        assertThat(invocation).isInstanceOf(KubeletInvocation.PrintAndExit.class);
        return ((KubeletInvocation.PrintAndExit) invocation).output();
    }

    private static KubeletServer run(List<String> args) throws FlagsException {
        KubeletInvocation invocation = KubeletCommand.parse(args.toArray(String[]::new));
        assertThat(invocation).isInstanceOf(KubeletInvocation.Run.class);
        return ((KubeletInvocation.Run) invocation).server();
    }

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }
}
