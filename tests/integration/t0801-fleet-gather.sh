#!/bin/sh
# t0801-fleet-gather.sh - gathering a fleet's facts: 'detect --stamp'
# records the node's name and the time; the recipes 'ptbuild gather'
# prints are run for real where the engine can run here (the Slurm and
# ssh scripts with stand-in srun and ssh that run each task on this host
# against a fixture machine; the Ansible ad-hoc commands with the real
# ansible over a local connection) and the fleet plan is made from what
# they leave; shellcheck; yamllint, a structural check and a check
# against Kubernetes' own schemas of the Kubernetes manifest, whose
# container command is run too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fixtures/sysroot.sh"
FIX="$top_srcdir/tests/fixtures/sysroots"
NODES="dgx-h100 gh200 jetson-orin"
for n in $NODES; do
	make_sysroot "$n" "$T_DIR/$n"
done

# --- detect --stamp
printf 'gpu-node-17\n' >"$T_DIR/gh200/etc/hostname"
run env -i $(cat "$FIX/gh200.env") PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$T_DIR/gh200" --json --stamp
is "$rc" 0 "detect --stamp: exit 0"
printf '%s\n' "$out" >"$T_DIR/stamped.json"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["taken"]["host"])' "$T_DIR/stamped.json")" "gpu-node-17" \
	"taken.host: the sysroot's etc/hostname"
age=$(python3 -c 'import json,sys,calendar,time; t=json.load(open(sys.argv[1]))["taken"]["at"]; print(int(time.time()) - calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ")))' "$T_DIR/stamped.json")
[ "$age" -ge 0 ] && [ "$age" -lt 120 ]
t_ok $? "taken.at: now, in UTC ($age s ago)"
rm "$T_DIR/gh200/etc/hostname"
run env -i $(cat "$FIX/gh200.env") PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$T_DIR/gh200" --json --stamp --node gh-a.7
like "$out" '*"host": "gh-a.7"*' "--node names the node"
run "$PTBUILD" detect --sysroot "$T_DIR/gh200" --json
unlike "$out" "*\"taken\"*" "without --stamp the facts carry no stamp"
run "$PTBUILD" detect --sysroot "$T_DIR/gh200" --json --node x
is "$rc" 2 "--node without --stamp: exit 2"
run "$PTBUILD" detect --sysroot "$T_DIR/gh200" --json --stamp --node 'a b'
is "$rc" 2 "a node name with a space: exit 2"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["taken"]["host"]=17; print(json.dumps(d))' "$T_DIR/stamped.json" >"$T_DIR/badhost.json"
run "$PTBUILD" plan --facts "$T_DIR/badhost.json" --facts "$T_DIR/stamped.json"
is "$rc" 2 "taken.host not a string: exit 2"
like "$err" "*badhost.json': key 'taken.host': expected a string*" "... naming the file and the key"

# The ptbuild the recipes run on a "node": this build, against the
# fixture machine named by --node, with that machine's environment.
mkdir "$T_DIR/bin"
cat >"$T_DIR/bin/node-ptbuild" <<EOF
#!/bin/sh
node=
prev=
for a in "\$@"; do
	[ "\$prev" = --node ] && node=\$a
	prev=\$a
done
exec env -i \$(cat "$FIX/\$node.env") PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" "\$@" --sysroot "$T_DIR/\$node"
EOF
chmod +x "$T_DIR/bin/node-ptbuild"

plan_of() { # DIR: the nodes and builds of the fleet plan of DIR
	"$PTBUILD" plan --facts "$1" --json >"$T_DIR/plan.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(n["name"] + ":" + str(n["build"]) for n in d["nodes"]))' "$T_DIR/plan.json"
}
want="dgx-h100:x86_64 gh200:sbsa jetson-orin:jetson"

# --- Slurm: a stand-in srun runs the task once per node, as Slurm would,
# with SLURMD_NODENAME set
run "$PTBUILD" gather slurm --dir "$T_DIR/slurm facts" --ptbuild "$T_DIR/bin/node-ptbuild"
is "$rc" 0 "gather slurm: exit 0"
printf '%s\n' "$out" >"$T_DIR/facts.sbatch"
mkdir "$T_DIR/fake"
cat >"$T_DIR/fake/srun" <<EOF
#!/bin/sh
# srun OPTIONS... CMD...: run CMD once per node of the job
while [ "\$#" -gt 0 ]; do
	case "\$1" in --*) shift ;; *) break ;; esac
