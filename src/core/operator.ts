import { hostname, userInfo } from 'node:os';

/**
 * Who runs this process, as the audit trail names the maker of a client change
 * (docs/guides/team-access.md#the-audit-trail): the operating system's user and host, `alice@build-7`. `chamberctl clients` writes
 * the database directly, so there is no API client to name; `serve --client-id` registers its
 * client as the user it runs as. A user without a name in the password database (a container
 * run with a bare uid) is named by $USER, else by its uid.
 */
export function localOperator(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER || process.env.LOGNAME || `uid ${process.getuid?.() ?? '?'}`;
  }
  return `${user}@${hostname()}`;
}
