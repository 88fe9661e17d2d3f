// bench:layers, the store's proxy left out (in place of src/storage/unavailable.ts's
// reportingUnavailable): the server calls the store itself, with no translation of a
// driver's errors and no clock read around each call.
export function reportingUnavailable<S>(store: S): S {
  return store;
}
