'use strict';
// Loads the bundled CLI (dist/cli.cjs and the dist/chunks/*.cjs it requires, all CommonJS;
// see scripts/build.mjs) with V8's code cache, so that a command does not compile the same
// megabytes of JavaScript on every run. This is what v8-compile-cache does, with public APIs
// only: each file is compiled by vm.Script with the cachedData saved by an earlier run, and
// the files loaded without usable cache data have theirs written when the process exits.
// Measured gain on a cached-token `chambers list` against no cache at all (20 runs each,
// 2026-11-26; docs/performance.md, "Start-up on Node 22, 24 and 26"): 22-28 ms on Node 20,
// 36-52 ms on 22, 15-34 ms on 24, 30 ms on 26.
//
// Node 22.8 and later have a cache of their own (module.enableCompileCache), and it is not
// used: tried on 22.23, 24.21 and 26.10 (plain require() with the cache in this same user
// cache directory, hit on every run), `chambers list` took 6-46 ms longer than with this
// loader, `--help` 3-10 ms longer. Node writes its cache right after compiling each file, so
// it holds only the code compiled up front (212 KB for `chambers list` on 24.21, 954 KB here,
// written at exit): every function compiled later in the run is compiled again on every run.
//
// The cache lives in the user cache directory (CHAMBERCTL_CACHE_DIR overrides it;
// CHAMBERCTL_NO_CODE_CACHE=1 turns it off), in a folder per build of the bundle, so data
// made for another build is never offered to V8. Each file carries a checksum; V8 itself
// refuses data from another V8 version or flag set. Data that is unreadable, foreign,
// corrupt or stale is ignored and rewritten; a cache directory that cannot be written
// leaves the command exactly as it would be without a cache. The cache never fails a command.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire, isBuiltin } = require('node:module');
const { crc32 } = require('node:zlib');

const MAGIC = 0x43433801; // "CC8" + format version 1

function defaultCacheDir(env) {
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'chamberctl');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'chamberctl', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'chamberctl');
}

/** The bundle's files on disk (dist/); the single executable reads them from its assets instead. */
const diskFiles = { read: (filename) => fs.readFileSync(filename, 'utf8') };

/** The cache folder of this build and runtime, or undefined when there is none to use. */
function cacheFolder(distDir, env, files) {
  if (env.CHAMBERCTL_NO_CODE_CACHE && env.CHAMBERCTL_NO_CODE_CACHE !== '0') return undefined;
  let buildId;
  try {
    buildId = files.read(path.join(distDir, 'build-id')).trim();
  } catch {
    return undefined;
  }
  if (!/^[0-9a-f]{16,64}$/.test(buildId)) return undefined;
  const base = env.CHAMBERCTL_CACHE_DIR || defaultCacheDir(env);
  const root = path.join(base, 'code-cache');
  const cache = { root, buildId, dir: path.join(root, `${buildId}-${process.version}`) };
  const doubt = untrusted(base, cache);
  if (doubt) {
    // shell completion never writes to stderr (src/completion/README.md): it only runs uncached
    if (process.argv[2] !== '__complete') process.stderr.write(`warning: ignoring the code cache in ${doubt}; chamberctl runs without it\n`);
    return undefined;
  }
  return cache;
}

/**
 * Why the cache may not be trusted, or undefined. Code cache is executable data: whoever can
 * write it runs code as the user of every later command. So the folders that hold it must
 * be the user's own and writable by nobody else, and the directory they are made in
 * (CHAMBERCTL_CACHE_DIR) writable by nobody else unless sticky (as /tmp is, where others
 * cannot replace what is ours). Folders not made yet are made 0700. Skipped on Windows.
 */
