/** One JSON line of serve's log, as the tests read it (the fields they look at). */
export interface LogEntry {
  level: number;
  msg: string;
  reqId?: string;
  reason?: string;
  client_id?: string;
  req?: { method: string; url: string; remoteAddress?: string; headers: Record<string, string> };
  res?: { statusCode: number };
}

/**
 * The log lines of a test server (pass `rawLog` to startTestServer): the raw text, each line
 * parsed, and the lines of one request (by its X-Request-Id).
 */
export function logCapture() {
  const lines: string[] = [];
  const entries = () => lines.map((l) => JSON.parse(l) as LogEntry);
  return {
    lines,
    rawLog: (line: string) => void lines.push(line),
    entries,
    ofRequest: (id: string) => entries().filter((e) => e.reqId === id),
  };
}
