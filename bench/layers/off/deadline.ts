// bench:layers, the 4 s answer deadline left out (in place of src/server/deadline.ts's
// answerWithinDeadline): no timer per request, no 'close' listener, no wrapper around each
// route's handler.
export function answerWithinDeadline(): void {}
