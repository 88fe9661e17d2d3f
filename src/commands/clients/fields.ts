// What each `clients` command's --json prints (docs/manual/chamberctl-clients-list.md);
// `--json FIELDS` picks among them. Plain lists, so that registration (the help, the check,
// completion) loads no work.
export const CLIENT_FIELDS = ['client_id', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'old_secret_valid_until'] as const;
export const ADDED_FIELDS = ['client_id', 'client_secret', 'scope', 'created_at'] as const;
export const ROTATED_FIELDS = ['client_id', 'client_secret', 'old_secret_valid_until'] as const;
export const EDITED_FIELDS = ['client_id', 'scope'] as const;
export const REVOKED_FIELDS = ['client_id', 'revoked_at'] as const;
