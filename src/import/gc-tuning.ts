import { setFlagsFromString } from 'node:v8';

/**
 * An import allocates a little for every row, quickly and for a long time, while what is
 * alive stays small (about 13 MB). V8's defaults answer that allocation rate by growing
 * the heap far beyond it: the young generation doubles up to 2 x 16 MB, and the old one may
 * grow up to 4x between full collections. For a million rows that is the difference
 * between 134 MB and 108 MB peak RSS (157 and 103 MB for a --dry-run, which runs faster),
 * at the same speed (bench/import.ts). Both flags are read by the collector as it runs, so
 * they take effect when set here; the heap's size limits themselves are fixed at start-up.
 *
 * Call it after the modules the import needs are loaded: once a V8 flag changes, node's
 * cached compiled built-ins no longer apply (see prepareForHttp in bin/load-bundle.js).
 */
export function tuneGcForImport(): void {
  setFlagsFromString('--semi-space-growth-factor=1'); // keep the young generation at its initial size
  setFlagsFromString('--heap-growing-percent=50'); // let the old generation grow 1.5x between full GCs
}
