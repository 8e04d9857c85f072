# Helpers shared by the bench scripts that time other programs beside ours
# (sourced, not run). The caller sets $tmp (a scratch folder) and $reps.

# best_of CMD...: runs CMD $reps times and keeps the run with the least
# wall time; prints "wall user rss" of it (wall in seconds to the
# millisecond, from the clock around the run; user seconds and peak
# resident KiB from GNU time). That run's stdout and stderr are left in
# $tmp/out and $tmp/err.
best_of() {
  local best="" line t0 wall
  for _ in $(seq "$reps"); do
    t0=$(date +%s.%N)
    /usr/bin/time -f "%U %M" -o "$tmp/time" "$@" >"$tmp/out.now" 2>"$tmp/err.now"
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    line="$(printf '%.3f' "$wall") $(cat "$tmp/time")"
    if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best=$line
      cp "$tmp/out.now" "$tmp/out"
      cp "$tmp/err.now" "$tmp/err"
    fi
  done
  echo "$best"
}
