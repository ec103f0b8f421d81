# A stand-in for git's t/test-lib.sh, with only what t0303-credential-external.sh and
# t/lib-credential.sh use, so that git's own credential-helper tests run against an installed git
# without building git (git's test-lib.sh needs a built tree and its test-tool). Written for
# pwtui; run-git-tests.sh explains the setup. Output is TAP, as git's own.

TEST_DIRECTORY=$(pwd)
TRASH_DIRECTORY=${TRASH_DIRECTORY:?run-git-tests.sh sets TRASH_DIRECTORY}
cd "$TRASH_DIRECTORY" || exit 1
git init -q . || exit 1

test_count=0
test_failures=0
test_cleanup=:

say() { echo "# $*"; }

# git's test_config: set for this test only.
test_config() {
	git config "$@" &&
	test_cleanup="git config --unset '$1'; $test_cleanup"
}

test_cmp() { diff -u "$@"; }

test_must_be_empty() { test ! -s "$1"; }

write_script() {
	{ echo "#!/bin/sh"; cat; } >"$1" &&
	chmod +x "$1"
}

test_expect_success() {
	test_count=$((test_count + 1))
	test_cleanup=:
	if eval "$2" >"$TRASH_DIRECTORY/.test-output" 2>&1
	then
		echo "ok $test_count - $1"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#	/' "$TRASH_DIRECTORY/.test-output"
	fi
	eval "$test_cleanup"
}

test_done() {
	echo "1..$test_count"
	echo "$((test_count - test_failures)) passed, $test_failures failed"
	test "$test_failures" = 0
	exit
}
