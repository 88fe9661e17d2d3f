import { describe, expect, it } from 'vitest';
import { IMPLEMENTED } from '../../src/commands/auth/config.js';
import { CONFIG_KEYS } from '../../src/commands/shared/config-keys.js';

describe('config keys', () => {
  it('the keys --help lists are exactly the keys config get|set|list know', () => {
    expect(CONFIG_KEYS.filter((k) => k.settable).map((k) => k.key)).toEqual(IMPLEMENTED.settable);
    expect(CONFIG_KEYS.filter((k) => !k.settable).map((k) => k.key)).toEqual(IMPLEMENTED.readOnly);
  });
});
