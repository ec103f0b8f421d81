# pwtui: `make run` and `make test` work on a fresh Debian machine with Swift installed.
SHELL := /bin/bash
SWIFT ?= swift
# python3-zxcvbn: only its ranked word lists (frequency_lists.py), for the password strength estimate.
# strace: the save-protocol tests inject faults with it. libunistring-dev: its static library, which
# the static release binary needs for libpsl (make release). faketime: the sync simulation's skewed clocks.
# unicode-data (and bzip2 to read it): NormalizationTest.txt, which UnicodeTextTests checks NFC against.
# zlib1g-dev: 1Password's .1pux is a zip (CZlib, Interchange/Reading/Inflate).
# podman, docker-registry, apache2-utils (htpasswd -B): ContainerRegistryTests logs real podman in
# and out of a registry it starts, through docker-credential-pwtui.
# libssl-dev: libcrypto (COpenSSL) for RSA and ECDSA SSH keys, and its static library for make release.
# openssh-client, openssh-server, sudo: AskpassProgramTests answers real ssh (a key's passphrase
# and a password, to an sshd it starts) and real sudo -A through pwtui-askpass.
# libsystemd-dev: sd-bus (CSDBus) for the Secret Service; dbus-daemon: dbus-run-session, the tests'
# private session buses; libsecret-tools: secret-tool, libsecret itself as a client of the Secret
# Service; chromium: headless Chromium keeping its cookie key there (--password-store=gnome-libsecret);
# python3-venv: the virtual environment `make test` fills from PyPI (python-tests below) with the
# Python clients (secretstorage, keyring, jeepney, pytest, cryptography).
PACKAGES := libsodium-dev libncurses-dev libpsl-dev libunistring-dev publicsuffix tmux python3-zxcvbn strace faketime gnupg unicode-data bzip2 \
	zlib1g-dev libssl-dev podman docker-registry apache2-utils openssh-client openssh-server sudo \
	libsystemd-dev dbus-daemon libsecret-tools chromium python3-venv
BIN_DIR = $(shell $(SWIFT) build --show-bin-path)

.PHONY: git-tests python-tests bench-secret-service run run-built test build release release-secret-service install install-files deps bench bench-properties bench-peers bench-import bench-fast-path bench-tie bench-audit clean themes fuzz fuzz-seeds fuzz-smoke lint format test-extras

run: deps build
	@$(MAKE) --no-print-directory run-built

# Esc or Ctrl-C in the picker is pwtui's exit 130 (cancelled): a person's choice, not make's error.
# Any other failure stays one. (ManualPageTests runs this with a stand-in binary.)
run-built:
	@$(PWTUI_BUILT) $(ARGS) || [ $$? -eq 130 ]

# Zero warnings: a build that prints one fails. Only what changed is recompiled, so
# `make clean build` checks every file. `make test` builds the tests the same way (BUILD_FLAGS),
# so a warning in Tests/ fails it too.
CHECKED_BUILD = mkdir -p .build && $(SWIFT) build $(BUILD_FLAGS) 2>&1 | tee .build/build.log; status=$${PIPESTATUS[0]}; \
	if [ $$status -eq 0 ] && grep -q 'warning:' .build/build.log; then \
		echo "make: the build printed warnings (above); none are allowed"; status=1; fi; \
	[ $$status -eq 0 ]

build: deps
	@$(CHECKED_BUILD)

# What users run: optimised, and one static executable. Linking the Swift runtime in took process
# start from 9.2 to 4.7 ms; linking everything in (libsodium, ncurses, libpsl and glibc too) takes
# it to 1.9 ms, and a fresh process's peak memory from 14.2 to 9.8 MB: the dynamic loader's
# relocations and the page faults of mapping eleven shared libraries were half of what was left
# (perf, Benchmarks/README.md). The linker warns that glibc's name-service functions (getpwnam
# and the like) need the shared glibc at run time: pwtui calls none of them (it reads $HOME).
# The code the short commands run, placed together (Resources/pwtui.order, written by
# Resources/generate-order.py): a fresh process's text is read through the page cache, which the
# kernel maps 64 kB around each fault, and what `get` ran lay spread over the 16 MB of text.
# Each Swift function in a section of its own, so lld can place it (the runtime's libraries
# already are); gold, swiftc's default linker, orders sections only by name. swiftc keeps an object
# whose code is unchanged whatever these flags say: after changing them, delete the release objects.
ORDER_FLAGS := -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Resources/pwtui.order -Xlinker --no-warn-symbol-ordering
# The metadata of a concrete generic type (a `KeyedDecodingContainer<CodingKeys>`, an `Option<String>`)
# made by a call to its accessor with the conformances at hand, not looked up by its mangled name:
# the lookup asks the runtime whether each argument conforms to each requirement, and every first
# answer scans all of the binary's 4,800 conformance records. That was half of a fresh `get`
# (11.5 million instructions, 2.4 without) and 13 of an `add`'s 32 million (docs/speed.md).
METADATA_FLAGS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -static-executable \
	-Xlinker -lidn2 -Xlinker -lunistring -Xlinker -ltinfo $(ORDER_FLAGS) $(METADATA_FLAGS)
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product pwtui

