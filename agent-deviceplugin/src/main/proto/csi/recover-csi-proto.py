#!/usr/bin/env python3
"""Recovers csi.proto from the Go code generated from it (csi.pb.go), which embeds its gzipped FileDescriptorProto.

Usage: recover-csi-proto.py CSI_PB_GO > csi.proto
       recover-csi-proto.py --descriptor-set CSI_PB_GO OUT   (the FileDescriptorSet, for protoc --descriptor_set_in)
       recover-csi-proto.py --print-set SET                  (prints a protoc-made set's first file, to compare)

Only the standard library: the descriptor is read with a small protobuf wire decoder and printed back as proto3
source. What a descriptor does not hold is lost: comments and the order of top-level declarations of different kinds
(messages, enums, services and extensions are printed kind by kind, each in its declared order).
"""
import gzip
import re
import sys

# descriptor.proto's FieldDescriptorProto.Type and Label
TYPES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool",
         9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}
TYPE_MESSAGE, TYPE_ENUM = 11, 14
LABEL_REPEATED = 3


def fields(buf):
    """The (number, wire type, value) of each field of a message: varints as ints, length-delimited as bytes."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            val, i = varint(buf, i)
        elif wt == 2:
            n, i = varint(buf, i)
            val, i = buf[i:i + n], i + n
        elif wt == 1:
            val, i = buf[i:i + 8], i + 8
        elif wt == 5:
            val, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("unsupported wire type %d" % wt)
        yield num, wt, val


def varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


def msg(buf):
    """A message as {number: [values]}."""
    out = {}
    for num, _, val in fields(buf):
        out.setdefault(num, []).append(val)
    return out


def s(m, num, default=""):
    return m[num][0].decode() if num in m else default


def n(m, num, default=0):
    return m[num][0] if num in m else default


class Printer:
    def __init__(self, fd):
        self.fd = fd
        self.package = s(fd, 2)
        # Custom options: (options message, number) -> extension name, from this file's extensions.
        self.extensions = {}
        for e in map(msg, fd.get(7, [])):
            self.extensions[(s(e, 2), n(e, 3))] = s(e, 1)
        self.out = []

    def line(self, depth, text):
        self.out.append("  " * depth + text)

    def type_name(self, name):
        """A fully qualified .pkg.Name made relative to the package, as it is written in the source."""
        prefix = "." + self.package + "."
        if name.startswith(prefix):
            return name[len(prefix):]
        return name.lstrip(".")

    def options(self, opts_buf, extendee, known):
        """Option assignments of an options message: known standard ones by number, then this file's extensions."""
        if opts_buf is None:
            return []
        out = []
        for num, wt, val in fields(opts_buf):
            if num in known:
                name, kind = known[num]
                out.append((name, '"%s"' % val.decode() if kind == "string" else ("true" if val else "false")))
            elif (extendee, num) in self.extensions:
                out.append(("(%s)" % self.extensions[(extendee, num)], "true" if val else "false"))
            else:
                raise ValueError("unknown option %d of %s" % (num, extendee))
        return out

    def field_decl(self, f, oneof=False):
        t = n(f, 5)
        type_ = self.type_name(s(f, 6)) if t in (TYPE_MESSAGE, TYPE_ENUM) else TYPES[t]
        label = "repeated " if n(f, 4) == LABEL_REPEATED and not oneof else ""
        opts = self.options(f[8][0] if 8 in f else None, ".google.protobuf.FieldOptions",
                            {3: ("deprecated", "bool"), 2: ("packed", "bool")})
        suffix = " [%s]" % ", ".join("%s = %s" % o for o in opts) if opts else ""
        return "%s%s %s = %d%s;" % (label, type_, s(f, 1), n(f, 3), suffix)

    def message(self, m, depth, full_name):
        name = s(m, 1)
        opts = m.get(7, [None])[0]
        map_entry = opts is not None and any(num == 7 and val for num, _, val in fields(opts))
        if map_entry:
            return  # printed as map<K, V> on the field that uses it
        self.line(depth, "message %s {" % name)
        for num, value in self.options(opts, ".google.protobuf.MessageOptions", {3: ("deprecated", "bool")}):
            self.line(depth + 1, "option %s = %s;" % (num, value))
        nested = {s(x, 1): x for x in map(msg, m.get(3, []))}
        for e in map(msg, m.get(4, [])):
            self.enum(e, depth + 1)
        for x in map(msg, m.get(3, [])):
            self.message(x, depth + 1, full_name + "." + s(x, 1))
        oneofs = [s(o, 1) for o in map(msg, m.get(8, []))]
        printed_oneofs = set()
        all_fields = list(map(msg, m.get(2, [])))
        for f in all_fields:
            if 9 in f:
                idx = n(f, 9)
                if idx in printed_oneofs:
                    continue
                printed_oneofs.add(idx)
                self.line(depth + 1, "oneof %s {" % oneofs[idx])
                for g in all_fields:
                    if 9 in g and n(g, 9) == idx:
                        self.line(depth + 2, self.field_decl(g, oneof=True))
                self.line(depth + 1, "}")
                continue
            entry = s(f, 6)
            short = entry.rsplit(".", 1)[-1] if entry else ""
            if n(f, 5) == TYPE_MESSAGE and short in nested and entry == full_name + "." + short:
                e = nested[short]
                eo = e.get(7, [None])[0]
                if eo is not None and any(num == 7 and val for num, _, val in fields(eo)):
                    kv = {s(x, 1): x for x in map(msg, e.get(2, []))}
                    k, v = kv["key"], kv["value"]
                    vt = self.type_name(s(v, 6)) if n(v, 5) in (TYPE_MESSAGE, TYPE_ENUM) else TYPES[n(v, 5)]
                    decl = self.field_decl(f)
                    decl = re.sub(r"^repeated \S+", "map<%s, %s>" % (TYPES[n(k, 5)], vt), decl)
                    self.line(depth + 1, decl)
                    continue
            self.line(depth + 1, self.field_decl(f))
        for r in map(msg, m.get(9, [])):
            start, end = n(r, 1), n(r, 2) - 1
            self.line(depth + 1, "reserved %s;" % (start if start == end else "%d to %d" % (start, end)))
        if 10 in m:
            self.line(depth + 1, "reserved %s;" % ", ".join('"%s"' % v.decode() for v in m[10]))
        self.line(depth, "}")

    def enum(self, e, depth):
        self.line(depth, "enum %s {" % s(e, 1))
        for o in self.options(e.get(3, [None])[0], ".google.protobuf.EnumOptions", {2: ("allow_alias", "bool")}):
            self.line(depth + 1, "option %s = %s;" % o)
        for v in map(msg, e.get(2, [])):
            opts = self.options(v[3][0] if 3 in v else None, ".google.protobuf.EnumValueOptions",
                                {1: ("deprecated", "bool")})
            suffix = " [%s]" % ", ".join("%s = %s" % o for o in opts) if opts else ""
            self.line(depth + 1, "%s = %d%s;" % (s(v, 1), n(v, 2), suffix))
        self.line(depth, "}")

    def service(self, svc):
        self.line(0, "service %s {" % s(svc, 1))
        for o in self.options(svc.get(3, [None])[0], ".google.protobuf.ServiceOptions", {33: ("deprecated", "bool")}):
            self.line(1, "option %s = %s;" % o)
        for m in map(msg, svc.get(2, [])):
            inp = ("stream " if n(m, 5) else "") + self.type_name(s(m, 2))
            outp = ("stream " if n(m, 6) else "") + self.type_name(s(m, 3))
            opts = self.options(m.get(4, [None])[0], ".google.protobuf.MethodOptions", {33: ("deprecated", "bool")})
            if opts:
                self.line(1, "rpc %s(%s)" % (s(m, 1), inp))
                self.line(2, "returns (%s) {" % outp)
                for o in opts:
                    self.line(3, "option %s = %s;" % o)
                self.line(1, "}")
            else:
                self.line(1, "rpc %s(%s)" % (s(m, 1), inp))
                self.line(2, "returns (%s) {}" % outp)
        self.line(0, "}")

    def print(self):
        fd = self.fd
        self.line(0, 'syntax = "%s";' % s(fd, 12, "proto2"))
        self.line(0, "package %s;" % self.package)
        self.line(0, "")
        for d in fd.get(3, []):
            self.line(0, 'import "%s";' % d.decode())
        self.line(0, "")
        for o in self.options(fd.get(8, [None])[0], ".google.protobuf.FileOptions",
                              {1: ("java_package", "string"), 8: ("java_outer_classname", "string"),
                               11: ("go_package", "string")}):
            self.line(0, "option %s = %s;" % o)
        extendees = []
        for e in map(msg, fd.get(7, [])):
            if s(e, 2) not in extendees:
                extendees.append(s(e, 2))
        for extendee in extendees:
            self.line(0, "")
            self.line(0, "extend %s {" % extendee.lstrip("."))
            for e in map(msg, fd.get(7, [])):
                if s(e, 2) == extendee:
                    self.line(1, self.field_decl(e))
            self.line(0, "}")
        for svc in map(msg, fd.get(6, [])):
            self.line(0, "")
            self.service(svc)
        for e in map(msg, fd.get(5, [])):
            self.line(0, "")
            self.enum(e, 0)
        for m in map(msg, fd.get(4, [])):
            self.line(0, "")
            self.message(m, 0, "." + self.package + "." + s(m, 1))
        return "\n".join(self.out) + "\n"


