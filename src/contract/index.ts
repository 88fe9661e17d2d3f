// The one contract shared by the embedded server and the client: resources, payloads,
// query parameters and error bodies. The OpenAPI documents are generated from it.
import './locale.js';
export * from './enums.js';
export * from './resources.js';
export * from './queries.js';
export * from './errors.js';
export * from './auth.js';
export * from './headers.js';
export * from './health.js';
