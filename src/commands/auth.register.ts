import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';

/** login, logout, auth status|token, profiles list|use|remove. */
export function registerAuthCommands(_program: Command, _ctx: CliContext): void {}
