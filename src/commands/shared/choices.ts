// The allowed values of the directory commands (their --help and their prompts). They are
// repeated here rather than imported from src/contract, which would load zod on every start
// (even for --help); test/commands/register.test.ts checks that they match the contract.
export const CHOICES = {
  chamberType: ['hq', 'subsidiary'],
  chamberStatus: ['active', 'inactive', 'pending'],
  memberStatus: ['active', 'inactive', 'pending'],
  eventStatus: ['upcoming', 'past', 'canceled'],
  membershipType: ['standard', 'premium', 'corporate', 'honorary'],
} as const;
