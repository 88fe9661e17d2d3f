import type * as z from 'zod/mini';
import { queryParamInfo } from '../../contract/index.js';
import { toJsonSchema, type Json } from './schemas.js';

/** What a parameter's schema cannot say: its meaning and the server's leniencies. */
export interface ParameterText {
  description: string;
  example?: unknown;
}

/** The parser inside `optional` and `_default`, and the default value, if any. */
function unwrap(field: z.core.$ZodType): { parser: z.core.$ZodType; defaultValue?: unknown } {
  let parser = field;
  let defaultValue: unknown;
  for (;;) {
    const def = parser._zod.def as { type: string; innerType?: z.core.$ZodType; defaultValue?: unknown };
    if (def.type === 'default') defaultValue = def.defaultValue;
    else if (def.type !== 'optional') return { parser, defaultValue };
    parser = def.innerType!;
  }
}

/**
 * The query parameters of a list or get, one per key of the contract's query schema: each
 * described by the typed value its parser checks (contract/queries.ts), so a rule added to
 * the server's parser is in the documents as well. Every key must have a text in `texts`.
 */
export function queryParameters(query: z.ZodMiniObject, texts: Record<string, ParameterText>): Json[] {
  return Object.entries(query.shape).map(([name, field]) => {
    const { parser, defaultValue } = unwrap(field as z.core.$ZodType);
    const info = queryParamInfo(parser as z.ZodMiniType);
    const schema = toJsonSchema(info?.typed ?? parser, 'output');
    if (defaultValue !== undefined) schema.default = defaultValue;
    const text = texts[name];
    if (!text) throw new Error(`the query parameter ${name} has no description (src/server/openapi/texts.ts)`);
    return {
      name,
      in: 'query',
      required: false,
      description: text.description,
      // an array in one value, comma-separated: include=members,events
      ...(info?.commaSeparated ? { style: 'form', explode: false } : {}),
      schema,
      ...(text.example === undefined ? {} : { example: text.example }),
    };
  });
}