done
for n in $NODES; do
	SLURMD_NODENAME=\$n "\$@" || exit 1
done
EOF
chmod +x "$T_DIR/fake/srun"
run env PATH="$T_DIR/fake:$PATH" SLURM_JOB_NUM_NODES=3 sh "$T_DIR/facts.sbatch"
is "$rc" 0 "the sbatch script runs: exit 0"
like "$out" "*facts of 3 nodes in $T_DIR/slurm facts*" "... and says where the facts are"
is "$(ls "$T_DIR/slurm facts" | tr '\n' ' ')" "dgx-h100.json gh200.json jetson-orin.json " "one file per node, no temporary file left"
is "$(plan_of "$T_DIR/slurm facts")" "$want" "the fleet plan of the Slurm facts: each node named, each served"

# --- ssh: a stand-in ssh runs the command here; host 'down' is unreachable
run "$PTBUILD" gather ssh --dir "$T_DIR/ssh" --ptbuild "$T_DIR/bin/node-ptbuild"
printf '%s\n' "$out" >"$T_DIR/facts-ssh.sh"
cat >"$T_DIR/fake/ssh" <<'EOF'
#!/bin/sh
while [ "$#" -gt 0 ]; do
	case "$1" in -o) shift 2 ;; -*) shift ;; *) break ;; esac
done
host=$1
shift
[ "$host" = down ] && { echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255; }
exec "$@"
EOF
chmod +x "$T_DIR/fake/ssh"
run env PATH="$T_DIR/fake:$PATH" sh "$T_DIR/facts-ssh.sh" dgx-h100 gh200 jetson-orin
is "$rc" 0 "the ssh script: exit 0"
is "$(plan_of "$T_DIR/ssh")" "$want" "the fleet plan of the ssh facts"
run env PATH="$T_DIR/fake:$PATH" sh "$T_DIR/facts-ssh.sh" gh200 down
is "$rc" 1 "a host that cannot be reached: exit 1"
like "$err" "*no facts from 'down'*" "... naming it"
like "$out" "*facts of 1 of 2 hosts*" "... counting the hosts that answered"
[ ! -e "$T_DIR/ssh/down.json" ] && [ ! -e "$T_DIR/ssh/down.json.tmp" ]
t_ok $? "... and leaving no file for it"

# --- Ansible: the real ad-hoc commands over a local connection
if command -v ansible >/dev/null 2>&1; then
	run "$PTBUILD" gather ansible --dir "$T_DIR/ansible" --ptbuild "$T_DIR/bin/node-ptbuild"
	printf '%s\n' "$out" >"$T_DIR/facts-ansible.sh"
	mkdir "$T_DIR/home" "$T_DIR/remote"
	run env HOME="$T_DIR/home" ANSIBLE_LOCAL_TEMP="$T_DIR/home/tmp" ANSIBLE_REMOTE_TEMP="$T_DIR/home/rtmp" \
		ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 PTBUILD_REMOTE_TMP="$T_DIR/remote" \
		sh "$T_DIR/facts-ansible.sh" all -i "dgx-h100,gh200,jetson-orin," -c local
	is "$rc" 0 "the Ansible ad-hoc commands: exit 0"
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | tail -20 | sed 's/^/# /'
	is "$(plan_of "$T_DIR/ansible")" "$want" "the fleet plan of the facts Ansible fetched"
else
	skip "the Ansible ad-hoc commands" "ansible is not installed"
	skip "the fleet plan of the facts Ansible fetched" "ansible is not installed"
fi

# --- shellcheck: the three scripts
if command -v shellcheck >/dev/null 2>&1; then
	for s in facts.sbatch facts-ssh.sh facts-ansible.sh; do
		[ -f "$T_DIR/$s" ] || "$PTBUILD" gather ansible >"$T_DIR/$s"
		run shellcheck -s sh "$T_DIR/$s"
		is "$rc$out" "0" "shellcheck: $s is clean"
	done
