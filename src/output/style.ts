import type { ColorLevel } from './settings.js';

/** The few ways output is styled; every function is the identity when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  /** A status value in its colour: active/upcoming green, pending yellow, inactive/past dim, canceled red. */
  status(value: string): string;
  /** Indented JSON with keys, strings, numbers and literals in colours (as jq shows it). */
  json(text: string): string;
}

const same = (text: string) => text;

export const plainStyle: Style = { enabled: false, bold: same, dim: same, status: same, json: same };

// A JSON token: a string (a key when a colon follows), a literal, or a number.
const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(?:true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** chalk is loaded only when colour is actually on. */
export async function createStyle(level: ColorLevel): Promise<Style> {
  if (level === 0) return plainStyle;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level });
  const byStatus: Record<string, (s: string) => string> = {
    active: chalk.green,
    upcoming: chalk.green,
    pending: chalk.yellow,
    inactive: chalk.dim,
    past: chalk.dim,
    canceled: chalk.red,
  };
  return {
    enabled: true,
    bold: (s) => chalk.bold(s),
    dim: (s) => chalk.dim(s),
    status: (s) => (byStatus[s] ?? same)(s),
    json: (text) =>
      text.replace(JSON_TOKEN, (token, str: string | undefined, colon: string | undefined) => {
        if (str !== undefined) return colon !== undefined ? `${chalk.blue.bold(str)}${colon}` : chalk.green(str);
        return /^[tfn]/.test(token) ? chalk.gray(token) : chalk.yellow(token);
      }),
  };
}
