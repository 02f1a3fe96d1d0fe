#!/bin/sh
# Regenerates the Go accessors and builders for vulkan.fbs (via `go generate ./backends/vulkan/...`).
# Needs flatc (FLATC, default "flatc"): Debian's flatbuffers-compiler, or the one the executorch
# wheel ships at executorch/data/bin/flatc (24.3.25 made the committed files, as for XNNPACK's).
set -eu
FLATC=${FLATC:-flatc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$FLATC" --go --go-namespace schema -o "$tmp" vulkan.fbs
rm -f ./*_gen.go
for f in "$tmp"/schema/*.go; do
  base=$(basename "$f" .go)
  out=$(echo "$base" | sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' | tr 'A-Z' 'a-z')_gen.go
  cp "$f" "$out"
done
gofmt -w ./*_gen.go
