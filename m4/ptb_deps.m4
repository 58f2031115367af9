# ptb_deps.m4 - dependency checks that name the missing package.

# PTB_REQUIRE_PKG(VAR, MODULE-SPEC, DEBIAN-PACKAGE)
AC_DEFUN([PTB_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found through pkg-config ($$1_PKG_ERRORS).
    Install it (Debian/Ubuntu: apt-get install $3), or run ./setup.sh.])])
])

# PTB_CHECK_LUA - Lua 5.4 under one of the names distributions use.
AC_DEFUN([PTB_CHECK_LUA], [
  PTB_LUA_PKG=
  for ptb_lua in lua5.4 lua-5.4 lua54 lua; do
    AC_MSG_CHECKING([for Lua 5.4 as pkg-config module $ptb_lua])
    if $PKG_CONFIG --exists "$ptb_lua >= 5.4" && $PKG_CONFIG --max-version=5.4.99 "$ptb_lua"; then
      AC_MSG_RESULT([yes])
      PTB_LUA_PKG=$ptb_lua
      break
    fi
    AC_MSG_RESULT([no])
  done
  AS_IF([test -z "$PTB_LUA_PKG"],
    [AC_MSG_ERROR([Lua 5.4 not found through pkg-config (tried lua5.4, lua-5.4, lua54, lua).
    Install it (Debian/Ubuntu: apt-get install liblua5.4-dev), or run ./setup.sh.])])
  LUA_CFLAGS=`$PKG_CONFIG --cflags $PTB_LUA_PKG`
  LUA_LIBS=`$PKG_CONFIG --libs $PTB_LUA_PKG`
  AC_SUBST([LUA_CFLAGS])
  AC_SUBST([LUA_LIBS])
  AC_SUBST([PTB_LUA_PKG])
])
