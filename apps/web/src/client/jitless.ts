// Imported first: zod (inside the AI SDK) probes `new Function` when its schemas are built; under our CSP that
// probe is blocked and reported as a violation. Jitless mode skips the probe (and never evaluates code).
import { config } from 'zod';

config({ jitless: true });
