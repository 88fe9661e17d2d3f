# bash bash-capture.bash SCRIPT WORD...
# Loads the completion SCRIPT, then calls the function it registered for chamberctl the way
# bash's readline does: COMP_WORDS are the words as bash splits them (COMP_WORDBREAKS makes
# "--type=h" three words: "--type" "=" "h"), the last being the word under the cursor.
# Prints COMPREPLY, one a line.
source "$1" || exit 3
shift
spec=$(complete -p chamberctl) || { echo 'the script registered no completion for chamberctl' >&2; exit 3; }
fn=${spec##*-F }
fn=${fn%% *}
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$fn" chamberctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
(( ${#COMPREPLY[@]} )) && printf '%s\n' "${COMPREPLY[@]}"
exit 0
