package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.objects.PersistentVolumeClient;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Claims and PersistentVolumes in memory, as the apiserver would answer for them; counts the claim reads and keeps the
 * claim status patches as sent (they are not applied: the tests that need them applied use the mock apiserver).
 */
public final class FakePersistentVolumes implements PersistentVolumeClient {
    private final Map<String, PersistentVolumeClaim> claims = new ConcurrentHashMap<>();
    private final Map<String, PersistentVolume> volumes = new ConcurrentHashMap<>();
    public final AtomicInteger claimReads = new AtomicInteger();
    /** Each status patch as "{@code <namespace>/<name> <patch>}". */
    public final List<String> statusPatches = new CopyOnWriteArrayList<>();

    public void put(PersistentVolumeClaim claim) {
        claims.put(claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName(), claim);
    }

    public void put(PersistentVolume pv) {
        volumes.put(pv.getMetadata().getName(), pv);
    }

    /** A claim {@code namespace/name} with UID {@code name-uid}, bound to {@code pv} (phase Bound), or pending when null. */
    public static PersistentVolumeClaim claim(String namespace, String name, String pv) {
        return new PersistentVolumeClaimBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .withUid(name + "-uid").endMetadata().withNewSpec().withVolumeName(pv).endSpec()
                .withNewStatus().withPhase(pv == null ? "Pending" : "Bound").endStatus().build();
    }

    /** A PersistentVolume {@code name} bound to claim {@code claimName} (its UID {@code claimName-uid}). */
    public static PersistentVolumeBuilder boundTo(String name, String namespace, String claimName) {
        return new PersistentVolumeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withNewClaimRef().withNamespace(namespace).withName(claimName).withUid(claimName + "-uid").endClaimRef()
                .endSpec();
    }

    @Override
    public PersistentVolumeClaim getPersistentVolumeClaim(String namespace, String name) throws ApiException {
        claimReads.incrementAndGet();
        return claims.get(namespace + "/" + name);
    }

    @Override
    public PersistentVolume getPersistentVolume(String name) throws ApiException {
        return volumes.get(name);
    }

    @Override
    public PersistentVolumeClaim patchPersistentVolumeClaimStatus(String namespace, String name, String patch) {
        statusPatches.add(namespace + "/" + name + " " + patch);
        return claims.get(namespace + "/" + name);
    }
}
