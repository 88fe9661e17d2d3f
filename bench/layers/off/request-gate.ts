// bench:layers, the request gate left out (in place of src/server/request-gate.ts's
// useRequestGate): no onRequest hook echoing X-Request-Id, checking Host or the stop.
export function useRequestGate(): void {}
