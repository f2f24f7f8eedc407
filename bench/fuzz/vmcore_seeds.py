#!/usr/bin/env python3
# Seed corpora for fuzz_vmcore (bench/fuzz/README.md), from the synthetic
# dumps of fixtures/vmgen and the kdwarf fixtures.
# usage: bench/fuzz/vmcore_seeds.py [BUILD_DIR [OUT_DIR]]
#   (defaults: build-fz and /tmp/fuzz-vmcore); writes OUT_DIR/{unflatten,
#   vmcore,kdwarf,vmlinux}/.
import glob, os, struct, sys

build = sys.argv[1] if len(sys.argv) > 1 else "build-fz"
out = sys.argv[2] if len(sys.argv) > 2 else "/tmp/fuzz-vmcore"
vmc = os.path.join(build, "fixtures/vmcore")


def put(kind, name, data):
    d = os.path.join(out, kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def elf_headers_and_notes(b):
    """The ELF header, the program headers and every PT_NOTE's bytes."""
    if b[:4] != b"\177ELF":
        return None
    is64 = b[4] == 2
    if is64:
        phoff, = struct.unpack_from("<Q", b, 32)
        phentsize, phnum = struct.unpack_from("<HH", b, 54)
    else:
        phoff, = struct.unpack_from("<I", b, 28)
        phentsize, phnum = struct.unpack_from("<HH", b, 42)
    end = phoff + phentsize * phnum
    for i in range(phnum):
        o = phoff + i * phentsize
        if is64:
            typ, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", b, o)
        else:
            typ, off, _, _, filesz = struct.unpack_from("<IIIII", b, o)
        if typ == 4:  # PT_NOTE
            end = max(end, off + filesz)
    return b[:end]


for path in sorted(glob.glob(os.path.join(vmc, "*"))):
    name = os.path.basename(path)
    if name.endswith((".expect", ".stamp")) or name.startswith("."):
        continue
    b = open(path, "rb").read()
    if name.endswith(".vmlinux"):
        put("kdwarf", name, b)
        put("vmlinux", name, b)
        continue
    if name.endswith(".flat"):
        put("unflatten", name, b)
        for n in (4096 + 16, 8192, 16384):
            put("unflatten", "%s.%d" % (name, n), b[:n])
    put("vmcore", name, b)
    if name.endswith(".elf"):
        h = elf_headers_and_notes(b)
        if h:
            put("vmcore", name + ".notes", h)
        put("vmcore", name + ".64k", b[:65536])
    else:  # kdump or flattened: header, sub-header, bitmaps, descriptors
        for n in (4096, 8192, 12288, 16384):
            put("vmcore", "%s.%d" % (name, n), b[:n])

for path in sorted(glob.glob(os.path.join(build, "fixtures/kdwarf/*.elf"))):
    b = open(path, "rb").read()
    put("kdwarf", os.path.basename(path), b)
    put("vmlinux", os.path.basename(path), b)