# The Secret Service's own program: libsystemd has no static library, so it links glibc and
# libsystemd dynamically (the Swift runtime statically), in a build directory of its own, since
# flags that differ from RELEASE_FLAGS' would rebuild everything each time one is built after the other.
SECRET_SERVICE_FLAGS := -c release --static-swift-stdlib --scratch-path .build/secret-service $(METADATA_FLAGS)
release-secret-service: deps
	$(SWIFT) build $(SECRET_SERVICE_FLAGS) --product pwtui-secret-service

PREFIX ?= $(HOME)/.local
install: release release-secret-service
	@$(MAKE) --no-print-directory install-files PWTUI_BUILT="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" \
		SECRET_SERVICE_BUILT="$$($(SWIFT) build $(SECRET_SERVICE_FLAGS) --show-bin-path)/pwtui-secret-service"

# What `install` puts in place, from a binary already built (InstallTests installs a debug build
# into a temporary prefix this way): the binary, git's name for it, the completions for bash, zsh
# and fish where those shells look under a prefix, and the man page, written from the binary's
# own help (Resources/generate-manual.py). Generated into a scratch directory first, so a failure
# leaves nothing half-written in $(PREFIX).
PWTUI_BUILT ?= $(BIN_DIR)/pwtui
SECRET_SERVICE_BUILT ?= $(BIN_DIR)/pwtui-secret-service
install-files:
	install -D -m 0755 "$(PWTUI_BUILT)" "$(PREFIX)/bin/pwtui"
	install -D -m 0755 "$(SECRET_SERVICE_BUILT)" "$(PREFIX)/bin/pwtui-secret-service"  # pwtui secret-service (docs/secret-service.md)
	ln -sf pwtui "$(PREFIX)/bin/git-credential-pwtui"  # so `git config credential.helper pwtui` works (docs/git.md)
	ln -sf pwtui "$(PREFIX)/bin/docker-credential-pwtui"  # docker's "credsStore": "pwtui", podman's credHelpers (docs/containers.md)
	ln -sf pwtui "$(PREFIX)/bin/pwtui-askpass"  # SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS (docs/askpass.md)
	@set -e; scratch="$$(mktemp -d)"; trap 'rm -rf "$$scratch"' EXIT; pwtui="$(PREFIX)/bin/pwtui"; \
	for shell in bash zsh fish; do "$$pwtui" --generate-completion-script $$shell > "$$scratch/$$shell"; done; \
	python3 Resources/generate-manual.py "$$pwtui" > "$$scratch/pwtui.1"; \
	install -D -m 0644 "$$scratch/bash" "$(PREFIX)/share/bash-completion/completions/pwtui"; \
	install -D -m 0644 "$$scratch/zsh" "$(PREFIX)/share/zsh/site-functions/_pwtui"; \
	install -D -m 0644 "$$scratch/fish" "$(PREFIX)/share/fish/vendor_completions.d/pwtui.fish"; \
	install -D -m 0644 "$$scratch/pwtui.1" "$(PREFIX)/share/man/man1/pwtui.1"; \
	for unit in dbus-1/services/org.freedesktop.secrets.service systemd/user/pwtui-secret-service.service; do \
		sed "s|@BINDIR@|$(PREFIX)/bin|g" "Resources/secret-service/$${unit##*/}.in" > "$$scratch/unit"; \
		install -D -m 0644 "$$scratch/unit" "$(PREFIX)/share/$$unit"; done; \
	echo "installed $(PREFIX)/bin/pwtui, git-credential-pwtui, docker-credential-pwtui, pwtui-askpass, completions for bash, zsh and fish, pwtui(1), pwtui-secret-service with its D-Bus activation file and systemd user unit"

# The themes are compiled into the binary from Resources/themes (a test fails when they differ).
themes:
	./Resources/embed-themes.sh

