# collscope: one non-recursive Makefile.
#   make            build build/collscope
#   make run        install what is missing, build, run the main job on local ranks
#   make check      build and run every test (unit, MPI, command line, sanitizers, cluster, fuzzer,
#                   MPICH, Slurm): what judges no timing side by side, then the rest alone
#   make check-fast the fast tier: unit, command line, each command once under mpirun
#   make install PREFIX=/opt/collscope
#   make SANITIZE=address,undefined check     V=1 shows the full commands

VERSION  := 0.1.0
PREFIX   ?= /usr/local

# --- The MPI library: MPI=openmpi (the default) or MPI=mpich -------------------
# MPI=mpich builds against Debian's MPICH 4 with its own wrapper and runs the
# suites under its own mpiexec, never through the mpicc/mpirun alternatives
# (Open MPI's); its objects go to build-mpich/. The MPICH block at the end of
# this file has its packages and the mpich-test target of `make check`.
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
# MPIRUN=srun: its placement comes from the allocation, and it takes none of
# mpirun's flags (the suites' mpi() launches with -n, which all three take).
ifneq ($(filter srun%,$(notdir $(MPIRUN))),)
MPIRUN_FLAGS ?=
endif
# --- end of the MPI library block ----------------------------------------------

BUILD    ?= build
MPICC    ?= mpicc
CC       ?= cc
MPIRUN   ?= mpirun
NP       ?= 2
SANITIZE ?=

# What Open MPI needs on these machines, for this Makefile's own targets only:
# we may run as root (CI does), and more ranks than cores must not busy-spin.
MPIRUN_FLAGS ?= --oversubscribe --mca mpi_yield_when_idle 1
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
export MPIRUN MPIRUN_FLAGS
# Every suite adds "passed failed" to this file; check prints the total last.
export COLLSCOPE_TALLY := $(abspath $(BUILD))/test-tally

DEB_PKGS := libopenmpi-dev openmpi-bin libhwloc-dev libcjson-dev libcriterion-dev libsodium-dev \
            pkg-config iproute2 python3

# Deferred (=) so that pkg-config is asked after `deps` has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags libcjson hwloc libsodium 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs libcjson hwloc libsodium 2>/dev/null)
CRIT_FLAGS = $(shell pkg-config --cflags --libs criterion 2>/dev/null)

