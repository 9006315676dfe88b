#!/usr/bin/env bash
# Builds the kube-apiserver and etcd binaries that the integration tests run
# (internal/testenv), from the Go module proxy, into a cache folder:
#
#   ${LUAINTERP_ENVTEST_DIR:-$HOME/.cache/luainterp/envtest/1.37.2}/{kube-apiserver,etcd}
#
# It skips a binary that is already there, so a second run costs nothing.
# kube-apiserver comes from k8s.io/kubernetes v1.37.2, whose staging modules
# (k8s.io/api, k8s.io/apiserver, ...) are replaced by their published v0.37.2;
# etcd from go.etcd.io/etcd/server/v3 v3.7.3 (Debian's etcd-server if that
# build fails). Prints the folder on its last line.
set -euo pipefail

K8S_VERSION=1.37.2
STAGING_VERSION=v0.37.2
ETCD_VERSION=v3.7.3
DIR="${LUAINTERP_ENVTEST_DIR:-$HOME/.cache/luainterp/envtest/$K8S_VERSION}"
GO="${GO:-go}"
mkdir -p "$DIR/src"
DIR="$(cd "$DIR" && pwd)"

log() { echo "envtest-binaries: $*" >&2; }

timed() { # timed NAME COMMAND...: runs COMMAND, then prints how long it took
	local name=$1 start=$SECONDS
	shift
	"$@"
	log "$name took $((SECONDS - start))s"
}

build_etcd() {
	local src="$DIR/src/etcd"
	mkdir -p "$src"
	cat >"$src/main.go" <<'GO'
// Command etcd is etcd's server, built from go.etcd.io/etcd/server/v3 for
// luainterp's integration tests.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
	cat >"$src/go.mod" <<GOMOD
module luainterp.local/envtest/etcd

go 1.26

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
GOMOD
	(cd "$src" && GOFLAGS=-mod=mod "$GO" mod tidy && \
		CGO_ENABLED=0 "$GO" build -trimpath -ldflags '-s -w' -o "$DIR/etcd.tmp" .)
	mv "$DIR/etcd.tmp" "$DIR/etcd"
}

etcd_from_debian() {
	log "building etcd failed; installing Debian's etcd-server instead"
	if ! command -v etcd >/dev/null; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server
	fi
	cp "$(command -v etcd)" "$DIR/etcd"
}

build_kube_apiserver() {
	local src="$DIR/src/kube-apiserver" gomod
	mkdir -p "$src"
	# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces
	# them by ./staging; a module that requires it must replace each one by a
	# published version itself.
	gomod=$("$GO" mod download -json "k8s.io/kubernetes@v$K8S_VERSION" |
		sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
	{
		echo "module luainterp.local/envtest/kube-apiserver"
		echo
		echo "go 1.26"
		echo
		echo "require k8s.io/kubernetes v$K8S_VERSION"
		echo
		sed -n 's#^[[:space:]]*\(k8s.io/[^[:space:]]*\) => ./staging/src/.*#replace \1 => \1 '"$STAGING_VERSION"'#p' "$gomod"
	} >"$src/go.mod"
	log "kube-apiserver: $(grep -c '^replace' "$src/go.mod") staging modules replaced by $STAGING_VERSION"
	local pkg=k8s.io/component-base/version minor=${K8S_VERSION#*.}
	minor=${minor%%.*}
	(cd "$src" && GOFLAGS=-mod=mod "$GO" get "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S_VERSION" && \
		CGO_ENABLED=0 "$GO" build -trimpath \
			-ldflags "-s -w -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor" \
			-o "$DIR/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver)
	mv "$DIR/kube-apiserver.tmp" "$DIR/kube-apiserver"
}

total=$SECONDS
if [ -x "$DIR/etcd" ]; then
	log "etcd is there ($DIR/etcd), skipping"
else
	log "building etcd $ETCD_VERSION into $DIR"
	timed "etcd" build_etcd || etcd_from_debian
fi
if [ -x "$DIR/kube-apiserver" ]; then
	log "kube-apiserver is there ($DIR/kube-apiserver), skipping"
else
	log "building kube-apiserver v$K8S_VERSION into $DIR (about 15 minutes on 2 cores)"
	timed "kube-apiserver" build_kube_apiserver
fi
log "done in $((SECONDS - total))s"
echo "$DIR"
