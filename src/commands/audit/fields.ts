// What `audit --json` prints of a record, in README.md#team-access-chamberctl-clients-and-audit's
// order; `--json FIELDS` picks among them. A plain list, so that registration (the help, the check,
// completion) loads no work.
export const AUDIT_FIELDS = ['at', 'action', 'client_id', 'operator', 'target', 'request_id', 'address', 'detail'] as const;
