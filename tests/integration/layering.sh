#!/bin/sh
# The layering rule (README "Layout"), on includes and on calls:
#  - includes: a library folder may include only its own headers and the
#    public headers of the folders after it in the Makefile's LIBDIRS; no
#    folder outside tests/ includes another folder's *_internal.h;
#  - calls: each library's archive in $BUILD (when built) calls only symbols
#    its own folder or the folders after it define (nm), so a declaration
#    copied by hand does not get around the include rule;
#  - every folder with sources is a library folder of LIBDIRS or one of the
#    program folders, which sit above every library and are listed (the only
#    exemptions): cli/, bench/, tools/... (tests/ and fuzz/ are not checked).
# Fails naming each offending file and line (or archive and symbol).
# Usage: layering.sh [ROOT [BUILD]]; with no ROOT it checks this repository
# (BUILD from the environment, default build), and first checks itself on a
# small tree with one violation of each kind.
programs="cli bench tools"
root=${1:-}
bdir=${2:-${BUILD:-build}}
if [ -z "$root" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    t=$(mktemp -d /tmp/gm-layering.XXXXXX); trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/lo" "$t/hi" "$t/hi/sub" "$t/cli" "$t/b/hi" "$t/b/lo"
    printf 'LIBDIRS := hi lo\n' >"$t/Makefile"
    printf '#include "lo/lo.h"\nint hi_f(void) { return 1; }\n' >"$t/hi/a.c"
    printf '#include "hi/hi.h"\n' >"$t/lo/b.c"
    printf '#include "lo/lo_internal.h"\n' >"$t/hi/c.c"
    printf '#include "hi/hi.h"\n' >"$t/hi/sub/d.c"
    printf '#include "hi/hi.h"\n' >"$t/cli/main.c"
    printf 'int hi_f(void);\nint lo_g(void) { return hi_f(); }\n' >"$t/lo/e.c"
    (cd "$t" && : >lo/lo.h && cc -c -I. hi/a.c -o b/hi/a.o && cc -c lo/e.c -o b/lo/e.o &&
        ar rcs b/libhi.a b/hi/a.o && ar rcs b/liblo.a b/lo/e.o && rm lo/lo.h && git init -q && git add -A)
    out=$(sh "$here/layering.sh" "$t" "$t/b")
    echo "$out" | grep -q 'lo/b.c:1: lo/ includes hi/hi.h' &&
        echo "$out" | grep -q 'hi/c.c:1: includes lo/lo_internal.h' &&
        echo "$out" | grep -q 'hi/sub/d.c: hi/sub/ is neither a library folder' &&
        echo "$out" | grep -q 'liblo.a: lo/ calls hi_f, defined in hi/' &&
        ! echo "$out" | grep -q 'hi/a.c\|cli/main.c' ||
        { echo "layering.sh: the self-check on a known tree failed:"; echo "$out"; exit 1; }
    root="$here/../.."
fi
cd "$root" || exit 1
tmp=$(mktemp); trap 'rm -f "$tmp" "$tmp.def"; [ -n "${t:-}" ] && rm -rf "$t"' EXIT
libdirs=$(sed -n 's/^LIBDIRS *:= *//p' Makefile)
[ -n "$libdirs" ] || { echo "layering.sh: no LIBDIRS line in Makefile"; exit 1; }
# owner FILE: the folder a file belongs to: its own directory (a library
# folder's sources are its *.c, not its subfolders', so synth/porep/x.c
# belongs to synth/porep).
owner() {
    case "$1" in */*) echo "${1%/*}" ;; *) echo . ;; esac
}
# rank DIR: its position in LIBDIRS (1 = top), 0 when not a library folder.
rank() {
    i=0
    for d in $libdirs; do i=$((i + 1)); [ "$d" = "$1" ] && { echo $i; return; }; done
    echo 0
}
# program DIR: true for a program folder (or one below it).
program() {
    for p in $programs; do case "$1/" in "$p"/*) return 0 ;; esac; done
    return 1
}
files=$(git ls-files '*.c' '*.h' '*.cc' '*.cu' '*.cuh' | grep -v '^tests/\|^fuzz/')
exempt=""
for f in $files; do
    me=$(owner "$f"); mr=$(rank "$me")
    if [ "$mr" -eq 0 ]; then
        if program "$me"; then
            case " $exempt " in *" $me/ "*) ;; *) exempt="$exempt $me/" ;; esac
        else
            echo "$f: $me/ is neither a library folder in LIBDIRS nor a program folder ($programs)"; echo x >>"$tmp"
        fi
    fi
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
# Calls: "symbol rank" for every global definition, then each archive's
# undefined symbols against the lowest folder defining them.
calls="calls not checked (no archives in $bdir)"
i=0
for d in $libdirs; do
    i=$((i + 1)); a=$bdir/lib$(echo "$d" | tr / _).a
    [ -f "$a" ] && nm -g -P --defined-only "$a" 2>/dev/null | awk -v r=$i 'NF >= 2 && $2 != "U" {print $1, r}'
done >"$tmp.def"
if [ -s "$tmp.def" ]; then
    i=0; n=0
    for d in $libdirs; do
        i=$((i + 1)); a=$bdir/lib$(echo "$d" | tr / _).a
        [ -f "$a" ] || continue
        n=$((n + 1))
        nm -g -P -u "$a" 2>/dev/null | awk '$2 == "U" {print $1}' | sort -u |
            awk -v r=$i -v me="$d" -v a="$a" -v lib="$libdirs" '
                BEGIN { split(lib, names, " ") }
                FNR == NR { if (!($1 in low) || $2 > low[$1]) low[$1] = $2; next }
                ($1 in low) && low[$1] < r { printf "%s: %s/ calls %s, defined in %s/, above it in LIBDIRS\n", a, me, $1, names[low[$1]] }
            ' "$tmp.def" - | while IFS= read -r line; do echo "$line"; echo x >>"$tmp"; done
    done
    calls="calls checked in $n archives of $bdir"
fi
[ -s "$tmp" ] && exit 1
echo "layering: $(echo $files | wc -w) files follow LIBDIRS ($libdirs); $calls; exempt, as programs above every library:$exempt"
exit 0
