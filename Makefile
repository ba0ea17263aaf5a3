# gpushare - plain Makefile. `make`, `make check`, `make install`.
.SUFFIXES:

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
PROFILESDIR ?= $(DATADIR)/gpushare/profiles
DESTDIR ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN = -Wall -Wextra -Wpedantic -Werror
# COIN-OR CBC solves the optimiser's programs (lib/plan/milp.c, its one seam).
DEPS_CFLAGS = $(shell $(PKG_CONFIG) --cflags yaml-0.1 libcjson cbc)
# The planner builds on both cores (lib/plan/fork.c).
DEPS_LIBS = $(shell $(PKG_CONFIG) --libs yaml-0.1 libcjson cbc) -pthread
RL_LIBS = $(shell $(PKG_CONFIG) --libs readline 2>/dev/null || echo -lreadline)
# libcurl is the CLI's alone (--prometheus, cli/prom_http.c): the library
# never opens a socket. The CLI loads it when it first reads a URL, so it
# builds against curl's header and links only the loader.
CURL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libcurl)
CURL_LIBS = -ldl
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BASE_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(DEPS_CFLAGS) -pthread -MMD -MP \
	-DGS_PROFILES_DIR='"$(PROFILESDIR)"'
# The library sees its own folders; the CLI sees the public header and its
# own headers only, so a private include there fails to compile.
LIB_CFLAGS = $(BASE_CFLAGS) -Iinclude -Ilib -fvisibility=hidden
CLI_CFLAGS = $(BASE_CFLAGS) $(CURL_CFLAGS) -Iinclude -Icli
# Unit tests and fuzzers exercise internals too.
ALL_CFLAGS = $(LIB_CFLAGS)

LIB_SRC = $(sort $(wildcard lib/*.c lib/*/*.c))
CLI_SRC = $(sort $(wildcard cli/*.c cli/*/*.c))
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))

# Two builds of everything: release in build/, sanitized (for tests) in
# build/san/.
LIB_OBJ = $(LIB_SRC:%.c=build/%.o)
CLI_OBJ = $(CLI_SRC:%.c=build/%.o)
SLIB_OBJ = $(LIB_SRC:%.c=build/san/%.o)
VLIB_OBJ = $(LIB_SRC:%.c=build/vg/%.o)
VCLI_OBJ = $(CLI_SRC:%.c=build/vg/%.o)
# Which tests run under valgrind as well: those that run lines no cheaper
# test runs (tests/valgrind/choose.py says how; choose.sh writes the
# lists). Every test runs under ASan and UBSan; a unit test in neither
# list is new and runs under valgrind too. tests/jobs.sh starts the
# slowest first, by tests/valgrind/costs.
vg_list = $(shell grep '^[a-z]' tests/valgrind/$(1))
VUNIT_KEEP = $(call vg_list,units)
VUNIT_BIN = $(addprefix build/vg/tests/,$(VUNIT_KEEP) $(filter-out \
	$(VUNIT_KEEP) $(call vg_list,skip-units),$(UNIT_SRC:tests/unit/%.c=%)))
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN = $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FLIB_OBJ = $(LIB_SRC:%.c=build/fuzz/%.o)
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = $(STD) $(WARN) -g -O1 $(DEPS_CFLAGS) -pthread -Iinclude -Ilib -MMD -MP \
	-fsanitize=fuzzer-no-link,address,undefined
SCLI_OBJ = $(CLI_SRC:%.c=build/san/%.o)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=build/san/tests/%)

ifeq ($(V),1)
Q =
else
Q = @
endif

all: libgpushare.a libgpushare.so gpushare gpushare.pc

# Which include path a source gets depends on its layer.
SRC_CFLAGS = $(if $(filter cli/%,$<),$(CLI_CFLAGS),$(LIB_CFLAGS))

build/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(SRC_CFLAGS) -fPIC -c $< -o $@

build/san/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC san  $<")
	$(Q)$(CC) $(SRC_CFLAGS) -O1 -g $(SAN) -c $< -o $@

# Plain builds for valgrind, which cannot run sanitized binaries.
build/vg/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC vg   $<")
	$(Q)$(CC) $(SRC_CFLAGS) -O1 -g -c $< -o $@