# The layout checked (`lint`), the build with its tests (no warnings anywhere; the Python clients'
# environment made beside it, `python-tests`, a minute of downloads on a fresh machine), then the tests in
# three processes at once (Tests/run-tests.sh: the in-process tests and the two halves of the
# end-to-end ones; each log in .build/test-*.log) beside a short run of every fuzz target
# and the benchmarks' build (`test-extras`, its log in .build/test-extras.log): either fails the run.
test: deps git-tests lint
	@mkdir -p .build; $(MAKE) --no-print-directory python-tests > .build/python-tests.log 2>&1 & python=$$!; \
	$(MAKE) --no-print-directory build BUILD_FLAGS=--build-tests; built=$$?; \
	wait $$python; cat .build/python-tests.log; [ $$built -eq 0 ]
	@$(MAKE) --no-print-directory test-extras > .build/test-extras.log 2>&1 & extras=$$!; \
	Tests/run-tests.sh "$(BIN_DIR)" .build; tests=$$?; \
	wait $$extras; extra=$$?; \
	if [ $$extra -ne 0 ]; then echo "make test: the benchmarks' build or the fuzz targets failed (.build/test-extras.log):"; \
		tail -30 .build/test-extras.log; else grep -E "^make fuzz|^Done|^benchmarks" .build/test-extras.log; fi; \
	[ $$tests -eq 0 ] && [ $$extra -eq 0 ]

# Beside the tests: the benchmarks build without a warning, and every fuzz target runs for 3 s
# (its own build, with the sanitizers, without a warning of ours either).
test-extras: deps
	@$(SWIFT) build --package-path Benchmarks 2>&1 | tee .build/benchmarks-build.log; status=$${PIPESTATUS[0]}; \
	if [ $$status -eq 0 ] && grep -q 'warning:' .build/benchmarks-build.log; then echo "benchmarks: the build printed warnings"; exit 1; fi; \
	[ $$status -eq 0 ] && echo "benchmarks: built without warnings"
	@$(MAKE) --no-print-directory fuzz-smoke

# swift-format (in the toolchain) with the committed .swift-format: `lint` fails on any difference
# from what `format` writes; `format` rewrites the tree in place.
FORMATTED := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources Fuzz/Package.swift Fuzz/Sources
lint:
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

# git's own credential-helper tests (t0303 and lib-credential.sh of the installed git), unpacked
# from Debian's source package once; GitHelperContractTests runs them (docs/git.md). git is
# GPL-2.0: fetched into .build, never committed.
# A failed fetch does not stop `make test`: the one test that needs the files fails, saying why.
git-tests: deps
	-@test -f .build/git-tests/t/t0303-credential-external.sh || Tests/GitConformance/fetch-git-tests.sh .build/git-tests

# The Secret Service tests' Python clients from PyPI, pinned (Tests/PythonClients/python-requirements.txt),
# in a virtual environment, with secretstorage's own test suite from its sdist: made once, again
# only when the requirements change (make-python-env.sh). Like git-tests, a failure does not stop
# `make test`: the tests that need the environment fail, saying why.
PYTHON_TESTS := .build/python-tests
python-tests: deps
	-@test -f $(PYTHON_TESTS)/ready && cmp -s Tests/PythonClients/python-requirements.txt $(PYTHON_TESTS)/python-requirements.txt \
		|| Tests/PythonClients/make-python-env.sh $(PYTHON_TESTS)

# Benchmarks are run by hand, never as part of the tests (see Benchmarks/README.md).
bench: deps
	cd Benchmarks && $(SWIFT) run -c release pwtui-bench

# The property tests at full size (PropertySize in Tests/PwtuiTestSupport): every byte of a vault
# flipped and every truncation, 20 passwords for each site's rules, 6,000 credentials and 400
# requests against the host index. `make test` runs them at a size that proves the property.
PROPERTY_SUITES := VaultDamageTests|HostIndexTests|PasswordRulesTests
bench-properties: deps
	@$(MAKE) --no-print-directory build BUILD_FLAGS=--build-tests
	PWTUI_FULL_PROPERTIES=1 "$(BIN_DIR)/pwtuiPackageTests.xctest" --testing-library swift-testing --no-parallel \
		--filter "$(PROPERTY_SUITES)"

# The real binary as a fresh process: get through the agent, suggest, locked get (10,000 credentials).
# pwtui beside pass, gopass, age and keepassxc-cli (issue 14): installs them from Debian when
# missing, then times every everyday command of each with hyperfine (Benchmarks/peers/peers.py).
PEERS := pass gopass age keepassxc hyperfine tree gnupg time
bench-peers: release
	@missing=""; for p in $(PEERS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq $$missing; else sudo apt-get install -y -qq $$missing; fi; fi
	python3 Benchmarks/peers/peers.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" $(ARGS)

# Issue 40's benchmark: 300 items created then read back one by one through secretstorage, pwtui's
# Secret Service (the release build, a vault and an unlocked agent) beside gnome-keyring, each on a
# private bus (Benchmarks/secret-service/secret-service.py; ARGS="--items 300 --rounds 3").
bench-secret-service: deps python-tests
	@command -v gnome-keyring-daemon >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq gnome-keyring; \
		else sudo apt-get install -y -qq gnome-keyring; fi; }
	$(SWIFT) build -c release --product pwtui  # one product per build: SwiftPM takes the last --product only
	$(SWIFT) build -c release --product pwtui-secret-service
	$(PYTHON_TESTS)/venv/bin/python3 Benchmarks/secret-service/secret-service.py "$$($(SWIFT) build -c release --show-bin-path)" $(ARGS)

