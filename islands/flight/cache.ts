// Where FlightSearch keeps the search it shows (sessionStorage), so the
// confirm page can read and drop it without loading the search island.

export const storageKey = 'voyage.flight.search';

// CachedSearch is the part of the kept search others read: the settlement
// currency its prices are in and the login session it belongs to.
export type CachedSearch = { currency: string; sessionKey: string };

export function readCachedSearch(): CachedSearch | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<CachedSearch> | null;
    if (!s || typeof s !== 'object') return null;
    return { currency: String(s.currency ?? ''), sessionKey: String(s.sessionKey ?? '') };
  } catch {
    return null;
  }
}

export function clearCachedSearch(): void {
  try {
    window.sessionStorage.removeItem(storageKey);
  } catch {
    // Storage refused: nothing was kept either.
  }
}
