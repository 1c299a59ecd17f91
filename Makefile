# grothmpi — build, test, bench, demo, deps.
#
#   make            the grothmpi binary (build/grothmpi) and one static library per folder
#   make deps       install the Debian packages (idempotent; sudo when not root)
#   make test       deps, build, then every test; the last line reads "N passed, N failed"
#   make bench      deps, build, then the benchmarks (they measure, never assert)
#   make demo       deps, build, then the demo
#   make SAN=address,undefined test    the same with sanitizers and GM_VERIFY checks
#
# Each folder listed in LIBDIRS that has .c files becomes build/lib<folder>.a;
# cli/*.c links them into build/grothmpi; tests/unit/*.c into one Criterion runner.

CC      ?= gcc
SAN     ?=
BUILD   ?= build
OPT     ?= -O3

# Libraries in link order: a folder may use only those after it.
LIBDIRS := serve study mpi jobs params circuits snarkjs groth16 gpu synth/porep synth ec ntt topo ff base

DEB_PKGS := build-essential pkg-config libopenmpi-dev openmpi-bin libhwloc-dev hwloc \
            libpfm4-dev libjemalloc-dev libjansson-dev libssl-dev libcriterion-dev \
            linux-perf slurm-wlm munge clang libclang-rt-14-dev time

ifneq ($(SAN),)
override BUILD := $(BUILD)-san
OPT     := -O1 -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all -DGM_VERIFY_ON
LDSAN   := -fsanitize=$(SAN)
endif

PKGS_CFLAGS := $(shell pkg-config --cflags hwloc jansson jemalloc ompi-c 2>/dev/null)
PKGS_LIBS   := $(shell pkg-config --libs hwloc jansson jemalloc ompi-c 2>/dev/null)

