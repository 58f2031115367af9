# recipes/local.mk - recipes install under $(pkgdatadir)/recipes: the
# commands' entry points, their libraries, the data tables (each fact
# with its source) and the named profiles.
nobase_dist_pkgdata_DATA += \
	recipes/API.md \
	recipes/PROBLEMS.md \
	recipes/arch.lua \
	recipes/data/acl.lua \
	recipes/data/archs.lua \
	recipes/data/archspec.lua \
	recipes/data/containers.lua \
	recipes/data/cpus.lua \
	recipes/data/cuda.lua \
	recipes/data/gpus.lua \
	recipes/data/image.lua \
	recipes/data/jetson.lua \
	recipes/data/jetson_wheels.lua \
	recipes/data/l4t.lua \
	recipes/data/openblas.lua \
	recipes/data/packages.lua \
	recipes/data/platforms.lua \
	recipes/data/pytorch.lua \
	recipes/data/redist.lua \
	recipes/data/runfiles.lua \
	recipes/data/sccache.lua \
	recipes/data/sources.lua \
	recipes/detect.lua \
	recipes/doctor.lua \
	recipes/fetch.lua \
	recipes/fleet.lua \
	recipes/generate.lua \
	recipes/lib/archlist.lua \
	recipes/lib/buildenv.lua \
	recipes/lib/checks.lua \
	recipes/lib/gpuname.lua \
	recipes/lib/host.lua \
	recipes/lib/targets.lua \
	recipes/lib/toolkit.lua \
	recipes/lib/version.lua \
	recipes/lib/wheels.lua \
	recipes/plan.lua \
	recipes/profiles/altra-a100.json \
	recipes/profiles/dgx-h100.json \
	recipes/profiles/gh200.json \
	recipes/profiles/graviton3.json \
	recipes/profiles/jetson-orin.json \
	recipes/profiles/jetson-thor.json \
	recipes/profiles/rtx4090-workstation.json
