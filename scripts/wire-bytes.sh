#!/bin/sh
# Bytes on the wire for the landing page's files: the page, then every script
# and stylesheet it names, each fetched as a browser would (`curl --compressed`
# sends Accept-Encoding: deflate, gzip, br, zstd where curl supports them).
# Usage: scripts/wire-bytes.sh http://127.0.0.1:8080
set -eu
base=${1:-http://127.0.0.1:8080}
total=0
for path in / $(curl -s "$base/" | grep -o '/assets/[^"]*'); do
  line=$(curl -s --compressed -o /dev/null -D - -w 'SIZE %{size_download}\n' "$base$path")
  size=$(printf '%s\n' "$line" | sed -n 's/^SIZE //p')
  enc=$(printf '%s\n' "$line" | tr -d '\r' | sed -n 's/^[Cc]ontent-[Ee]ncoding: //p')
  printf '%-40s %8s bytes  %s\n' "$path" "$size" "${enc:-identity}"
  total=$((total + size))
done
printf '%-40s %8s bytes\n' total "$total"
