# Thin wrapper over CMake. The two commands a newcomer needs:
#   make demo   set up, build, start the mock agent, run examples/, show the report
#   make test   set up, build, run every test (unit + end to end)
# SANITIZE=address,undefined builds into its own directory and runs the same suite.
# Only `make setup`, `make demo` and `make test` install packages (what is
# missing, scripts/setup.sh); `make` and `make build` never do: a missing
# library stops CMake's configure step saying which and how to get it.

# `make` / `make build`: the user's build, optimised (Release, -O2) in build/.
# The tests (`make test`, unit, e2e, mocktest) build their own Debug build in
# build-debug/ (or build-SANITIZERS/ with SANITIZE=), with warnings as errors
# in both; TYPE= overrides the build type of either.
comma := ,
SANITIZE ?=
JOBS ?= 2
ifeq ($(strip $(SANITIZE)),)
BUILD ?= build
TEST_BUILD ?= build-debug
TYPE ?= Release
else
BUILD ?= build-$(subst $(comma),-,$(SANITIZE))
TEST_BUILD ?= $(BUILD)
TYPE ?= Debug
# Sanitized builds use clang when it is there: its UndefinedBehaviorSanitizer
# checks more (pointer overflow), and the build is clang's -Werror build of
# every target, so the plain run's release-build step need not make another
# (ANANKE_CLANG_BUILD_ELSEWHERE=1, set by .ci/run). SANITIZE_CC= picks another.
SANITIZE_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang)
endif
TEST_TYPE ?= Debug
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=$(TYPE) $(if $(SANITIZE_CC),-DCMAKE_C_COMPILER=$(SANITIZE_CC))

.PHONY: all setup build test unit e2e mocktest demo bench fuzz analyze clean install lint format

all: build

setup:
	@bash scripts/setup.sh

# ---- build: configure, build (never installs anything) ----
# cmake_install.cmake is written only when the configure step succeeded, so
# a failed one (a library missing) is tried again by the next `make build`.
$(BUILD)/cmake_install.cmake:
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DANANKE_SANITIZE="$(SANITIZE)" >/dev/null

