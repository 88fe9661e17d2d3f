import { usageError } from '../core/exit-codes.js';

/**
 * One URL path segment. A segment that is `.` or `..` (escaped or not) is a dot segment
 * that URL parsing removes (`chambers get ..` would ask for `/v1/`), so no resource can be
 * addressed by it: that is a usage error rather than a request for some other path.
 */
export function pathSegment(value: string): string {
  if (value === '.' || value === '..') throw usageError(`"${value}" cannot be an id: it is not a usable URL path segment`);
  return encodeURIComponent(value);
}
