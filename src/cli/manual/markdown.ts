// The manual (docs/manual/): one Markdown page per command and help topic, and an index.
// Help texts are Markdown already and are printed as they are; what commander holds
// (descriptions of options and arguments) is escaped.
import type { CommandPage, Manual, TermDoc, TopicPage } from './pages.js';

const GENERATED = '<!-- Generated from the command tree by `npm run docs:manual`; do not edit. -->';

/** The file of a command's page: `chamberctl-members-import.md`. */
export const commandFile = (page: Pick<CommandPage, 'name'>) => `${page.name}.md`;
/** The file of a topic's page: `help-exit-codes.md`. */
export const topicFile = (topic: string) => `help-${topic}.md`;

/** `docs/manual/README.md`: every command and topic, one line each. */
export function indexPage(manual: Manual): string {
  const lines = [
    GENERATED,
    '# The chamberctl manual',
    '',
    'A page for every command and help topic, made from the commands themselves: each says',
    'what `chamberctl COMMAND --help` and `chamberctl help TOPIC` print, and so do the man',
    'pages (`man chamberctl`, `man chamberctl-members-import`, `man chamberctl-help-output`).',
    '',
    `- [\`chamberctl\`](${commandFile(manual.program)}): ${md(manual.program.summary)}`,
  ];
  const groups = [...new Set(manual.program.subcommands.map((c) => c.group))];
  for (const group of groups) {
    lines.push('', `## ${group || 'Commands'}`, '');
    for (const top of manual.program.subcommands.filter((c) => c.group === group)) {
      lines.push(indexLine(top, ''));
      for (const sub of top.subcommands) lines.push(indexLine(sub, '  '));
    }
  }
  lines.push('', '## Help topics', '');
  for (const t of manual.topics) lines.push(`- [\`chamberctl help ${t.topic}\`](${topicFile(t.topic)}): ${md(t.summary)}`);
  return `${lines.join('\n')}\n`;
}

const indexLine = (page: CommandPage, indent: string) => `${indent}- [\`chamberctl ${page.path}\`](${commandFile(page)}): ${md(page.summary)}`;

export function commandMarkdownPage(manual: Manual, page: CommandPage): string {
  const title = page.path ? `chamberctl ${page.path}` : 'chamberctl';
  const parts = [`${GENERATED}\n# ${title}`, sentence(md(page.summary)), fence('', [page.usage])];
  if (page.help.description) parts.push(page.help.description.trim());
  if (page.subcommands.length) parts.push(`## Commands\n\n${page.subcommands.map((s) => indexLine(s, '')).join('\n')}`);
  if (page.arguments.length) parts.push(`## Arguments\n\n${page.arguments.map(termLine).join('\n')}`);
  if (page.options.length) parts.push(`## Options\n\n${page.options.map(termLine).join('\n')}`);
  if (page !== manual.program) parts.push(`## Global options\n\n${manual.globalOptions.map(termLine).join('\n')}`);
  if (page.jsonFields) parts.push(`## JSON fields\n\n\`--json FIELDS\` (comma-separated) prints only these fields: ${page.jsonFields.map((f) => `\`${f}\``).join(', ')}.`);
  if (page === manual.program) {
    parts.push(`## Help topics\n\n${manual.topics.map((t) => `- [\`chamberctl help ${t.topic}\`](${topicFile(t.topic)}): ${md(t.summary)}`).join('\n')}`);
  }
  parts.push(`## Examples\n\n${fence('console', page.help.examples.map((e) => `$ ${e}`))}`);
  if (page.help.exitCodes?.length) {
    const rows = page.help.exitCodes.map(([code, when]) => `| ${code} | ${md(when).replace(/\|/g, '\\|')} |`);
    parts.push(`## Exit codes\n\n| Code | When |\n|---|---|\n${rows.join('\n')}\n\nWhat every exit status means: [\`chamberctl help exit-codes\`](${topicFile('exit-codes')}).`);
  }
  parts.push(`## See also\n\n${seeAlso(manual, page).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** A topic's page: its heading, then exactly what `chamberctl help TOPIC` prints. */
export function topicMarkdownPage(topic: TopicPage): string {
  return `${GENERATED}\n# chamberctl help ${topic.topic}\n\n${topic.text}`;
}

function seeAlso(manual: Manual, page: CommandPage): string[] {
  const links: string[] = [];
  for (const s of page.help.seeAlso ?? []) {
    const topic = /^help (.+)$/.exec(s)?.[1];
    if (topic) {
      const t = manual.topics.find((x) => x.topic === topic);
      if (!t) throw new Error(`chamberctl ${page.path}: see also "${s}" names no topic`);
      links.push(`- [\`chamberctl help ${topic}\`](${topicFile(topic)}): ${md(t.summary)}`);
    } else {
      const target = manual.commands.find((c) => c.path === s);
      if (!target) throw new Error(`chamberctl ${page.path}: see also "${s}" names no command`);
      links.push(indexLine(target, ''));
    }
  }
  const parent = page.path.includes(' ') ? manual.commands.find((c) => c.path === page.path.split(' ')[0]) : undefined;
  if (parent && !links.some((l) => l.includes(`](${commandFile(parent)})`))) links.push(indexLine(parent, ''));
  if (page !== manual.program) links.push(`- [\`chamberctl\`](${commandFile(manual.program)}): the commands, the global options`);
  links.push('- [The manual](README.md): every command and help topic');
  return links;
}

function termLine(t: TermDoc): string {
  const extra = [t.choices ? `One of: ${t.choices.map((c) => `\`${c}\``).join(', ')}.` : '', t.default !== undefined ? `Default: \`${t.default}\`.` : ''].filter(Boolean);
  return `- \`${t.term}\`: ${md(t.description)}${extra.length ? `${/[.!?]$/.test(t.description) ? '' : '.'} ${extra.join(' ')}` : ''}`;
}

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** A fenced block; the fence is longer than any run of backticks inside. */
function fence(info: string, lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.flatMap((l) => (l.match(/`+/g) ?? []).map((r) => r.length)));
  const f = '`'.repeat(longest + 1);
  return `${f}${info}\n${lines.join('\n')}\n${f}`;
}

/** Plain text (commander's descriptions) as Markdown: `code` kept, the rest escaped. */
function md(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (/^`[^`]+`$/.test(part) ? part : part.replace(/[\\*_<>[\]#]/g, (c) => `\\${c}`)))
    .join('');
}
