import { describe, expect, it } from 'vitest';
import { isLoopbackHost, mayCarryCredentials, sameOrigin } from '../../src/client/origin.js';

// Where credentials may go: their own origin, and over http only to this machine.

describe('origin rules', () => {
  it('counts 127.0.0.0/8, ::1 and localhost as loopback, nothing else', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '[::1]', 'localhost', 'LOCALHOST', '[::ffff:7f00:1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['128.0.0.1', '10.0.0.1', '[::2]', 'localhost.example.org', '127.0.0.1.nip.io', '[::ffff:a00:1]', '0.0.0.0'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('lets credentials go over https anywhere, over http to loopback only', () => {
    expect(mayCarryCredentials('https://directory.example.org')).toBe(true);
    expect(mayCarryCredentials('http://127.0.0.1:8080')).toBe(true);
    expect(mayCarryCredentials('http://[::1]:8080/prefix')).toBe(true);
    expect(mayCarryCredentials('http://directory.example.org')).toBe(false);
    expect(mayCarryCredentials('http://192.168.1.5:8080')).toBe(false);
  });

  it('compares scheme, host and port, not the path', () => {
    expect(sameOrigin('http://127.0.0.1:8080', 'http://127.0.0.1:8080/prefix')).toBe(true);
    expect(sameOrigin('http://127.0.0.1:8080', 'http://127.0.0.1:8081')).toBe(false);
    expect(sameOrigin('http://127.0.0.1:8080', 'https://127.0.0.1:8080')).toBe(false);
    expect(sameOrigin('https://a.example.org', 'https://a.example.org:443')).toBe(true);
  });
});
