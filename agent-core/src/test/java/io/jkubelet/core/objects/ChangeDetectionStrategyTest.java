package io.jkubelet.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.jkubelet.core.apierrors.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** configMapAndSecretChangeDetectionStrategy: what each strategy asks of the apiserver. */
class ChangeDetectionStrategyTest {
    private final AtomicInteger gets = new AtomicInteger();
    private volatile String value = "v1";
    private volatile boolean reachable = true;

    private final ObjectClient api = new ObjectClient() {
        @Override
        public ConfigMap getConfigMap(String namespace, String name) throws ApiException {
            gets.incrementAndGet();
            if (!reachable) {
                throw new ApiException("the server is currently unable to handle the request", 503, null, null);
            }
            return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                    .withData(Map.of("k", value)).build();
        }

        @Override
        public Secret getSecret(String namespace, String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ObjectWatch<ConfigMap> watchConfigMap(String namespace, String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ObjectWatch<Secret> watchSecret(String namespace, String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public TokenRequest createToken(String namespace, String serviceAccount, TokenRequest request) {
            throw new UnsupportedOperationException();
        }
    };

    private final Clock clock = Clock.fixed(Instant.parse("2026-12-04T23:00:00Z"), ZoneOffset.UTC);

    private ConfigMapManager manager(ChangeDetectionStrategy strategy) {
        return ApiObjectManagers.podObjects(api, clock, ServiceLister.NONE, strategy, java.time.Duration.ofMinutes(1),
                closer -> { }).configMaps();
    }

    @Test
    void getAsksTheApiserverAtEveryUseAndKeepsNothing() throws Exception {
        ConfigMapManager get = manager(ChangeDetectionStrategy.GET);
        assertThat(get.getConfigMap("ns", "cm").getData()).containsEntry("k", "v1");
        value = "v2";
        assertThat(get.getConfigMap("ns", "cm").getData()).containsEntry("k", "v2");
        assertThat(gets).hasValue(2);

        reachable = false;
        assertThatThrownBy(() -> get.getConfigMap("ns", "cm")).isInstanceOf(ObjectException.class)
                .hasMessageContaining("failed to get configmap ns/cm");
    }

    @Test
    void cacheKeepsAnObjectForTheTtl() throws Exception {
        ConfigMapManager cached = manager(ChangeDetectionStrategy.CACHE);
        assertThat(cached.getConfigMap("ns", "cm").getData()).containsEntry("k", "v1");
        value = "v2";
        assertThat(cached.getConfigMap("ns", "cm").getData()).containsEntry("k", "v1");
        assertThat(gets).hasValue(1);
    }

    @Test
    void theConfigurationsValuesAndUpstreamsMessageForOthers() {
        assertThat(ChangeDetectionStrategy.of("Watch")).isEqualTo(ChangeDetectionStrategy.WATCH);
        assertThat(ChangeDetectionStrategy.of("Cache")).isEqualTo(ChangeDetectionStrategy.CACHE);
        assertThat(ChangeDetectionStrategy.of("Get")).isEqualTo(ChangeDetectionStrategy.GET);
        assertThatThrownBy(() -> ChangeDetectionStrategy.of("Poll")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown configmap and secret manager mode: Poll");
    }
}