build/vg/libgpushare.a: $(VLIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $(VLIB_OBJ)

build/vg/gpushare: $(VCLI_OBJ) build/vg/libgpushare.a
	$(Q)$(CC) -o $@ $(VCLI_OBJ) build/vg/libgpushare.a $(DEPS_LIBS) $(RL_LIBS) $(CURL_LIBS) -lm

build/vg/tests/%: tests/unit/%.c tests/unit/testutil.h build/vg/libgpushare.a
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -O1 -g -Itests/unit -o $@ $< build/vg/libgpushare.a \
	    $(DEPS_LIBS) $(CMOCKA_LIBS) -lm

# --read-inline-info=no: a report names the function, not the inlined one
# within it; it takes 8 % off each of the goldens' 400 starts.
VALGRIND = valgrind -q --error-exitcode=97 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --child-silent-after-fork=yes \
	--read-inline-info=no

# The test jobs (tests/jobs.sh) and what they run.
JOBS = UNIT_BIN='$(UNIT_BIN)' VUNIT_BIN='$(VUNIT_BIN)' FUZZ_BIN='$(FUZZ_BIN)' \
	SAN_BIN=build/san/gpushare VG_BIN=build/vg/gpushare VALGRIND='$(VALGRIND)' \
	sh tests/jobs.sh

# For tests/valgrind/choose.sh --measure.
print-valgrind:
	@echo '$(VALGRIND)'

check-valgrind: $(VUNIT_BIN) build/vg/gpushare
	@$(JOBS) vg

# libFuzzer harnesses (tests/fuzz/README.md), built with clang.
build/fuzz/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC fuzz $<")
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@

build/fuzz/libgpushare.a: $(FLIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $(FLIB_OBJ)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c build/fuzz/libgpushare.a
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< build/fuzz/libgpushare.a \
	    $(DEPS_LIBS) -lm

fuzz: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# What CI affords on every change: three seconds per harness.
fuzz-smoke: $(FUZZ_BIN)
	@$(JOBS) fuzz

libgpushare.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $(LIB_OBJ)

libgpushare.so: $(LIB_OBJ)
	$(Q)$(CC) -shared -Wl,-soname,libgpushare.so.0 $(LDFLAGS) -o $@ $(LIB_OBJ) $(DEPS_LIBS)

gpushare: $(CLI_OBJ) libgpushare.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) libgpushare.a $(DEPS_LIBS) $(RL_LIBS) $(CURL_LIBS) -lm

gpushare.pc: gpushare.pc.in Makefile
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    gpushare.pc.in > $@

build/san/libgpushare.a: $(SLIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $(SLIB_OBJ)

build/san/gpushare: $(SCLI_OBJ) build/san/libgpushare.a
	$(Q)$(CC) $(SAN) -o $@ $(SCLI_OBJ) build/san/libgpushare.a $(DEPS_LIBS) $(RL_LIBS) \
	    $(CURL_LIBS) -lm

build/san/tests/%: tests/unit/%.c tests/unit/testutil.h build/san/libgpushare.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -O1 -g $(SAN) -Itests/unit -o $@ $< build/san/libgpushare.a \
	    $(DEPS_LIBS) $(CMOCKA_LIBS) -lm

# The public header must stand alone under the strictest flags.
build/header-check.o: include/gpushare.h
	@mkdir -p $(@D)
	$(Q)printf '#include "gpushare.h"\nint main(void) { return 0; }\n' | \
	    $(CC) $(STD) $(WARN) -Iinclude -x c -c - -o $@

deps:
	@sh tests/deps.sh run

deps-check:
	@sh tests/deps.sh check

# The README's first command: the main job on the shipped example.
demo: deps
	@$(MAKE) -s all
	./gpushare plan examples/workloads.yaml

check: deps-check
	@# Everything is built first, two compilers at a time.
	@$(MAKE) -s -j2 check-build
	@$(MAKE) -s check-run

check-build: build/header-check.o $(UNIT_BIN) build/san/gpushare all $(VUNIT_BIN) \
	build/vg/gpushare $(FUZZ_BIN)

# Every test, sanitized, under valgrind and fuzzed, two at a time
# (tests/jobs.sh).
check-run: check-build
	@sh tests/tree/width.sh
	@python3 tests/tree/layers.py
	@sh tests/tree/symbols.sh
	@sh tests/jobs_test.sh
	@$(JOBS) san vg fuzz

# The planner benchmark (tests/bench/README.md): release flags, not sanitized.
build/bench/bench: tests/bench/bench.c libgpushare.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -O2 -o $@ tests/bench/bench.c libgpushare.a $(DEPS_LIBS) -lm

build/bench/import_gen: tests/bench/import_gen.c libgpushare.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -O2 -o $@ tests/bench/import_gen.c libgpushare.a $(DEPS_LIBS) -lm

build/bench/import_big: tests/bench/import_big.c tests/bench/rng.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(STD) $(WARN) -O2 -o $@ tests/bench/import_big.c

# Plan quality against optimum.py (OPTIMUM_DIR, default ../shared/tools/bench)
# and FFD, and the speed of 'gpushare plan --format json' at scale.
QUALITY_CLASSES = ts,hetero,mig,varied,migx
QUALITY_SIZES = 20,40,80
QUALITY_SEEDS = 10
SCALE_SIZES = 1000,10000,100000,1000000
SCALE_PINNED_SIZES = 1000,10000,100000
# fleet.py's other classes at 10^6, robust, against the same target.
SCALE_CLASSES = ts,hetero,varied,mig,migx
SCALE_CLASS_SIZES = 1000000
SCALE_TIMEOUT = 120
# Sizes counted in instructions too (callgrind): a figure no machine moves.
SCALE_INSTRUCTIONS = 100000

bench: build/bench/bench build/bench/import_gen build/bench/import_big gpushare
	./build/bench/bench $(BENCH_SIZES)
	@$(MAKE) -s bench-quality bench-scale
	./build/bench/import_gen
	./build/bench/import_big $(IMPORT_BIG)

bench-quality: gpushare
	python3 tests/bench/quality.py --classes $(QUALITY_CLASSES) --sizes $(QUALITY_SIZES) \
	    --seeds $(QUALITY_SEEDS)

bench-scale: gpushare
	python3 tests/bench/scale.py --sizes $(SCALE_SIZES) --timeout $(SCALE_TIMEOUT) \
	    --instructions $(SCALE_INSTRUCTIONS)
	python3 tests/bench/scale.py --sizes $(SCALE_PINNED_SIZES) --timeout $(SCALE_TIMEOUT) \
	    --placement pinned --instructions $(SCALE_INSTRUCTIONS)
	python3 tests/bench/scale.py --classes $(SCALE_CLASSES) --sizes $(SCALE_CLASS_SIZES) \
	    --timeout $(SCALE_TIMEOUT) --no-ffd

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	    $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	    $(DESTDIR)$(PROFILESDIR)/gpus $(DESTDIR)$(PROFILESDIR)/instances
	cp gpushare $(DESTDIR)$(BINDIR)/gpushare
	cp libgpushare.a $(DESTDIR)$(LIBDIR)/libgpushare.a
	cp libgpushare.so $(DESTDIR)$(LIBDIR)/libgpushare.so.0
	ln -sf libgpushare.so.0 $(DESTDIR)$(LIBDIR)/libgpushare.so
	cp include/gpushare.h $(DESTDIR)$(INCLUDEDIR)/gpushare.h
	cp gpushare.pc $(DESTDIR)$(LIBDIR)/pkgconfig/gpushare.pc
	for m in man/*.1; do cp $$m $(DESTDIR)$(MANDIR)/man1/; done
	for m in man/*.5; do [ -e "$$m" ] && cp $$m $(DESTDIR)$(MANDIR)/man5/ || true; done
	cp profiles/gpus/*.yaml $(DESTDIR)$(PROFILESDIR)/gpus/
	cp profiles/instances/*.yaml $(DESTDIR)$(PROFILESDIR)/instances/
	cp profiles/retention.yaml $(DESTDIR)$(PROFILESDIR)/retention.yaml
	mkdir -p $(DESTDIR)$(DATADIR)/bash-completion/completions \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions
	./gpushare completion bash > $(DESTDIR)$(DATADIR)/bash-completion/completions/gpushare
	./gpushare completion zsh > $(DESTDIR)$(DATADIR)/zsh/site-functions/_gpushare

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpushare $(DESTDIR)$(LIBDIR)/libgpushare.a \
	    $(DESTDIR)$(LIBDIR)/libgpushare.so.0 $(DESTDIR)$(LIBDIR)/libgpushare.so \
	    $(DESTDIR)$(INCLUDEDIR)/gpushare.h $(DESTDIR)$(LIBDIR)/pkgconfig/gpushare.pc
	for m in man/*.1; do rm -f $(DESTDIR)$(MANDIR)/man1/$${m#man/}; done
	for m in man/*.5; do rm -f $(DESTDIR)$(MANDIR)/man5/$${m#man/}; done
	rm -f $(DESTDIR)$(DATADIR)/bash-completion/completions/gpushare \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions/_gpushare
	for f in profiles/gpus/*.yaml profiles/instances/*.yaml profiles/retention.yaml; do \
	    rm -f $(DESTDIR)$(PROFILESDIR)/$${f#profiles/}; done
	-rmdir $(DESTDIR)$(PROFILESDIR)/gpus $(DESTDIR)$(PROFILESDIR)/instances \
	    $(DESTDIR)$(PROFILESDIR) $(DESTDIR)$(DATADIR)/gpushare 2>/dev/null

# A source tarball that builds from scratch (tests/dist.sh checks it).
VERSION = $(shell sed -n 's/^\#define GS_VERSION "\(.*\)"/\1/p' include/gpushare.h)
DIST = gpushare-$(VERSION)
dist:
	@rm -rf build/dist && mkdir -p build/dist/$(DIST)
	@(git ls-files 2>/dev/null || find Makefile gpushare.pc.in README.md .gitignore .ci \
	    include lib cli profiles examples man tests -type f) | \
	    grep -v '^build/' | tar -cf - -T - | tar -xf - -C build/dist/$(DIST)
	@tar -czf $(DIST).tar.gz -C build/dist $(DIST)
	@echo "$(DIST).tar.gz"

# clang-format over the named files (the style of .clang-format), e.g.
# make format FILES="lib/plan/pack.c".
format:
	@test -n "$(FILES)" || { echo 'usage: make format FILES="a.c b.h"'; exit 2; }
	clang-format -i $(FILES)

clean:
	rm -rf build gpushare libgpushare.a libgpushare.so gpushare.pc gpushare-*.tar.gz

.PHONY: all deps deps-check demo check check-build check-run check-valgrind print-valgrind \
	fuzz fuzz-smoke \
	bench dist install uninstall format clean bench-quality bench-scale

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SLIB_OBJ:.o=.d) $(SCLI_OBJ:.o=.d) \
    $(VLIB_OBJ:.o=.d) $(VCLI_OBJ:.o=.d) $(FLIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)
