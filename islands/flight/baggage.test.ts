import { describe, expect, it } from 'vitest';
import { baggageText } from './SolutionCard';

// t answers the key and its values, so the test reads which rule applied.
const t = ((key: string, o?: Record<string, unknown>) => (o ? `${key} ${JSON.stringify(o)}` : key)) as Parameters<typeof baggageText>[0];

describe('baggageText', () => {
  it.each([
    ['pieces of a weight', { checkedPieces: 2, checkedKg: 23, cabinPieces: 1, cabinKg: 7 }, ['flight.baggage.checkedKg', 'flight.baggage.cabinKg']],
    ['pieces alone', { checkedPieces: 1, checkedKg: 0, cabinPieces: 0, cabinKg: 0 }, ['flight.baggage.checked ']],
    ['a weight alone (a weight-concept fare) is an allowance', { checkedPieces: 0, checkedKg: 40, cabinPieces: 0, cabinKg: 5 },
      ['flight.baggage.checkedWeight {"kg":40}', 'flight.baggage.cabinWeight {"kg":5}']],
    ['nothing checked', { checkedPieces: 0, checkedKg: 0, cabinPieces: 1, cabinKg: 0 }, ['flight.baggage.noChecked', 'flight.baggage.cabin ']],
  ])('%s', (_name, baggage, want) => {
    const text = baggageText(t, { baggage } as Parameters<typeof baggageText>[1]);
    for (const w of want) expect(text).toContain(w);
    if (baggage.checkedKg && !baggage.checkedPieces) expect(text).not.toContain('noChecked');
  });
});
