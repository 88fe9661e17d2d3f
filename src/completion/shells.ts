// The shells `chamberctl completion` supports, and the committed script of each (completions/).
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** File names under completions/ (zsh wants `_name` on its $fpath). */
export const SCRIPT_FILES: Record<Shell, string> = {
  bash: 'chamberctl.bash',
  zsh: '_chamberctl',
  fish: 'chamberctl.fish',
};
