-- sccache, the compiler cache `generate --sccache` sets as the compiler
-- launcher: mozilla/sccache's static (musl) release binaries, per machine.
--
-- Sources: the v0.12.0 release's assets and their sha256 digests, as the
-- GitHub release page lists them (a stored copy of the page), and the same
-- two digests in Arch Linux's AUR PKGBUILD of sccache-bin 0.12.0
-- (sha256sums_x86_64, sha256sums_aarch64) and in a stored URL -> sha256
-- table of CI downloads: three sources agree.
local base = "https://github.com/mozilla/sccache/releases/download/v0.12.0/"
return {
  version = "0.12.0",
  files = {
    x86_64 = { url = base .. "sccache-v0.12.0-x86_64-unknown-linux-musl.tar.gz",
               sha256 = "b0e89ead6899224a4ba2b90e9073bf1ce036d95bab30f3dc33c1e1468bc4ad44" },
    aarch64 = { url = base .. "sccache-v0.12.0-aarch64-unknown-linux-musl.tar.gz",
                sha256 = "111ddd28fb108cb3e17edb69ab62cefe1dcc97b02e5006ff9c1330f4f2e78368" },
  },
}
