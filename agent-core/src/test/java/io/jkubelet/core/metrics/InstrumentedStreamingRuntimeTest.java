package io.jkubelet.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A runtime's streaming server through the instrumented runtime: its calls are upstream's exec, attach, port_forward. */
class InstrumentedStreamingRuntimeTest {

    private final KubeletMetrics metrics = new KubeletMetrics("node-1");

    @Test
    void eachUrlCallIsCountedAsTheRuntimeOperationOfItsName() {
        StreamingRuntime server = new StreamingRuntime() {
            @Override
            public URI getExec(String id, List<String> command, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
                return URI.create("http://127.0.0.1:1/exec/" + id + "/" + String.join("+", command));
            }

            @Override
            public URI getAttach(String id, boolean stdin, boolean stdout, boolean stderr, boolean tty) {
                throw new NotFoundException("container " + id + " not found");
            }

            @Override
            public URI getPortForward(String sandboxId, List<Integer> ports) {
                return URI.create("http://127.0.0.1:1/portforward/" + sandboxId + ports.getFirst());
            }
        };
        RuntimeService runtime = new InstrumentedRuntimeService(withStreamingServer(server), metrics);

        StreamingRuntime instrumented = runtime.streamingRuntime().orElseThrow();

        assertThat(instrumented.getExec("c1", List.of("cat"), true, true, false, false))
                .isEqualTo(URI.create("http://127.0.0.1:1/exec/c1/cat"));
        assertThat(instrumented.getPortForward("s1", List.of(80))).isEqualTo(URI.create("http://127.0.0.1:1/portforward/s180"));
        assertThatThrownBy(() -> instrumented.getAttach("c2", false, true, false, false)).isInstanceOf(NotFoundException.class);
        assertThat(count("kubelet_runtime_operations", "exec")).isEqualTo(1);
        assertThat(count("kubelet_runtime_operations", "port_forward")).isEqualTo(1);
        assertThat(count("kubelet_runtime_operations", "attach")).isEqualTo(1);
        assertThat(count("kubelet_runtime_operations_errors", "attach")).isEqualTo(1);
    }

    @Test
    void aRuntimeWithoutAStreamingServerHasNoneInstrumentedEither() {
        RuntimeService runtime = new InstrumentedRuntimeService(withStreamingServer(null), metrics);

        assertThat(runtime.streamingRuntime()).isEmpty();
    }

    /** A runtime that answers only {@code streamingRuntime()}. */
    private static RuntimeService withStreamingServer(StreamingRuntime server) {
        return (RuntimeService) Proxy.newProxyInstance(RuntimeService.class.getClassLoader(),
                new Class<?>[] {RuntimeService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("streamingRuntime")) {
                        return Optional.ofNullable(server);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private double count(String name, String operation) {
        for (MetricSnapshot snapshot : metrics.registry().scrape()) {
            if (snapshot.getMetadata().getName().equals(name) && snapshot instanceof CounterSnapshot counter) {
                return counter.getDataPoints().stream()
                        .filter(d -> operation.equals(d.getLabels().get("operation_type")))
                        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
            }
        }
        return 0;
    }
}
