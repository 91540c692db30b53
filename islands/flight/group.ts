// Grouping of a results page: solutions that fly the same outbound (the
// same flights at the same times) show once, with their other returns and
// fares folded under it. The server gathers each group onto one page
// (groupBy 'outbound'); the page's order holds: a group stands where its
// first solution stood, and its solutions keep their order inside it.
import type { Solution } from './types';

export type SolutionGroup = { key: string; items: Solution[] };

// outboundKey names a solution's first journey by its flights and times,
// as the server groups them: a departure is its instant, however a
// supplier wrote its zone.
export function outboundKey(s: Solution): string {
  const j = s.journeys[0];
  const segs = j ? (j.segments || []).map((i) => s.segments[i]).filter(Boolean) : s.segments;
  return segs.map((g) => `${g.carrier}${g.flightNumber}@${Date.parse(g.departAt) || g.departAt}`).join('+');
}

export function groupSolutions(items: Solution[]): SolutionGroup[] {
  const groups: SolutionGroup[] = [];
  const byKey = new Map<string, SolutionGroup>();
  for (const s of items) {
    const key = outboundKey(s);
    const g = byKey.get(key);
    if (g) {
      g.items.push(s);
      continue;
    }
    const ng = { key, items: [s] };
    byKey.set(key, ng);
    groups.push(ng);
  }
  return groups;
}
