// Runs jq's tests/jq.test against each candidate jq implementation (engines.mjs), on the cases
// that need none of jq's I/O, module, date or `input` builtins (cases.mjs), and prints the pass
// rate of each. Each engine runs in a worker thread; a case that takes more than 5 s fails and
// the worker is replaced. Usage (see README.md beside this file):
//   CANDIDATES_DIR=/tmp/jqc node scripts/jq-conformance/run.mjs /tmp/jq.test [engine...] [--failures]
import { readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isDeepStrictEqual } from 'node:util';
import { engines } from './engines.mjs';
import { outOfSubset, parseJqTest } from './cases.mjs';

const TIMEOUT_MS = 5000;
/** The engines whose outputs are jq's own JSON texts rather than JavaScript values. */
const textEngines = ['jq-wasm-3', 'jq-wasm-2', 'jq-wasm-181', 'jq-wasm', 'jq-web'];

if (!isMainThread) {
  let run = await engines[workerData.engine]();
  parentPort.on('message', async (c) => {
    let result;
    try {
      result = await run(c.program, c.input ?? 'null', c.expected.length);
    } catch (e) {
      // the engine itself broke (a WebAssembly trap): the next case gets a new instance
      result = { outputs: [], runtimeError: `engine failed: ${e?.message ?? e}` };
      run = await engines[workerData.engine]();
    }
    // values cross to the main thread as JSON texts; what JSON can't say (NaN) reads as jq prints it
    const outputs = (result.outputs ?? []).map((v) => (textEngines.includes(workerData.engine) ? v : (JSON.stringify(v) ?? 'null')));
    parentPort.postMessage({ ...result, outputs });
  });
  parentPort.postMessage({ ready: true });
} else {
  const args = process.argv.slice(2);
  const showFailures = args.includes('--failures');
  const [file, ...names] = args.filter((a) => a !== '--failures');
  const all = parseJqTest(readFileSync(file, 'utf8'));
  const cases = all.filter((c) => !outOfSubset(c.program));
  console.log(`${file}: ${all.length} cases, ${cases.length} in the subset (${all.length - cases.length} need I/O, modules, dates or input)`);
  for (const name of names.length ? names : Object.keys(engines)) {
    const failures = [];
    let passed = 0;
    let worker = await startWorker(name);
    const t0 = performance.now();
    for (const c of cases) {
      const result = await ask(worker, c);
      if (result.timedOut) {
        await worker.terminate();
        worker = await startWorker(name);
      }
      const why = judge(c, result);
      if (why === undefined) passed++;
      else failures.push({ line: c.line, program: c.program, why });
    }
    await worker.terminate();
    const pct = ((100 * passed) / cases.length).toFixed(1);
    console.log(`${name}: ${passed}/${cases.length} passed (${pct}%) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (showFailures) for (const f of failures) console.log(`  line ${f.line}: ${f.program}\n      ${f.why}`);
  }
}

function startWorker(engine) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { engine }, stdout: true, stderr: true });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

function ask(worker, c) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.off('message', done);
      resolve({ timedOut: true, outputs: [] });
    }, TIMEOUT_MS);
    function done(result) {
      clearTimeout(timer);
      resolve(result);
    }
    worker.once('message', done);
    worker.postMessage(c);
  });
}

/** undefined when the case passed, else why not: jq's runner's rules (src/jq_test.c). */
function judge(c, result) {
  if (result.timedOut) return `no answer in ${TIMEOUT_MS / 1000} s`;
  if (c.mustFail) return result.compileError ? undefined : 'compiled, but must not';
  if (result.compileError) return `does not compile: ${oneLine(result.compileError)}`;
  const actual = result.outputs.map(parse);
  const expected = c.expected.map(parse);
  for (let i = 0; i < expected.length; i++) {
    if (i >= actual.length) return `${actual.length} of ${expected.length} outputs${result.runtimeError ? `, then error: ${oneLine(result.runtimeError)}` : ''}`;
    if (!equal(expected[i], actual[i])) return `output ${i + 1}: expected ${c.expected[i]}, got ${result.outputs[i]}`;
  }
  if (actual.length > expected.length) return `superfluous output: ${result.outputs[expected.length]}`;
  return undefined;
}

function oneLine(s) {
  return s.replace(/\s+/g, ' ').slice(0, 160);
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsable: text.trim() }; // jq's own literals (nan, -nan): equal only to the same text
  }
}

/** jv_equal: numbers by value, objects regardless of key order. */
function equal(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return typeof a === 'number' && typeof b === 'number' ? a === b : isDeepStrictEqual(a, b); // -0 equals 0
}
