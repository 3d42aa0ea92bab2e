// Players' ratings at a table. They are not part of a table view: each profile is
// asked once (`GET /api/user/{name}`, docs/protocol.md) and kept until a rated
// game of the player ends.
import { api } from '../net/api';

interface Profile {
  ratings: Array<{ pool: string; rating: number; provisional: boolean }>;
}

export interface Rating {
  rating: number;
  provisional: boolean;
}

const cache = new Map<string, Promise<Profile | null>>();

function profileOf(name: string): Promise<Profile | null> {
  let p = cache.get(name);
  if (!p) {
    // Computer players (`bot:…`) and hot-seat stand-ins (`hotseat:…`) have no
    // profile (a colon is never in an account's name), nor have guests.
    p = name.includes(':') || /^guest-/i.test(name) ? Promise.resolve(null) : api<Profile>('GET', `/api/user/${encodeURIComponent(name)}`).catch(() => null);
    cache.set(name, p);
  }
  return p;
}

/** Forgets `name`'s ratings (a rated game of theirs ended), or everyone's. */
export function forgetRatings(name?: string): void {
  if (name === undefined) cache.clear();
  else cache.delete(name);
}

/** `name`'s rating in `pool` (the table's, net/pools `poolOf`); 1500? for an
 * account without one there; null for no account. */
export async function ratingOf(name: string, pool: string): Promise<Rating | null> {
  const profile = await profileOf(name);
  if (!profile) return null;
  const r = profile.ratings.find((x) => x.pool === pool);
  return r ? { rating: r.rating, provisional: r.provisional } : { rating: 1500, provisional: true };
}
