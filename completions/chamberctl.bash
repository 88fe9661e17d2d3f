# bash completion for chamberctl                                 -*- shell-script -*-
#
# Install one of these ways:
#   chamberctl completion bash > ~/.local/share/bash-completion/completions/chamberctl
#   echo 'source <(chamberctl completion bash)' >> ~/.bashrc
#
# The script is thin on purpose: it hands the words before the cursor to the hidden
# `chamberctl __complete` command, which answers from the live command tree, so it never
# goes stale. Protocol: candidate lines ("VALUE" or "VALUE<TAB>DESCRIPTION"), then one line
# ":nofiles" or ":files" (also complete file names). See src/completion/README.md.

_chamberctl() {
    (( COMP_CWORD >= 1 )) || return 0
    local -a words=()
    local i word glue=0
    # Bash splits "--type=hq" into "--type" "=" "hq" (COMP_WORDBREAKS); glue them back,
    # since chamberctl reads "--type=hq" as one word.
    for (( i = 1; i <= COMP_CWORD; i++ )); do
        word=${COMP_WORDS[i]}
        if [[ $word == "=" && ${#words[@]} -gt 0 && ${words[${#words[@]}-1]} == --* ]]; then
            words[${#words[@]}-1]+="="
            glue=1
        elif (( glue )); then
            words[${#words[@]}-1]+=$word
            glue=0
        else
            words+=("$word")
        fi
    done
    local current=${words[${#words[@]}-1]}
    # Readline replaces only the text after the last "=" or ":", so that part of each
    # candidate is what goes into COMPREPLY.
    local tail=${current##*[=:]}
    local head=${current%"$tail"}

    local out
    out=$(chamberctl __complete -- "${words[@]}" 2>/dev/null) || return 0
    local directive=${out##*$'\n'}
    local body=
    [[ $out == *$'\n'* ]] && body=${out%$'\n'*}

    COMPREPLY=()
    local line value
    while IFS= read -r line; do
        [[ -n $line ]] || continue
        value=${line%%$'\t'*}
        [[ $value == "$current"* ]] && COMPREPLY+=("${value#"$head"}")
    done <<< "$body"

    if [[ $directive == ":files" ]]; then
        compopt -o filenames 2>/dev/null
        while IFS= read -r line; do
            COMPREPLY+=("$line")
        done < <(compgen -f -- "$tail")
    fi
    return 0
}

complete -F _chamberctl chamberctl
