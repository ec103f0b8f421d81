#!/bin/sh
# Unpacks git's credential-helper tests (t/t0303-credential-external.sh, t/lib-credential.sh) from
# Debian's source package of the installed git into DIR/t, for run-git-tests.sh. git is
# GPL-2.0: its files are fetched here, never kept in pwtui's repository.
#
#   fetch-git-tests.sh DIR
#
# Needs Debian's source index: as root, it adds a deb-src entry for the suites the system
# already uses (once), and runs apt-get update.
set -eu
dir=$1
version=$(dpkg-query -W -f='${Version}' git)
sources=/etc/apt/sources.list.d/pwtui-deb-src.sources
if ! apt-get source --print-uris "git=$version" >/dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		echo "fetch-git-tests.sh: Debian's source index is not set up; as root, add a deb-src entry and run apt-get update (or run this as root)" >&2
		exit 1
	fi
	if [ ! -f "$sources" ]; then
		suites=$(. /etc/os-release && echo "$VERSION_CODENAME $VERSION_CODENAME-updates")
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$suites" >"$sources"
	fi
	apt-get update -qq
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && apt-get source -qq --download-only "git=$version" >/dev/null 2>&1)
tarball=$(ls "$scratch"/git_*.orig.tar.* | head -n 1)
mkdir -p "$dir/t"
tar -xf "$tarball" -C "$scratch" --wildcards '*/t/t0303-credential-external.sh' '*/t/lib-credential.sh'
cp "$scratch"/git-*/t/t0303-credential-external.sh "$scratch"/git-*/t/lib-credential.sh "$dir/t/"
echo "$version" >"$dir/t/VERSION"
echo "git's credential tests of $version are in $dir/t"