WARN   := -std=c17 -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wwrite-strings
OPT    ?= -O2 -g
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
CPPFLAGS += -D_GNU_SOURCE -I. -I$(BUILD)
ALL_CFLAGS = $(WARN) $(OPT) $(SANFLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
LIBS   = $(PKG_LIBS) -lm

ifneq ($(V),1)
Q := @
QUIET = @printf '  %-6s %s\n' $(1) $(2);
endif

# Sources by wildcard. A source that includes <mpi.h> (first, by itself) is
# compiled with mpicc; every other source is the pure core, compiled with
# plain cc (so a stray MPI include there fails the build) and linked into the
# unit tests too: the option tables of cmd/ among them.
SRCS      := $(wildcard cmd/*.c cmd/*/*.c algorithms/*.c probes/*.c reports/*/*.c)
MPI_SRCS  := $(shell grep -l '^\#include <mpi.h>' $(SRCS) 2>/dev/null)
PURE_SRCS := $(filter-out $(MPI_SRCS) cmd/main.c,$(SRCS))
CMD_SRCS  := $(filter-out $(PURE_SRCS),$(SRCS))
# (PURE_BUILD: where the pure objects are; the MPICH build takes Open MPI's,
# the same files from the same flags, and compiles only what includes mpi.h.)
PURE_BUILD ?= $(BUILD)
PURE_OBJS := $(PURE_SRCS:%.c=$(PURE_BUILD)/%.o)
CMD_OBJS  := $(CMD_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/collscope
UNIT_BIN := $(BUILD)/tests/unit-tests
# make check's two phases: each block below adds its suites (see check),
# and what they need built, which is built on every core before they run.
CHECK_SIDE_BY_SIDE :=
CHECK_ALONE :=
CHECK_BUILDS := $(BIN) $(UNIT_BIN)

.PHONY: all deps run bench check check-fast check-build check-side-by-side check-alone sanitize-test tally-reset unit-test mpi-test cli-test fast-mpi-test cluster-test install clean format lint version-stamp
all: $(BIN)

# apt-get update once for all the installs of a make check (or of any 30
# minutes): each install below asked again, 5 to 10 s each on a new machine.
APT_STAMP  := /tmp/collscope-apt-updated
APT_UPDATE = { [ -n "$$(find $(APT_STAMP) -mmin -30 2>/dev/null)" ] || \
	{ apt-get update -q && touch $(APT_STAMP); }; }

# Look for the toolchain and libraries; on a Debian machine where we are root,
# install what is missing, otherwise say exactly what is missing and stop.
deps:
	$(Q)missing=""; \
	for t in mpicc mpirun pkg-config ip tc python3; do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	for m in hwloc libcjson criterion libsodium; do pkg-config --exists $$m 2>/dev/null || missing="$$missing pkg-config:$$m"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "deps: missing$$missing: installing $(DEB_PKGS)"; \
		$(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(DEB_PKGS) || exit 5; \
	else \
		echo "deps: missing$$missing"; \
		echo "deps: install the Debian packages $(DEB_PKGS)"; \
		echo "deps: (or load the modules that provide mpicc, mpirun and the pkg-config files of hwloc, libcjson, criterion)"; \
		exit 1; \
	fi

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

# The reduction kernels: -O3 vectorises loops of unknown length (-O2's cheap
# cost model leaves them scalar: 30x slower for float32 here).
$(BUILD)/algorithms/dtype.o: OPT := -O3 -g

$(UNIT_OBJS): $(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(call QUIET,CC,$<)$(CC) $(ALL_CFLAGS) -Itests/unit -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJS) $(PURE_OBJS)
	$(call QUIET,LINK,$@)$(CC) $(SANFLAGS) -o $@ $^ $(CRIT_FLAGS) $(LIBS)

# Oversubscription flags only when there are more ranks than cores: yielding
# when idle costs latency that a run with a core per rank should not pay.
NPROC := $(shell nproc 2>/dev/null || echo 1)
RUN_FLAGS = $(if $(shell [ $(NP) -gt $(NPROC) ] && echo over),$(MPIRUN_FLAGS))
# Performance, side by side in one run (not part of check): every variant
# against MPI_Allreduce at 2 ranks and 4 oversubscribed, beside memcpy and
# point-to-point bandwidth and the memory floor, each run measuring the
# all-reduce and then its limits; medians over BENCH_REPEATS runs of every
# ratio taken within a run; then across hosts on a virtual cluster whose links
# are shaped to BENCH_VC_RATE (root only; BENCH_CLUSTER=0 leaves it out);
# bench/results.json.
BENCH_REPEATS ?= 5
BENCH_CLUSTER ?= 1
BENCH_VC_RATE ?= 1gbit
bench: $(BIN) $(BUILD)/bench/membw
	$(Q)BENCH_CLUSTER=$(BENCH_CLUSTER) BENCH_VC_RATE=$(BENCH_VC_RATE) python3 tests/bench/bench.py \
		$(BIN) $(BUILD)/bench/membw --repeats $(BENCH_REPEATS) --out bench/results.json

# make check builds the bench's tools, so that they cannot rot between benches.
.PHONY: bench-build
bench-build: $(BIN) $(BUILD)/bench/membw
	$(Q)python3 tests/bench/bench.py $(BIN) $(BUILD)/bench/membw --build-only && echo "bench-build: the bench's tools build"
CHECK_SIDE_BY_SIDE += bench-build
CHECK_BUILDS += $(BUILD)/bench/membw

$(BUILD)/bench/membw: tests/bench/membw.c
	@mkdir -p $(dir $@)
	$(call QUIET,CC,$<)$(CC) -std=c17 -O2 -Wall -Wextra -pthread -o $@ $<

run: $(BIN)
	$(Q)out=$(BUILD)/report-$$(date -u +%Y%m%dT%H%M%SZ).json; \
	$(MPIRUN) $(RUN_FLAGS) -np $(NP) $(BIN) allreduce -o $$out && \
	$(BIN) report -o $${out%.json}.html $$out && echo "report: $$out and $${out%.json}.html"

# The binary and the unit tests are built on every core first.
check-build: | deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(BIN) $(UNIT_BIN)

# make check builds everything on every core (CHECK_BUILDS), then runs every
# suite in two phases (the lists are complete at the end of this file, where
# each block has added its own):
# - CHECK_SIDE_BY_SIDE: the unit, sanitizer and command-line suites, the
#   fuzzer, the bench's tools and the watchdog's suite, CHECK_JOBS at once,
#   each one's output printed whole when it ends: none judges a speed, and
#   none but the watchdog's runs MPI jobs.
# - CHECK_ALONE: the MPI suites, one after the other on a machine that runs
#   nothing else of ours: first those that judge results (they run slowest
#   beside other work: see suite/mpi/reliability below), then those whose
#   verdicts compare timings (compare's real re-runs, links' and accept's
#   measurements, --timing's stragglers), then the virtual cluster's.
# Every suite runs even when one before it failed; check fails if any did.
CHECK_JOBS ?= 3
# What the suites install (each block adds its own), one after the other
# before anything runs: two apt-gets at once would fight over dpkg's lock.
CHECK_DEPS := deps
.PHONY: check-deps
check-deps:
	$(Q)for d in $(CHECK_DEPS); do $(MAKE) --no-print-directory $$d || exit 5; done
check: tally-reset check-deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(CHECK_BUILDS)
	$(Q)t0=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget check-side-by-side; a=$$?; \
	t1=$$(date +%s); $(MAKE) --no-print-directory -k check-alone; b=$$?; t2=$$(date +%s); \
	echo "check: side by side $$((t1 - t0)) s, alone $$((t2 - t1)) s"; $(call TALLY_SUM,check); \
	[ $$a = 0 ] && [ $$b = 0 ]

# The tier for an edit-test loop: unit tests, the command line, and each
# measuring command once at 1-3 ranks (tests/fast), side by side; no
# sanitizers, cluster or fuzzer. make check runs all of it and more.
check-fast: tally-reset check-build
	$(Q)$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget unit-test $(CLI_SUITES) fast-mpi-test; \
	rc=$$?; $(call TALLY_SUM,check-fast); exit $$rc

# RUN_SUITE SCRIPT BINARY [what the title adds]: one suite script, framed
# by its name and its time.
RUN_SUITE = echo "== $(1)$(3)"; t0=$$(date +%s); bash $(1) $(2); rc=$$?; \
	echo "== $(1)$(3): $$(($$(date +%s) - t0)) s"; exit $$rc
# RUN_SUITES SCRIPTS BINARY [title] [shell words before each]: every script,
# each in a subshell of its own, even after one failed; fails if any did.
RUN_SUITES = rc=0; for t in $(1); do ( $(4) $(call RUN_SUITE,$$t,$(2),$(3)) ) || rc=1; done; exit $$rc
# TALLY_SUM NAME: the last line of a run, every suite's counts added up.
TALLY_SUM = awk '{p += $$1; f += $$2} END {printf "$(1): %d passed, %d failed\n", p, f}' $(COLLSCOPE_TALLY)

fast-mpi-test: $(BIN)
	$(Q)$(call RUN_SUITE,tests/fast/mpi.sh,$(BIN))

tally-reset:
	@mkdir -p $(BUILD) && : > $(COLLSCOPE_TALLY)

# Criterion's own summary, and its counts into the tally. Criterion links
# libgit2, whose start-up parses the system's CA bundle (220 KB of PEM) in
# each of the 742 processes of a run, a process per test: a fifth of the
# unit tests' CPU, and a third under ASan. No test opens a connection: as
# root they run in a mount namespace of their own that sees the bundle empty.
CA_BUNDLE := /etc/ssl/certs/ca-certificates.crt
RUN_UNIT = if [ "$$(id -u)" = 0 ] && [ -f $(CA_BUNDLE) ] && unshare --mount true 2>/dev/null; then \
		unshare --mount sh -c 'mount --bind /dev/null $(CA_BUNDLE) 2>/dev/null; exec "$$0" --jobs 2' $(1); \
	else $(1) --jobs 2; fi >$(1).log 2>&1; rc=$$?; cat $(1).log; \
	sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' $(1).log | \
	awk '{print $$1, $$2 + $$3}' >> $(COLLSCOPE_TALLY); exit $$rc

unit-test: $(UNIT_BIN)
	$(Q)$(call RUN_UNIT,$(UNIT_BIN))

# One target per suite script: suite/mpi/verify runs tests/mpi/verify.sh.
MPI_SUITES := $(patsubst tests/%.sh,suite/%,$(wildcard tests/mpi/*.sh))
CLI_SUITES := $(patsubst tests/%.sh,suite/%,$(wildcard tests/cli/*.sh))
# The MPI suites whose verdicts compare timings (see CHECK_ALONE).
MPI_TIMED  := suite/mpi/accept suite/mpi/compare_ci suite/mpi/links suite/mpi/timing
.PHONY: $(MPI_SUITES) $(CLI_SUITES)
$(MPI_SUITES) $(CLI_SUITES): suite/%: $(BIN)
	$(Q)$(call RUN_SUITE,tests/$*.sh,$(BIN))
# tests/cli/report.sh loads the page in Chromium
suite/cli/report: browser-deps
CHECK_SIDE_BY_SIDE += unit-test $(CLI_SUITES)

# The watchdog's suite waits out its timeouts: side by side. The other MPI
# suites run alone, before the timed ones: beside other work an MPI job's
# ranks wait a time slice for every message their peer sends from a shared
# core (verify took 61 s there, 22 alone), and their yield loops slow that
# work down as much.
CHECK_SIDE_BY_SIDE += suite/mpi/reliability
CHECK_ALONE += $(filter-out suite/mpi/reliability $(MPI_TIMED),$(MPI_SUITES)) mpich-test $(MPI_TIMED)

# Every script of a directory, one after the other, even after one fails; the
# target fails if any did.
mpi-test cli-test: $(BIN)
	$(Q)$(call RUN_SUITES,tests/$(@:-test=)/*.sh,$(BIN))

# Hosts as network namespaces (tests/cluster/vcluster.sh), Open MPI across them;
# needs root (ip, tc from iproute2), prints SKIP and passes otherwise.
CLUSTER_SUITES := suite/cluster/cluster suite/cluster/accept
.PHONY: $(CLUSTER_SUITES)
$(CLUSTER_SUITES): suite/%: $(BIN)
	$(Q)$(call RUN_SUITE,tests/$*.sh,$(BIN))
cluster-test: $(BIN)
	$(Q)$(call RUN_SUITES,$(CLUSTER_SUITES:suite/%=tests/%.sh),$(BIN))
CHECK_ALONE += $(CLUSTER_SUITES)

# Every fault class of links on the virtual cluster, with random culprits, and
# the confusion table (about 7 minutes; make check runs one class at random).
.PHONY: cluster-classes
cluster-classes: $(BIN)
	$(Q)bash tests/cluster/classes.sh $(BIN)

# --- How far to trust a verdict: the fault-injection campaign (issue 39) ---
# make campaign: DRAWS draws (default 200) of seed SEED (default 1) on the
# virtual cluster, about 15 s each (200: about an hour on 2 busy cores), the
# result in build/campaign/seed$(SEED).json (collscope report renders it) and
# its table printed; make campaign-results writes
# tests/cluster/CAMPAIGN_RESULTS.md from every result there (or from
# CAMPAIGN_RESULTS, a list of files). The smoke campaign (three draws, about
# 80 s) runs in make check's cluster phase and asserts floors, not timings.
SEED ?= 1
DRAWS ?= 200
.PHONY: campaign campaign-results suite/cluster/campaign
campaign: $(BIN)
	$(Q)mkdir -p $(BUILD)/campaign && \
	python3 tests/cluster/campaign_run.py --seed $(SEED) --draws $(DRAWS) --bin $(BIN) \
		-o $(BUILD)/campaign/seed$(SEED).json && \
	python3 tests/cluster/campaign.py table $(BUILD)/campaign/seed$(SEED).json
CAMPAIGN_RESULTS ?= $(wildcard $(BUILD)/campaign/seed*.json)
campaign-results:
	$(Q)python3 tests/cluster/campaign.py markdown $(CAMPAIGN_RESULTS) \
		>tests/cluster/CAMPAIGN_RESULTS.md.tmp && mv tests/cluster/CAMPAIGN_RESULTS.md.tmp tests/cluster/CAMPAIGN_RESULTS.md
suite/cluster/campaign: $(BIN)
	$(Q)$(call RUN_SUITE,tests/cluster/campaign.sh,$(BIN))
CHECK_ALONE += suite/cluster/campaign

# The unit tests and the command-line suites again, built with AddressSanitizer
# and UndefinedBehaviorSanitizer (any report fails them). Leak checking stays on
# for the unit tests; for the binary it is off, since Open MPI keeps memory
# until exit by design and its frames cannot be told apart from ours.
# (A make of its own for the build: on every core when run alone, on the
# job slots of make check's when run from there.) At -O0: the sanitizers
# check every access at any level, and -O2 made their build take 3x the CPU
# (73 s against 22 here) for unit tests that ran 10% faster (most of their
# time is a process per test).
SAN_BUILD := $(BUILD)/san
SAN_OPT   := -O0 -g
SAN_SUITES := tests/cli/basics.sh tests/cli/bad_input.sh
SUB_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))
.PHONY: san-build san-unit-test san-cli-test
san-build: | deps
	$(Q)$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(SAN_BUILD) SANITIZE=address,undefined \
		OPT='$(SAN_OPT)' $(SAN_BUILD)/collscope $(SAN_BUILD)/tests/unit-tests
san-unit-test: san-build
	$(Q)echo "== unit tests under ASan and UBSan"; $(call RUN_UNIT,$(SAN_BUILD)/tests/unit-tests)
san-cli-test: san-build
	$(Q)$(call RUN_SUITES,$(SAN_SUITES),$(SAN_BUILD)/collscope, under ASan and UBSan,export ASAN_OPTIONS=detect_leaks=0;)
sanitize-test: san-unit-test san-cli-test
CHECK_BUILDS += san-build
CHECK_SIDE_BY_SIDE += san-unit-test san-cli-test

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/collscope

format:
	clang-format -i $(SRCS) $(wildcard */*.h */*/*.h tests/unit/*.[ch])

lint: $(BIN)
	clang-tidy $(SRCS) -- $(ALL_CFLAGS) $(shell $(MPICC) --showme:compile)
	cppcheck --quiet --enable=warning,performance,portability --error-exitcode=1 -I. $(SRCS)

clean:
	rm -rf $(BUILD)

-include $(PURE_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d)

# --- Fuzzing the report reader (tests/fuzz): part of `make check` ---
# A libFuzzer target built with clang from the pure code that reads reports
# (reader, compare, HTML page) runs for FUZZ_SECONDS from the seeds in
# tests/fuzz/seeds; a crash, leak or sanitizer report fails the target and
# leaves the input in $(BUILD)/fuzz/, and so does an oracle that says no
# (tests/fuzz/fuzz_report_read.c: the page is collscope's markup with every
# string escaped, compare's tables hold no terminal control, the reader never
# runs out of memory on what its grammar pass accepted, the tree estimate
# bounds cJSON's allocations). An input may be a template that expands to
# megabytes ("#x COUNT" ... "@{" ITEM "@}"), so size-dependent paths are reached. clang and libFuzzer come from Debian:
# fuzz-deps installs them when they do not work and we are root with apt-get;
# otherwise fuzz-test is skipped with a message naming the packages.
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 25
FUZZ_DEB_PKGS := clang libclang-rt-dev
FUZZ_BIN      := $(BUILD)/fuzz/fuzz_report_read
FUZZ_SRCS     := tests/fuzz/fuzz_report_read.c tests/fuzz/page_check.c \
                 $(filter reports/io/report_read% reports/compare/compare% reports/render/html% reports/render/svg% \
                 reports/stats/stats.c reports/stats/compare_stats.c reports/io/report_io.c \
                 reports/render/report_text.c,$(PURE_SRCS))
FUZZ_FLAGS    := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
# Chromium loads the page of `collscope report` in tests/cli/report.sh.
BROWSER_DEB_PKGS := chromium

.PHONY: fuzz fuzz-build fuzz-test fuzz-deps browser-deps
CHECK_SIDE_BY_SIDE += fuzz-test
CHECK_DEPS += fuzz-deps
cli-test: browser-deps
CHECK_DEPS += browser-deps
fuzz: fuzz-test

# True when $(FUZZ_CC) can build and link a libFuzzer target.
FUZZ_PROBE = { printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	> $(BUILD)/fuzz/probe.c && $(FUZZ_CC) -fsanitize=fuzzer -o $(BUILD)/fuzz/probe $(BUILD)/fuzz/probe.c >/dev/null 2>&1; }

fuzz-deps:
	$(Q)mkdir -p $(BUILD)/fuzz; $(FUZZ_PROBE) && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "fuzz-deps: $(FUZZ_CC) cannot build a libFuzzer target: installing $(FUZZ_DEB_PKGS)"; \
		$(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(FUZZ_DEB_PKGS) || exit 5; \
	fi

$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard reports/*/*.h tests/fuzz/*.h) | deps
	@mkdir -p $(dir $@)
	$(call QUIET,FUZZCC,$@)$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) $(CPPFLAGS) -Itests/fuzz $(PKG_CFLAGS) -o $@ \
		$(FUZZ_SRCS) $$(pkg-config --libs libcjson) -lm

# The fuzzer, built when clang can build it (make check builds it with the rest).
fuzz-build: fuzz-deps
	$(Q)$(FUZZ_PROBE) || exit 0; $(MAKE) --no-print-directory $(FUZZ_BIN)
CHECK_BUILDS += fuzz-build

fuzz-test: fuzz-deps
	$(Q)if ! $(FUZZ_PROBE); then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "fuzz-test: FAILED: $(FUZZ_CC) cannot build a libFuzzer target even with $(FUZZ_DEB_PKGS) installed"; \
			exit 1; \
		fi; \
		echo "fuzz-test: SKIPPED: $(FUZZ_CC) cannot build a libFuzzer target (install the Debian packages $(FUZZ_DEB_PKGS), or run make check as root)"; \
		exit 0; \
	fi; \
	$(MAKE) --no-print-directory $(FUZZ_BIN) || exit 1; \
	mkdir -p $(BUILD)/fuzz/corpus; \
	echo "fuzz-test: $(FUZZ_BIN) for $(FUZZ_SECONDS) s"; \
	if $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
		-dict=tests/fuzz/report.dict -artifact_prefix=$(BUILD)/fuzz/ -print_final_stats=1 \
		$(BUILD)/fuzz/corpus tests/fuzz/seeds >$(BUILD)/fuzz/fuzz.log 2>&1; then \
		grep -E '^stat::(number_of_executed_units|peak_rss_mb)' $(BUILD)/fuzz/fuzz.log; \
		echo "fuzz-test: no crash, leak or sanitizer report"; \
	else \
		tail -n 60 $(BUILD)/fuzz/fuzz.log; \
		echo "fuzz-test: FAILED: the input is in $(BUILD)/fuzz/ (crash-*, leak-*, timeout-*)"; \
		exit 1; \
	fi

browser-deps:
	$(Q)if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "browser-deps: chromium not found: installing $(BROWSER_DEB_PKGS)"; \
		$(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BROWSER_DEB_PKGS) || exit 5; \
	else \
		echo "browser-deps: chromium not found and not root: tests/cli/report.sh skips the headless browser check (install the Debian package $(BROWSER_DEB_PKGS))"; \
	fi

# --- MPICH (MPI=mpich, tests/lib.sh): part of `make check` ---------------------
# mpich-test builds the binary against Debian's MPICH 4 into $(BUILD)-mpich/
# (a make of its own with MPI=mpich), checks that it saw MPICH's mpi.h and no
# other and links libmpich, then runs MPICH_SUITES under MPICH's mpiexec.
# `make MPI=mpich mpi-test` runs every MPI suite under MPICH instead.
# mpich-deps installs MPICH when its wrapper or launcher is missing and we are
# root with apt-get. Debian's MPICH also registers mpicc, mpirun and mpiexec
# as alternatives (priority 40, below Open MPI's 50): other builds on the
# machine use them, so each is pinned to what it was for the install and
# put back as it was (auto or manual) afterwards.
MPICH_DEB_PKGS   := libmpich-dev mpich
MPI_ALTERNATIVES := mpi mpirun mpi-x86_64-linux-gnu
MPICH_SUITES     ?= tests/mpi/topo.sh tests/mpi/verify.sh
# verify at 1-5 ranks: the whole matrix at 1 and 2, a quick one beyond (see verify.sh)
MPICH_SUITE_ENV  ?= VERIFY_RANKS='1 2 3 4 5' VERIFY_FULL_UPTO=2 VERIFY_QUICK=1
ifeq ($(MPI),mpich)
MPICH_BUILD := $(BUILD)
else
MPICH_BUILD := $(BUILD)-mpich
endif
MPICH_BIN := $(MPICH_BUILD)/collscope

.PHONY: mpich-deps mpich-build mpich-test

ifeq ($(MPI),mpich)
deps: mpich-deps
# MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which gcc takes for an
# array of size 0: a false -Wstringop-overflow on every MPI_Waitall.
$(CMD_OBJS): WARN += -Wno-stringop-overflow
endif

mpich-deps:
	$(Q)command -v $(MPICH_CC) >/dev/null 2>&1 && command -v $(MPICH_RUN) >/dev/null 2>&1 && exit 0; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
		echo "mpich-deps: $(MPICH_CC) or $(MPICH_RUN) not found and not root: mpich-test skips"; \
		echo "mpich-deps: (install the Debian packages $(MPICH_DEB_PKGS), or name MPICH's wrapper and launcher: MPICH_CC=mpicc MPICH_RUN=mpiexec)"; \
		exit 0; \
	fi; \
	echo "mpich-deps: $(MPICH_CC) or $(MPICH_RUN) not found: installing $(MPICH_DEB_PKGS)"; \
	was=""; for a in $(MPI_ALTERNATIVES); do \
		q=$$(update-alternatives --query $$a 2>/dev/null) || continue; \
		v=$$(echo "$$q" | sed -n 's/^Value: //p'); m=$$(echo "$$q" | sed -n 's/^Status: //p'); \
		[ -n "$$v" ] || continue; update-alternatives --set $$a $$v >/dev/null && was="$$was $$a:$$m:$$v"; \
	done; \
	$(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(MPICH_DEB_PKGS); rc=$$?; \
	for e in $$was; do a=$${e%%:*}; v=$${e##*:}; m=$${e#*:}; m=$${m%%:*}; \
		[ "$$m" = auto ] && update-alternatives --auto $$a >/dev/null; \
		now=$$(update-alternatives --query $$a | sed -n 's/^Value: //p'); \
		if [ "$$now" != "$$v" ]; then echo "mpich-deps: $$a is $$now after the install: back to $$v"; \
			update-alternatives --set $$a $$v; fi; \
	done; \
	[ $$rc = 0 ] || exit 5

# The binary against MPICH, by a make of its own (its objects, flags and wrapper).
MPICH_THERE = command -v $(MPICH_CC) >/dev/null 2>&1 && command -v $(MPICH_RUN) >/dev/null 2>&1
CHECK_DEPS += mpich-deps
CHECK_BUILDS += mpich-build
mpich-build: mpich-deps $(if $(filter openmpi,$(MPI)),$(PURE_OBJS))
	$(Q)$(MPICH_THERE) || exit 0; \
	$(MAKE) --no-print-directory $(SUB_JOBS) MPI=mpich BUILD=$(MPICH_BUILD) \
		$(if $(filter openmpi,$(MPI)),PURE_BUILD=$(PURE_BUILD)) $(MPICH_BIN)

# The check that the MPICH build saw MPICH alone, then MPICH_SUITES under
# MPICH's mpiexec, even after a failure.
mpich-test: mpich-build
	$(Q)if ! $(MPICH_THERE); then echo "mpich-test: SKIPPED: no $(MPICH_CC) or $(MPICH_RUN)"; exit 0; fi; \
	rc=0; mkdir -p $(dir $(COLLSCOPE_TALLY)); bad=$$(grep -l '/openmpi/' $$(find $(MPICH_BUILD) -name '*.d')); \
	if [ -z "$$bad" ] && grep -q '/mpich/mpi\.h' $(MPICH_BUILD)/cmd/main.d && \
		ldd $(MPICH_BIN) | grep -q 'libmpich\.so' && ! ldd $(MPICH_BIN) | grep -q 'libmpi\.so'; then \
		echo "mpich-test: $(MPICH_BIN): MPICH's mpi.h only, linked with libmpich"; echo "1 0" >> $(COLLSCOPE_TALLY); \
	else \
		echo "mpich-test: FAILED: $(MPICH_BIN) saw Open MPI's headers ($$bad) or is not linked with libmpich alone"; \
		echo "0 1" >> $(COLLSCOPE_TALLY); rc=1; \
	fi; \
	( $(call RUN_SUITES,$(MPICH_SUITES),$(MPICH_BIN), under MPICH,export $(MPICH_SUITE_ENV) \
		COLLSCOPE_MPI=mpich MPIRUN=$(MPICH_RUN) MPIRUN_FLAGS=;) ) || rc=1; exit $$rc

# --- Slurm on the virtual cluster (tests/cluster/cluster_slurm.sh, slurm.sh) ---
# slurm-test brings up slurmctld and a slurmd per namespace host (auth/none:
# no munged) and runs collscope under srun, salloc and sbatch there, with the
# Open MPI and the MPICH binary; as root only (it prints SKIP otherwise).
# slurm-deps installs Debian's Slurm when srun is missing and we are root
# with apt-get, without starting its daemons (or munged) on the machine: a
# policy-rc.d refuses every start for the install, unless one is there.
SLURM_DEB_PKGS := slurmctld slurmd slurm-client

# SLURM=0 leaves it out of check (about 45 s of it here).
.PHONY: slurm-deps slurm-test
ifneq ($(SLURM),0)
CHECK_ALONE += slurm-test
CHECK_DEPS += slurm-deps
endif

slurm-deps:
	$(Q)command -v srun >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && \
		command -v slurmctld >/dev/null 2>&1 && exit 0; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
		echo "slurm-deps: Slurm not found and not root: tests/cluster/cluster_slurm.sh skips (install the Debian packages $(SLURM_DEB_PKGS))"; \
		exit 0; \
	fi; \
	echo "slurm-deps: Slurm not found: installing $(SLURM_DEB_PKGS), starting no daemon"; \
	policy=/usr/sbin/policy-rc.d; ours=""; \
	if [ ! -e $$policy ]; then printf '#!/bin/sh\nexit 101\n' > $$policy && chmod 755 $$policy && ours=1; fi; \
	$(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(SLURM_DEB_PKGS); rc=$$?; \
	[ -n "$$ours" ] && rm -f $$policy; \
	[ $$rc = 0 ] || exit 5

slurm-test: $(BIN) slurm-deps mpich-build
	$(Q)$(call RUN_SUITE,tests/cluster/cluster_slurm.sh,$(BIN) $$([ -x $(MPICH_BIN) ] && echo $(MPICH_BIN)))

# --- the two phases of make check (see CHECK_SIDE_BY_SIDE above) ----------------
# The longest first, so that they start at once.
CHECK_FIRST := san-unit-test suite/mpi/reliability fuzz-test
check-side-by-side: $(foreach t,$(CHECK_FIRST),$(filter $(t),$(CHECK_SIDE_BY_SIDE))) \
	$(filter-out $(CHECK_FIRST),$(CHECK_SIDE_BY_SIDE))
check-alone: $(CHECK_ALONE)
