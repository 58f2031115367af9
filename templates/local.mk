# templates/local.mk - templates install under $(pkgdatadir)/templates;
# recipes/generate.lua says which files each renders.
nobase_dist_pkgdata_DATA += \
	templates/CMakePresets.json.in \
	templates/Dockerfile.in \
	templates/README.md \
	templates/docker-bake.hcl.in \
	templates/docker.env.in \
	templates/dockerignore.in \
	templates/envrc.in \
	templates/fleet-bake.hcl.in \
	templates/fleet.json.in \
	templates/fleet.yml.in \
	templates/gather/ansible.sh.in \
	templates/gather/kubernetes.yaml.in \
	templates/gather/slurm.sbatch.in \
	templates/gather/ssh.sh.in \
	templates/github.env.in \
	templates/github.path.in \
	templates/initial-cache.cmake.in \
	templates/plan.json.in \
	templates/ptbuild.env.in \
	templates/ptbuild.yml.in \
	templates/setup.sh.in
