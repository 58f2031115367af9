-- The `ptbuild generate` recipe: which files to write, from which template,
-- with which values.  Input { plan, env_order, plan_text, options }; output
-- { files = [{path, template, mode}], vars = {...}, notes = [...] } or
-- { errors = [...] }.  Every decision about the outputs is made here; the
-- templates only place values and the C renderer only escapes them.
local M = {}

-- The formats, in the order they are written, and their files.
local FORMATS = {
  { name = "env",        files = { { "ptbuild.env", "ptbuild.env.in", 420 } } },
  { name = "envrc",      files = { { ".envrc", "envrc.in", 420 } } },
  { name = "docker-env", files = { { "docker.env", "docker.env.in", 420 } } },
  { name = "github-env", files = { { "github.env", "github.env.in", 420 },
                                   { "github.path", "github.path.in", 420 } } },
  { name = "cmake",      files = { { "initial-cache.cmake", "initial-cache.cmake.in", 420 } } },
  { name = "presets",    files = { { "CMakePresets.json", "CMakePresets.json.in", 420 } } },
  { name = "dockerfile", files = { { "Dockerfile", "Dockerfile.in", 420 },
                                   { ".dockerignore", "dockerignore.in", 420 } } },
  { name = "bake",       files = { { "docker-bake.hcl", "docker-bake.hcl.in", 420 } } },
  { name = "ci",         files = { { ".github/workflows/ptbuild.yml", "ptbuild.yml.in", 420 } } },
  { name = "setup",      files = { { "setup.sh", "setup.sh.in", 493 },
                                   { "plan.json", "plan.json.in", 420 } } },
}

-- The Docker image installs CUDA and OpenBLAS at fixed places, whatever
-- the plan's host used.
local DOCKER_CUDA = "/usr/local/cuda"
local DOCKER_OPENBLAS = "/opt/OpenBLAS"
-- ubuntu's default PATH: docker --env-file cannot expand $PATH.
local DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
-- Wheels are zip files: zip cannot hold times before 1980-01-01.
local MIN_SOURCE_DATE_EPOCH = 315532800

-- Native runners per platform (GitHub-hosted; no QEMU for CUDA builds).
local RUNNERS = {
  { arch = "x86_64", targetarch = "amd64", platform = "linux/amd64",
    cuda_platform = "linux-x86_64", runner = "ubuntu-24.04" },
  { arch = "arm64", targetarch = "arm64", platform = "linux/arm64",
    cuda_platform = "linux-sbsa", runner = "ubuntu-24.04-arm" },
}

