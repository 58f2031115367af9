# templates/local.mk - templates install under $(pkgdatadir)/templates.
nobase_dist_pkgdata_DATA += \
	templates/README.md
