#!/bin/sh
# git's own tests for credential helpers (t/t0303-credential-external.sh and t/lib-credential.sh)
# against pwtui as `git-credential-pwtui`, with the installed git.
#
#   run-git-tests.sh GIT_T_DIR PWTUI [SCRIPT]
#
# GIT_T_DIR holds git's t/ files: the Makefile's `git-tests` target unpacks them from Debian's
# source package of the installed git (git is GPL-2.0: its files are fetched, never kept in this
# repository). SCRIPT defaults to t0303-credential-external.sh. Our test-lib.sh stands in for
# git's. The helper opens a fresh vault with its master password on a descriptor, as a script
# would configure it (docs/git.md); the vault, HOME and git's configuration live in a temporary
# directory removed afterwards. Prints TAP and exits non-zero when a test fails.
set -eu
t=$(cd "$1" && pwd)
pwtui=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
script=${3:-t0303-credential-external.sh}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
# The timeout helper's agent (below) is stopped before its directory goes.
trap '"$pwtui" agent stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT INT TERM

mkdir -p "$work/t" "$work/trash" "$work/bin" "$work/home"
cp "$t/$script" "$t/lib-credential.sh" "$work/t/"
cp "$here/test-lib.sh" "$work/t/test-lib.sh"

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
export XDG_STATE_HOME="$work/home/.local/state" XDG_RUNTIME_DIR="$work/run" PWTUI_VAULT="$work/vault.pwtui"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/home/.gitconfig" GIT_TERMINAL_PROMPT=0
unset GIT_ASKPASS SSH_ASKPASS GIT_DIR GIT_WORK_TREE
mkdir -m 0700 "$work/run"
printf 'git-tests master password\n' >"$work/master"
"$pwtui" init --kdf interactive --master-password-fd 3 3<"$work/master" >"$work/init.out" 2>&1 || { cat "$work/init.out"; exit 1; }

cat >"$work/bin/git-credential-pwtui" <<SCRIPT
#!/bin/sh
exec '$pwtui' git-credential --master-password-fd 3 "\$@" 3<'$work/master'
SCRIPT
chmod +x "$work/bin/git-credential-pwtui"
# helper_test_timeout: a helper whose credentials expire. pwtui's expire when its agent locks
# after its idle timeout: each store unlocks an agent that locks after one idle second, as a
# person's `pwtui unlock --idle-timeout 1s` would, and get asks that agent only (no descriptor).
# Locked, with no terminal, the helper must answer nothing and say nothing (issue 38).
cat >"$work/bin/git-credential-pwtuitimeout" <<SCRIPT
#!/bin/sh
if [ "\$1" = store ]; then
	'$pwtui' unlock --idle-timeout 1s --master-password-fd 3 3<'$work/master' >/dev/null 2>&1 || exit 1
fi
exec '$pwtui' git-credential "\$@"
SCRIPT
chmod +x "$work/bin/git-credential-pwtuitimeout"
export PATH="$work/bin:$PATH"

cd "$work/t"
# setsid: no controlling terminal, as under git's own harness in CI: the helper must answer
# without a person (a terminal would open the picker).
TRASH_DIRECTORY="$work/trash" GIT_TEST_CREDENTIAL_HELPER=pwtui GIT_TEST_CREDENTIAL_HELPER_TIMEOUT=pwtuitimeout \
	setsid -w sh "./$script" </dev/null
