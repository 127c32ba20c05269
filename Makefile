# collscope: one non-recursive Makefile.
#   make            build build/collscope
#   make run        install what is missing, build, run the main job on local ranks
#   make check      every test (unit, MPI, command line, sanitizers, cluster, fuzzer, MPICH, Slurm)
#   make check-fast the fast tier: unit, command line, each command once under mpirun
#   make install PREFIX=/opt/collscope (and the man pages); make reference; make schema-doc; V=1
# tests/provision.sh installs what they need (as root; otherwise names the Debian packages).

VERSION  := 0.1.0
PREFIX   ?= /usr/local

# --- The MPI library: MPI=openmpi (the default) or MPI=mpich -------------------
# MPI=mpich: build-mpich/, MPICH 4's own wrapper and mpiexec, never the alternatives.
MPI       ?= openmpi
MPICH_CC  ?= mpicc.mpich
MPICH_RUN ?= mpiexec.mpich
ifeq ($(MPI),mpich)
BUILD        ?= build-mpich
MPICC        := $(MPICH_CC)
MPIRUN       := $(MPICH_RUN)
# Hydra runs any number of ranks, as root too; MPICH has no yield-when-idle.
MPIRUN_FLAGS :=
else ifneq ($(MPI),openmpi)
$(error bad MPI '$(MPI)': openmpi or mpich)
endif
export COLLSCOPE_MPI := $(MPI)
# MPIRUN=srun: placement from the allocation, none of mpirun's flags (-n works for all).
ifneq ($(filter srun%,$(notdir $(MPIRUN))),)
MPIRUN_FLAGS ?=
endif

