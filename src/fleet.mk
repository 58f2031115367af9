# src/fleet.mk - fleet plans: many machines' facts, one build per platform.
libptb_a_SOURCES += src/fleet.c src/fleet.h src/cmd/gather.c

nobase_dist_pkgdata_DATA += recipes/fleet.lua \
	templates/gather/slurm.sbatch.in templates/gather/ansible.sh.in \
	templates/gather/ssh.sh.in templates/gather/kubernetes.yaml.in

TESTS += tests/integration/t0800-fleet.sh tests/integration/t0801-fleet-gather.sh \
	tests/integration/t0802-fleet-generate.sh

EXTRA_DIST += doc/fleet.md tests/integration/t0800-fleet.sh tests/integration/t0801-fleet-gather.sh \
	tests/integration/t0802-fleet-generate.sh