function untrusted(base, cache) {
  if (typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  const checks = [
    [base, false],
    [cache.root, true],
    [cache.dir, true],
  ];
  for (const [dir, ours] of checks) {
    let info;
    try {
      // the folders chamberctl makes are never links; the directory given may be one
      info = ours ? fs.lstatSync(dir) : fs.statSync(dir);
    } catch {
      continue; // not there (yet): made 0700 when the cache is written
    }
    const mode = `mode 0${(info.mode & 0o777).toString(8)}`;
    if (ours && info.uid !== uid) return `${dir}: it belongs to another user (uid ${info.uid}, not ${uid})`;
    if (ours && !info.isDirectory()) return `${dir}: it is not a directory`;
    const sticky = (info.mode & 0o1000) !== 0;
    if ((info.mode & 0o022) !== 0 && (ours || !sticky)) return `${dir}: others can write it (${mode}; chmod go-w ${dir} or remove it)`;
  }
  return undefined;
}

function readCacheData(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (buf.length < 12 || buf.readUInt32LE(0) !== MAGIC) return undefined;
  const data = buf.subarray(12);
  if (buf.readUInt32LE(4) !== data.length || buf.readUInt32LE(8) !== crc32(data)) return undefined;
  return data;
}

function writeCacheData(folder, file, data) {
  const header = Buffer.alloc(12);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(data.length, 4);
  header.writeUInt32LE(crc32(data), 8);
  // a file of its own, then an atomic rename: concurrent first runs each write whole files
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o644 });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * `mkdir -p`, as src/files/make-dirs.ts (this file runs before the bundle): node's (20 to 26)
 * recursive mkdirSync spins forever when mkdir answers ENOENT under an existing parent (a
 * cache directory named under /proc), where this throws, and the command runs uncached.
 */
function makeDirs(dir, mode) {
  const missing = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      if (fs.statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`not a directory: ${at}`), { code: 'ENOTDIR' });
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing.reverse()) {
    try {
      fs.mkdirSync(at, { mode });
    } catch (err) {
      if (err.code !== 'EEXIST' || !fs.statSync(at).isDirectory()) throw err;
    }
  }
}

/** Removes the cache folders of other builds (best effort). */
function pruneOldBuilds(cache) {
  try {
    for (const name of fs.readdirSync(cache.root)) {
      if (!name.startsWith(cache.buildId)) fs.rmSync(path.join(cache.root, name), { recursive: true, force: true });
    }
  } catch {
    // another run may be pruning too
  }
}

/**
 * Runs the bundle's entry file (which reads its arguments from process.argv); `env` the
 * environment; `files` where the bundle's files are read (`read(filename)` their text).
 */
function run(entry, env = process.env, files = diskFiles) {
  const distDir = path.dirname(entry);
  const cache = cacheFolder(distDir, env, files);
  const loadLog = env.CHAMBERCTL_DEBUG_LOADS;
  const modules = new Map();
  const unsaved = [];

  function load(filename) {
    const known = modules.get(filename);
    if (known) return known.exports;
    const module = { exports: {}, filename, id: filename, loaded: false };
    modules.set(filename, module);
    if (loadLog) fs.appendFileSync(loadLog, `${filename}\n`);
    const source = files.read(filename);
    const cacheFile = cache && path.join(cache.dir, `${path.basename(filename)}.v8`);
    const cachedData = cacheFile && readCacheData(cacheFile);
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    if (cacheFile && (!cachedData || script.cachedDataRejected)) unsaved.push({ cacheFile, script });
    const outside = createRequire(filename);
    // Our own files (relative .cjs paths) load here; node's built-ins through node.
    const localRequire = (id) => {
      if ((id.startsWith('./') || id.startsWith('../')) && id.endsWith('.cjs')) return load(path.resolve(path.dirname(filename), id));
      if (loadLog && !isBuiltin(id)) fs.appendFileSync(loadLog, `${outside.resolve(id)}\n`);
      return outside(id);
    };
    localRequire.resolve = outside.resolve;
    script.runInThisContext().call(module.exports, module.exports, localRequire, module, filename, path.dirname(filename));
    module.loaded = true;
    return module.exports;
  }

  if (cache) {
    process.once('exit', () => {
      if (unsaved.length === 0) return;
      try {
        if (!fs.existsSync(cache.dir)) {
          makeDirs(cache.dir, 0o700);
          pruneOldBuilds(cache);
        }
      } catch {
        return; // no cache directory to be had: run without one
      }
      // After the run, the data holds the functions the command compiled along the way too.
      for (const { cacheFile, script } of unsaved) writeCacheData(cache.dir, cacheFile, script.createCachedData());
    });
  }
  try {
    load(entry);
  } catch (err) {
    // an installation without its bundle (a build that never ran or was interrupted)
    if (err && err.code === 'ENOENT' && err.path === entry) {
      process.stderr.write(`error: ${entry} is missing: this copy of chamberctl is not built (npm run build)\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}

module.exports = { run, readCacheData };
