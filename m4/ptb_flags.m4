# ptb_flags.m4 - warnings and sanitizers, kept out of the user's CFLAGS.

# PTB_TRY_CFLAG(FLAG, VAR) - append FLAG to VAR when the compiler takes it.
AC_DEFUN([PTB_TRY_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  ptb_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS $1 -Werror"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); $2="$$2 $1"], [AC_MSG_RESULT([no])])
  CFLAGS=$ptb_save_CFLAGS
])

AC_DEFUN([PTB_WARNINGS], [
  PTB_WARN_CFLAGS=
  for ptb_flag in -Wall -Wextra -Wformat=2 -Wshadow -Wpointer-arith \
      -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter; do
    PTB_TRY_CFLAG([$ptb_flag], [PTB_WARN_CFLAGS])
  done
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [turn warnings into errors])],
    [AS_IF([test "x$enableval" = xyes], [PTB_WARN_CFLAGS="$PTB_WARN_CFLAGS -Werror"])])
  AC_SUBST([PTB_WARN_CFLAGS])
])

AC_DEFUN([PTB_SANITIZERS], [
  PTB_SAN_CFLAGS=
  PTB_SAN_SUMMARY=
  AC_ARG_ENABLE([asan],
    [AS_HELP_STRING([--enable-asan], [build with AddressSanitizer])],
    [AS_IF([test "x$enableval" = xyes],
      [PTB_SAN_CFLAGS="$PTB_SAN_CFLAGS -fsanitize=address"; PTB_SAN_SUMMARY="$PTB_SAN_SUMMARY asan"])])
  AC_ARG_ENABLE([ubsan],
    [AS_HELP_STRING([--enable-ubsan], [build with UndefinedBehaviorSanitizer (errors abort)])],
    [AS_IF([test "x$enableval" = xyes],
      [PTB_SAN_CFLAGS="$PTB_SAN_CFLAGS -fsanitize=undefined -fno-sanitize-recover=undefined"; PTB_SAN_SUMMARY="$PTB_SAN_SUMMARY ubsan"])])
  AS_IF([test -n "$PTB_SAN_CFLAGS"], [
    PTB_SAN_CFLAGS="$PTB_SAN_CFLAGS -fno-omit-frame-pointer -g"
    ptb_save_CFLAGS=$CFLAGS; ptb_save_LDFLAGS=$LDFLAGS
    CFLAGS="$CFLAGS $PTB_SAN_CFLAGS"; LDFLAGS="$LDFLAGS $PTB_SAN_CFLAGS"
    AC_MSG_CHECKING([whether the sanitizers link])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([cannot link with $PTB_SAN_CFLAGS (Debian: the compiler's libasan/libubsan)])])
    CFLAGS=$ptb_save_CFLAGS; LDFLAGS=$ptb_save_LDFLAGS
  ])
  AC_SUBST([PTB_SAN_CFLAGS])
])

# PTB_COVERAGE - --enable-coverage builds with gcov instrumentation; `make
# coverage` then runs the suite and reports line coverage of src/ (gcovr).
AC_DEFUN([PTB_COVERAGE], [
  AC_ARG_ENABLE([coverage],
    [AS_HELP_STRING([--enable-coverage], [build with gcov instrumentation for make coverage])],
    [], [enable_coverage=no])
  PTB_COV_CFLAGS=
  AS_IF([test "x$enable_coverage" = xyes], [
    PTB_COV_CFLAGS="--coverage -O0 -g -DPTB_GCOV"
    AC_PATH_PROG([GCOVR], [gcovr], [])
    AS_IF([test -z "$GCOVR"], [AC_MSG_ERROR([--enable-coverage needs gcovr (Debian/Ubuntu: apt-get install gcovr)])])
  ])
  AC_SUBST([PTB_COV_CFLAGS])
  AM_CONDITIONAL([PTB_COVERAGE], [test "x$enable_coverage" = xyes])
])
