import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody, redactHeader, redactJson } from '../../src/client/redact.js';

describe('redaction for --verbose', () => {
  it('hides credentials in headers but keeps the scheme', () => {
    expect(redactHeader('Authorization', 'Bearer abc.def')).toBe(`Bearer ${REDACTED}`);
    expect(redactHeader('authorization', 'Basic Y2k6c2VjcmV0')).toBe(`Basic ${REDACTED}`);
    expect(redactHeader('cookie', 'session=1')).toBe(REDACTED);
    expect(redactHeader('content-type', 'application/json')).toBe('application/json');
  });

  it('hides secret and token fields at any depth', () => {
    const body = {
      grant_type: 'client_credentials',
      client_id: 'ci',
      client_secret: 's3cr3t',
      nested: [{ access_token: 'tok', keep: 1 }],
      clientSecret: 'x',
    };
    expect(redactJson(body)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'ci',
      client_secret: REDACTED,
      nested: [{ access_token: REDACTED, keep: 1 }],
      clientSecret: REDACTED,
    });
  });

  it('keeps error codes that merely mention tokens', () => {
    const text = JSON.stringify({ error: 'invalid_token', error_description: 'the access token expired' });
    expect(redactBody(text, false)).toBe(text);
  });

  it('never shows a sensitive body that is not JSON', () => {
    const shown = redactBody('client_secret=abc&client_id=x', true);
    expect(shown).not.toContain('abc');
    expect(shown).toContain(REDACTED);
  });

  it('cuts long bodies', () => {
    const shown = redactBody(JSON.stringify({ data: 'x'.repeat(5000) }), false, 100);
    expect(shown.length).toBeLessThan(150);
    expect(shown).toMatch(/characters\)$/);
  });
});
