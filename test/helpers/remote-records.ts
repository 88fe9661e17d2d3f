import type { Chamber, Event, Member } from '../../src/contract/index.js';

// Records as a remote sends them, for the tests of the copy `sync pull` writes.

export const remoteChamber = (id: string, extra: Record<string, unknown> = {}): Chamber =>
  ({ id, name: `Chamber ${id}`, type: 'hq', hq_id: null, status: 'active', address: { street: 's', city: 'c', postal_code: null, country: 'BE' }, created_at: '2025-01-01T00:00:00.000Z', ...extra }) as Chamber;

export const remoteMember = (id: string, chamberId: string, email: string): Member => ({
  id,
  chamber_id: chamberId,
  name: `M ${id}`,
  email,
  phone: null,
  membership_type: 'standard',
  status: 'active',
  joined_at: '2025-01-02T00:00:00.000Z',
});

export const remoteEvent = (id: string, chamberId: string, status: Event['status'] = 'upcoming'): Event => ({
  id,
  chamber_id: chamberId,
  title: `E ${id}`,
  status,
  starts_at: '2030-01-01T10:00:00.000Z',
  ends_at: '2030-01-01T12:00:00.000Z',
  location: null,
});