CFLAGS  := -std=gnu11 $(OPT) -march=x86-64-v3 -g -Wall -Wextra -Werror -I. -MMD -MP $(PKGS_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS  := $(PKGS_LIBS) -lpfm -lcrypto -lpthread -lm
LDFLAGS := $(LDSAN)

PRESENT := $(foreach d,$(LIBDIRS),$(if $(wildcard $(d)/*.c),$(d)))
libname  = $(BUILD)/lib$(subst /,_,$(1)).a
LIBS    := $(foreach d,$(PRESENT),$(call libname,$(d)))
objs     = $(patsubst %.c,$(BUILD)/%.o,$(wildcard $(1)/*.c))

BIN      := $(BUILD)/grothmpi
CLI_OBJS := $(call objs,cli) $(call objs,bench)
TEST_BIN := $(BUILD)/tests/unit_tests
TEST_OBJS:= $(call objs,tests/unit)

.PHONY: all deps test unit bench demo clean soak soak-32g
all: $(BIN)

ifneq ($(SAN),)
# The MULX/ADX kernels hold 13 registers in one inline-assembly block; ASan's
# instrumentation and the frame pointer at -O1 leave too few for it, and ASan cannot see inside
# assembly anyway. UBSan and the GM_VERIFY checks still apply to this file.
$(BUILD)/ff/mont_adx.o: CFLAGS += -fno-sanitize=address -fomit-frame-pointer
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

define lib_rule
$(call libname,$(1)): $(call objs,$(1))
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach d,$(PRESENT),$(eval $(call lib_rule,$(d))))

# ---- gpu/ ------------------------------------------------------------------------
# libgpu.a also holds gpu/*.cc (the host emulation of the kernels, g++, always
# built) and, when nvcc exists (NO_CUDA=1 skips it), gpu/*.cu: machine code
# for every architecture in NVARCH plus PTX of the last (newer devices compile
# it at load time), with gpu/*.c built with -DGM_HAVE_CUDA and the CUDA runtime
# linked statically (the binary runs where libcudart.so is absent and falls
# back to the CPU where there is no driver). Without nvcc, gpu/gpu_stub.c
# makes gpu_init answer "built without CUDA".
# NVARCH: A100 80, RTX 30xx/A40 86, L4/L40/RTX 40xx 89, H100/H200 90,
# B200 100, RTX 50xx 120 (nvcc --list-gpu-code); `make NVARCH=90` builds one
# while developing (a change of NVARCH rebuilds the .cu objects). The device
# code is stored compressed (--compress-mode=size: a third of its size, so
# that the bundle stays small; the driver inflates it once at load).
NVCC      ?= /usr/local/cuda/bin/nvcc
NVARCH_ALL := 80 86 89 90 100 120
NVARCH    ?= $(NVARCH_ALL)
# Refused before anything is built: a bundle goes to hosts of any architecture.
ifneq ($(filter gpu-bundle,$(MAKECMDGOALS)),)
ifneq ($(strip $(NVARCH)),$(NVARCH_ALL))
$(error make gpu-bundle: NVARCH is '$(NVARCH)': the bundle holds every architecture ($(NVARCH_ALL)); run it without NVARCH)
endif
endif
HAVE_NVCC := $(if $(NO_CUDA),,$(wildcard $(NVCC)))
CXXFLAGS  := -std=gnu++17 $(OPT) -march=x86-64-v3 -g -Wall -Wextra -Werror -I. -MMD -MP $(EXTRA_CFLAGS)
empty     :=
space     := $(empty) $(empty)
NVPTX     := $(lastword $(NVARCH))
NVFLAGS   := -O3 -std=c++17 $(foreach a,$(NVARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
             -gencode arch=compute_$(NVPTX),code=compute_$(NVPTX) \
             -DGPU_ARCHS='"$(subst $(space),/,$(strip $(NVARCH)))"' -DGPU_PTX_ARCH='"$(NVPTX)"' \
             --compress-mode=size -Xcompiler -fPIC,-Wall -Werror all-warnings -I. -MMD -MP -DGM_HAVE_CUDA
GPU_XOBJS := $(patsubst %.cc,$(BUILD)/%.o,$(wildcard gpu/*.cc))
ifneq ($(HAVE_NVCC),)
GPU_XOBJS += $(patsubst %.cu,$(BUILD)/%.cu.o,$(wildcard gpu/*.cu))
# The nvcc flags of the last build, rewritten only when they change (NVARCH).
NVFLAGS_STAMP := $(BUILD)/gpu/nvflags
$(shell mkdir -p $(BUILD)/gpu && { echo '$(NVFLAGS)' | cmp -s - $(NVFLAGS_STAMP) || echo '$(NVFLAGS)' >$(NVFLAGS_STAMP); })
$(patsubst %.cu,$(BUILD)/%.cu.o,$(wildcard gpu/*.cu)): $(NVFLAGS_STAMP)
$(BUILD)/gpu/%.o: CFLAGS += -DGM_HAVE_CUDA
LDLIBS    += -L$(dir $(NVCC))../lib64 -lcudart_static -ldl -lrt
endif
LDLIBS    += -lstdc++
$(call libname,gpu): $(GPU_XOBJS)
$(BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@
$(BUILD)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

# ---- tools/gpu-check: the device check (docs/gpu.md, "The device check") ----------
# `make gpu-check`: the GPU-versus-CPU checks and device benchmarks that
# tools/gpu-check/run.sh runs. `make gpu-bundle`: grothmpi and gpu_check
# (stripped) with every shared library they load that a bare GPU host may
# lack, Open MPI's components included, in $(BUILD)/gpu-bundle, for run.sh
# on a host with no build tools or packages; it holds every architecture.
.PHONY: gpu-check gpu-bundle
gpu-check: $(BUILD)/gpu_check
# --as-needed: gpu_check makes no MPI call, so it loads no Open MPI (whose
# libevent asks for a newer glibc than the rest: docs/gpu.md).
$(BUILD)/gpu_check: $(BUILD)/tools/gpu-check/gpu_check.o $(LIBS)
	$(CC) $(LDFLAGS) -Wl,--as-needed $^ $(LDLIBS) -o $@
gpu-bundle: $(BIN) $(BUILD)/gpu_check
	@[ -n "$(HAVE_NVCC)" ] || { echo "make gpu-bundle: no nvcc ($(NVCC)): the bundle needs the CUDA objects"; exit 1; }
	sh tools/gpu-check/bundle.sh $(BUILD) $(BUILD)/gpu-bundle

$(BIN): $(CLI_OBJS) $(LIBS)
	$(CC) $(LDFLAGS) $(CLI_OBJS) $(LIBS) $(LDLIBS) -o $@

$(TEST_BIN): $(TEST_OBJS) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(TEST_OBJS) $(LIBS) $(LDLIBS) -lcriterion -o $@

# Installs only what is missing, so a second run is quiet and quick.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  echo "make deps: installing$$missing"; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	fi
	@# Node.js (snarkjs interop tests): Debian's, unless a node is already installed.
	@if ! command -v npm >/dev/null; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq nodejs npm >/dev/null || exit 1; \
	fi
	@# The pinned snarkjs/circom toolchain, installed again only when the lock file changed.
	@cd tests/interop && { [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ] || \
	  npm ci --no-audit --no-fund --loglevel=error >/dev/null; }

test: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all $(TEST_BIN)
	@BUILD=$(BUILD) GM_SAN=$(if $(SAN),1,0) sh tests/run.sh

# The long reliability run (tests/soak/soak.sh; not in `make test`): 1,000
# test-mul proofs on 4 ranks under random SIGKILLs and SIGTERMs, rerun until
# done, then every proof checked. SOAK_UNITS, SOAK_RANKS, SOAK_SEED. Then the
# service's (tests/soak/serve.sh): SOAK_JOBS jobs (1,000) from 4 submitters
# into one spool while the server on SOAK_RANKS ranks is killed (a rank, or
# the whole job) or stopped, and restarted.
soak: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	@BUILD=$(BUILD) sh tests/soak/soak.sh
	@BUILD=$(BUILD) sh tests/soak/serve.sh

# One real 32 GiB PoRep partition end to end, then a campaign of two
# (tests/soak/porep_32g.sh; not in `make test`: hours on 2 cores, 62 GB of
# disk). GROTHMPI_32G_CACHE, GROTHMPI_32G_WORK, GROTHMPI_32G_SEED.
soak-32g: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	@BUILD=$(BUILD) sh tests/soak/porep_32g.sh

bench: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	$(BIN) bench field
	$(BIN) bench msm
	$(BIN) bench ntt
	$(BIN) bench poseidon
	$(BIN) bench prove --quick
	$(BIN) bench synth --porep 512MiB --partition 0
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	    mpirun --oversubscribe -np 2 $(BIN) bench split --log 16

# The demo (jobs/demo.json, docs/campaign.md): 4 real 2 KiB PoRep sectors, sealed here once
# (/tmp/grothmpi-demo-sectors/sN, seal seed N), proved on 2 ranks; the parameters are generated once
# by the campaign ("setup": "auto", into /tmp/grothmpi-params) and cached; then every proof is
# checked again with `grothmpi verify --c1` against a C1 made the CLI's way (seed 100 + N).
DEMO_SECTORS := /tmp/grothmpi-demo-sectors
demo: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	$(BIN) selfcheck
	@mkdir -p $(DEMO_SECTORS); for i in 1 2 3 4; do d=$(DEMO_SECTORS)/s$$i; [ -f $$d/seal.json ] && continue; \
	    echo "demo: sealing $$d"; $(BIN) porep seal --sector-size 2KiB --seed $$i --out $$d --quiet >/dev/null || exit 1; done
	rm -rf /tmp/grothmpi-demo
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
	    mpirun --oversubscribe -np 2 $(BIN) prove jobs/demo.json
	@for i in 1 2 3 4; do \
	    $(BIN) porep c1 $(DEMO_SECTORS)/s$$i --seed $$((100 + i)) --out /tmp/grothmpi-demo/s$$i.c1.json >/dev/null && \
	    $(BIN) verify --vk /tmp/grothmpi-params/porep-2048-v2.vk --c1 /tmp/grothmpi-demo/s$$i.c1.json \
	        --proof /tmp/grothmpi-demo/proofs/demo-s$$i-p0.proof >/dev/null || { echo "demo: demo-s$$i: verify --c1 FAILED"; exit 1; }; \
	    echo "demo: demo-s$$i-p0.proof: verify --c1 OK"; done

clean:
	rm -rf $(BUILD)

# `make fuzz`, `make fuzz-build`: libFuzzer harnesses (fuzz/fuzz.mk, docs/reliability.md).
include fuzz/fuzz.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# grothmpi against `snarkjs groth16 prove` (and rapidsnark, RAPIDSNARK=prover)
# on the same zkey and witness, SHA-256 and Poseidon at 2^16-2^20 (bench/interop.sh;
# needs node + npm; its circuits' artifacts take about an hour the first time,
# cached in GM_INTEROP_DIR, default build/interop).
.PHONY: bench-interop
bench-interop: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	BUILD=$(BUILD) sh bench/interop.sh

# The proving service against its goals (bench/serve.sh): COUNT 2 KiB PoRep jobs
# (default 200) from 4 submitters on 2 ranks, against a campaign of the same units.
.PHONY: bench-serve
bench-serve: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	BUILD=$(BUILD) sh bench/serve.sh $(COUNT)
