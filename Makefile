# Thin wrapper over CMake. The two commands a newcomer needs:
#   make demo   set up, build, start the mock agent, run examples/, show the report
#   make test   set up, build, run every test (unit + end to end)
# SANITIZE=address,undefined builds into its own directory and runs the same suite.

comma := ,
SANITIZE ?=
JOBS ?= 2
ifeq ($(strip $(SANITIZE)),)
BUILD ?= build
else
BUILD ?= build-$(subst $(comma),-,$(SANITIZE))
endif
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Debug

.PHONY: all setup build test unit e2e mocktest demo bench clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/CMakeCache.txt:
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DANANKE_SANITIZE="$(SANITIZE)" >/dev/null

# The build's own chatter goes to $(BUILD)/build.log; it is shown when the build fails.
build: setup $(BUILD)/CMakeCache.txt
	@echo "building ananke in $(BUILD)/ ..."
	@cmake --build $(BUILD) -j$(JOBS) >$(BUILD)/build.log 2>&1 || { cat $(BUILD)/build.log; exit 1; }

unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

e2e: build
	ANANKE_BUILD=$(BUILD) bash tests/e2e/run.sh

mocktest: build
	ANANKE_BUILD=$(BUILD) bash tests/mock/run.sh

test: build
	@ANANKE_BUILD=$(BUILD) bash tests/run-all.sh

demo: build
	@ANANKE_BUILD=$(BUILD) bash scripts/demo.sh

# The benchmark against promptfoo (docs/performance.md); QUICK=1 for N <= 1000.
bench:
	@bash bench/run.sh $(if $(QUICK),--quick)

clean:
	rm -rf build build-* demo-out tests/e2e/*/out
