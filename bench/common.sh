# Helpers shared by the bench scripts (sourced, not run).

# median3 A B C: the middle of three numbers.
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# json_mb FILE: the size of the JSON text in MB (decompressed for a gzip file).
json_mb() {
  if [ "$(head -c2 "$1" | od -An -tx1 | tr -d ' ')" = "1f8b" ]; then
    zcat "$1" | wc -c | awk '{printf "%.1f", $1 / 1e6}'
  else
    wc -c <"$1" | awk '{printf "%.1f", $1 / 1e6}'
  fi
}
