// Generates tool-artifact.v1.schema.json from the valibot schema (the source of truth).
// Run through `pnpm generate:json-schema` (builds first, then imports the built schema); the output is committed
// and a test checks that it is in sync with `renderToolArtifactJsonSchema(ToolArtifactSchema)`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toJsonSchema } from '@valibot/to-json-schema';

/** Where the generated schema is committed. */
export const JSON_SCHEMA_FILE = fileURLToPath(new URL('../tool-artifact.v1.schema.json', import.meta.url));

/**
 * Renders the JSON Schema text for the given valibot artifact and payload schemas.
 * @param {import('valibot').GenericSchema} artifactSchema
 * @param {import('valibot').GenericSchema} payloadSchema
 * @returns {string}
 */
export function renderToolArtifactJsonSchema(artifactSchema, payloadSchema) {
  const generated = toJsonSchema(artifactSchema, {
    target: 'draft-07',
    errorMode: 'throw',
    overrideSchema: (context) =>
      // The payload gate is a runtime check (plain object or array); in JSON every object is plain.
      context.valibotSchema === payloadSchema
        ? { anyOf: [{ type: 'object' }, { type: 'array' }] }
        : undefined,
  });
  const { $schema, ...rest } = generated;
  const document = {
    $schema,
    $id: 'urn:codeagent:schema:tool-artifact:v1',
    title: 'codeagent tool artifact',
    description:
      'A versioned, UI-agnostic tool-result artifact (any valid version; v1 producers emit version 1). ' +
      'Generated from the valibot ToolArtifactSchema of @codeagent/artifact-schema; do not edit by hand.',
    ...rest,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { ToolArtifactSchema, ArtifactPayloadSchema } = await import('../dist/index.js');
  writeFileSync(JSON_SCHEMA_FILE, renderToolArtifactJsonSchema(ToolArtifactSchema, ArtifactPayloadSchema));
  console.log(`wrote ${JSON_SCHEMA_FILE}`);
}
