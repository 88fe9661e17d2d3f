// bench:layers, the token check left out (in place of src/server/auth/bearer.ts's
// requireBearer): the routes get no onRequest hook at all, as Fastify skips an undefined one.
// No token is hashed or looked up, no client use noted; the log line has no client_id.
export function requireBearer(): undefined {
  return undefined;
}
