# shellcheck shell=bash
# Sourced by tests/hostile/run.sh (its helpers: ok, bad, err_is, $OUT,
# $here, $ANANKE): the ACP memory bombs of issue 18, each run under a 1 GiB
# address-space limit. Both must end as an ERROR naming max_turn_bytes
# well within their timeout (in 22 s; the turn's timeout is 45 s, for the sanitizers), with ananke's peak RSS under 400 MB
# (docs/security.md: 24 x 16 MiB of message chunks took 1.98 GB before the
# cap). Under the sanitizers ASan reserves terabytes of address space and
# counts its shadow in the RSS: there only the verdict and the time are
# checked, without the limit.
# ---- G. ACP memory bombs ----
vlimit=1048576 max_ms=22000
[ "$sanitized" = 1 ] && vlimit=unlimited max_ms=47000
for b in chunks terminal; do
  case $b in
    chunks) name="24 message chunks of 16 MiB" ;;
    terminal) name="30 MiB of terminal output read eight times" ;;
  esac
  rm -f "$OUT/bomb-$b.json" "$OUT/bomb-$b.rss"
  t0=$(date +%s%N)
  (cd "$here/acp-bomb" && ulimit -v "$vlimit" && timeout -k 5 60 /usr/bin/time -f '%M' \
    -o "$OUT/bomb-$b.rss" "$ANANKE" run "$b.test.yaml" -r json:"$OUT/bomb-$b.json") \
    >"$OUT/bomb-$b.stdout" 2>&1
  ms=$((($(date +%s%N) - t0) / 1000000))
  err_is "G: $b bomb under ulimit -v $vlimit KiB: an ERROR naming the cap" "$OUT/bomb-$b.json" \
    "$name" error \
    'larger than max_turn_bytes \(67108864 bytes\)'
  [ "$ms" -lt "$max_ms" ] && ok "G: $b bomb ended within its timeout (${ms} ms)" ||
    bad "G: $b bomb took ${ms} ms"
  [ "$sanitized" = 1 ] && continue
  rss=$(tail -n 1 "$OUT/bomb-$b.rss" 2>/dev/null)
  [ -n "$rss" ] && [ "$rss" -lt 400000 ] && ok "G: $b bomb: peak RSS ${rss} KB (< 400 MB)" ||
    bad "G: $b bomb: peak RSS '${rss}' KB"
done
