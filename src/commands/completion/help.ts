// The help of `chamberctl completion` (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

export const COMPLETION_HELP: HelpOf = {
  completion: {
    description: `The script completes commands and subcommands, options (the global ones too, after the
subcommand), the allowed values of options (\`--type\` and \`--status\` of the command at
hand, \`--sort\` with its \`-field\` forms, \`--membership-type\`, \`--api-version\`,
\`--include\`, \`--seed\`), fields after \`--json\`, profile names (\`--profile\`,
\`profiles use\`, \`profiles remove\`) and file names where a file is expected
(\`members import CHAMBER_ID FILE\`, \`--report\`, \`serve --db\`). It asks the installed
chamberctl for the candidates each time (\`chamberctl __complete\`), so it stays right
after an upgrade: there is nothing to regenerate. The same scripts ship in the package's
\`completions/\` directory (\`$(npm root --global)/chamberctl/completions/\` after a
global install).

- bash: the directory below needs the \`bash-completion\` package; without it, put the
  \`source\` line in \`~/.bashrc\`.
- zsh: put \`_chamberctl\` in a directory on \`$fpath\` before \`compinit\` runs (in
  \`~/.zshrc\`: \`fpath=(~/.zfunc $fpath)\`, then \`autoload -Uz compinit && compinit\`), and
  start a new shell; if an old completion sticks, \`rm -f ~/.zcompdump*\` and start again.
  For the current shell only: \`source <(chamberctl completion zsh)\` after \`compinit\`.
- fish: the file below is read by every new fish.
`,
    examples: [
      'chamberctl completion bash > ~/.local/share/bash-completion/completions/chamberctl   # mkdir -p the directory first',
      'source <(chamberctl completion bash)                  # bash, this shell only (or in ~/.bashrc)',
      'mkdir -p ~/.zfunc && chamberctl completion zsh > ~/.zfunc/_chamberctl',
      'chamberctl completion fish > ~/.config/fish/completions/chamberctl.fish',
    ],
    exitCodes: [
      [0, 'the script was printed'],
      [2, 'a shell other than bash, zsh or fish'],
    ],
    seeAlso: ['help environment'],
  },
};
