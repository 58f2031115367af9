#!/usr/bin/env python3
"""image-tar.py ROOTFS_TAR ARCH NAME:TAG - a one-layer image for `docker load`.

Writes to stdout the tarball `docker save` makes (manifest.json, the image
config, the layer): ROOTFS_TAR (a root file system, e.g. debootstrap's,
packed with tar) as its only layer, and a config that names ARCH (arm64,
amd64, ...) and linux.  `docker import --platform` of dockerd 20.10 records
the daemon's own architecture whatever the flag says, so its BuildKit finds
no local image for another platform and asks a registry; a loaded image
keeps the architecture of its config.  The layer is streamed, not copied.
"""
import hashlib
import io
import json
import os
import sys
import tarfile

rootfs, arch, ref = sys.argv[1:4]
h = hashlib.sha256()
with open(rootfs, "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
diff_id = "sha256:" + h.hexdigest()
created = "2024-01-01T00:00:00Z"
config = json.dumps({
    "architecture": arch,
    "os": "linux",
    "created": created,
    "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
    "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    "history": [{"created": created, "created_by": "image-tar.py " + os.path.basename(rootfs)}],
}, sort_keys=True).encode()
config_name = hashlib.sha256(config).hexdigest() + ".json"
layer_name = h.hexdigest() + "/layer.tar"
manifest = json.dumps([{"Config": config_name, "RepoTags": [ref], "Layers": [layer_name]}]).encode()


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 1700000000
    tar.addfile(info, io.BytesIO(data))


with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as out:
    add(out, config_name, config)
    info = tarfile.TarInfo(layer_name)
    info.size, info.mode, info.mtime = os.path.getsize(rootfs), 0o644, 1700000000
    with open(rootfs, "rb") as f:
        out.addfile(info, f)
    add(out, "manifest.json", manifest)
