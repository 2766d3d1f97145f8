package io.jkubelet.core.volume.csi;

import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Upstream's {@code vol_data.json}: what the CSI plugin keeps beside a pod's mount ({@code <volume dir>/vol_data.json})
 * and a global mount ({@code <driver>/<sha>/vol_data.json}), so that it can be torn down, and reconstructed after a
 * restart, without the spec. A JSON object of strings, keys sorted, as Go's encoder writes a map.
 */
final class VolumeData {
    static final String FILE_NAME = "vol_data.json";
    static final String SPEC_VOL_ID = "specVolID";
    static final String VOLUME_HANDLE = "volumeHandle";
    static final String DRIVER_NAME = "driverName";
    static final String NODE_NAME = "nodeName";
    static final String ATTACHMENT_ID = "attachmentID";
    static final String VOLUME_LIFECYCLE_MODE = "volumeLifecycleMode";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private VolumeData() {}

    /** Upstream {@code saveVolumeData}. */
    static void save(Path dir, Map<String, String> data) throws IOException {
        Files.writeString(dir.resolve(FILE_NAME), JSON.writeValueAsString(new TreeMap<>(data)) + "\n");
    }

    /**
     * Upstream {@code loadVolumeData}.
     *
     * @throws IOException {@code failed to open volume data file [<file>]: ...} (a {@link java.nio.file.NoSuchFileException}
     *     cause when there is none), or that it is not a JSON object of strings
     */
    static Map<String, String> load(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IOException("failed to open volume data file [" + file + "]: " + e, e);
        }
        try {
            return JSON.readValue(text, new TypeReference<TreeMap<String, String>>() {});
        } catch (JacksonException e) {
            throw new IOException("failed to parse volume data file [" + file + "]: " + e.getOriginalMessage(), e);
        }
    }
}
