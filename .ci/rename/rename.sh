#!/usr/bin/env bash
# .ci/rename/rename.sh — applies the harness split and the mechanical renames
# (issue 50) to a checkout written against the old names: a branch started
# before them. Run it at the branch's root, then build, test and commit:
#
#   .ci/rename/rename.sh [DIR]     (DIR: the checkout, default .)
#
# What it does, in order:
#   0. dpb/noise imported under its own name: in each file that imports it as
#      dpnoise, the locals named noise become nz and dpnoise.X becomes noise.X
#      (the locals command; the notebooks' imports likewise);
#   1. each "old new" pair of harness.map (dpb/experiment's names and where
#      they went), then of renames.map (names that repeated their package's)
#      as a gofmt -r rule on every .go file of the checkout, a rename inside
#      a package also unqualified on the package's files, and as text in the
#      comments and docs;
#   2. the runoptions rewrite: the Workers, Progress and Plan fields of the
#      literals of the configurations in runoptions.types move into their
#      embedded harness.RunOptions;
#   3. goimports on every rewritten file (imports the new packages, drops
#      the old);
#   4. the same pairs on the Go code of the notebooks, with their imports.
# Needs gofmt and goimports on PATH (.ci/install-tools builds goimports).
# It is idempotent: a second run changes nothing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "${1:-.}" && pwd -P)
cd "$root"
command -v goimports >/dev/null || export PATH="$(go env GOPATH)/bin:$PATH"
(cd "$here" && go run . locals -import github.com/dpbandits/dpbandits/dpb/noise -to nz "$root/dpb")
sed -i -e 's/\\tdpnoise \\"github.com\/dpbandits\/dpbandits\/dpb\/noise\\"/\\t\\"github.com\/dpbandits\/dpbandits\/dpb\/noise\\"/' \
	-e 's/\bdpnoise\./noise./g' notebooks/*.ipynb
mapfile -t gofiles < <(git ls-files -co --exclude-standard '*.go' | grep -v '^\.ci/rename/')
mapfile -t docs < <(git ls-files '*.md')
for m in "$here"/harness.map "$here"/renames.map; do
	while read -r old new; do
		[[ -z $old || $old == \#* ]] && continue
		gofmt -r "$old -> $new" -w "${gofiles[@]}"
		opkg=${old%%.*} oname=${old#*.} npkg=${new%%.*} nname=${new#*.}
		if [[ $opkg == "$npkg" && -d dpb/$opkg ]]; then # renamed inside its package
			gofmt -r "$oname -> $nname" -w dpb/"$opkg"/*.go
			sed -i -E "s/\b$oname\b/$nname/g" dpb/"$opkg"/*.go # its comments
		fi
		sed -i -E "s/\b$opkg\.$oname\b/$npkg.$nname/g" "${gofiles[@]}" "${docs[@]}" # comments and docs
	done <"$m"
done
(cd "$here" && go run . runoptions -types runoptions.types -root "$root" "$root/dpb")
changed=$(git diff --name-only -- '*.go')
[[ -n $changed ]] && goimports -w $changed
for m in "$here"/harness.map "$here"/renames.map; do
	(cd "$here" && go run . notebooks -map "$m" "$root"/notebooks/*.ipynb)
done
