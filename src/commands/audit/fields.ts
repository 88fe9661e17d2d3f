// What `audit --json` prints of a record, in docs/manual/chamberctl-audit.md's
// order; `--json FIELDS` picks among them. A plain list, so that registration (the help, the check,
// completion) loads no work.
export const AUDIT_FIELDS = ['at', 'action', 'client_id', 'operator', 'target', 'request_id', 'address', 'detail'] as const;
