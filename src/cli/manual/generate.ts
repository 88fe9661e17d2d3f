// Every file of the manual (docs/manual/) and of the man pages (man/), by path from the
// repository's root: what `npm run docs:manual` (scripts/gen-docs.mjs) writes, and what
// test/manual/ compares with the committed files.
import { commandFile, commandMarkdownPage, indexPage, topicFile, topicMarkdownPage } from './markdown.js';
import { readManual } from './pages.js';
import { commandManPage, topicManPage } from './roff.js';

export const MANUAL_DIR = 'docs/manual';
export const MAN_DIR = 'man';

/**
 * The files, by path. `dateOf(path)` is a man page's date (YYYY-MM-DD): the script keeps
 * the date of a page whose text is otherwise unchanged, so that regenerating changes nothing.
 */
export function manualFiles(version: string, dateOf: (path: string) => string): Map<string, string> {
  const manual = readManual(version);
  const files = new Map<string, string>();
  files.set(`${MANUAL_DIR}/README.md`, indexPage(manual));
  for (const page of [manual.program, ...manual.commands]) {
    files.set(`${MANUAL_DIR}/${commandFile(page)}`, commandMarkdownPage(manual, page));
    const man = `${MAN_DIR}/${page.name}.1`;
    files.set(man, commandManPage(manual, page, dateOf(man)));
  }
  for (const topic of manual.topics) {
    files.set(`${MANUAL_DIR}/${topicFile(topic.topic)}`, topicMarkdownPage(topic));
    const man = `${MAN_DIR}/${topic.name}.7`;
    files.set(man, topicManPage(manual, topic, dateOf(man)));
  }
  return files;
}

/** The date in a man page's `.TH` line, if it has one. */
export function manPageDate(text: string): string | undefined {
  return /^\.TH "[^"]*" "\d" "(\d{4}-\d{2}-\d{2})"/m.exec(text)?.[1];
}
