# The two commands a new user needs: `make run` and `make test`. Each installs what it
# needs first (scripts/deps.sh, Debian 12 packages only).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# The release tree with line tables only (-g1), as scripts/test.sh configures it, so
# that `make test` reuses what `make run` built.
RELEASE = -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"

.PHONY: all deps build run test install format clean

all: build

deps:
	scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) $(RELEASE) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The main job builds the tool alone (no test suites), then runs it.
run: deps
	cmake -S . -B $(BUILD) $(RELEASE) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target docket
	scripts/run.sh $(BUILD)/bin/docket

test: deps
	scripts/test.sh

# What is installed and nothing more (no test suite): the libraries and the tool.
install: deps
	cmake -S . -B $(BUILD) $(RELEASE) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target docket_installable
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX),)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf build build-*
