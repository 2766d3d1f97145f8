package io.jkubelet.core.cm.devicemanager;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ContainerAllocateResponse} in protobuf's wire format, as the checkpoint's {@code AllocResp} holds it
 * (upstream marshals the plugin's message with gogo's generated code). Written by hand for its five fields, so that the
 * core needs no protobuf runtime: fields in number order, map entries by key, proto3's defaults left out as gogo leaves
 * them out; read in any order, unknown fields skipped, as protobuf readers do.
 */
final class AllocateResponseCodec {
    private static final int ENVS = 1;
    private static final int MOUNTS = 2;
    private static final int DEVICES = 3;
    private static final int ANNOTATIONS = 4;
    private static final int CDI_DEVICES = 5;
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;
    private static final int FIXED32 = 5;

    private AllocateResponseCodec() {}

    static byte[] encode(ContainerAllocateResponse r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.envs().forEach((k, v) -> message(out, ENVS, entry(k, v)));
        for (var m : r.mounts()) {
            ByteArrayOutputStream mount = new ByteArrayOutputStream();
            string(mount, 1, m.containerPath());
            string(mount, 2, m.hostPath());
            if (m.readOnly()) {
                tag(mount, 3, VARINT);
                mount.write(1);
            }
            message(out, MOUNTS, mount.toByteArray());
        }
        for (var d : r.devices()) {
            ByteArrayOutputStream device = new ByteArrayOutputStream();
            string(device, 1, d.containerPath());
            string(device, 2, d.hostPath());
            string(device, 3, d.permissions());
            message(out, DEVICES, device.toByteArray());
        }
        r.annotations().forEach((k, v) -> message(out, ANNOTATIONS, entry(k, v)));
        for (String name : r.cdiDevices()) {
            ByteArrayOutputStream cdi = new ByteArrayOutputStream();
            string(cdi, 1, name);
            message(out, CDI_DEVICES, cdi.toByteArray());
        }
        return out.toByteArray();
    }

    /** @throws IllegalArgumentException when the bytes are not such a message (upstream's {@code Unmarshal} error) */
    static ContainerAllocateResponse decode(byte[] bytes) {
        Map<String, String> envs = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        List<ContainerAllocateResponse.Mount> mounts = new ArrayList<>();
        List<ContainerAllocateResponse.DeviceSpec> devices = new ArrayList<>();
        List<String> cdi = new ArrayList<>();
        Reader in = new Reader(bytes);
        while (in.more()) {
            long key = in.varint();
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            if (wire != LENGTH_DELIMITED || field < ENVS || field > CDI_DEVICES) {
                in.skip(wire);
                continue;
            }
            Reader sub = new Reader(in.bytes());
            switch (field) {
                case ENVS, ANNOTATIONS -> {
                    String[] kv = sub.strings(2);
                    (field == ENVS ? envs : annotations).put(kv[0], kv[1]);
                }
                case MOUNTS -> {
                    String[] s = new String[2];
                    boolean readOnly = false;
                    while (sub.more()) {
                        long k = sub.varint();
                        int f = (int) (k >>> 3);
                        if (f == 3 && (k & 7) == VARINT) {
                            readOnly = sub.varint() != 0;
                        } else if ((f == 1 || f == 2) && (k & 7) == LENGTH_DELIMITED) {
                            s[f - 1] = new String(sub.bytes(), StandardCharsets.UTF_8);
                        } else {
                            sub.skip((int) (k & 7));
                        }
                    }
                    mounts.add(new ContainerAllocateResponse.Mount(orEmpty(s[0]), orEmpty(s[1]), readOnly));
                }
                case DEVICES -> {
                    String[] s = sub.strings(3);
                    devices.add(new ContainerAllocateResponse.DeviceSpec(s[0], s[1], s[2]));
                }
                default -> cdi.add(sub.strings(1)[0]);
            }
        }
        return new ContainerAllocateResponse(envs, mounts, devices, annotations, cdi);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static byte[] entry(String key, String value) {
        // gogo writes both halves of a map entry, empty or not.
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        tag(e, 1, LENGTH_DELIMITED);
        varint(e, k.length);
        e.writeBytes(k);
        tag(e, 2, LENGTH_DELIMITED);
        varint(e, v.length);
        e.writeBytes(v);
        return e.toByteArray();
    }

    private static void string(ByteArrayOutputStream out, int field, String value) {
        if (value != null && !value.isEmpty()) {
            message(out, field, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void message(ByteArrayOutputStream out, int field, byte[] body) {
        tag(out, field, LENGTH_DELIMITED);
        varint(out, body.length);
        out.writeBytes(body);
    }

    private static void tag(ByteArrayOutputStream out, int field, int wire) {
        varint(out, ((long) field << 3) | wire);
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** A cursor over one message's bytes. */
    private static final class Reader {
        private final byte[] buf;
        private int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        boolean more() {
            return pos < buf.length;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte b = next();
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("proto: integer overflow");
        }

        byte[] bytes() {
            long len = varint();
            if (len < 0 || len > buf.length - pos) {
                throw new IllegalArgumentException("proto: unexpected end of group");
            }
            byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + (int) len);
            pos += (int) len;
            return out;
        }

        /** The string fields 1..n of a message of strings; "" for those not there. */
        String[] strings(int n) {
            String[] out = new String[n];
            java.util.Arrays.fill(out, "");
            while (more()) {
                long k = varint();
                int f = (int) (k >>> 3);
                if (f >= 1 && f <= n && (k & 7) == LENGTH_DELIMITED) {
                    out[f - 1] = new String(bytes(), StandardCharsets.UTF_8);
                } else {
                    skip((int) (k & 7));
                }
            }
            return out;
        }

        void skip(int wire) {
            switch (wire) {
                case VARINT -> varint();
                case FIXED64 -> advance(8);
                case LENGTH_DELIMITED -> bytes();
                case FIXED32 -> advance(4);
                default -> throw new IllegalArgumentException("proto: illegal wireType " + wire);
            }
        }

        private void advance(int n) {
            if (n > buf.length - pos) {
                throw new IllegalArgumentException("proto: unexpected EOF");
            }
            pos += n;
        }

        private byte next() {
            if (pos >= buf.length) {
                throw new IllegalArgumentException("unexpected EOF");
            }
            return buf[pos++];
        }
    }
}
