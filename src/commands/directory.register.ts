import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';

/** chambers list|get|create, members list|add, events list. */
export function registerDirectoryCommands(_program: Command, _ctx: CliContext): void {}