else
	skip "shellcheck" "shellcheck is not installed"
fi

# --- Kubernetes: yamllint, the structure, the container's command
run "$PTBUILD" gather kubernetes --dir "$T_DIR/k8s" --image registry.example/ptbuild:1.0 --namespace gpu-ops --ptbuild "$T_DIR/bin/node-ptbuild"
is "$rc" 0 "gather kubernetes: exit 0"
printf '%s\n' "$out" >"$T_DIR/facts.yaml"
if command -v yamllint >/dev/null 2>&1; then
	# (line length off: the test's temporary paths are long)
	run yamllint -s -d '{extends: default, rules: {line-length: disable, document-start: disable}}' "$T_DIR/facts.yaml"
	is "$rc$out" "0" "yamllint (strict): the manifest is clean"
else
	skip "yamllint" "yamllint is not installed"
fi
python3 - "$T_DIR/facts.yaml" >"$T_DIR/k8s.check" 2>&1 <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
def need(c, what):
    if not c:
        print("FAIL: " + what)
need(d["apiVersion"] == "apps/v1" and d["kind"] == "DaemonSet", "an apps/v1 DaemonSet")
need(d["metadata"]["namespace"] == "gpu-ops", "the namespace given")
t = d["spec"]["template"]
need(d["spec"]["selector"]["matchLabels"].items() <= t["metadata"]["labels"].items(), "the selector matches the pod's labels")
s = t["spec"]
c = s["containers"][0]
need(c["image"] == "registry.example/ptbuild:1.0", "the image given")
vols = {v["name"]: v for v in s["volumes"]}
for m in c["volumeMounts"]:
    need(m["name"] in vols, "every mount names a volume")
    need(m.get("readOnly") is True, "every mount is read-only")
need(vols["host"]["hostPath"]["path"] == "/", "the node's files as a hostPath")
need(c["securityContext"]["readOnlyRootFilesystem"] is True and c["securityContext"]["allowPrivilegeEscalation"] is False, "nothing written, no privilege")
need(s["securityContext"]["runAsNonRoot"] is True, "not root")
env = {e["name"]: e for e in c["env"]}
need(env["NODE_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName", "NODE_NAME is the node's name (downward API)")
need(s["nodeSelector"].get("nvidia.com/gpu.present") == "true", "only GPU nodes")
need(c["command"][:2] == ["/bin/sh", "-c"] and "--sysroot /host" in c["command"][2] and '--node "$NODE_NAME"' in c["command"][2], "detect reads /host, stamped with the node's name")
# the command, for the test: /host is a fixture machine, no sleep
print(c["command"][2].replace("/host", sys.argv[1].rsplit("/", 1)[0] + "/gh200").replace("exec sleep infinity", "true"), file=open(sys.argv[1] + ".cmd", "w"))
PY
is "$(cat "$T_DIR/k8s.check")" "" "the manifest's structure: DaemonSet, read-only host mount, node name, GPU nodes only"
# the container's command, run by sh as the pod would, on the GH200 fixture
run env NODE_NAME=gh200 sh -c "$(cat "$T_DIR/facts.yaml.cmd")"
is "$rc" 0 "the container's command runs: exit 0"
like "$out" '*"host": "gh200"*' "... and prints facts stamped with the node's name"

# --- Kubernetes: the manifest against the Kubernetes API's own schemas.
# kubectl is not used: even a client dry run asks a cluster for its API
# groups.  Instead each YAML document, as JSON, goes to the class that
# kubernetes-models (npm) compiles from Kubernetes' OpenAPI schema for its
# apiVersion and kind (tests/fleet/k8s-validate.mjs); an apiVersion or
# kind it does not know fails.  Broken copies of the DaemonSet show that
# the check is real.  (The schemas do not forbid fields they do not name,
# as the API server's strict field validation does: a misspelt field
# passes here; the structural check above reads the fields that matter
# by their names.)
npm_root=$(npm root -g 2>/dev/null || true)
K8S_MODELS="$npm_root/kubernetes-models"
if command -v node >/dev/null 2>&1 && [ -n "$npm_root" ] && [ -f "$K8S_MODELS/package.json" ]; then
	k8s_check() { node "$top_srcdir/tests/fleet/k8s-validate.mjs" "$K8S_MODELS" "$@"; }
	python3 - "$T_DIR/facts.yaml" "$T_DIR/manifest.json" "$T_DIR/broken.json" <<'PY'
import copy, json, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None]
json.dump(docs, open(sys.argv[2], "w"), default=str)
ds = next(d for d in docs if d.get("kind") == "DaemonSet")
def broken(path, value):
    """a copy of the DaemonSet with the field at PATH set to VALUE (None: removed)"""
    d = copy.deepcopy(ds)
    o = d
    for k in path[:-1]:
        o = o[k]
    if value is None:
        del o[path[-1]]
    else:
        o[path[-1]] = value
    return d
