import type { CliContext } from '../cli/context.js';
import type { Session } from '../client/types.js';
import { CountryCode, Email, Phone } from '../contract/index.js';
import type { ChambersCreateOptions } from './chambers-create.js';
import type { MembersAddOptions } from './members-add.js';
import type { Asker } from './ask.js';
import { CHOICES } from './directory.register.js';

/** A contract schema as a prompt's check: true, or the message of the first problem. */
const checkWith =
  (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }) =>
  (value: string): true | string => {
    const r = schema.safeParse(value);
    return r.success || (r.error?.issues[0]?.message ?? 'not valid');
  };

/** The options `chambers create` lacks, asked for; the HQ of a subsidiary chosen from the HQs. */
export async function askChamber(opts: ChambersCreateOptions, missing: string[], ask: Asker, session: Session): Promise<ChambersCreateOptions> {
  const o = { ...opts };
  if (missing.includes('name')) o.name = await ask.text('Name');
  if (missing.includes('type')) {
    o.type = await ask.select('Type', CHOICES.chamberType.map((t) => ({ name: t === 'hq' ? 'hq (headquarters)' : 'subsidiary (of an HQ)', value: t })));
  }
  if (o.type === 'subsidiary' && o.hqId === undefined) o.hqId = await chooseHq(ask, session);
  if (missing.includes('street')) o.street = await ask.text('Street and number');
  if (missing.includes('city')) o.city = await ask.text('City');
  if (missing.includes('country')) {
    o.country = await ask.text('Country (ISO 3166-1 alpha-2, e.g. DE)', { validate: checkWith(CountryCode) });
    if (o.postalCode === undefined) o.postalCode = (await ask.text('Postal code (optional)', { optional: true })) || undefined;
  }
  return o;
}

/** The HQs by name (the first 100; a list that long also offers typing an id). */
async function chooseHq(ask: Asker, session: Session): Promise<string> {
  const { data, meta } = await session.api.listChambers('v2', { 'filter[type]': 'hq', sort: 'name', per_page: '100' });
  const choices = data.map((c) => ({ name: `${c.name} (${c.id})`, value: c.id, description: [c.address?.city, c.address?.country].filter(Boolean).join(', ') }));
  if (meta.total > data.length || data.length === 0) choices.push({ name: 'Another HQ: type its id', value: '', description: '' });
  const picked = await ask.select('HQ of the subsidiary', choices);
  return picked || ask.text('HQ id');
}

/** The options `members add` lacks, asked for; the e-mail checked by the contract as it is typed. */
export async function askMember(opts: MembersAddOptions, missing: string[], ask: Asker): Promise<MembersAddOptions> {
  const o = { ...opts };
  if (missing.includes('name')) o.name = await ask.text('Name');
  if (missing.includes('email')) o.email = await ask.text('E-mail', { validate: checkWith(Email) });
  if (missing.includes('email') && o.phone === undefined) o.phone = (await ask.text('Phone (optional)', { optional: true, validate: checkWith(Phone) })) || undefined;
  if (missing.includes('membershipType')) o.membershipType = await ask.select('Membership type', CHOICES.membershipType.map((t) => ({ name: t, value: t })));
  return o;
}

