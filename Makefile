# Origami: `make demo` sets everything up and renders Models/ into Renders/; `make test` runs the tests;
# `make bench` runs the release-mode benchmarks.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libcairo2-dev libgif-dev pkg-config fonts-dejavu-core

# Tools only the tests use: Debian's chromium for the browser tests of `origami serve` (Tests/Browser), driven by
# Playwright from PyPI (never `playwright install`: no browser download); gifsicle, which reads the GIFs
# `origami animate` writes independently of its writer; GNU parallel for the sweep's batch recipe. A test whose
# tool is missing is skipped, saying why.
BROWSER_APT_PACKAGES := chromium gifsicle parallel

.PHONY: bootstrap bootstrap-browser build demo test browser-test docs bench check clean

# Installs the C libraries through apt when pkg-config cannot find them, or giflib's header (it has no .pc file),
# is missing (sudo only when not root).
bootstrap:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists cairo pixman-1 libpng16 \
	    || [ ! -f /usr/include/gif_lib.h ] || [ ! -d /usr/share/fonts/truetype/dejavu ]; then \
	  echo "Installing $(APT_PACKAGES) through apt"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); \
	fi

# Not fatal: without chromium or Playwright (no network, say) `make test` says the browser tests were skipped.
bootstrap-browser:
	@if ! command -v chromium >/dev/null || ! command -v gifsicle >/dev/null || ! command -v parallel >/dev/null; then \
	  echo "Installing $(BROWSER_APT_PACKAGES) through apt (for the tests)"; \
	  ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BROWSER_APT_PACKAGES)) \
	    || echo "warning: could not install $(BROWSER_APT_PACKAGES); the tests that need them will be skipped"; \
	fi
	@if ! python3 -c "import playwright" 2>/dev/null; then \
	  echo "Installing playwright through pip (for the browser tests)"; \
	  python3 -m pip install --quiet playwright 2>/dev/null \
	    || python3 -m pip install --quiet --user --break-system-packages playwright \
	    || echo "warning: could not install playwright; the browser tests will be skipped"; \
	fi

build: bootstrap
	$(SWIFT) build -c release --product origami

# Renders every scene in Models/ into Renders/ (PNG, at the scene's own canvas size and scale); a scene with
# animations also as an animated GIF of one cycle at 15 fps; and the tilt × light experiment's sweep, keeping two
# of its plots (Renders/plots/).
demo: build
	@mkdir -p Renders Renders/plots
	@for m in Models/*.yaml; do \
	  .build/release/origami render "$$m" -o "Renders/$$(basename "$${m%.yaml}").png" --png-compression smallest >/dev/null || exit 1; \
	  if grep -q '^ *animations:' "$$m"; then \
	    .build/release/origami animate "$$m" -o "Renders/$$(basename "$${m%.yaml}").gif" --fps 15 --quiet >/dev/null || exit 1; \
	  fi; \
	done
	@tmp=$$(mktemp -d) && .build/release/origami sweep Models/tilt-light-experiment.yaml -o "$$tmp/sweep" --quiet >/dev/null \
	  && cp "$$tmp/sweep/plots/brightness-vs-tilt.png" "$$tmp/sweep/plots/heatmap-brightness-top-tilt-rise.png" Renders/plots/ \
	  && rm -rf "$$tmp"
	@echo "Rendered $$(ls Models/*.yaml | wc -l) models into Renders/ ($$(ls Renders/*.gif | wc -l) animated)"

test: bootstrap bootstrap-browser
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) docs
	$(MAKE) browser-test

# DocC documentation of the libraries' public API (swift-docc-plugin), with DocC's warnings as errors (a broken
# symbol link, a documented parameter that does not exist), into .build/docs/<Target>.doccarchive. Then every
# public symbol of the DOC_COVERAGE_TARGETS must have a doc comment: Scripts/check-doc-coverage.py lists the ones
# without, file:line, from the symbol graphs the plugin has just extracted.
DOC_TARGETS := Origami OrigamiRender OrigamiScene OrigamiTesting
DOC_COVERAGE_TARGETS := $(DOC_TARGETS)
DOCS_OUTPUT := .build/docs
docs: bootstrap
	$(SWIFT) package --allow-writing-to-directory $(DOCS_OUTPUT) generate-documentation \
	  $(foreach t,$(DOC_TARGETS),--target $(t)) --warnings-as-errors --transform-for-static-hosting \
	  --output-path $(DOCS_OUTPUT)
	@for t in $(DOC_COVERAGE_TARGETS); do python3 Scripts/check-doc-coverage.py $$t || exit 1; done

# `origami serve` in a real browser (needs the debug build `make test` makes); skipped without chromium/Playwright.
browser-test:
	@if command -v chromium >/dev/null && python3 -c "import playwright" 2>/dev/null; then \
	  python3 Tests/Browser/serve_browser_test.py --origami .build/debug/origami; \
	else \
	  echo "browser tests skipped: chromium or Playwright is missing (make bootstrap-browser installs them)"; \
	fi

# Issue 7's reliability checks (not part of `make test`: they take a while). The whole suite under
# ThreadSanitizer and AddressSanitizer (separate scratch paths, so `make test`'s build is untouched), then every
# input the fuzzer ever crashed on, then a short fuzz run (FUZZ_SECONDS). See README "Reliability checks".
FUZZ_SECONDS ?= 120
check: bootstrap
	ORIGAMI_SANITIZER=thread $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	ORIGAMI_SANITIZER=thread SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan
	ORIGAMI_SANITIZER=address $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ORIGAMI_SANITIZER=address SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	Fuzz/fuzz.sh regress
	Fuzz/fuzz.sh run -max_total_time=$(FUZZ_SECONDS)

# Release build, then every benchmark with its same-run baseline; prints a Markdown table (see Benchmarks/README.md).
bench: bootstrap
	$(SWIFT) build -c release --product origami
	$(SWIFT) build -c release --product OrigamiBenchmarks
	.build/release/OrigamiBenchmarks --origami .build/release/origami --models Models --readme Benchmarks/README.md

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz Fuzz/.build
