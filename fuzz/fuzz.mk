# fuzz/fuzz.mk — libFuzzer harnesses, included by the top Makefile.
#
#   make fuzz-build                 build every harness into build-fuzz/fuzz_<name>
#   make fuzz                       the same (FUZZ_SECONDS unset: build only)
#   make fuzz FUZZ_SECONDS=600      build, then run each harness 600 s on a copy
#                                   of its seed corpus (the release run); the
#                                   table of executions and findings is printed
#                                   and written to build-fuzz/fuzz-stats.md
#
# Every harness is fuzz/fuzz_<name>.c, its seeds fuzz/corpus/<name>/, its
# dictionary fuzz/<name>.dict when there is one. The project's libraries are
# rebuilt with clang (Debian's clang 14; libFuzzer comes from
# libclang-rt-14-dev) under AddressSanitizer, UndefinedBehaviorSanitizer,
# GM_VERIFY and libFuzzer's coverage instrumentation into build-fuzz/, and
# linked with fuzz/alloc_shim.c instead of jemalloc so ASan sees gm_alloc
# blocks. tests/integration/fuzz_smoke.sh runs a short round as part of
# `make test`.

FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?=
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -march=x86-64-v3 -fno-omit-frame-pointer -I. -MMD -MP -DGM_VERIFY_ON \
                $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Wall -Wno-unused-function $(PKGS_CFLAGS)
# What the harnesses link: the parsers' folders only (not mpi/, gpu/, study/,
# cli/), so a folder being written elsewhere cannot break the fuzz build.
FUZZ_NEED    := jobs params circuits snarkjs groth16 gpu synth/porep synth ec ntt topo ff base
FUZZ_LIBDIRS := $(filter $(FUZZ_NEED),$(PRESENT))
FUZZ_LIBDIRS := $(if $(filter jobs,$(FUZZ_LIBDIRS)),,$(if $(wildcard jobs/*.c),jobs)) $(FUZZ_LIBDIRS)
FUZZ_LDLIBS  := $(filter-out -ljemalloc -lmpi -lcudart_static -lstdc++ -L%,$(LDLIBS)) -lstdc++

fuzz_libname  = $(FUZZ_BUILD)/lib$(subst /,_,$(1)).a
FUZZ_LIBS    := $(foreach d,$(FUZZ_LIBDIRS),$(call fuzz_libname,$(d)))
FUZZ_NAMES   := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS    := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_NAMES))
FUZZ_COMMON  := $(FUZZ_BUILD)/fuzz/util.o $(FUZZ_BUILD)/fuzz/alloc_shim.o

.PHONY: fuzz fuzz-build fuzz-clean
fuzz: fuzz-build
ifneq ($(FUZZ_SECONDS),)
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_KEEP_CORPUS=1 sh fuzz/run.sh
endif

fuzz-build: $(FUZZ_BINS)

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_FILE_CFLAGS) -c $< -o $@

# gpu/'s host emulation (C++), linked because groth16/'s backends reach it;
# gpu/*.c are built without GM_HAVE_CUDA, so no CUDA code is involved. The
# harnesses link with clang (C), so UBSan's C++-only checks, vptr and function
# (indirect calls, e.g. gpu_emu.cc's calls of ff/'s products), which need
# clang++'s runtime, are left out.
FUZZ_CXX      ?= clang++
FUZZ_CXXFLAGS := -std=gnu++17 -O1 -g -march=x86-64-v3 -fno-omit-frame-pointer -I. -MMD -MP $(FUZZ_SAN) \
                 -fno-sanitize=vptr,function -fsanitize=fuzzer-no-link -Wall
$(FUZZ_BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c $< -o $@

# The MULX/ADX kernels are inline assembly that needs every register: under
# ASan/UBSan clang runs out of them, so this one file is built without
# sanitizers (it is fixed-size arithmetic on the caller's limbs; the portable
# path and everything that parses input stay instrumented).
$(FUZZ_BUILD)/ff/mont_adx.o: FUZZ_FILE_CFLAGS := -fno-sanitize=all -fomit-frame-pointer

define fuzz_lib_rule
$(call fuzz_libname,$(1)): $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(wildcard $(1)/*.c)) \
                           $(patsubst %.cc,$(FUZZ_BUILD)/%.o,$(wildcard $(1)/*.cc))
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach d,$(FUZZ_LIBDIRS),$(eval $(call fuzz_lib_rule,$(d))))

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_COMMON) $(FUZZ_LIBS)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) $< $(FUZZ_COMMON) $(FUZZ_LIBS) $(FUZZ_LDLIBS) -o $@

-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
