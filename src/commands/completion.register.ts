import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';

/** completion bash|zsh|fish, and the hidden __complete used by the scripts. */
export function registerShellCommands(_program: Command, _ctx: CliContext): void {}
