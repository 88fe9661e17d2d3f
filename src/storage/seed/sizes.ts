/** How much demo data each size makes. The first HQ ("flagship") gets fixed, large numbers. */
export interface SeedSize {
  hqs: number;
  subsidiaries: number;
  members: number;
  events: number;
  flagshipMembers: number;
  flagshipEvents: number;
}

export const SIZES = {
  /** The `serve --seed demo` data: enough for paging, filters and sorting to show something. */
  standard: { hqs: 40, subsidiaries: 160, members: 5_000, events: 1_000, flagshipMembers: 750, flagshipEvents: 60 },
  /** For benchmarks: 100k chambers, 1M members (100k of them in the flagship), 100k events. */
  large: {
    hqs: 20_000,
    subsidiaries: 80_000,
    members: 1_000_000,
    events: 100_000,
    flagshipMembers: 100_000,
    flagshipEvents: 1_000,
  },
} as const satisfies Record<string, SeedSize>;

export type SeedSizeName = keyof typeof SIZES;
