import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_KINDS,
  ArtifactPayloadSchema,
  TOOL_ARTIFACT_SCHEMA,
  TOOL_ARTIFACT_VERSION,
  ToolArtifactSchema,
} from '../src/index.js';
import { snapshotArtifact } from '../src/internal/artifact.js';
import { JSON_SCHEMA_FILE, renderToolArtifactJsonSchema } from '../scripts/json-schema.mjs';

const valid = {
  schema: TOOL_ARTIFACT_SCHEMA,
  version: 1,
  kind: 'text',
  status: 'success',
  icon: null,
  title: null,
  payload: { text: 'x' },
};

describe('committed JSON Schema', () => {
  it('is in sync with the valibot schema (regenerate with `pnpm generate:json-schema`)', () => {
    const committed = readFileSync(JSON_SCHEMA_FILE, 'utf8');
    expect(committed).toBe(renderToolArtifactJsonSchema(ToolArtifactSchema, ArtifactPayloadSchema));
  });

  it('states the protocol constants, the seven required fields and tolerance for extra fields', () => {
    const doc = JSON.parse(readFileSync(JSON_SCHEMA_FILE, 'utf8')) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties?: unknown;
    };
    expect(doc.required).toEqual(['schema', 'version', 'kind', 'status', 'icon', 'title', 'payload']);
    expect(doc.properties.schema).toEqual({ const: 'codeagent.tool-artifact' });
    expect(doc.properties.version).toEqual({ type: 'integer', minimum: 1 });
    expect(doc.properties.kind).toEqual({ type: 'string', minLength: 1 });
    expect(doc.properties.payload).toEqual({ anyOf: [{ type: 'object' }, { type: 'array' }] });
    expect(doc.additionalProperties).toBeUndefined();
  });
});

describe('ToolArtifactSchema', () => {
  it('pins the protocol constants', () => {
    expect(TOOL_ARTIFACT_SCHEMA).toBe('codeagent.tool-artifact');
    expect(TOOL_ARTIFACT_VERSION).toBe(1);
    expect(ARTIFACT_KINDS).toEqual(['text', 'table', 'image', 'code', 'diff', 'error']);
    expect(Object.isFrozen(ARTIFACT_KINDS)).toBe(true);
  });

  it('parses to the seven fields in contract order, dropping unknown top-level keys', () => {
    const parsed = v.parse(ToolArtifactSchema, { extra: 1, ...valid });
    expect(Object.keys(parsed)).toEqual(['schema', 'version', 'kind', 'status', 'icon', 'title', 'payload']);
  });

  it.each([
    ['version 1.0 counts as 1', { version: 1.0 }, true],
    ['version "1"', { version: '1' }, false],
    ['version 1.5', { version: 1.5 }, false],
    ['version 0', { version: 0 }, false],
    ['version -1', { version: -1 }, false],
    ['version [1]', { version: [1] }, false],
    ['version NaN', { version: Number.NaN }, false],
    ['version Infinity', { version: Number.POSITIVE_INFINITY }, false],
    ['unknown kind', { kind: 'chart' }, true],
    ['payload Date', { payload: new Date(0) }, false],
    ['payload Map', { payload: new Map() }, false],
    ['payload class instance', { payload: new (class P {})() }, false],
    ['payload null-prototype object', { payload: Object.create(null) }, true],
    ['payload array', { payload: [] }, true],
  ])('%s (fast path agrees)', (_name, patch, expected) => {
    const candidate = { ...valid, ...patch };
    expect(v.is(ToolArtifactSchema, candidate)).toBe(expected);
    expect(snapshotArtifact(candidate) !== null).toBe(expected);
  });
});
