// The agent side of the latency bench: `serveAcp` over this process's stdio, model from argv[2] (base URL).
import { createClient } from '@codeagent/agent-core';
import { createModel } from '@codeagent/providers';
import { serveAcp } from '../dist/index.js';

const model = createModel({ provider: 'openai-compatible', baseURL: process.argv[2], model: 'bench' }).model;
await serveAcp(
  {
    skills: false,
    log: (line) => process.stderr.write(`${line}\n`),
    createSession: ({ cwd }) => ({ client: createClient({ model, cwd, skills: false }) }),
  },
  { input: process.stdin, output: process.stdout },
);
process.exit(0);
