import { describe, expect, test } from 'vitest';
import { detectLanguage } from '../src/index.js';

describe('detectLanguage', () => {
  test('by language name (case-insensitive aliases)', () => {
    expect(detectLanguage('TS')).toBe('typescript');
    expect(detectLanguage('bash')).toBe('shell');
    expect(detectLanguage('py')).toBe('python');
    expect(detectLanguage('R')).toBe('r');
  });
  test('by file extension when the language is missing or unknown', () => {
    expect(detectLanguage(undefined, 'src/main.rs')).toBe('rust');
    expect(detectLanguage('cobol', 'x.go')).toBe('go');
    expect(detectLanguage(undefined, 'README')).toBeNull();
    expect(detectLanguage(42, 7)).toBeNull();
  });
});
