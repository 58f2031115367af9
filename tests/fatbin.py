# fatbin.py OBJ - list the CUDA code in the .nv_fatbin section of an ELF
# object, one "sass sm_80" or "ptx compute_90" a line, sorted.  The fat
# binary: a header (magic 0xBA55ED50, u16 version, u16 header size, u64
# size), then entries: u16 kind (1 PTX, 2 ELF), u16, u32 header size, u64
# payload size, ..., u32 arch at offset 28.  A stand-in until ptbuild
# inspect lands.
import struct, sys
data = open(sys.argv[1], 'rb').read()
# ELF64 section headers
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
def sh(i):
    return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
out = []
for i in range(shnum):
    name_off, typ, flags, addr, off, size = sh(i)[:6]
    end = data.index(b'\0', stroff + name_off)
    if data[stroff + name_off:end] != b'.nv_fatbin':
        continue
    pos, stop = off, off + size
    while pos + 16 <= stop:
        magic, ver, hsize, fsize = struct.unpack_from('<IHHQ', data, pos)
        if magic != 0xBA55ED50:
            break
        e, eend = pos + hsize, pos + hsize + fsize
        while e < eend:
            kind, _, ehsize, psize = struct.unpack_from('<HHIQ', data, e)
            arch, = struct.unpack_from('<I', data, e + 28)
            out.append(('ptx compute_%d' if kind == 1 else 'sass sm_%d') % arch)
            e += ehsize + psize
        pos = eend
print('\n'.join(sorted(out)))
