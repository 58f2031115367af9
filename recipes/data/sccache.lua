-- sccache, the compiler cache `generate --sccache` sets as the compiler
-- launcher: mozilla/sccache's static (musl) release binaries, per machine.
--
-- Sources (ids resolve in recipes/data/sources.lua):
--   [aur-sccache]  Arch Linux's AUR PKGBUILD of sccache-bin 0.12.0:
--                  sha256sums_x86_64 and sha256sums_aarch64 of the two
--                  release tarballs named below
--   [ci-sccache]   three public CI scripts that download the same v0.12.0
--                  files and check these digests (a URL -> sha256 table;
--                  a per-machine download script; an x86_64 installer)
-- The four sources agree on both digests.
local base = "https://github.com/mozilla/sccache/releases/download/v0.12.0/"
return {
  version = "0.12.0",                                                           -- [aur-sccache]
  files = {
    x86_64 = { url = base .. "sccache-v0.12.0-x86_64-unknown-linux-musl.tar.gz",
               sha256 = "b0e89ead6899224a4ba2b90e9073bf1ce036d95bab30f3dc33c1e1468bc4ad44" },  -- [aur-sccache] [ci-sccache]
    aarch64 = { url = base .. "sccache-v0.12.0-aarch64-unknown-linux-musl.tar.gz",
                sha256 = "111ddd28fb108cb3e17edb69ab62cefe1dcc97b02e5006ff9c1330f4f2e78368" },  -- [aur-sccache] [ci-sccache]
  },
}
