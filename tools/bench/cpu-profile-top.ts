// The functions a V8 CPU profile (.cpuprofile, from node --cpu-prof) spent its samples in: self time
// and total time (self plus callees) per function, the largest first.
// Usage: node -r ./tools/register.js tools/bench/cpu-profile-top.ts <file.cpuprofile> [--top 25]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
const file = positionals[0];
if (file === undefined) {
  process.stderr.write('usage: cpu-profile-top.ts <file.cpuprofile> [--top N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode): string => {
  const url = n.callFrame.url.replace(/^.*\/(apps|libs|node_modules)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  all += ms;
  const leaf = byId.get(id)!;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + ms);
  // Each function on the stack once, however deep its recursion.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = label(byId.get(at)!);
    if (seen.has(name)) continue;
    seen.add(name);
    total.set(name, (total.get(name) ?? 0) + ms);
  }
});
const top = Number(values.top);
const table = (title: string, m: Map<string, number>): void => {
  process.stdout.write(`\n${title} (of ${(all / 1000).toFixed(1)} s sampled)\n`);
  for (const [name, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(
      `${(ms / 1000).toFixed(1).padStart(8)} s ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${name}\n`,
    );
};
table('self time', self);
table('total time', total);
