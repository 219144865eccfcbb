import type { GenericSchema } from 'valibot';

/** Where the generated schema is committed. */
export declare const JSON_SCHEMA_FILE: string;

/** Renders the JSON Schema text for the given valibot artifact and payload schemas. */
export declare function renderToolArtifactJsonSchema(
  artifactSchema: GenericSchema,
  payloadSchema: GenericSchema,
): string;
