# zsh -f zsh-capture.zsh FPATH_DIR LINE
# Prints, one a line, every match zsh's completion system offers for LINE<TAB>, with the
# _chamberctl found in FPATH_DIR. ZLE completion only runs in an interactive shell, so an
# inner `zsh -f -i` runs on a pseudo-terminal (zsh/zpty); a compadd wrapper prints each
# match between \x01 and \x02, and a comppostfuncs hook prints \x03 and exits when done.
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 3 }
local dir=$1 line=$2
zpty z zsh -f -i
zpty -w z "PROMPT='' RPROMPT=''; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
# Every match added (internal -O/-A/-D calls excepted) is printed between \x01 and \x02.
zpty -w z 'compadd() { if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi; local -a m; builtin compadd -O m "$@"; local x; for x in $m; do print -rn -- $'\''\x01'\''$x$'\''\x02'\''; done; builtin compadd "$@"; }'
zpty -w z 'comppostfuncs=(__done); __done() { print -rn -- $'\''\x03'\''; exit }'
zpty -w -n z "$line"$'\t'
local out chunk
local -i tries=0
while (( tries++ < 600 )); do
  if zpty -r -t z chunk; then out+=$chunk; [[ $out == *$'\x03'* ]] && break; else sleep 0.02; fi
done
zpty -d z
[[ $out == *$'\x03'* ]] || { print -u2 "no completion finished:"; print -u2 -r -- $out; exit 4 }
local -a matches
matches=( ${(f)"$(print -r -- $out | grep -ao $'\x01[^\x02]*\x02' | tr -d $'\x01\x02')"} )
print -rl -- $matches
