// The types of supported-node.js (CommonJS, for any Node.js), for src/ and the tests.
export declare const ENGINES: string;
export declare const NEEDED: string;
export declare const OLDEST: string;
export declare function supports(version: string): boolean;
