# completions/local.mk - the completion scripts of bash, zsh and fish,
# made from the option tables (src/cli/complete.c) and kept here so that
# a build needs no ptbuild to run.  After changing an option:
# 'make regen-options' (t0010 fails until then).
bashcompdir = $(datadir)/bash-completion/completions
zshcompdir = $(datadir)/zsh/site-functions
fishcompdir = $(datadir)/fish/vendor_completions.d
dist_bashcomp_DATA = completions/bash/ptbuild
dist_zshcomp_DATA = completions/zsh/_ptbuild
dist_fishcomp_DATA = completions/fish/ptbuild.fish
EXTRA_DIST += tools/regen-options.sh

# The man page's OPTIONS section and the three scripts, from this build.
regen-options: ptbuild$(EXEEXT)
	rm -rf regen-options.tmp
	$(SHELL) $(top_srcdir)/tools/regen-options.sh ./ptbuild$(EXEEXT) $(top_srcdir) regen-options.tmp
	cp regen-options.tmp/ptbuild.1 $(top_srcdir)/doc/ptbuild.1
	cp regen-options.tmp/ptbuild $(top_srcdir)/completions/bash/ptbuild
	cp regen-options.tmp/_ptbuild $(top_srcdir)/completions/zsh/_ptbuild
	cp regen-options.tmp/ptbuild.fish $(top_srcdir)/completions/fish/ptbuild.fish
	rm -rf regen-options.tmp
.PHONY: regen-options