local function err(list, kind, message, hint)
  list[#list + 1] = { kind = kind, message = message, hint = hint }
end

local function starts(s, prefix)
  return prefix ~= "" and s:sub(1, #prefix) == prefix
end

-- Replace a leading root (the host's CUDA or OpenBLAS place) by the image's.
local function rebase(s, from, to)
  if from and starts(s, from) and (#s == #from or s:sub(#from + 1, #from + 1) == "/"
      or s:sub(#from + 1, #from + 1) == ":") then
    return to .. s:sub(#from + 1)
  end
  return s
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

local function copy_list(t)
  local out = {}
  for i, v in ipairs(t or {}) do out[i] = v end
  return out
end

local function sccache_settings(sc)
  if not sc then return nil end
  local env = {}
  local function add(name, value) env[#env + 1] = { name = name, value = value } end
  local mode = "local disk (~/.cache/sccache)"
  if sc.bucket then
    add("SCCACHE_BUCKET", sc.bucket)
    if sc.region then add("SCCACHE_REGION", sc.region) end
    mode = "S3 bucket " .. sc.bucket
  end
  if sc.redis then
    add("SCCACHE_REDIS_ENDPOINT", sc.redis)
    mode = "redis " .. sc.redis
  end
  -- sccache reads the dist scheduler from its config file; the env form
  -- of the same key is SCCACHE_DIST_SCHEDULER_URL (config.rs, env overrides).
  if sc.scheduler then
    add("SCCACHE_DIST_SCHEDULER_URL", sc.scheduler)
    mode = (mode:match("^local") and "" or mode .. ", ") .. "sccache-dist scheduler " .. sc.scheduler
  end
  -- PyTorch passes CMAKE_* environment variables to CMake as -D, so the
  -- launchers reach its build too; USE_CCACHE=0 stops it from picking ccache.
  local launchers = {
    { name = "CMAKE_C_COMPILER_LAUNCHER", value = "sccache" },
    { name = "CMAKE_CXX_COMPILER_LAUNCHER", value = "sccache" },
    { name = "CMAKE_CUDA_COMPILER_LAUNCHER", value = "sccache" },
  }
  for _, l in ipairs(launchers) do add(l.name, l.value) end
  add("USE_CCACHE", "0")
  return { env = env, launchers = launchers, mode = mode }
end

local function cmake_type(name)
  if name:match("_COMPILER$") then return "FILEPATH" end
  if name:match("_ROOT$") or name:match("_DIR$") then return "PATH" end
  return "STRING"
end

function M.files(args)
  local plan, opts = args.plan or {}, args.options or {}
  local errors, notes = {}, {}
  local cuda = plan.cuda or {}
  local torch = plan.torch or {}

  -- Which formats.
  local want, known = {}, {}
  for _, f in ipairs(FORMATS) do known[f.name] = true end
  if opts.formats and #opts.formats > 0 then
    for _, name in ipairs(opts.formats) do
      if name == "all" then
        for _, f in ipairs(FORMATS) do want[f.name] = true end
      elseif known[name] then
        want[name] = true
      else
        local names = {}
        for _, f in ipairs(FORMATS) do names[#names + 1] = f.name end
        err(errors, "usage", ("unknown format '%s'"):format(name),
            "formats: all " .. table.concat(names, " "))
      end
    end
  else
    for _, f in ipairs(FORMATS) do want[f.name] = true end
  end
  if not plan.torch_cuda_arch_list or plan.torch_cuda_arch_list == "" then
    err(errors, "usage", "the plan has no torch_cuda_arch_list",
        "a build with no GPU at build time needs an explicit list; make the plan with --arch-list")
  end
  if #errors > 0 then return { errors = errors } end

  local sc = sccache_settings(opts.sccache)

  -- The environment, in the plan's order, then sccache's.
  local env = {}
  for _, name in ipairs(args.env_order or sorted_keys(plan.env)) do
    local v = (plan.env or {})[name]
    if v ~= nil then env[#env + 1] = { name = name, value = tostring(v) } end
  end
  if sc then for _, e in ipairs(sc.env) do env[#env + 1] = e end end

  -- Directories to put first: PATH, LD_LIBRARY_PATH, then any other.
  local prepend, seen = {}, {}
  local pp = plan.path_prepend or {}
  local order = { "PATH", "LD_LIBRARY_PATH" }
  for _, k in ipairs(sorted_keys(pp)) do
    if k ~= "PATH" and k ~= "LD_LIBRARY_PATH" then order[#order + 1] = k end
  end
  for _, name in ipairs(order) do
    if pp[name] and #pp[name] > 0 and not seen[name] then
      seen[name] = true
      prepend[#prepend + 1] = { name = name, dirs = copy_list(pp[name]),
                                joined = table.concat(pp[name], ":") }
    end
  end

  -- docker --env-file and $GITHUB_ENV take values literally: PATH and
  -- LD_LIBRARY_PATH are written whole.
  local flat = {}
  for _, e in ipairs(env) do flat[#flat + 1] = e end
  local github_path = {}
  for _, p in ipairs(prepend) do
    if p.name == "PATH" then
      flat[#flat + 1] = { name = "PATH", value = p.joined .. ":" .. DEFAULT_PATH }
      github_path = p.dirs
    else
      flat[#flat + 1] = { name = p.name, value = p.joined }
    end
  end
  local github_env = {}
  for _, e in ipairs(env) do github_env[#github_env + 1] = e end
  for _, p in ipairs(prepend) do
    if p.name ~= "PATH" then github_env[#github_env + 1] = { name = p.name, value = p.joined } end
  end

  -- CMake cache entries: the plan's, the arch list, sccache's launchers.
  local cmake = {}
  for _, k in ipairs(sorted_keys(plan.cmake)) do
    cmake[#cmake + 1] = { name = k, value = tostring(plan.cmake[k]), type = cmake_type(k) }
  end
  if not (plan.cmake or {}).TORCH_CUDA_ARCH_LIST then
    cmake[#cmake + 1] = { name = "TORCH_CUDA_ARCH_LIST", value = plan.torch_cuda_arch_list, type = "STRING" }
  end
  if sc then
    for _, l in ipairs(sc.launchers) do cmake[#cmake + 1] = { name = l.name, value = l.value, type = "STRING" } end
  end

  -- Presets expand ${...} and $env{...} in values and have no escape for
  -- them: such a value stays out of the preset.
  local preset_env = {}
  for _, e in ipairs(env) do
    if e.value:find("%$[%a]*{") then
      if want.presets then
        notes[#notes + 1] = ("CMakePresets.json leaves out %s: presets would expand its '${' / '$env{'"):format(e.name)
      end
    else
      preset_env[#preset_env + 1] = e
    end
  end
  -- PATH keeps the caller's entries after ours; an empty LD_LIBRARY_PATH
  -- would leave a trailing ':' (the current directory), so it does not.
  for _, p in ipairs(prepend) do
    preset_env[#preset_env + 1] = { name = p.name,
      value = p.name == "PATH" and (p.joined .. ":$penv{PATH}") or p.joined }
  end
  local preset_cache = {}
  for _, c in ipairs(cmake) do
    if not c.value:find("%$[%a]*{") then preset_cache[#preset_cache + 1] = c end
  end

  -- Docker: the image's own places for CUDA and OpenBLAS.
  local ob = plan.openblas or {}
  local from_root = cuda.root
  local ob_root = ob.prefix or (plan.env or {}).OpenBLAS_HOME
  local function in_image(v)
    v = rebase(v, from_root, DOCKER_CUDA)
    if ob_root then v = rebase(v, ob_root, DOCKER_OPENBLAS) end
    return v
  end
  local docker_env = {}
  for _, e in ipairs(env) do
    if not sc or not e.name:match("^SCCACHE_") then
      docker_env[#docker_env + 1] = { name = e.name, value = in_image(e.value) }
    end
  end
  local docker_path, docker_ld = {}, {}
  for _, p in ipairs(prepend) do
    for _, d in ipairs(p.dirs) do
      local dd = in_image(d)
      local list = p.name == "PATH" and docker_path or p.name == "LD_LIBRARY_PATH" and docker_ld or nil
      if list and (starts(dd, DOCKER_CUDA) or starts(dd, DOCKER_OPENBLAS)) then
        local dup = false
        for _, x in ipairs(list) do if x == dd then dup = true end end
        if not dup then list[#list + 1] = dd end
      end
    end
  end
  if #docker_path == 0 then docker_path = { DOCKER_CUDA .. "/bin" } end
  if #docker_ld == 0 then docker_ld = { DOCKER_CUDA .. "/lib64" } end

  if cuda.platform == "linux-aarch64" and (want.dockerfile or want.bake) then
    -- JetPack's CUDA (L4T) is not the SBSA CUDA an arm64 image gets: an
    -- sm_87 wheel built there does not run on an Orin.
    notes[#notes + 1] = ("the plan is for a Jetson (CUDA %s from JetPack): the Dockerfile and bake file build x86_64 and SBSA wheels, which do not run on it; build on the Jetson with setup.sh"):format(
      cuda.full_version or cuda.version or "?")
  end
  local arches = {}
  for _, r in ipairs(RUNNERS) do
    local downloads = {}
    -- docker_downloads holds both platforms' files (plan.lua); a plan
    -- without it (an older saved plan) only serves its own platform.
    local dl = cuda.docker_downloads
    if not dl or #dl == 0 then dl = cuda.downloads or {} end
    for _, d in ipairs(dl) do
      if (d.platform or cuda.platform) == r.cuda_platform then
        downloads[#downloads + 1] = { name = d.name, url = d.url, sha256 = d.sha256 }
      end
    end
    if #downloads == 0 and want.dockerfile then
      notes[#notes + 1] = ("the plan has no CUDA downloads for %s: the Dockerfile stops for TARGETARCH=%s"):format(
        r.cuda_platform, r.targetarch)
    end
    -- OpenBLAS: the plan's core on its own architecture; a portable
    -- DYNAMIC_ARCH build on the other.
    local host_arch = (plan.host or {}).arch or (cuda.platform == "linux-x86_64" and "x86_64" or "aarch64")
    local native = (host_arch == "x86_64") == (r.arch == "x86_64")
    local target, flags
    if native and ob.target then
      target, flags = ob.target, copy_list(ob.make_flags)
    else
      target = r.arch == "x86_64" and "HASWELL" or "ARMV8"
      flags = { "DYNAMIC_ARCH=1", "USE_OPENMP=1" }
    end
    arches[#arches + 1] = {
      arch = r.arch, targetarch = r.targetarch, platform = r.platform,
      cuda_platform = r.cuda_platform, runner = r.runner,
      downloads = downloads,
      openblas_target = target, openblas_flags = table.concat(flags, " "),
    }
  end

  -- The release's tag (data/pytorch.lua); a plan saved before plans
  -- carried it gets the X.Y.0 tag every release has.
  local ref = opts.torch_ref or torch.tag
  if not ref and torch.version then
    ref = torch.version:match("^%d+%.%d+$") and ("v" .. torch.version .. ".0") or ("v" .. torch.version)
  end
  ref = ref or "main"
  local commit = ref:match("^%x+$") and #ref == 40
  -- A git ref as git check-ref-format allows it, less what a shell or a
  -- Dockerfile would read specially.
  if not ref:match("^[%w][%w._/+-]*$") or ref:find("..", 1, true) or ref:find("//", 1, true)
      or ref:match("[./]$") or ref:find("%.lock$") then
    err(errors, "usage", ("'%s' is not a git tag, branch or commit"):format(ref),
        "e.g. --torch-ref v2.14.1 or a 40-digit commit")
  end
  local base_image = opts.base_image or "ubuntu:22.04"
  if not base_image:match("^[%w][%w._/:-]*$") then
    err(errors, "usage", ("base image '%s' is not an image reference"):format(base_image),
        "e.g. --base-image ubuntu:22.04 or registry.example.com/team/cuda:12.6")
  elseif base_image:match(":latest$") or not base_image:match(":[^/]+$") then
    err(errors, "usage", ("base image '%s' is not pinned by a tag"):format(base_image),
        "name a version tag, e.g. --base-image ubuntu:22.04")
  end
  local digest = opts.base_digest
  if digest and not (digest:match("^sha256:%x+$") and #digest == 7 + 64) then
    err(errors, "usage", ("'%s' is not an image digest (expected sha256: and 64 hexadecimal digits)"):format(digest))
  end
  local sde = tonumber(opts.source_date_epoch or plan.source_date_epoch or MIN_SOURCE_DATE_EPOCH)
  if not sde or sde ~= math.floor(sde) or sde < MIN_SOURCE_DATE_EPOCH then
    err(errors, "usage", ("SOURCE_DATE_EPOCH '%s' is not a whole number of seconds from 1980 on")
        :format(tostring(opts.source_date_epoch)), "wheels are zip files, which cannot hold earlier times")
  end
  if #errors > 0 then return { errors = errors } end

  local apt = { "build-essential", "ca-certificates", "curl", "git", "ninja-build", "python3-dev",
                "python3-pip", "python3-venv", "xz-utils", "libnuma-dev" }
  local ob_source = ob.via == "source" and ob.url and ob.sha256
  if not ob_source then apt[#apt + 1] = "libopenblas-dev" end
  if ob.via == "source" and not ob_source and want.dockerfile then
    notes[#notes + 1] = "the plan builds OpenBLAS from source but gives no url and sha256: the Dockerfile uses libopenblas-dev"
  end

  local docker = {
    base_image = base_image, base_digest = digest or "",
    from = base_image .. (digest and ("@" .. digest) or ""),
    torch_ref = ref, torch_commit = commit and ref or "",
    source_date_epoch = sde, packages = apt,
    cuda_root = DOCKER_CUDA, env = docker_env,
    path = table.concat(docker_path, ":"), ld_library_path = table.concat(docker_ld, ":"),
    openblas = ob_source and { version = ob.version or "", url = ob.url, sha256 = ob.sha256,
                               prefix = DOCKER_OPENBLAS } or false,
    max_jobs = plan.max_jobs or 4,
  }

  -- setup.sh: the host steps in order.
  local pk = plan.packages or {}
  local manager = pk.manager or "apt"
  local setup = {
    manager = manager, apt = manager == "apt", dnf = manager == "dnf",
    packages = copy_list(pk.names),
    fetch = cuda.source == "download", cuda_root = cuda.root or "",
    cuda_installed = cuda.source == "installed", jetpack = cuda.source == "jetpack",
    openblas = ob.via == "source" and {
      version = ob.version or "", url = ob.url or "", sha256 = ob.sha256 or "",
      target = ob.target or "", prefix = ob.prefix or "/opt/OpenBLAS",
      make_flags = copy_list(ob.make_flags),
    } or false,
    max_jobs = plan.max_jobs or 4,
  }
  if setup.openblas and (setup.openblas.url == "" or setup.openblas.sha256 == "") then
    err(errors, "recipe", "the plan builds OpenBLAS from source without a pinned url and sha256")
    return { errors = errors }
  end

  local summary = ("torch %s, CUDA %s (%s), TORCH_CUDA_ARCH_LIST=%s"):format(
    torch.version or "?", cuda.full_version or cuda.version or "?", cuda.platform or "?",
    plan.torch_cuda_arch_list)

  local vars = {
    version = ptb.version,
    header = "Generated by ptbuild " .. ptb.version .. " for " .. summary .. "; do not edit.",
    facts_source = (tostring(plan.facts_source or "unknown")):gsub("[\r\n]+", " "),
    torch_version = torch.version or "", cuda_version = cuda.version or "",
    cuda_full_version = cuda.full_version or cuda.version or "",
    arch_list = plan.torch_cuda_arch_list,
    env = env, prepend = prepend, flat_env = flat,
    github_env = github_env, github_path = github_path,
    cmake = cmake, cmake_fresh = plan.cmake_fresh and true or false,
    preset_env = preset_env, preset_cache = preset_cache,
    docker = docker, arches = arches,
    sccache = sc and { mode = sc.mode } or false,
    setup = setup,
    plan_text = args.plan_text or "",
    max_jobs = plan.max_jobs or 4,
  }

  local files = {}
  for _, f in ipairs(FORMATS) do
    if want[f.name] then
      for _, spec in ipairs(f.files) do
        files[#files + 1] = { path = spec[1], template = spec[2], mode = spec[3] }
      end
    end
  end
  return { files = files, vars = vars, notes = ptb.array(notes) }
end

return M
