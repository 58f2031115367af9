# src/core/local.mk - the core: plans (made from facts, loaded, checked,
# compared), fleets and problems; no command line here.
libptb_a_SOURCES += \
	src/core/plan.c src/core/plan.h src/core/plan_check.c src/core/plan_diff.c \
	src/core/fleet.c src/core/fleet.h \
	src/core/problems.c src/core/problems.h
