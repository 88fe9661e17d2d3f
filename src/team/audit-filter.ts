import { usageError } from '../core/exit-codes.js';
import { AUDIT_ACTIONS, type AuditAction } from '../storage/store.js';

/**
 * `audit --action PATTERN`: an action (`client.rotate`) or a pattern with `*` for any
 * characters (`client.*`, `*.add`), resolved to the actions it matches; one that matches no
 * action is a usage error naming them all (a typo must not read as "no records").
 */
export function parseActionPattern(pattern: string): AuditAction[] {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  const re = new RegExp(`^${escaped}$`);
  const actions = AUDIT_ACTIONS.filter((a) => re.test(a));
  if (actions.length === 0) throw usageError(`--action ${JSON.stringify(pattern)} matches no action; actions: ${AUDIT_ACTIONS.join(', ')} (* stands for any characters: client.*)`);
  return actions;
}
