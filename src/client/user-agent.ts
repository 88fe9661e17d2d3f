// Injected by esbuild (scripts/build.mjs); absent when the sources run under vitest.
declare const __CHAMBERCTL_VERSION__: string | undefined;

export const CLI_VERSION: string = typeof __CHAMBERCTL_VERSION__ === 'string' ? __CHAMBERCTL_VERSION__ : '0.0.0-dev';

export const USER_AGENT = `chamberctl/${CLI_VERSION}`;
