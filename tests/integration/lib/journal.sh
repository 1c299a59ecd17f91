# tests/integration/lib/journal.sh — sourced by the campaign tests: how many
# units a campaign's journal holds, waiting for progress, the consistency
# check every fault test ends with, and the "same valid proofs" comparison of
# campaign variants. The caller defines fail() and BIN.

# ndone DIR: the number of "done" lines in DIR/journal (0 before it exists)
ndone() { n=$(grep -c '^done ' "$1/journal" 2>/dev/null || true); echo "${n:-0}"; }
wait_done() { # DIR COUNT: until COUNT units are journaled (the campaign is running)
  i=0
  while [ "$(ndone "$1")" -lt "$2" ]; do
    sleep 0.1; i=$((i + 1)); [ $i -lt 1200 ] || fail "$1: no progress"
  done
}
rank_pid() { # MPIRUN_PID RANK
  for p in $(pgrep -P "$1"); do
    if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -q "^OMPI_COMM_WORLD_RANK=$2\$"; then echo "$p"; return; fi
  done
}
# consistent DIR [orphans-ok] [tmp-ok]: every journal line's files exist and
# hash to it; no temporary file, unless tmp-ok (a writer SIGKILLed inside a
# write leaves its "<name>.tmp.<pid>"; the rerun removes it, so the check
# after the rerun must not pass tmp-ok); no proof file without its line,
# unless orphans-ok (a SIGKILL between a proof's rename and its journal line
# leaves a complete proof that the rerun proves again and replaces).
consistent() {
  case " $* " in *" tmp-ok "*) ;; *)
    ls "$1" "$1/proofs" | grep -q '\.tmp\.' && fail "$1: temporary file left" ;;
  esac
  grep '^done ' "$1/journal" > "$1.lines" || true
  while read -r _ name psha qsha _; do
    [ "$(sha256sum < "$1/proofs/$name.proof" | cut -d' ' -f1)" = "$psha" ] || fail "$1: $name.proof does not match its journal line"
    [ "$(sha256sum < "$1/proofs/$name.public.json" | cut -d' ' -f1)" = "$qsha" ] || fail "$1: $name.public.json does not match"
  done < "$1.lines"
  case " $* " in *" orphans-ok "*) return 0 ;; esac
  [ "$(ls "$1/proofs" | grep -c '\.proof$')" -eq "$(ndone "$1")" ] \
    || fail "$1: proof files without a journal line"
}

# same_proofs VK COUNT DIR...: each DIR/proofs holds COUNT proofs, every one
# verifies with VK, and all DIRs hold the same units with the same public
# inputs (the first DIR is the reference).
same_proofs() {
  vk=$1; count=$2; shift 2
  want=""; first=$1
  for d in "$@"; do
    n=$(ls "$d/proofs" | grep -c '\.proof$')
    [ "$n" -eq "$count" ] || fail "$d: $n proof files, expected $count"
    for p in "$d"/proofs/*.proof; do
      "$BIN" verify --vk "$vk" --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null || fail "$p does not verify"
    done
    s=$(cd "$d/proofs" && for f in *.public.json; do echo "$f $(tr -d ' \n' < "$f")"; done | md5sum)
    [ -z "$want" ] || [ "$s" = "$want" ] || fail "$d: other units or public inputs than $first"
    want=$s
  done
}
