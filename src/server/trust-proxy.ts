import { BlockList, isIP } from 'node:net';

/**
 * What `serve --trust-proxy` gives Fastify's `trustProxy` (docs/operations/shared-deployment.md#operating-it): which
 * peers may say, in `X-Forwarded-For`, whom they forward for. It decides `request.ip`, the
 * client address of the log lines, of the audit records and of the token endpoint's failure
 * limit. False (the default): the peer's own address, whatever the headers say.
 */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** proxy-addr's names for ranges (Fastify passes a list to it as it is). */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `true`, `false`, a hop count, or a comma-separated list of addresses and CIDR ranges
 * (`10.0.0.0/8,192.168.1.7,::1`); throws an Error with a one-line message for anything else.
 *
 * A hop count trusts that many proxies nearest the server whatever their addresses, as
 * Express and earlier Fastify did: Fastify 5 takes a bare number as "trust nothing" (a
 * client that reaches the server directly could otherwise name any address), so it is
 * given as a function here. Only for a server that nothing reaches but through its proxies.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim();
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (!Number.isSafeInteger(hops)) throw new Error(`"${value}" is too many hops`);
    return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  if (entries.some((e) => e === '')) throw new Error(`"${value}" has an empty entry: give addresses or CIDR ranges separated by commas`);
  for (const entry of entries) checkEntry(entry);
  return entries;
}

function checkEntry(entry: string): void {
  if (NAMED_RANGES.has(entry)) return;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) throw new Error(`"${entry}" is not an IP address or a CIDR range (like 10.0.0.0/8)`);
  if (slash < 0) return;
  const prefix = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  // 1 at least, as proxy-addr (which Fastify hands the list to) takes it: /0 would be `true`
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) < 1 || Number(prefix) > max) {
    throw new Error(`"${entry}": the prefix length must be a number from 1 to ${max}`);
  }
  // node's own parser of a subnet, as the last word on what is valid
  new BlockList().addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
}