def descriptor_from_go(path):
    """The gzipped FileDescriptorProto of a protoc-gen-go file: the one `var fileDescriptor_... = []byte{...}`."""
    src = open(path).read()
    body = re.search(r"var fileDescriptor_[0-9a-f]+ = \[\]byte\{(.*?)\n\}", src, re.S).group(1)
    data = bytes(int(x, 16) for x in re.findall(r"0x[0-9a-f]{2}", body))
    return gzip.decompress(data)


def as_set(file_descriptor):
    """A FileDescriptorSet holding the one file (field 1, length-delimited)."""
    size, length = bytearray(), len(file_descriptor)
    while True:
        b = length & 0x7F
        length >>= 7
        size.append(b | (0x80 if length else 0))
        if not length:
            break
    return b"\x0a" + bytes(size) + file_descriptor


def main(argv):
    if argv[1] == "--descriptor-set":
        open(argv[3], "wb").write(as_set(descriptor_from_go(argv[2])))
    elif argv[1] == "--print-set":
        files = [v for num, _, v in fields(open(argv[2], "rb").read()) if num == 1]
        sys.stdout.write(Printer(msg(files[-1])).print())
    else:
        sys.stdout.write(Printer(msg(descriptor_from_go(argv[1]))).print())


if __name__ == "__main__":
    main(sys.argv)