# 10,000 entries imported in one go from each big format, KDF subtracted (issue 15).
bench-import: release
	python3 Benchmarks/import/import.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" $(ARGS)

# A two-way tie against a single match through the agent (Benchmarks/tie.py; ARGS="10000 100").
bench-tie: release
	python3 Benchmarks/tie.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" $(ARGS)

# pwtui audit against a 2 GB ordered-hash file, cold and warm, beside keepassxc-cli analyze --hibp
# (Benchmarks/audit/audit.py; ARGS="--size-gb 2 --count 1000 --runs 5"). Installs keepassxc for its
# keepassxc-cli when it is missing; the breach file is kept in /var/tmp/pwtui-audit-bench.
bench-audit: release
	@command -v keepassxc-cli >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq --no-install-recommends keepassxc; \
		else sudo apt-get install -y -qq --no-install-recommends keepassxc; fi; }
	python3 Benchmarks/audit/audit.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" $(ARGS)

bench-fast-path: release
	cd Benchmarks && $(SWIFT) build -c release --product pwtui-bench
	python3 Benchmarks/fast-path.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/pwtui" \
		"$$(cd Benchmarks && $(SWIFT) build -c release --show-bin-path)/pwtui-bench"

# Every fuzz target for 3 s, as `make test` runs them (12 targets: under a minute, beside the tests).
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=3

# libFuzzer, one target after another, FUZZ_SECONDS each (a package of its own under Fuzz/, so the
# main build never sees the sanitizers). What a run discovers stays in Fuzz/.build-fuzz/corpus; a crash
# lands in Fuzz/Crashes/ and, once fixed, belongs in Fuzz/Corpus/<target>/, which `make test`
# replays. `make fuzz FUZZERS=PayloadCodec FUZZ_SECONDS=600` runs one. The Swift backtracer is off:
# libFuzzer reports the crash, and the backtracer's memory dump trips AddressSanitizer.
FUZZ_SECONDS ?= 60
FUZZERS ?= VaultHeader PayloadCodec ServiceIdentifier AgentMessage IdentityStore ImportFile SSHAgentMessage SSHKeyFile \
	KnownHosts AskpassPrompt SecretURI DotEnvFile
# Both spellings of the sanitizers: SwiftPM's `--sanitize=fuzzer` makes the targets link against
# libFuzzer's main, but the driver then passes only `-sanitize=address` on to the compiler (the
# last one wins), so nothing is instrumented for coverage; `-sanitize=fuzzer,address` restores it.
FUZZ_BUILD := $(SWIFT) build --package-path Fuzz --scratch-path Fuzz/.build-fuzz \
	--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
fuzz: deps
	@mkdir -p Fuzz/.build-fuzz; for target in $(FUZZERS); do \
		$(FUZZ_BUILD) --product Fuzz$$target 2>&1 | tee Fuzz/.build-fuzz/build.log; [ $${PIPESTATUS[0]} -eq 0 ] || exit 1; \
		if grep 'warning:' Fuzz/.build-fuzz/build.log | grep -v 'ld.gold'; then echo "make fuzz: the build printed warnings"; exit 1; fi; \
	done
	@bin="$$($(FUZZ_BUILD) --show-bin-path)"; mkdir -p Fuzz/Crashes; failed=""; \
	for target in $(FUZZERS); do \
		mkdir -p Fuzz/.build-fuzz/corpus/$$target; \
		echo "make fuzz: $$target for $(FUZZ_SECONDS) s"; \
		SWIFT_BACKTRACE=enable=no nice -n 10 "$$bin/Fuzz$$target" -max_total_time=$(FUZZ_SECONDS) -timeout=5 -print_final_stats=1 \
			-artifact_prefix=Fuzz/Crashes/$$target- Fuzz/.build-fuzz/corpus/$$target Fuzz/Corpus/$$target \
			|| failed="$$failed $$target"; \
	done; \
	if [ -n "$$failed" ]; then echo "make fuzz: findings in$$failed (see Fuzz/Crashes/)"; exit 1; fi

# Rewrites the seed corpus from real encodings (needed only when a format changes).
fuzz-seeds:
	$(SWIFT) run --package-path Fuzz --scratch-path Fuzz/.build-seeds fuzz-seeds Fuzz/Corpus

# Installs the system packages that are missing (as root, or through sudo when available).
deps:
	@missing=""; for p in $(PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$missing; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq $$missing; fi; \
	fi

clean:
	rm -rf .build
