import { EnvHttpProxyAgent, Pool, type Dispatcher } from './undici/index.js';

// How requests leave the machine, with undici's public API only: a keep-alive Pool per
// origin, or, when a proxy is configured in the environment, one EnvHttpProxyAgent that
// routes each request as curl does (http_proxy for http:// URLs, https_proxy for https://,
// no_proxy for the exceptions: host names, `.domain` suffixes, `host:port`, `*`).

export interface ProxyEnv {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export interface DispatcherOptions {
  connectTimeoutMs: number;
  /** Time allowed for the response headers, then for each pause in the body. */
  requestTimeoutMs: number;
}

/** The proxy settings of an environment: lower-case names first, as curl reads them. */
export function proxyEnv(env: Record<string, string | undefined>): ProxyEnv {
  const pick = (name: string) => env[name.toLowerCase()] || env[name.toUpperCase()] || undefined;
  const out: ProxyEnv = {};
  const http = pick('http_proxy');
  const https = pick('https_proxy');
  const no = pick('no_proxy');
  if (http) out.httpProxy = http;
  if (https) out.httpsProxy = https;
  if (no) out.noProxy = no;
  return out;
}

/** Whether any request could go through a proxy. */
export const usesProxy = (p: ProxyEnv) => Boolean(p.httpProxy || p.httpsProxy);

/** The dispatcher for one origin's requests (the caller keeps one per origin). */
export function directPool(origin: string, o: DispatcherOptions): Dispatcher {
  return new Pool(origin, {
    connect: { timeout: o.connectTimeoutMs },
    headersTimeout: o.requestTimeoutMs,
    bodyTimeout: o.requestTimeoutMs,
    keepAliveTimeout: 10_000,
  });
}

/** One dispatcher for every origin, through the proxies of `p` (and around them for no_proxy). */
export function proxyAgent(p: ProxyEnv, o: DispatcherOptions): Dispatcher {
  return new EnvHttpProxyAgent({
    // an empty string means "no proxy for this scheme" to undici; undefined would read process.env
    httpProxy: p.httpProxy ?? '',
    httpsProxy: p.httpsProxy ?? '',
    noProxy: p.noProxy ?? '',
    connect: { timeout: o.connectTimeoutMs },
    headersTimeout: o.requestTimeoutMs,
    bodyTimeout: o.requestTimeoutMs,
    keepAliveTimeout: 10_000,
  });
}

/**
 * The proxy a request to `url` goes through (without its password, for messages), or
 * undefined when it goes direct. NO_PROXY is matched here only roughly (host names and
 * suffixes): the message may name a proxy that undici went around, never the other way.
 */
export function proxyFor(p: ProxyEnv, url: string): string | undefined {
  const u = new URL(url);
  const proxy = u.protocol === 'https:' ? p.httpsProxy : p.httpProxy;
  if (!proxy) return undefined;
  const host = u.hostname;
  const skip = (p.noProxy ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => entry === '*' || host === entry.replace(/:\d+$/, '') || host.endsWith(entry.startsWith('.') ? entry : `.${entry}`));
  if (skip) return undefined;
  try {
    const shown = new URL(proxy);
    if (shown.password) shown.password = '***';
    return shown.toString().replace(/\/$/, '');
  } catch {
    return proxy;
  }
}