BUILD    ?= build
MPICC    ?= mpicc
CC       ?= cc
MPIRUN   ?= mpirun
NP       ?= 2
SANITIZE ?=
FUZZ_CC  ?= clang
# Open MPI, for this Makefile's targets: root may run (CI does), more ranks than cores yield.
MPIRUN_FLAGS ?= --oversubscribe --mca mpi_yield_when_idle 1
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
export MPIRUN MPIRUN_FLAGS
export COLLSCOPE_TALLY := $(abspath $(BUILD))/test-tally# each suite's "passed failed", summed last
PROVISION = FUZZ_CC='$(FUZZ_CC)' MPICH_CC='$(MPICH_CC)' MPICH_RUN='$(MPICH_RUN)' bash tests/provision.sh
# Deferred (=) so that pkg-config is asked after `deps` has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags libcjson hwloc libsodium 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs libcjson hwloc libsodium 2>/dev/null)
CRIT_FLAGS = $(shell pkg-config --cflags --libs criterion 2>/dev/null)
WARN   := -std=c17 -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wwrite-strings $(if $(filter true 1,$(CI)),-Werror)
OPT    ?= -O2 -g
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
CPPFLAGS += -D_GNU_SOURCE -I. -I$(BUILD)
ALL_CFLAGS = $(WARN) $(OPT) $(SANFLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
LIBS   = $(PKG_LIBS) -lm

ifneq ($(V),1)
Q := @
QUIET = @printf '  %-6s %s\n' $(1) $(2);
endif

# Sources by wildcard: one that includes <mpi.h> (first, alone) is built with mpicc; the
# pure core with plain cc (a stray MPI include fails), linked into the unit tests too.
SRCS      := $(wildcard cmd/*.c cmd/*/*.c algorithms/*.c probes/*.c reports/*/*.c)
MPI_SRCS  := $(shell grep -l '^\#include <mpi.h>' $(SRCS) 2>/dev/null)
PURE_SRCS := $(filter-out $(MPI_SRCS) cmd/main.c,$(SRCS))
CMD_SRCS  := $(filter-out $(PURE_SRCS),$(SRCS))
# The MPICH build takes the pure objects from PURE_BUILD, Open MPI's: the same.
PURE_BUILD ?= $(BUILD)
PURE_OBJS := $(PURE_SRCS:%.c=$(PURE_BUILD)/%.o)
CMD_OBJS  := $(CMD_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/*.c))
BIN      := $(BUILD)/collscope
UNIT_BIN := $(BUILD)/tests/unit-tests
MPICH_BUILD := $(if $(filter mpich,$(MPI)),$(BUILD),$(BUILD)-mpich)
MPICH_BIN   := $(MPICH_BUILD)/collscope
NPROC := $(shell nproc 2>/dev/null || echo 1)

# --- The suites, and make check's phases: the one list of what runs when --------
# One target per suite script: suite/mpi/verify runs tests/mpi/verify.sh.
MPI_SUITES     := $(patsubst tests/%.sh,suite/%,$(wildcard tests/mpi/*.sh))
CLI_SUITES     := $(patsubst tests/%.sh,suite/%,$(wildcard tests/cli/*.sh))
CLUSTER_SUITES := suite/cluster/cluster suite/cluster/accept suite/cluster/campaign suite/cluster/congestion suite/cluster/compress suite/cluster/watch suite/cluster/screen
MPI_TIMED      := suite/mpi/accept suite/mpi/compare_ci suite/mpi/links suite/mpi/timing # verdicts on timings
# make check: provision, build on every core, CHECK_SIDE_BY_SIDE (CHECK_JOBS at once, the longest
# first; none judges a speed, only reliability runs MPI), then CHECK_ALONE one by one: MPI suites
# that judge results (beside other work a rank waits a time slice per message: verify 61 s, alone
# 22), those comparing timings, the cluster's, Slurm's (SLURM=0: not). All run (make -k).
CHECK_JOBS         ?= 3
CHECK_PROVISION    := base fuzz browser mpich $(if $(filter 0,$(SLURM)),,slurm)
CHECK_BUILDS       := $(BIN) $(UNIT_BIN) $(BUILD)/bench/membw san-build fuzz-build mpich-build
CLI_LONGEST        := suite/cli/hostile suite/cli/bad_input suite/cli/report
CHECK_SIDE_BY_SIDE := san-unit-test suite/mpi/reliability fuzz-test unit-test san-cli-test $(CLI_LONGEST) \
                      $(filter-out $(CLI_LONGEST),$(CLI_SUITES)) bench-build
CHECK_ALONE        := $(filter-out suite/mpi/reliability $(MPI_TIMED),$(MPI_SUITES)) mpich-test \
                      $(MPI_TIMED) $(CLUSTER_SUITES) $(if $(filter 0,$(SLURM)),,slurm-test)
# The fast tier, side by side: every command and reader once; check alone runs bad_input and
# hostile (a third of its CPU).
FAST_SUITES := unit-test suite/cli/report fast-mpi-test $(filter-out $(CLI_LONGEST),$(CLI_SUITES))

.PHONY: all deps fuzz-deps browser-deps mpich-deps slurm-deps run bench bench-build bench-scale check check-fast check-build \
	check-side-by-side check-alone tally-reset unit-test mpi-test cli-test fast-mpi-test cluster-test cluster-classes \
	$(MPI_SUITES) $(CLI_SUITES) $(CLUSTER_SUITES) san-build san-unit-test san-cli-test sanitize-test fuzz fuzz-build \
	fuzz-test mpich-build mpich-test slurm-test install clean format lint version-stamp reference schema-doc campaign campaign-results
all: $(BIN)

deps:
	$(Q)$(PROVISION) base $(if $(filter mpich,$(MPI)),mpich)
fuzz-deps browser-deps mpich-deps slurm-deps:
	$(Q)$(PROVISION) $(@:-deps=)

# --- Building ------------------------------------------------------------------
# Rewritten only when the commit changes, so a new commit relinks and nothing else.
$(BUILD)/version.h: version-stamp
	@mkdir -p $(BUILD)
	@git_id=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	printf '#define COLLSCOPE_VERSION "%s"\n#define COLLSCOPE_GIT "%s"\n' '$(VERSION)' "$$git_id" > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BIN): $(CMD_OBJS) $(PURE_OBJS) | deps
	$(call QUIET,LINK,$@)$(MPICC) $(SANFLAGS) -o $@ $^ $(LIBS)
$(PURE_OBJS): $(PURE_BUILD)/%.o: %.c | deps $(BUILD)/version.h
	@mkdir -p $(dir $@)
	$(call QUIET,CC,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(CMD_OBJS): $(BUILD)/%.o: %.c | deps $(BUILD)/version.h
	@mkdir -p $(dir $@)
	$(call QUIET,MPICC,$<)$(MPICC) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/cmd/main.o: $(BUILD)/version.h
# The reduction and codec kernels: -O3 vectorises loops of unknown length (-O2's cheap
# cost model leaves them scalar: 30x slower for float32 here).
$(addprefix $(BUILD)/algorithms/,dtype.o codec_cast.o codec_int8.o codec_topk.o): OPT := -O3 -g
ifeq ($(MPI),mpich)
# MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1: a false -Wstringop-overflow per Waitall.
$(CMD_OBJS): WARN += -Wno-stringop-overflow
endif
$(UNIT_OBJS): $(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(call QUIET,CC,$<)$(CC) $(ALL_CFLAGS) -Itests/unit -c -o $@ $<
$(UNIT_BIN): $(UNIT_OBJS) $(PURE_OBJS)
	$(call QUIET,LINK,$@)$(CC) $(SANFLAGS) -o $@ $^ $(CRIT_FLAGS) $(LIBS)
$(BUILD)/bench/membw $(BUILD)/bench/codec_rate: $(BUILD)/bench/%: tests/bench/%.c $(filter %/codec_cast.o %/codec_int8.o %/codec_topk.o %/codec_accuracy.o,$(PURE_OBJS))
	@mkdir -p $(dir $@)
	$(call QUIET,CC,$<)$(CC) -std=c17 -O2 -Wall -Wextra -pthread -I. -o $@ $< $(filter %.o,$^) -lm

check-build: | deps # the binary and the unit tests, on every core
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(BIN) $(UNIT_BIN)

# Oversubscription flags only with more ranks than cores: yielding costs latency.
RUN_FLAGS = $(if $(shell [ $(NP) -gt $(NPROC) ] && echo over),$(MPIRUN_FLAGS))
run: # builds on every core first (a fresh machine's single-job build took about 40 s)
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(BIN) && out=$(BUILD)/report-$$(date -u +%Y%m%dT%H%M%SZ).json && \
	$(MPIRUN) $(RUN_FLAGS) -np $(NP) $(BIN) allreduce -o $$out && \
	$(BIN) report -o $${out%.json}.html $$out && echo "report: $$out and $${out%.json}.html"

# Every variant against MPI_Allreduce, medians of BENCH_REPEATS, then across virtual hosts
# (root; BENCH_CLUSTER=0: not): bench/results.json and algorithms/BENCH_RESULTS.md.
BENCH_REPEATS ?= 5
BENCH_CLUSTER ?= 1
BENCH_VC_RATE ?= 1gbit
bench: $(BIN) $(BUILD)/bench/membw $(BUILD)/bench/codec_rate
	$(Q)BENCH_CLUSTER=$(BENCH_CLUSTER) BENCH_VC_RATE=$(BENCH_VC_RATE) python3 tests/bench/bench.py \
		$(BIN) $(BUILD)/bench/membw --repeats $(BENCH_REPEATS) --out bench/results.json
bench-build: $(BIN) $(BUILD)/bench/membw $(BUILD)/bench/codec_rate $(BUILD)/bench/scale_analysis
	$(Q)python3 tests/bench/bench.py $(BIN) $(BUILD)/bench/membw --build-only && echo "bench-build: the bench's tools build"
bench-scale: $(BUILD)/bench/scale_analysis # the links analysis at 1,024 and 4,096 hosts
	$(Q)bash tests/bench/scale.sh $(BUILD)/bench/scale_analysis $(BUILD)/bench
$(BUILD)/bench/scale_analysis: tests/bench/scale_analysis.c $(filter-out %/scale_model.o,$(filter $(PURE_BUILD)/reports/% $(PURE_BUILD)/algorithms/timing.o $(PURE_BUILD)/algorithms/collective.o $(PURE_BUILD)/algorithms/sample_stop.o $(PURE_BUILD)/probes/plan.o $(PURE_BUILD)/probes/tournament.o,$(PURE_OBJS)))
	$(call QUIET,LINK,$@)mkdir -p $(dir $@) && $(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

# --- Testing (make check's phases are listed above) ------------------------------
# RUN_SUITE SCRIPT BINARY [title]: one suite, framed by its name and time; RUN_SUITES: each.
RUN_SUITE = echo "== $(1)$(3)"; t0=$$(date +%s); bash $(1) $(2); rc=$$?; \
	echo "== $(1)$(3): $$(($$(date +%s) - t0)) s"; exit $$rc
RUN_SUITES = rc=0; for t in $(1); do ( $(4) $(call RUN_SUITE,$$t,$(2),$(3)) ) || rc=1; done; exit $$rc
TALLY_SUM = awk '/^skip /{k[n++] = substr($$0, 6); next} {p += $$1; f += $$2} END {for (i = 0; i < n; i++) print "$(1): skipped " k[i]; printf "$(1): %d passed, %d failed%s\n", p, f, n ? ", " n " skipped (above)" : ""}' $(COLLSCOPE_TALLY)
# The interpreter behind python3, found once for all the suites (tests/lib.sh).
FIND_PYTHON3 = export COLLSCOPE_PYTHON3="$$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)"

check: tally-reset
	$(Q)$(PROVISION) $(CHECK_PROVISION)
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(CHECK_BUILDS)
	$(Q)$(FIND_PYTHON3); t0=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget check-side-by-side; a=$$?; \
	t1=$$(date +%s); $(MAKE) --no-print-directory -k check-alone; b=$$?; t2=$$(date +%s); \
	echo "check: side by side $$((t1 - t0)) s, alone $$((t2 - t1)) s"; $(call TALLY_SUM,check); \
	[ $$a = 0 ] && [ $$b = 0 ]
check-side-by-side: $(CHECK_SIDE_BY_SIDE)
check-alone: $(CHECK_ALONE)
check-fast: tally-reset check-build
	$(Q)$(FIND_PYTHON3); COLLSCOPE_UNIT_QUICK=1 $(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget $(FAST_SUITES); \
	rc=$$?; $(call TALLY_SUM,check-fast); exit $$rc
tally-reset:
	@mkdir -p $(BUILD) && : > $(COLLSCOPE_TALLY)

$(MPI_SUITES) $(CLI_SUITES) $(CLUSTER_SUITES): suite/%: $(BIN)
	$(Q)$(call RUN_SUITE,tests/$*.sh,$(BIN))
suite/cli/report cli-test: browser-deps
fast-mpi-test: $(BIN)
	$(Q)$(call RUN_SUITE,tests/fast/mpi.sh,$(BIN))
mpi-test cli-test: $(BIN) # every script of the directory, even after one fails
	$(Q)$(call RUN_SUITES,tests/$(@:-test=)/*.sh,$(BIN))
cluster-test: $(BIN) # hosts as network namespaces: as root, else SKIP
	$(Q)$(call RUN_SUITES,$(CLUSTER_SUITES:suite/%=tests/%.sh),$(BIN))
cluster-classes: $(BIN) # every fault class of links on the virtual cluster (7 min)
	$(Q)bash tests/cluster/classes.sh $(BIN)
# The fault-injection campaign (tests/cluster/CAMPAIGN_RESULTS.md): DRAWS draws of SEED on the
# virtual cluster, about 15 s each, into build/campaign/ (collscope report renders a result);
# campaign-results rewrites the Markdown from them. check runs a smoke one (floors, not times).
SEED ?= 1
DRAWS ?= 200
campaign: $(BIN)
	$(Q)mkdir -p $(BUILD)/campaign && python3 tests/cluster/campaign_run.py --seed $(SEED) --draws $(DRAWS) \
		--bin $(BIN) -o $(BUILD)/campaign/seed$(SEED).json && python3 tests/cluster/campaign.py table $(BUILD)/campaign/seed$(SEED).json
campaign-results:
	$(Q)python3 tests/cluster/campaign.py markdown $(or $(CAMPAIGN_RESULTS),$(wildcard $(BUILD)/campaign/seed*.json)) \
		>tests/cluster/CAMPAIGN_RESULTS.md.tmp && mv tests/cluster/CAMPAIGN_RESULTS.md.tmp tests/cluster/CAMPAIGN_RESULTS.md

# Criterion's counts into the tally. Its libgit2 parses the CA bundle in every test's process
# (a fifth of their CPU): as root they see it empty in a mount namespace (no test connects).
CA_BUNDLE := /etc/ssl/certs/ca-certificates.crt
RUN_UNIT = echo "== $(1)"; t0=$$(date +%s); if [ "$$(id -u)" = 0 ] && [ -f $(CA_BUNDLE) ] && unshare --mount true 2>/dev/null; then \
		unshare --mount sh -c 'mount --bind /dev/null $(CA_BUNDLE) 2>/dev/null; exec "$$0" --jobs 2' $(1); \
	else $(1) --jobs 2; fi >$(1).log 2>&1; rc=$$?; cat $(1).log; \
	sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' $(1).log | \
	awk '{print $$1, $$2 + $$3}' >> $(COLLSCOPE_TALLY); echo "== $(1): $$(($$(date +%s) - t0)) s"; exit $$rc
unit-test: $(UNIT_BIN)
	$(Q)$(call RUN_UNIT,$(UNIT_BIN))

# --- The unit tests, basics and bad_input under ASan and UBSan ----------------
# No leak checks for the binary (Open MPI keeps memory until exit by design).
# -O0: -O2 takes 3x the CPU to build for 10% faster tests. Quick: tests/unit/quick.h says what.
SAN_BUILD  := $(BUILD)/san
SAN_SUITES := tests/cli/basics.sh tests/cli/bad_input.sh
SUB_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))
san-build: | deps
	$(Q)$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(SAN_BUILD) SANITIZE=address,undefined \
		OPT='-O0 -g' $(SAN_BUILD)/collscope $(SAN_BUILD)/tests/unit-tests
san-unit-test: san-build
	$(Q)echo "== unit tests under ASan and UBSan"; export COLLSCOPE_UNIT_QUICK=1; $(call RUN_UNIT,$(SAN_BUILD)/tests/unit-tests)
san-cli-test: san-build
	$(Q)$(call RUN_SUITES,$(SAN_SUITES),$(SAN_BUILD)/collscope, under ASan and UBSan,export ASAN_OPTIONS=detect_leaks=0;)
sanitize-test: san-unit-test san-cli-test

# --- Fuzzing: a target per parser in one binary (tests/fuzz/run.sh, fuzz.h) -------
FUZZ_SECONDS ?= 25# each target's, make fuzz; make check's fuzz-test: 5 s each
FUZZ_BIN     := $(BUILD)/fuzz/collscope-fuzz
FUZZ_SRCS    := $(wildcard tests/fuzz/*.c) tests/unit/stub_direct_variants.c $(PURE_SRCS)
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard */*.h */*/*.h) | deps
	@mkdir -p $(dir $@)
	$(call QUIET,FUZZCC,$@)$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) $(CPPFLAGS) -Itests/fuzz $(PKG_CFLAGS) -o $@ \
		$(FUZZ_SRCS) $$(pkg-config --libs libcjson libsodium) -lm
fuzz-build: fuzz-deps
	$(Q)$(PROVISION) --check fuzz || exit 0; $(MAKE) --no-print-directory $(FUZZ_BIN)
fuzz fuzz-test: fuzz-build
	$(Q)export FUZZ_CC='$(FUZZ_CC)'; $(call RUN_SUITE,tests/fuzz/run.sh,$(FUZZ_BIN) $(if $(filter fuzz-test,$@),5,$(FUZZ_SECONDS)))

# --- MPICH (MPI=mpich) ---------------------------------------------------------
# mpich-test: the build of a make with MPI=mpich saw MPICH alone (tests/mpich/
# build.sh); MPICH_SUITES under its mpiexec, verify's whole matrix at 1-2 ranks,
# a quick one at 3-5. `make MPI=mpich mpi-test` runs every MPI suite under MPICH.
MPICH_SUITES    ?= tests/mpi/topo.sh tests/mpi/verify.sh tests/mpi/tune.sh
MPICH_SUITE_ENV ?= VERIFY_RANKS='1 2 3 4 5' VERIFY_FULL_UPTO=2 VERIFY_QUICK=1
mpich-build: mpich-deps $(if $(filter openmpi,$(MPI)),$(PURE_OBJS))
	$(Q)$(PROVISION) --check mpich || exit 0; \
	$(MAKE) --no-print-directory $(SUB_JOBS) MPI=mpich BUILD=$(MPICH_BUILD) \
		$(if $(filter openmpi,$(MPI)),PURE_BUILD=$(PURE_BUILD)) $(MPICH_BIN)
mpich-test: mpich-build
	$(Q)if ! $(PROVISION) --check mpich; then echo "mpich-test: SKIPPED: no $(MPICH_CC) or $(MPICH_RUN)"; echo "skip mpich-test: no $(MPICH_CC) or $(MPICH_RUN)" >>$(COLLSCOPE_TALLY); exit 0; fi; \
	$(call RUN_SUITES,tests/mpich/build.sh $(MPICH_SUITES),$(MPICH_BIN), under MPICH,export $(MPICH_SUITE_ENV) \
		COLLSCOPE_MPI=mpich MPIRUN=$(MPICH_RUN) MPIRUN_FLAGS=;)

# Slurm on the virtual cluster: srun, salloc, sbatch with both builds (as root, else SKIP).
slurm-test: $(BIN) slurm-deps mpich-build
	$(Q)$(call RUN_SUITE,tests/cluster/cluster_slurm.sh,$(BIN) $$([ -x $(MPICH_BIN) ] && echo $(MPICH_BIN)))

# --- From the binary: the man pages; cmd/REFERENCE.md and reports/SCHEMA.md, committed
# (tests/cli/reference.sh and schema.sh fail when they are not what it prints).
MAN_DIR := $(BUILD)/man
all: $(MAN_DIR)/collscope.1
$(MAN_DIR)/collscope.1: $(BIN)
	$(call QUIET,MAN,$(MAN_DIR)/)mkdir -p $(MAN_DIR) && rm -f $(MAN_DIR)/*.1 && \
	for c in $$($(BIN) help --names); do $(BIN) help $$c --man > $(MAN_DIR)/collscope-$$c.1 || exit 1; done && \
	$(BIN) help --man > $@.tmp && mv $@.tmp $@
reference schema-doc: $(BIN)
	$(Q)f=$(if $(filter reference,$@),cmd/REFERENCE.md,reports/SCHEMA.md); \
	$(BIN) $(if $(filter reference,$@),help,schema) --markdown > $$f.tmp && mv $$f.tmp $$f && echo "$@: $$f"
install: $(BIN) $(MAN_DIR)/collscope.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/collscope
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
format:
	clang-format -i $(SRCS) $(wildcard */*.h */*/*.h tests/unit/*.[ch])
lint: $(BIN)
	clang-tidy $(SRCS) -- $(ALL_CFLAGS) $(shell $(MPICC) --showme:compile)
	cppcheck --quiet --enable=warning,performance,portability --error-exitcode=1 -I. $(SRCS)
clean:
	rm -rf $(BUILD)

-include $(PURE_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d)
