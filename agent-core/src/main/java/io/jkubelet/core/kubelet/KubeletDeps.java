package io.jkubelet.core.kubelet;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;

import java.time.Clock;

/** What the kubelet is given from outside (upstream {@code kubelet.Dependencies}). */
public record KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {}
