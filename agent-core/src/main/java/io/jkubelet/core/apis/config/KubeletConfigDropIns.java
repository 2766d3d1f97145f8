package io.jkubelet.core.apis.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code --config-dir} drop-ins (upstream {@code mergeKubeletConfigurations}): every {@code *.conf} file under
 * the directory, walked as Go's {@code filepath.WalkDir} walks it (entries in lexical order, a sub-directory's files
 * where its name sorts, symbolic links to directories not followed), is a KubeletConfiguration merged in turn over
 * the configuration so far, as a JSON merge patch: a scalar or a list in a drop-in replaces the value; an object
 * (a struct such as {@code authentication}, or a map such as {@code featureGates}) is merged key by key, so that a
 * list under a map key ({@code staticPodURLHeader}) is replaced. A {@code null} leaves the value as it is.
 *
 * <p>Each drop-in is read as strictly as the {@code --config} file (YAML or JSON, its {@code apiVersion} and
 * {@code kind}, no unknown field, the right value types); a bad one fails with upstream's wording, naming the
 * directory, the file and what is wrong. Relative paths in a drop-in are kept as written, as upstream keeps them
 * (relative to the working directory). Nothing is defaulted again: the base is already defaulted, and a drop-in's
 * value is taken as it stands, as upstream takes it. Stateless and thread-safe.
 */
public final class KubeletConfigDropIns {

    /** Only files with this extension are drop-ins (upstream's {@code dropinFileExtension}). */
    public static final String EXTENSION = ".conf";

    private KubeletConfigDropIns() {
    }

    /**
     * {@code base} with the drop-ins of {@code dir} merged over it in order.
     *
     * @throws KubeletConfigLoadException naming the directory, and the file and what is wrong in it
     */
    public static KubeletConfiguration merge(KubeletConfiguration base, Path dir) throws KubeletConfigLoadException {
        ObjectNode merged = KubeletConfigTree.of(base);
        for (Path file : dropInFiles(dir)) {
            mergePatch(merged, load(dir, file));
        }
        try {
            return KubeletConfigTree.toConfiguration(merged);
        } catch (KubeletConfigCodec.DecodeException e) {
            throw KubeletConfigLoadException.dropIn(dir, dir,
                    "failed to unmarshal merged JSON into kubelet configuration: " + e.getMessage());
        }
    }

    /** The drop-ins of {@code dir}, in the order they are applied. */
    static List<Path> dropInFiles(Path dir) throws KubeletConfigLoadException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw KubeletConfigLoadException.dropIn(dir, dir, "lstat " + dir + ": no such file or directory");
        }
        List<Path> files = new ArrayList<>();
        walk(dir, dir, files);
        return files;
    }

    private static void walk(Path root, Path entry, List<Path> into) throws KubeletConfigLoadException {
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            if (entry.getFileName().toString().endsWith(EXTENSION)) {
                into.add(entry);
            }
            return;
        }
        List<Path> children;
        try (Stream<Path> list = Files.list(entry)) {
            // Go sorts a directory's names byte-wise; Java's String order is the same for ASCII names.
            children = list.sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        } catch (AccessDeniedException e) {
            throw KubeletConfigLoadException.dropIn(root, root, "open " + entry + ": permission denied");
        } catch (IOException e) {
            throw KubeletConfigLoadException.dropIn(root, root, "open " + entry + ": " + e.getMessage());
        }
        for (Path child : children) {
            walk(root, child, into);
        }
    }

    /** The drop-in's fields as a JSON object, once it has been checked as strictly as the main file. */
    private static ObjectNode load(Path dir, Path file) throws KubeletConfigLoadException {
        try {
            String content = KubeletConfigFile.read(file);
            KubeletConfigCodec.Format format = KubeletConfigCodec.detect(content);
            JsonNode tree = KubeletConfigCodec.readTree(content, format);
            KubeletConfigFile.checkTypeMeta(file, tree);
            KubeletConfigCodec.decode(content, format);
            ObjectNode fields = ((ObjectNode) tree).deepCopy();
            fields.remove(List.of("kind", "apiVersion"));
            return fields;
        } catch (KubeletConfigLoadException e) {
            throw KubeletConfigLoadException.dropIn(dir, file, e.detail());
        } catch (KubeletConfigCodec.DecodeException e) {
            throw KubeletConfigLoadException.dropIn(dir, file, e.getMessage());
        }
    }

    /** RFC 7386 over {@code target}, except that a {@code null} in {@code patch} changes nothing. */
    static void mergePatch(ObjectNode target, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            JsonNode value = field.getValue();
            if (value.isNull()) {
                continue;
            }
            JsonNode current = target.get(field.getKey());
            if (value.isObject() && current != null && current.isObject()) {
                mergePatch((ObjectNode) current, (ObjectNode) value);
            } else {
                target.set(field.getKey(), value.deepCopy());
            }
        }
    }
}
