# recipes/local.mk - recipes install under $(pkgdatadir)/recipes.
nobase_dist_pkgdata_DATA += \
	recipes/API.md \
	recipes/arch.lua \
	recipes/lib/archlist.lua \
	recipes/lib/version.lua \
	recipes/data/archs.lua \
	recipes/data/cuda.lua
