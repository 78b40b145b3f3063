// Keeps the home page's own code in one chunk. Left alone, rolldown gives every module that the
// entry shares with a lazily loaded page a chunk of its own (the clock, the money formatter, the
// countdown...): 15 files of a few hundred bytes on the first load, each one more request and
// round of module loading. This plugin finds the modules the entry imports statically (what the
// first load must fetch anyway) and a code-splitting group puts them in one `shell` chunk; the
// lazy pages import from it. Nothing moves into the first load that was not already in it.

import type { Plugin } from 'vite';

export interface ShellChunk {
  plugin: Plugin;
  /** For a code-splitting group's `test`: is this module part of the first load? */
  isShellModule: (id: string) => boolean;
}

export function shellChunk(): ShellChunk {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'shell-chunk',
    apply: 'build',
    buildEnd() {
      shell.clear();
      const queue = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      while (queue.length > 0) {
        const id = queue.pop() as string;
        if (shell.has(id)) continue;
        shell.add(id);
        // Static imports only: what import() loads later stays in its own chunks.
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) queue.push(next);
      }
    },
  };
  return { plugin, isShellModule: (id) => shell.has(id) };
}
