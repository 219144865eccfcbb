import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary project + home directory pair, removed by `cleanup`. */
export interface TempTree {
  root: string;
  cwd: string;
  home: string;
  write(rel: string, content: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeTree(): Promise<TempTree> {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-skills-'));
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  return {
    root,
    cwd,
    home,
    async write(rel, content) {
      const path = join(root, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function skillMd(name: string, description: string, body = `Body of ${name}.\n`, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}`;
}
