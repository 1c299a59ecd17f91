#!/bin/sh
# The layering rule (README "Layout"): a library folder may include only its
# own headers and the public headers of the folders after it in the
# Makefile's LIBDIRS; no folder outside tests/ includes another folder's
# *_internal.h (cli/ and bench/ sit above every library). Fails naming each
# offending file, line and header.
# Usage: layering.sh [ROOT]; with no ROOT it checks this repository, and
# first checks itself on a small tree with one violation of each kind.
root=${1:-}
if [ -z "$root" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    t=$(mktemp -d /tmp/gm-layering.XXXXXX); trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/lo" "$t/hi"
    printf 'LIBDIRS := hi lo\n' >"$t/Makefile"
    printf '#include "lo/lo.h"\n' >"$t/hi/a.c"
    printf '#include "hi/hi.h"\n' >"$t/lo/b.c"
    printf '#include "lo/lo_internal.h"\n' >"$t/hi/c.c"
    (cd "$t" && git init -q && git add -A)
    out=$(sh "$here/layering.sh" "$t")
    echo "$out" | grep -q 'lo/b.c:1: lo/ includes hi/hi.h' &&
        echo "$out" | grep -q 'hi/c.c:1: includes lo/lo_internal.h' &&
        ! echo "$out" | grep -q 'hi/a.c' ||
        { echo "layering.sh: the self-check on a known tree failed:"; echo "$out"; exit 1; }
    root="$here/../.."
fi
cd "$root" || exit 1
tmp=$(mktemp); trap 'rm -f "$tmp"; [ -n "${t:-}" ] && rm -rf "$t"' EXIT
libdirs=$(sed -n 's/^LIBDIRS *:= *//p' Makefile)
[ -n "$libdirs" ] || { echo "layering.sh: no LIBDIRS line in Makefile"; exit 1; }
# owner FILE: the folder a file belongs to: its own directory (a library
# folder's sources are its *.c, not its subfolders', so synth/porep/x.c
# belongs to synth/porep and gpu/check/x.c to no library).
owner() {
    case "$1" in */*) echo "${1%/*}" ;; *) echo . ;; esac
}
# rank DIR: its position in LIBDIRS (1 = top), 0 when not a library folder.
rank() {
    i=0
    for d in $libdirs; do i=$((i + 1)); [ "$d" = "$1" ] && { echo $i; return; }; done
    echo 0
}
files=$(git ls-files '*.c' '*.h' '*.cc' '*.cu' '*.cuh' | grep -v '^tests/\|^fuzz/')
for f in $files; do
    me=$(owner "$f"); mr=$(rank "$me")
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
        n=${line%%:*}
        h=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
        case "$h" in */*) ;; *) continue ;; esac
        hd=$(owner "$h"); hr=$(rank "$hd")
        if [ "$hd" != "$me" ]; then
            case "$h" in *_internal.h)
                echo "$f:$n: includes $h, the internal header of $hd/"; echo x >>"$tmp"; continue ;;
            esac
            if [ "$hr" -gt 0 ] && [ "$mr" -gt 0 ] && [ "$hr" -lt "$mr" ]; then
                echo "$f:$n: $me/ includes $h, but $hd/ is above $me/ in LIBDIRS"; echo x >>"$tmp"
            fi
        fi
    done
done
[ -s "$tmp" ] && exit 1
echo "layering: $(echo $files | wc -w) files follow LIBDIRS ($libdirs)"
exit 0
