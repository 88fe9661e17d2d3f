import * as z from 'zod/mini';

// JSON Schemas (draft 2020-12, as OpenAPI 3.1 has them) from the contract's zod schemas.

export type Json = Record<string, unknown>;
type Io = 'input' | 'output';

/**
 * A pipe into a schema (a value normalised, then checked: the e-mail address trimmed, then
 * checked as an address) accepts what passes both sides; zod describes only the first side of
 * an input. This adds the second side's keywords (`format: email`), or both sides as `allOf`
 * where they disagree. A pipe into a transform is left as zod describes it.
 */
function bothSidesOfPipes(io: Io) {
  return ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) => {
    if (io !== 'input' || zodSchema._zod.def.type !== 'pipe') return;
    const out = (zodSchema._zod.def as z.core.$ZodPipeDef).out;
    if (out._zod.def.type === 'transform') return;
    const second = toJsonSchema(out, io);
    const clash = Object.keys(second).some((k) => k in jsonSchema && JSON.stringify(jsonSchema[k]) !== JSON.stringify(second[k]));
    if (clash) {
      const first = { ...jsonSchema };
      for (const k of Object.keys(jsonSchema)) delete jsonSchema[k];
      jsonSchema.allOf = [first, second];
    } else {
      Object.assign(jsonSchema, second);
    }
  };
}

/** Drops what a document's schemas do not need: `$schema` (3.1's default dialect), `$id`. */
function tidy(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** One schema, for `io` (a request's input or a response's output); unrepresentable parts throw. */
export function toJsonSchema(schema: z.core.$ZodType, io: Io): Json {
  return tidy(z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'throw', override: bothSidesOfPipes(io) }) as Json);
}

/**
 * Named schemas as components: every schema of `named` becomes `#/components/schemas/NAME`,
 * and a named schema inside another is a `$ref` to it.
 */
export function componentSchemas(named: ReadonlyMap<z.core.$ZodType, string>, io: Io): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    override: bothSidesOfPipes(io),
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, tidy(s as Json)]));
}
