import type { Chamber, Member } from '../contract/index.js';
import { chamberOf, chamberRowOf, memberOf, rawUnlessCanonical } from './rows.js';
import { emailKey } from './store.js';

// The columns of a record copied from elsewhere (a pull, a push's answer), for both
// backends: the known fields, and `raw` when the columns alone would not give it back.

export function copiedChamberRow(c: Chamber) {
  return { ...chamberRowOf(c), raw: rawUnlessCanonical(c, chamberOf(c)) };
}

export function copiedMemberRow(m: Member) {
  const canonical = memberOf(m);
  return { ...canonical, email_key: emailKey(m.email), raw: rawUnlessCanonical(m, canonical) };
}
