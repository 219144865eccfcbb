#!/usr/bin/env node
/** Placeholder entry until the CLI lands. */
process.stdout.write('codeagent: not yet built\n');
