#!/usr/bin/env bash
# Generates the man page and shell completions from boop's own help text, so they can never
# disagree with `boop --help`:
#
#   build-docs/boop.1                  man page (mdoc), from swift-argument-parser's generate-manual
#   build-docs/completions/boop.bash   bash  (install as share/bash-completion/completions/boop)
#   build-docs/completions/_boop       zsh   (install as share/zsh/site-functions/_boop)
#   build-docs/completions/boop.fish   fish  (install as share/fish/vendor_completions.d/boop.fish)
#
#   scripts/generate-docs.sh [OUT-DIR]          default OUT-DIR: build-docs
#   BOOP=path/to/boop scripts/generate-docs.sh  use an already built boop (otherwise a release build)
#
# Works offline: generate-manual is the tool behind swift-argument-parser's GenerateManual plugin,
# built from the already resolved dependency. If it cannot be built, a plainer man page is made from
# `boop help <command>` instead. The date in the page comes from SOURCE_DATE_EPOCH, else the last
# commit, so the same sources give the same bytes.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-build-docs}
case "$out" in /*) ;; *) out="$root/$out" ;; esac
scratch=${SCRATCH_PATH:-$root/.build}
swift_jobs=${JOBS:-2}

cd "$root"
if [ -z "${BOOP:-}" ]; then
    swift build -c release --scratch-path "$scratch" -j "$swift_jobs" --product boop >&2
    BOOP="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/boop"
fi
[ -x "$BOOP" ] || { echo "generate-docs: $BOOP: not an executable boop" >&2; exit 1; }

if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
elif date=$(git -C "$root" log -1 --format=%cs 2>/dev/null) && [ -n "$date" ]; then
    :
else
    date=$(date -u +%Y-%m-%d)
fi

mkdir -p "$out/completions"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- completions -------------------------------------------------------------------------------
"$BOOP" --generate-completion-script bash >"$tmp/boop.bash"
"$BOOP" --generate-completion-script zsh >"$tmp/_boop"
"$BOOP" --generate-completion-script fish >"$tmp/boop.fish"
bash -n "$tmp/boop.bash"
if command -v zsh >/dev/null; then zsh -n "$tmp/_boop"; fi
if command -v fish >/dev/null; then fish --no-execute "$tmp/boop.fish"; fi
for f in boop.bash _boop boop.fish; do mv "$tmp/$f" "$out/completions/$f"; done

# ---- man page ----------------------------------------------------------------------------------
# Sections the help text cannot carry: the exit statuses of DESIGN.md, files, examples, see also.
extra_sections() {
    cat <<'EOF'
.Sh EXIT STATUS
.Bl -tag -width 4n -compact
.It 0
done (Ctrl-C or q in play, tone, listen and ambient is a normal stop)
.It 64
bad command-line use, including a note or frequency out of range
.It 65
invalid pattern or preset content
.It 66
input file missing
.It 69
audio device unavailable
.It 73
output cannot be created
.It 74
I/O error while running, such as a device that disappears
.It 130
interrupted render (no partial file is left)
.El
.Sh FILES
.Bl -tag -width 4n
.It Pa PREFIX/share/pixelboop/examples/
Example patterns, e.g.
.Pa demo.json .
.El
.Sh EXAMPLES
Render the demo pattern to a WAV file, and to a Standard MIDI File:
.Dl boop render /usr/local/share/pixelboop/examples/demo.json -o demo.wav
.Dl boop render /usr/local/share/pixelboop/examples/demo.json -o demo.mid --loops 4
Control a playing boop from another terminal or a media key (MPRIS):
.Dl playerctl -p boop play-pause
.Sh SEE ALSO
.Xr playerctl 1 ,
.Xr aplay 1 ,
.Xr arecord 1
EOF
}

manual_tool=""
if [ -n "${BOOP_DOCS_PLAIN:-}" ]; then
    : # forced fallback (to test it)
elif swift build --scratch-path "$scratch" -j "$swift_jobs" --product generate-manual >"$tmp/tool.log" 2>&1; then
    manual_tool="$(swift build --scratch-path "$scratch" --show-bin-path)/generate-manual"
else
    echo "generate-docs: generate-manual could not be built (see below); using the plain help text" >&2
    tail -5 "$tmp/tool.log" >&2
fi

if [ -n "$manual_tool" ] && "$manual_tool" "$BOOP" --date "$date" --section 1 -o "$tmp" >&2 && [ -s "$tmp/boop.1" ]; then
    # Replace the generic ".Ex -std" exit section (and anything after it) with the real one.
    version=$("$BOOP" --version)
    awk -v os="PixelBoop $version" '/^\.Sh "?EXIT STATUS"?$/ { exit } /^\.Os$/ { print ".Os \"" os "\""; next } { print }' \
        "$tmp/boop.1" >"$tmp/boop.1.new"
    extra_sections >>"$tmp/boop.1.new"
    mv "$tmp/boop.1.new" "$out/boop.1"
else
    # Fallback: man(7) page whose body is the verbatim help of every command.
    {
        printf '.TH BOOP 1 "%s" "boop %s" "User Commands"\n' "$date" "$("$BOOP" --version)"
        printf '.SH NAME\nboop \\- %s\n' "$("$BOOP" --help | sed -n '1,/^$/p' | tr '\n' ' ' | sed 's/^OVERVIEW: //; s/ *$//')"
        printf '.SH DESCRIPTION\n.nf\n'
        "$BOOP" --help | sed 's/\\/\\e/g; s/^\./\\\&./'
        for sub in $("$BOOP" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
            printf '.fi\n.SH "BOOP %s"\n.nf\n' "$(echo "$sub" | tr a-z A-Z)"
            "$BOOP" help "$sub" | sed 's/\\/\\e/g; s/^\./\\\&./'
        done
        printf '.fi\n.SH "EXIT STATUS"\n.nf\n0 done; 64 usage; 65 invalid pattern/preset; 66 input missing;\n'
        printf '69 device unavailable; 73 cannot create output; 74 I/O error; 130 interrupted render\n.fi\n'
    } >"$out/boop.1"
fi

# The page must render without a warning.
if command -v groff >/dev/null; then
    warnings=$(groff -mandoc -ww -z "$out/boop.1" 2>&1 || true)
    if [ -n "$warnings" ]; then echo "generate-docs: $out/boop.1 has warnings:" >&2; echo "$warnings" >&2; exit 1; fi
fi
echo "generate-docs: wrote $out/boop.1 and $out/completions/{boop.bash,_boop,boop.fish} (date $date)"
