import type { Chamber, Member } from '../contract/index.js';
import { chamberOf, memberOf, rawUnlessCanonical } from './rows.js';
import { emailKey } from './store.js';

// The columns of a record copied from elsewhere (a pull, a push's answer), for both
// backends: the known fields, and `raw` when the columns alone would not give it back.

export function copiedChamberRow(c: Chamber) {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    hq_id: c.hq_id,
    status: c.status,
    street: c.address.street,
    city: c.address.city,
    postal_code: c.address.postal_code,
    country: c.address.country,
    created_at: c.created_at,
    raw: rawUnlessCanonical(c, chamberOf(c)),
  };
}

export function copiedMemberRow(m: Member) {
  const canonical = memberOf(m);
  return { ...canonical, email_key: emailKey(m.email), raw: rawUnlessCanonical(m, canonical) };
}
