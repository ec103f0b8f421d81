#!/bin/sh
# Makes the Python environment the Secret Service tests run their clients in: a virtual
# environment at DIR/venv with python-requirements.txt's packages from PyPI (wheels only, so
# nothing is compiled), and secretstorage's own test suite from its source distribution at
# DIR/secretstorage-tests (checked against its SHA-256 first). `make test` runs this when
# DIR/ready is missing or DIR/python-requirements.txt differs from the committed one; the tests
# that need the environment fail, saying so, without it.
#
#   make-python-env.sh DIR
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
secretstorage=3.5.0
sdist_sha256=f04b8e4689cbce351744d5537bf6b1329c6fc68f91fa666f60a380edddcd11be
rm -rf "$dir"
mkdir -p "$dir"
python3 -m venv "$dir/venv"
pip="$dir/venv/bin/pip"
"$pip" install --quiet --disable-pip-version-check --no-input --only-binary :all: -r "$here/python-requirements.txt"
"$pip" download --quiet --disable-pip-version-check --no-input --no-binary :all: --no-deps --dest "$dir/sdist" \
	"secretstorage==$secretstorage"
sdist="$dir/sdist/secretstorage-$secretstorage.tar.gz"
echo "$sdist_sha256  $sdist" | sha256sum --check --quiet
tar -xzf "$sdist" -C "$dir/sdist"
mv "$dir/sdist/secretstorage-$secretstorage/tests" "$dir/secretstorage-tests"
rm -rf "$dir/sdist"
cp "$here/python-requirements.txt" "$dir/python-requirements.txt"
touch "$dir/ready"
echo "make-python-env.sh: $dir/venv ($("$dir/venv/bin/python3" --version)) and secretstorage $secretstorage's tests"
