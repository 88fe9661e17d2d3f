# fish completion for chamberctl
#
# Install:
#   chamberctl completion fish > ~/.config/fish/completions/chamberctl.fish
#
# The script is thin on purpose: it hands the words before the cursor to the hidden
# `chamberctl __complete` command, which answers from the live command tree, so it never
# goes stale. Protocol: candidate lines ("VALUE" or "VALUE<TAB>DESCRIPTION", which is also
# fish's own format), then one line ":nofiles" or ":files" (also complete file names).
# See src/completion/README.md.

function __chamberctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct)
    # "$current" stays one (possibly empty) word even when nothing is typed yet
    set -l out (chamberctl __complete -- $words "$current" 2>/dev/null)
    or return
    set -q out[1]; or return
    set -l directive $out[-1]
    set -e out[-1]
    printf '%s\n' $out
    if test "$directive" = ":files"
        if string match -q -- '--*=*' "$current"
            # "--report=fi": complete the file name after the "="
            set -l flag (string replace -r '=.*' '=' -- "$current")
            for path in (__fish_complete_path (string replace -r '^[^=]*=' '' -- "$current"))
                printf '%s%s\n' $flag $path
            end
        else
            __fish_complete_path "$current"
        end
    end
end

complete -c chamberctl -f -a '(__chamberctl_complete)'