pod = ["spec", "template", "spec"]
json.dump([
    ds,
    broken(pod + ["containers"], "detect"),
    broken(pod + ["volumes", 0, "hostPath", "type"], "Dir"),
    broken(pod + ["containers", 0, "volumeMounts", 0, "mountPropagation"], "HostToContainers"),
    broken(pod + ["containers", 0, "resources", "limits", "cpu"], "lots"),
    broken(["spec", "selector"], None),
    broken(["kind"], "DaemonSets"),
    broken(["apiVersion"], "apps/v9"),
    dict(broken(["apiVersion"], "v1"), kind="PodSpec"),
], open(sys.argv[3], "w"))
PY
	ndocs=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T_DIR/manifest.json")
	run k8s_check "$T_DIR/manifest.json"
	is "$rc" 0 "the manifest's $ndocs document(s) valid against Kubernetes' schemas (kubernetes-models)"
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | grep . | sed 's/^/# /'
	is "$(printf '%s\n' "$out" | grep -c '^ok ')" "$ndocs" "... every document checked"
	is "$(printf '%s\n' "$out" | sed -n 's/^ok [0-9]* //p')" "apps/v1 DaemonSet ptbuild-facts" "... which is the DaemonSet"
	run k8s_check "$T_DIR/broken.json"
	is "$rc" 1 "broken copies of the DaemonSet: exit 1"
	v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$K8S_MODELS/package.json")
	d="apps/v1 DaemonSet 'ptbuild-facts':"
	p=data/spec/template/spec
	cpu=$p/containers/0/resources/limits/cpu
	is "$out" "ok 1 apps/v1 DaemonSet ptbuild-facts
FAIL 2: $d $p/containers must be array
FAIL 3: $d $p/volumes/0/hostPath/type must be equal to one of the allowed values
FAIL 4: $d $p/containers/0/volumeMounts/0/mountPropagation must be equal to one of the allowed values
FAIL 5: $d $cpu must be number, $cpu must match format \"quantity\", $cpu must match exactly one schema in \"oneOf\"
FAIL 6: $d data/spec must have required property selector
FAIL 7: kind 'DaemonSets' is not in apiVersion 'apps/v1' of kubernetes-models $v
FAIL 8: apiVersion 'apps/v9' is not in kubernetes-models $v
FAIL 9: kind 'PodSpec' is not in apiVersion 'v1' of kubernetes-models $v" \
		"... each rejected with the schema's message (a type, two enums, a quantity, a required field), and an unknown kind, apiVersion or part's class"
else
	skip "the manifest against Kubernetes' schemas" "node or kubernetes-models is not installed (npm install -g kubernetes-models@5)"
fi

# --- bad input
run "$PTBUILD" gather pbs
is "$rc" 2 "an unknown engine: exit 2"
like "$err" "*unknown engine 'pbs'*slurm, ansible, ssh or kubernetes*" "... naming the known ones"
run "$PTBUILD" gather kubernetes --namespace Bad_NS
is "$rc" 2 "a namespace that is not a DNS label: exit 2"
run "$PTBUILD" gather kubernetes --image 'a b'
is "$rc" 2 "an image with a space: exit 2"
run "$PTBUILD" gather
is "$rc" 2 "no engine: exit 2"

done_testing
