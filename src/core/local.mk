# src/core/local.mk - the core: facts, plans (made, loaded, checked,
# compared) and fleets; no command line here.
libptb_a_SOURCES += \
	src/core/facts.c src/core/facts.h \
	src/core/plan.c src/core/plan.h src/core/plan_check.c src/core/plan_diff.c \
	src/core/fleet.c src/core/fleet.h \
	src/core/problems.c src/core/problems.h
