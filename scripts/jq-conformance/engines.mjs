// The candidates, each behind one interface: run(program, inputText, want) resolves to
// { compileError } | { outputs, runtimeError? }, where outputs are JSON texts or values
// (compared by value, as jq's runner compares with jv_equal). `want` is how many outputs
// the case expects: generators are read only one further, so an endless one ends.
// Packages are resolved from the directory given as CANDIDATES_DIR (npm install there:
// see README.md beside this file), or from the project's own node_modules.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.CANDIDATES_DIR ?? process.cwd();
const require = createRequire(join(dir, 'package.json'));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);

function take(run, want) {
  const outputs = [];
  try {
    for (const v of run()) {
      outputs.push(v);
      if (outputs.length > want) break;
    }
  } catch (e) {
    return { outputs, runtimeError: String(e?.message ?? e) };
  }
  return { outputs };
}

/** jq's own C code built with Emscripten, run as `jq -c PROGRAM` on the input text. */
function emscriptenJq(runRaw) {
  return async (program, inputText) => {
    try {
      const text = await runRaw(inputText, program);
      return { outputs: text === undefined || text.trim() === '' ? [] : text.trim().split('\n') };
    } catch (e) {
      const message = String(e?.stderr ?? e?.message ?? e);
      if (/compile error/.test(message)) return { compileError: message };
      return { outputs: [], runtimeError: message };
    }
  };
}

/** jq-wasm 1.1 (jq 1.8.1), 2.x and 3.x: raw() tells stdout, stderr and jq's exit status (3: compile error). */
function jqWasmHandle(pkg) {
  return async () => {
    const m = await load(pkg);
    const jq = m.loadJq ? await m.loadJq() : (m.default ?? m); // before 3.x, only the async functions
    return async (program, inputText) => {
      const { stdout, stderr, exitCode } = await jq.raw(inputText, program, ['-c']);
      if (exitCode === 3) return { compileError: stderr };
      const outputs = stdout.split('\n').filter((l) => l !== '');
      return exitCode === 0 ? { outputs } : { outputs, runtimeError: stderr || `exit status ${exitCode}` };
    };
  };
}

// Each key names an installed package (an npm alias for the versions of jq-wasm: README.md).
export const engines = {
  'jq-wasm-3': jqWasmHandle('jq-wasm-3'),
  'jq-wasm-2': jqWasmHandle('jq-wasm-2'),
  'jq-wasm-181': jqWasmHandle('jq-wasm-181'),
  'jq-wasm': async () => {
    const m = await load('jq-wasm');
    return emscriptenJq((input, program) => (m.raw ?? m.default.raw)(input, program, ['-c']));
  },
  'jq-web': async () => {
    const m = await load('jq-web');
    const jq = await (m.default ?? m);
    return emscriptenJq((input, program) => jq.raw(input, program, ['-c']));
  },
  '@michaelhomer/jqjs': async () => {
    const jq = (await load('@michaelhomer/jqjs')).default;
    return async (program, inputText, want) => {
      let f;
      try {
        f = jq.compile(program);
      } catch (e) {
        return { compileError: String(e?.message ?? e) };
      }
      return take(() => f(JSON.parse(inputText)), want);
    };
  },
  jqts: async () => {
    const m = await load('jqts');
    const JQ = m.default.default ?? m.default;
    return async (program, inputText, want) => {
      let q;
      try {
        q = JQ.compile(program);
      } catch (e) {
        return { compileError: String(e?.message ?? e) };
      }
      return take(() => q.evaluate(JSON.parse(inputText)), want);
    };
  },
  '@jq-tools/jq': async () => {
    const m = await load('@jq-tools/jq');
    const { parse, evaluate } = m.default ?? m;
    return async (program, inputText, want) => {
      let ast;
      try {
        ast = parse(program);
      } catch (e) {
        return { compileError: String(e?.message ?? e) };
      }
      return take(() => evaluate(ast, [JSON.parse(inputText)]), want);
    };
  },
  fgh: async () => {
    const { compile } = await load('fgh');
    return async (program, inputText) => {
      let f;
      try {
        f = compile(program);
      } catch (e) {
        return { compileError: String(e?.message ?? e) };
      }
      try {
        const out = f(JSON.parse(inputText));
        return { outputs: Array.isArray(out) ? out : [out] };
      } catch (e) {
        return { outputs: [], runtimeError: String(e?.message ?? e) };
      }
    };
  },
  '@elastic/micro-jq': async () => {
    const m = await load('@elastic/micro-jq');
    const { executeScript } = m.default ?? m;
    return async (program, inputText) => {
      try {
        const out = executeScript(JSON.parse(inputText), program);
        return { outputs: [out] };
      } catch (e) {
        return { outputs: [], runtimeError: String(e?.message ?? e) };
      }
    };
  },
};