# The build's own chatter goes to $(BUILD)/build.log; it is shown when the build fails.
# A build directory configured with another build type is configured again
# (CMake would otherwise keep the type it was first given).
build: $(BUILD)/cmake_install.cmake
	@grep -qx 'CMAKE_BUILD_TYPE:STRING=$(TYPE)' $(BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DANANKE_SANITIZE="$(SANITIZE)" >/dev/null
	@echo "building ananke ($(TYPE)) in $(BUILD)/ ..."
	@cmake --build $(BUILD) -j$(JOBS) >$(BUILD)/build.log 2>&1 || { cat $(BUILD)/build.log; exit 1; }

# The lint step (tests/lint.sh: banned calls, layers, Linux-only calls, function
# length, make never installing);
# `make test` runs it too.
lint:
	@bash tests/lint.sh

# clang-format over src/, include/, tests/, fuzz/ and bench/ with .clang-format, in place.
FORMAT_FILES = $(shell git ls-files 'src/*.[ch]' 'include/*.h' 'tests/*.[ch]' 'fuzz/*.[ch]' 'bench/*.[ch]')
format:
	@command -v clang-format >/dev/null || { echo "clang-format not found; run make setup"; exit 1; }
	@clang-format -i $(FORMAT_FILES)
# ---- end build ----

# The tests' own Debug build (TEST_BUILD, TEST_TYPE), never the user's build/.
.PHONY: test-build
test-build:
	@$(MAKE) --no-print-directory build BUILD=$(TEST_BUILD) TYPE=$(TEST_TYPE)

unit: test-build
	ctest --test-dir $(TEST_BUILD) --output-on-failure -j$(JOBS)

e2e: test-build
	ANANKE_BUILD=$(TEST_BUILD) bash tests/e2e/run.sh

mocktest: test-build
	ANANKE_BUILD=$(TEST_BUILD) bash tests/mock/run.sh

# setup first, then the build (a prerequisite list would not order them under -j):
# the Debian packages (the build needs them), then the npm packages (only the
# tests do) installed while the test build compiles, their output shown after
test:
	@ANANKE_SKIP_NPM=1 bash scripts/setup.sh
	@npm_log=$$(mktemp); ANANKE_SKIP_DEBS=1 bash scripts/setup.sh >"$$npm_log" 2>&1 & npm_pid=$$!; \
	  $(MAKE) --no-print-directory test-build; built=$$?; \
	  wait $$npm_pid; cat "$$npm_log"; rm -f "$$npm_log"; exit $$built
	@ANANKE_BUILD=$(TEST_BUILD) bash tests/run-all.sh

demo: setup
	@$(MAKE) --no-print-directory build
	@ANANKE_BUILD=$(BUILD) bash scripts/demo.sh

# Installs under PREFIX (default /usr/local; DESTDIR honoured) from a Release
# build in build-release/: the programs, man pages, completions, schemas,
# compliance suites, docs, headers, libananke.a and ananke.pc.
#   make install PREFIX=~/.local
PREFIX ?= /usr/local
install:
	@cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
	@echo "building ananke in build-release/ ..."
	@cmake --build build-release -j$(JOBS) --target ananke ananke-cli ananke-mock completions >build-release/build.log 2>&1 || { cat build-release/build.log; exit 1; }
	@cmake --install build-release --prefix "$(PREFIX)"

# The packages (docs/install.md), from the same Release build in
# build-release/, written to dist/ (never committed):
#   make deb       dist/ananke_VERSION-1_ARCH.deb (CPack; Depends: from dpkg-shlibdeps)
#   make release   dist/ananke-VERSION-linux-x64.tar.gz: needs only glibc (bundled libraries)
#   make npm       dist/npm/ananke-VERSION.tgz and ananke-linux-x64-VERSION.tgz (npm pack)
# Each also writes dist/SHA256SUMS: a release publishes these files side by
# side with it (the action checks its download against it).
.PHONY: release-bin deb release npm
release-bin: setup
	@cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
	@echo "building ananke in build-release/ ..."
	@cmake --build build-release -j$(JOBS) --target ananke ananke-cli ananke-mock completions >build-release/build.log 2>&1 || { cat build-release/build.log; exit 1; }

deb: release-bin
	@cd build-release && cpack -G DEB -B "$(CURDIR)/dist" >cpack.log 2>&1 || { cat cpack.log; exit 1; }
	@rm -rf dist/_CPack_Packages
	@ls dist/*.deb
	@bash scripts/package/sums.sh dist

release: release-bin
	@bash scripts/package/release.sh build-release dist
	@bash scripts/package/sums.sh dist

npm: release
	@bash scripts/package/npm.sh dist
	@bash scripts/package/sums.sh dist

# The benchmark against promptfoo (docs/performance.md); QUICK=1 for N <= 1000.
bench:
	@bash bench/run.sh $(if $(QUICK),--quick)

# The libFuzzer targets (docs/fuzzing.md), FUZZ_SECONDS each (two at a time),
# in build-fuzz/ with clang, ASan and UBSan; `make test` runs them briefly.
FUZZ_SECONDS ?= 300
fuzz:
	@command -v clang >/dev/null || { echo "clang not found (the fuzz targets need it); run make setup"; exit 1; }
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh

# The clang static analyzer over the library, the CLI and the mock (not the
# tests): any finding fails. Its few hints for the analyzer are in the code
# under __clang_analyzer__, each with its reason (err.h: an_fail).
analyze:
	@command -v scan-build >/dev/null || { echo "scan-build not found (Debian: clang-tools); run make setup"; exit 1; }
	@rm -rf build-analyze
	@scan-build cmake -S . -B build-analyze -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@scan-build -o build-analyze/report --status-bugs $(MAKE) -C build-analyze -j$(JOBS) ananke ananke-cli ananke-mock

clean:
	rm -rf build build-* demo-out tests/e2e/*/out
