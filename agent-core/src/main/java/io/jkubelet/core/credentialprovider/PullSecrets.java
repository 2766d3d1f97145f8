package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.SecretManager;
import io.jkubelet.core.volume.ApiVolumes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's {@code imagePullSecrets} as a keyring (upstream {@code getPullSecretsForPod} and
 * {@code MakeDockerKeyring}): secrets of type {@code kubernetes.io/dockerconfigjson} (key {@code .dockerconfigjson})
 * and {@code kubernetes.io/dockercfg} (key {@code .dockercfg}), in the pod's order. A secret that cannot be
 * fetched or parsed is skipped with a {@code FailedToRetrieveImagePullSecret} event: the pull is still tried, as
 * the image may be public.
 */
public final class PullSecrets {
    private static final Logger log = LoggerFactory.getLogger(PullSecrets.class);
    static final String DOCKER_CONFIG_JSON_TYPE = "kubernetes.io/dockerconfigjson";
    static final String DOCKER_CONFIG_JSON_KEY = ".dockerconfigjson";
    static final String DOCKERCFG_TYPE = "kubernetes.io/dockercfg";
    static final String DOCKERCFG_KEY = ".dockercfg";

    private final SecretManager secrets;
    private final EventRecorder recorder;

    public PullSecrets(SecretManager secrets, EventRecorder recorder) {
        this.secrets = secrets;
        this.recorder = recorder;
    }

    public DockerKeyring keyring(Pod pod) {
        List<LocalObjectReference> refs = pod.getSpec().getImagePullSecrets();
        if (refs == null || refs.isEmpty()) {
            return DockerKeyring.EMPTY;
        }
        String ns = pod.getMetadata().getNamespace();
        DockerKeyring keyring = DockerKeyring.EMPTY;
        List<String> failed = new ArrayList<>();
        for (LocalObjectReference ref : refs) {
            if (ref.getName() == null || ref.getName().isEmpty()) {
                continue;
            }
            Secret s;
            try {
                s = secrets.getSecret(ns, ref.getName());
            } catch (ObjectException e) {
                log.info("Unable to retrieve pull secret {}/{} for pod {}, the image pull may not succeed: {}", ns,
                        ref.getName(), pod.getMetadata().getName(), e.getMessage());
                failed.add(ref.getName());
                continue;
            }
            var data = ApiVolumes.secretData(s);
            try {
                if (DOCKERCFG_TYPE.equals(s.getType()) && data.get(DOCKERCFG_KEY) != null && data.get(DOCKERCFG_KEY).length > 0) {
                    keyring = keyring.with(DockerKeyring.parseDockercfg(data.get(DOCKERCFG_KEY)));
                } else if (DOCKER_CONFIG_JSON_TYPE.equals(s.getType()) && data.get(DOCKER_CONFIG_JSON_KEY) != null
                        && data.get(DOCKER_CONFIG_JSON_KEY).length > 0) {
                    keyring = keyring.with(DockerKeyring.parseDockerConfigJson(data.get(DOCKER_CONFIG_JSON_KEY)));
                }
            } catch (IOException e) {
                log.warn("Pull secret {}/{} of pod {} is not a valid docker config: {}", ns, ref.getName(),
                        pod.getMetadata().getName(), e.getMessage());
                failed.add(ref.getName());
            }
        }
        if (!failed.isEmpty()) {
            recorder.event(References.pod(pod), EventRecorder.WARNING, "FailedToRetrieveImagePullSecret",
                    "Unable to retrieve some image pull secrets (" + String.join(", ", failed)
                            + "); attempting to pull the image may not succeed.");
        }
        return keyring;
    }
}
